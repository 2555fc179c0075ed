"""``google-generative-ai``: pi-ai's parameters through ``google-genai``'s ``generate_content_stream``.

The body :mod:`forgec.emit` builds for this API is not an HTTP body: it is what pi-ai hands the
``@google/genai`` SDK, ``{model, contents, config}``.  So the SDK is called exactly as pi-ai calls
it -- ``client.models.generate_content_stream(model=…, contents=…, config=…)`` with the client's
``HttpOptions(base_url=<baseUrl>, api_version="")`` (the catalog's ``baseUrl`` already ends in the
version, as pi-ai assumes) -- and the SDK turns the parameters into the REST body of
``POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse``: ``contents`` as they are,
``systemInstruction`` as a content, ``tools``/``toolConfig`` moved to the top, the other ``config``
fields under ``generationConfig``.  What the server receives is that conversion of the compile's
parameters, nothing added or lost (``tests/execute/transport`` states the mapping and checks it).

Two client-side options are added to ``config``, neither of which reaches the HTTP body:
``automatic_continuation=False`` (else the SDK re-sends the request to resume a dropped or
continued stream: a retry) and automatic function calling disabled (the declarations are data;
nothing is called).  Retries are off (``HttpRetryOptions(attempts=1)``), the client is told it is
not Vertex AI, and it always gets the call's key, so it reads neither ``GOOGLE_API_KEY`` nor
``GEMINI_API_KEY`` nor ``GOOGLE_GENAI_USE_VERTEXAI``.  A keyless model still sends a placeholder
``x-goog-api-key`` (the SDK builds no model URL without a key).
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

__all__ = ["feed", "stream"]

API: Final = "google-generative-ai"
#: finish reasons that end a normal answer; any other one is reported as a warning
_NORMAL: Final = frozenset({"STOP", "MAX_TOKENS"})


def _params(genai: ModuleType, call: ProviderCall) -> tuple[str, Any, Any]:
    """``model``, ``contents`` and the typed ``config`` of pi-ai's parameters (the SDK validates
    ``config``; a field it does not know is a failure before anything is sent)."""
    body = call.body
    model, contents, config = body.get("model", call.model), body.get("contents"), body.get("config")
    if not isinstance(model, str) or not isinstance(contents, list) or not isinstance(config, dict | None):
        raise ProviderFailure("transport", "The google-generative-ai parameters are not {model, contents, config}.")
    try:
        typed = genai.types.GenerateContentConfig.model_validate(config or {})
        for content in contents:  # validated here so a refusal is told apart from a bad response
            genai.types.Content.model_validate(content)
    except ValueError as error:  # pydantic's ValidationError
        raise ProviderFailure(
            "transport", f"The google-genai SDK cannot send these parameters (nothing was sent): {_first_line(error)}"
        ) from None
    typed = typed.model_copy(update={
        "automatic_continuation": False,
        "automatic_function_calling": genai.types.AutomaticFunctionCallingConfig(disable=True),
    })  # fmt: skip
    return model, contents, typed


def _client(genai: ModuleType, call: ProviderCall) -> Any:
    key, _native, custom = client_credentials(call)
    headers = {**call.headers, **custom}
    options = genai.types.HttpOptions(
        base_url=call.base_url,
        api_version="",
        headers=headers,
        timeout=max(1, round(call.timeout_s * 1000)),
        retry_options=genai.types.HttpRetryOptions(attempts=1),
    )
    return genai.Client(vertexai=False, api_key=key, http_options=options)


@contextmanager
def _chunks(call: ProviderCall, channel: Channel) -> Iterator[Iterator[Any]]:
    genai = require_sdk("google.genai", "google-genai", API)
    errors = require_sdk("google.genai.errors", "google-genai", API)
    timeouts, http_failures = http_errors()
    try:
        model, contents, config = _params(genai, call)
        client = _client(genai, call)
        with client:
            if channel.stopped:  # the caller gave up while the client was being made: send nothing
                yield iter(())
                return
            chunks = client.models.generate_content_stream(model=model, contents=contents, config=config)
            try:
                yield chunks
            finally:
                chunks.close()
    except errors.APIError as error:
        status = error.code if isinstance(error.code, int) else None
        message = provider_message(error.details, error.message or f"HTTP {status}")
        raise ProviderFailure("http" if status else "transport", message, status) from None
    except timeouts:
        raise ProviderFailure("timeout", f"The provider did not answer within {call.timeout_s:g} s.") from None
    except http_failures as error:
        raise ProviderFailure("transport", f"The connection failed: {error}") from None
    except ValueError as error:  # undecodable JSON, or a chunk the SDK's types refuse (pydantic)
        raise ProviderFailure("transport", f"Malformed response from the provider: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    """A one-line account of a parse or validation error (pydantic's: where, and what is wrong)."""
    details = getattr(error, "errors", None)
    if callable(details):
        found = details()
        if found and isinstance(found[0], dict):
            where = ".".join(str(part) for part in found[0].get("loc", ()))
            return f"{where}: {found[0].get('msg', 'invalid')}" if where else str(found[0].get("msg", "invalid"))
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _raw(chunk: Any) -> Any:
    """The chunk as the API's JSON (camelCase), as the SDK parsed it."""
    dump = getattr(chunk, "model_dump", None)
    if dump is None:
        return chunk
    return dump(mode="json", by_alias=True, exclude_none=True, exclude={"sdk_http_response"})


def feed(event: Any, state: StreamState, text: Callable[[str], None]) -> None:
    """One ``GenerateContentResponse`` (as JSON): the first candidate's non-thought text, its
    finish reason and function calls, the usage metadata, a blocked prompt."""
    if not isinstance(event, dict):
        raise malformed("a stream chunk is not an object")
    candidates = event.get("candidates") or []
    if not isinstance(candidates, list):
        raise malformed("`candidates` is not an array")
    if candidates:
        candidate = candidates[0]
        if not isinstance(candidate, dict):
            raise malformed("a candidate is not an object")
        content = candidate.get("content") or {}
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts or []:
            if not isinstance(part, dict):
                raise malformed("a content part is not an object")
            call = part.get("functionCall")
            if isinstance(call, dict):
                state.saw_tool_call(call.get("name"))
            piece = part.get("text")
            if isinstance(piece, str) and not part.get("thought"):
                text(piece)
        finish = candidate.get("finishReason")
        if isinstance(finish, str) and finish:
            state.stop_reason, state.complete = finish, True
            state.length_stop = finish == "MAX_TOKENS"
            if finish not in _NORMAL:
                state.warnings.append(f"The provider stopped the answer ({finish}).")
    feedback = event.get("promptFeedback")
    if isinstance(feedback, dict) and isinstance(feedback.get("blockReason"), str):
        state.stop_reason, state.complete = feedback["blockReason"], True
        state.warnings.append(f"The provider blocked the prompt ({feedback['blockReason']}).")
    usage = event.get("usageMetadata")
    if isinstance(usage, dict):
        output = sum(v for v in (usage.get("candidatesTokenCount"), usage.get("thoughtsTokenCount")) if isinstance(v, int))
        state.usage = Usage.of(usage.get("promptTokenCount"), output, usage.get("totalTokenCount"))


def stream(call: ProviderCall, channel: Channel) -> StreamState:
    """Send ``call`` and read its ``streamGenerateContent`` chunks to the end (or until the caller stops)."""
    state = StreamState()
    with _chunks(call, channel) as chunks:
        for chunk in chunks:
            event = _raw(chunk)
            channel.event(event)
            feed(event, state, channel.text)
            if channel.stopped:
                break
    return state
