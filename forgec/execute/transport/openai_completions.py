"""``openai-completions``: the body through the ``openai`` SDK to ``POST {baseUrl}/chat/completions``.

The body goes through the SDK's generic request method, ``client.post(path, body=…, stream=True)``
(the SDK's documented way to call a route with a body of one's own), not through
``client.chat.completions.create(**body)``: ``create`` takes only the parameters its version knows
(pi-ai adds OpenRouter's ``reasoning``, which it does not) and runs each through its typed
transform, so it can refuse a body or change it.  ``post`` hands the dict to the SDK's JSON
encoder unchanged, and everything else -- base URL, authentication, headers, timeout, SSE
decoding, error classes -- is still the SDK's.  The parsed JSON the server receives therefore
equals the body ``forgec compile`` prints.

Clients are made with ``max_retries=0`` (one request, no retries), the call's API key (so the SDK
never reads ``OPENAI_API_KEY``), and without the ``OpenAI-Organization``/``OpenAI-Project`` headers
the SDK would otherwise fill from the environment for any endpoint, a third party's too.
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
    http_errors,
    malformed,
    provider_message,
    require_sdk,
)

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["PATH", "feed", "open_stream", "stream"]

PATH: Final = "/chat/completions"
_ENV_HEADERS: Final = ("OpenAI-Organization", "OpenAI-Project")


def _client(openai: ModuleType, call: ProviderCall) -> tuple[Any, dict[str, Any]]:
    """The SDK client for ``call`` and the per-request headers that complete its authentication."""
    key, native, custom = client_credentials(call)
    headers: dict[str, Any] = {name: openai.Omit() for name in _ENV_HEADERS}
    headers.update(call.headers)
    if not native:
        headers["Authorization"] = openai.Omit()
    headers.update(custom)
    client = openai.OpenAI(
        api_key=key,
        base_url=call.base_url,
        timeout=call.timeout_s,
        max_retries=0,
    )
    return client, headers


@contextmanager
def open_stream(call: ProviderCall, path: str, api: str, channel: Channel) -> Iterator[Iterator[Any]]:
    """The events of ``POST {base_url}{path}`` with ``call.body``, each as the parsed JSON of its
    ``data:`` line; SDK and HTTP failures are raised as :class:`ProviderFailure`.  Nothing is sent
    when the caller gave up while the client was being made."""
    openai = require_sdk("openai", "openai", api)
    timeouts, http_failures = http_errors()
    client, headers = _client(openai, call)
    try:
        with client:
            if channel.stopped:
                yield iter(())
                return
            events = client.post(
                path,
                cast_to=object,
                body=dict(call.body),
                options={"headers": headers, "security": {"bearer_auth": True}},
                stream=True,
                stream_cls=openai.Stream[object],
            )
            with events:
                yield iter(events)
    except openai.APIStatusError as error:
        status = error.status_code
        raise ProviderFailure("http", provider_message(error.body, f"HTTP {status}"), status) from None
    except (openai.APITimeoutError, *timeouts):
        raise ProviderFailure("timeout", f"The provider did not answer within {call.timeout_s:g} s.") from None
    except openai.APIConnectionError as error:
        raise ProviderFailure("transport", f"Cannot reach the provider: {_cause(error)}") from None
    except openai.APIError as error:  # an error object inside a 200 stream
        raise ProviderFailure("transport", f"The provider reported an error in the stream: {error.message}") from None
    except http_failures as error:
        raise ProviderFailure("transport", f"The connection failed: {error}") from None
    except ValueError as error:  # undecodable JSON in a ``data:`` line
        raise ProviderFailure("transport", f"Malformed response from the provider: {error}") from None


def _cause(error: BaseException) -> str:
    cause = error.__cause__
    return f"{error} ({cause})" if cause is not None and str(cause) else str(error)


def feed(event: Any, state: StreamState, text: Callable[[str], None]) -> None:
    """One ``chat.completion.chunk``: its first choice's text, finish reason and tool calls, and
    the usage chunk (``stream_options.include_usage``)."""
    if not isinstance(event, dict):
        raise malformed(f"a stream chunk is {type(event).__name__}, not an object")
    choices = event.get("choices")
    if choices is not None and not isinstance(choices, list):
        raise malformed("`choices` is not an array")
    for choice in choices or []:
        if not isinstance(choice, dict):
            raise malformed("a choice is not an object")
        if choice.get("index", 0) != 0:
            continue
        delta = choice.get("delta") or {}
        if not isinstance(delta, dict):
            raise malformed("a choice's `delta` is not an object")
        content = delta.get("content")
        if isinstance(content, str):
            text(content)
        elif content is not None:
            raise malformed("`delta.content` is not a string")
        for call in delta.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            state.saw_tool_call(function.get("name") if isinstance(function, dict) else None)
        finish = choice.get("finish_reason")
        if isinstance(finish, str) and finish:
            state.stop_reason, state.complete = finish, True
            state.length_stop = finish == "length"
    usage = event.get("usage")
    if isinstance(usage, dict):
        state.usage = Usage.of(usage.get("prompt_tokens"), usage.get("completion_tokens"), usage.get("total_tokens"))


def stream(call: ProviderCall, channel: Channel) -> StreamState:
    """Send ``call`` and read its Chat Completions stream to the end (or until the caller stops)."""
    state = StreamState()
    with open_stream(call, PATH, "openai-completions", channel) as events:
        for event in events:
            channel.event(event)
            feed(event, state, channel.text)
            if channel.stopped:
                break
    return state
