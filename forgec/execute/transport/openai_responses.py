"""``openai-responses``: the body through the ``openai`` SDK to ``POST {baseUrl}/responses``.

The same path as :mod:`.openai_completions` (the SDK's generic ``client.post`` with the body
unchanged, rather than ``client.responses.create(**body)`` and its typed transform), reading the
Responses API's typed events: text from ``response.output_text.delta``, the end and the usage from
``response.completed`` / ``response.incomplete``, a failure from ``response.failed`` or ``error``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from forgec.execute.transport.common import (
    Channel,
    ProviderCall,
    ProviderFailure,
    StreamState,
    Usage,
    event_type,
    malformed,
)
from forgec.execute.transport.openai_completions import open_stream

__all__ = ["PATH", "feed", "stream"]

PATH: Final = "/responses"
#: ``incomplete_details.reason`` when the output-token cap stopped the response
_LENGTH: Final = "max_output_tokens"


def _error_message(error: Any) -> str:
    if isinstance(error, dict):
        message, code = error.get("message"), error.get("code")
        text = message if isinstance(message, str) and message else "no message"
        return f"{text} ({code})" if isinstance(code, str) and code else text
    return "no message"


def feed(event: Any, state: StreamState, text: Callable[[str], None]) -> None:
    """One typed Responses event (``{"type": "response.…", …}``)."""
    kind = event_type(event)
    if kind == "response.output_text.delta":
        delta = event.get("delta")
        if not isinstance(delta, str):
            raise malformed("`response.output_text.delta` has no text `delta`")
        text(delta)
    elif kind == "response.output_item.added":
        item = event.get("item")
        if isinstance(item, dict) and item.get("type") == "function_call":
            state.saw_tool_call(item.get("name"))
    elif kind in ("response.completed", "response.incomplete"):
        response = event.get("response")
        if not isinstance(response, dict):
            raise malformed(f"`{kind}` has no `response` object")
        usage = response.get("usage")
        if isinstance(usage, dict):
            state.usage = Usage.of(usage.get("input_tokens"), usage.get("output_tokens"), usage.get("total_tokens"))
        state.complete = True
        if kind == "response.completed":
            state.stop_reason = str(response.get("status") or "completed")
        else:
            details = response.get("incomplete_details")
            reason = details.get("reason") if isinstance(details, dict) else None
            state.stop_reason = reason if isinstance(reason, str) and reason else "incomplete"
            state.length_stop = reason == _LENGTH
            if not state.length_stop:
                state.warnings.append(f"The provider returned an incomplete response ({state.stop_reason}).")
    elif kind == "response.failed":
        response = event.get("response")
        error = response.get("error") if isinstance(response, dict) else None
        raise ProviderFailure("transport", f"The provider reported a failed response: {_error_message(error)}")
    elif kind == "error":
        raise ProviderFailure("transport", f"The provider reported an error in the stream: {_error_message(event)}")


def stream(call: ProviderCall, channel: Channel) -> StreamState:
    """Send ``call`` and read its Responses event stream to the end (or until the caller stops)."""
    state = StreamState()
    with open_stream(call, PATH, "openai-responses", channel) as events:
        for event in events:
            channel.event(event)
            feed(event, state, channel.text)
            if state.complete or channel.stopped:
                break
    return state
