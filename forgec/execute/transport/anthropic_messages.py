"""``anthropic-messages``: the body through the ``anthropic`` SDK to ``POST {baseUrl}/v1/messages``.

As for OpenAI, the body goes through the SDK's generic ``client.post("/v1/messages", body=…,
stream=True)``, not ``client.messages.create(**body)`` or ``client.messages.stream(…)``: those
take only the parameters the installed SDK version declares (a version without ``temperature``
refuses pi-ai's body) and ``stream()`` also sets ``stream`` itself and accumulates a message of its
own.  ``post`` sends the dict as it is; authentication, ``anthropic-version``, timeouts, SSE
decoding (``ping`` skipped, an ``error`` event raised) and the error classes remain the SDK's.

The client always gets an explicit credential (the call's key, or a placeholder whose header is
omitted), so the SDK never looks for ``ANTHROPIC_API_KEY``, ``ANTHROPIC_AUTH_TOKEN``, a profile
or workload-identity files of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from forgec.execute.transport.common import (
    Channel,
    ProviderCall,
    ProviderFailure,
    StreamState,
    Usage,
    client_credentials,
    event_type,
    http_errors,
    malformed,
    provider_message,
    require_sdk,
)

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["PATH", "feed", "stream"]

API: Final = "anthropic-messages"
PATH: Final = "/v1/messages"
#: headers the SDK authenticates with: one of them carries the key, both are omitted without one
_AUTH_HEADERS: Final = ("Authorization", "X-Api-Key")


def _client(anthropic: ModuleType, call: ProviderCall) -> tuple[Any, dict[str, Any]]:
    key, native, custom = client_credentials(call)
    headers: dict[str, Any] = dict(call.headers)
    if not native:
        headers.update({name: anthropic.Omit() for name in _AUTH_HEADERS})
    headers.update(custom)
    client = anthropic.Anthropic(
        api_key=key,
        base_url=call.base_url,
        timeout=call.timeout_s,
        max_retries=0,
    )
    return client, headers


@contextmanager
def _events(call: ProviderCall, channel: Channel) -> Iterator[Iterator[Any]]:
    anthropic = require_sdk("anthropic", "anthropic", API)
    timeouts, http_failures = http_errors()
    client, headers = _client(anthropic, call)
    try:
        with client:
            if channel.stopped:  # the caller gave up while the client was being made: send nothing
                yield iter(())
                return
            events = client.post(
                PATH,
                cast_to=object,
                body=dict(call.body),
                options={"headers": headers, "timeout": call.timeout_s},
                stream=True,
                stream_cls=anthropic.Stream[object],
            )
            with events:
                yield iter(events)
    except anthropic.APIStatusError as error:
        status = error.status_code
        message = provider_message(error.body, f"HTTP {status}")
        if status < 400:  # an ``event: error`` inside a 200 stream
            raise ProviderFailure("transport", f"The provider reported an error in the stream: {message}") from None
        raise ProviderFailure("http", message, status) from None
    except (anthropic.APITimeoutError, *timeouts):
        raise ProviderFailure("timeout", f"The provider did not answer within {call.timeout_s:g} s.") from None
    except anthropic.APIConnectionError as error:
        raise ProviderFailure("transport", f"Cannot reach the provider: {error}") from None
    except anthropic.AnthropicError as error:
        raise ProviderFailure("transport", f"The SDK could not complete the request: {error}") from None
    except http_failures as error:
        raise ProviderFailure("transport", f"The connection failed: {error}") from None
    except ValueError as error:  # undecodable JSON in a ``data:`` line
        raise ProviderFailure("transport", f"Malformed response from the provider: {error}") from None


def _usage(usage: Any, state: StreamState) -> None:
    """``message_start`` carries the input count, ``message_delta`` the running output count (and,
    in newer API versions, the input count again); the prompt is the uncached plus the cached part."""
    if not isinstance(usage, dict):
        return
    before = state.usage or Usage(0, 0, 0)
    prompt = [usage.get(k) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
    if any(isinstance(v, int) for v in prompt):
        total_in = sum(v for v in prompt if isinstance(v, int) and not isinstance(v, bool) and v >= 0)
    else:
        total_in = before.input
    output = usage.get("output_tokens")
    state.usage = Usage.of(total_in, output if isinstance(output, int) else before.output)


def feed(event: Any, state: StreamState, text: Callable[[str], None]) -> None:
    """One Messages stream event (``message_start``, ``content_block_*``, ``message_delta``, ``message_stop``)."""
    kind = event_type(event)
    if kind == "message_start":
        message = event.get("message")
        if not isinstance(message, dict):
            raise malformed("`message_start` has no `message` object")
        _usage(message.get("usage"), state)
    elif kind == "content_block_start":
        block = event.get("content_block")
        if isinstance(block, dict) and block.get("type") == "tool_use":
            state.saw_tool_call(block.get("name"))
    elif kind == "content_block_delta":
        delta = event.get("delta")
        if not isinstance(delta, dict):
            raise malformed("`content_block_delta` has no `delta` object")
        if delta.get("type") == "text_delta":
            piece = delta.get("text")
            if not isinstance(piece, str):
                raise malformed("a `text_delta` has no `text`")
            text(piece)
    elif kind == "message_delta":
        delta = event.get("delta")
        reason = delta.get("stop_reason") if isinstance(delta, dict) else None
        if isinstance(reason, str) and reason:
            state.stop_reason = reason
            state.length_stop = reason == "max_tokens"
            if reason == "refusal":
                state.warnings.append("The model refused to answer (stop reason refusal).")
        _usage(event.get("usage"), state)
    elif kind == "message_stop":
        state.complete = True


def stream(call: ProviderCall, channel: Channel) -> StreamState:
    """Send ``call`` and read its Messages event stream to ``message_stop`` (or until the caller stops)."""
    state = StreamState()
    with _events(call, channel) as events:
        for event in events:
            channel.event(event)
            feed(event, state, channel.text)
            if state.complete or channel.stopped:
                break
    return state
