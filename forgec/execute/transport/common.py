"""What every API's transport shares: the call, the outcome, and the one way a call is run.

A call runs its SDK in a worker thread while the caller's thread waits on a queue of what the
stream delivers.  That split is the point of this module: the caller's thread is the one Ctrl-C
reaches, and the one that watches the clock and the ``cancel`` event, so a cancelled or timed-out
call returns at once with what arrived so far, whatever the SDK is blocked in.  The worker is told
to stop and closes its response at the next byte it reads (or when the SDK's own read timeout,
set to the call's timeout, fires); it is a daemon thread, so it never keeps the process alive.
Text is handed to ``on_text`` in the caller's thread, in stream order.

The API modules (:mod:`.openai_completions`, :mod:`.openai_responses`, :mod:`.anthropic_messages`,
:mod:`.google_generative_ai`) only open the stream through their SDK and turn each raw event into
text, a stop reason, usage and tool-call names (:class:`StreamState`); status, duration, scrubbing
and the 4.9 statuses are decided here, once (profiles-exec.md §6.5).

The API key is a value of the call, never of the environment: the SDKs are always handed it
explicitly, so none of them falls back to its own environment variable, and every text an outcome
carries -- messages, events -- has it replaced by ``[redacted]`` (§6.3).
"""

from __future__ import annotations

import importlib
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, Literal

from forgec.errors import ForgecError, UsageError

__all__ = [
    "STATUSES",
    "Channel",
    "MissingSdkError",
    "ProviderCall",
    "ProviderFailure",
    "ProviderOutcome",
    "StreamState",
    "TransportFailure",
    "Usage",
    "http_errors",
    "provider_message",
    "require_sdk",
    "run_call",
    "scrub",
]

#: the response statuses of profiles-exec.md §4.9 a transport can end with
STATUSES: Final = ("completed", "failed", "timed-out", "cancelled", "limit-reached")
Status = Literal["completed", "failed", "timed-out", "cancelled", "limit-reached"]

#: the install hint of every missing-SDK error: the SDKs are the optional ``run`` extra
INSTALL_HINT: Final = "pip install 'forgec[run]'"
REDACTED: Final = "[redacted]"
#: a provider message longer than this is cut: an HTML error page must not flood a terminal
_MESSAGE_LIMIT: Final = 2000
#: how often the caller's thread looks at the ``cancel`` event while nothing arrives
_POLL_S: Final = 0.05
#: the shortest key scrubbed from the model's text (messages are scrubbed of any key)
_SCRUB_TEXT_FROM: Final = 8


class MissingSdkError(ForgecError):
    """The official SDK of the call's API is not installed (an optional extra: ``forgec[run]``)."""


class ProviderFailure(ForgecError):
    """Raised inside an API module when the exchange fails; :func:`run_call` turns it into an outcome.

    ``kind`` is ``"http"`` (the provider answered with an error status), ``"transport"`` (no usable
    answer: connection, protocol, a malformed or cut-off stream, an error reported inside the
    stream) or ``"timeout"`` (the SDK's own timeout fired).
    """

    def __init__(self, kind: Literal["http", "transport", "timeout"], message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status


@dataclass(frozen=True, slots=True)
class ProviderCall:
    """One request to send: where, as whom, and the body exactly as :mod:`forgec.emit` built it.

    ``body`` is the HTTP JSON body for the OpenAI and Anthropic APIs and pi-ai's
    ``{model, contents, config}`` parameters for ``google-generative-ai``.  ``api_key`` is the
    credential's value (``None``: the model needs none); ``auth_header`` names a custom gateway's
    header to send it in instead of the API's own; ``headers`` are the model's extra headers.
    ``timeout_s`` bounds the whole call, measured locally.  ``token_budget`` is the output-token
    budget the run requested (already reflected in the body's cap): with one, a stop at the cap is
    ``limit-reached``; without, it is ``completed`` with a warning.
    """

    api: str
    base_url: str
    model: str
    body: Mapping[str, Any]
    api_key: str | None = field(default=None, repr=False)
    auth_header: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 600.0
    token_budget: int | None = None

    def __post_init__(self) -> None:
        if not (self.timeout_s > 0):
            raise UsageError(f"timeout_s must be positive, not {self.timeout_s!r}")


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage as §4.9 records it: ``total`` is never below ``input + output``."""

    input: int
    output: int
    total: int

    @classmethod
    def of(cls, input_tokens: Any, output_tokens: Any, total: Any = None) -> Usage:
        """From a provider's counts, of which any may be missing or not a count (taken as 0)."""
        i, o = _count(input_tokens), _count(output_tokens)
        return cls(i, o, max(_count(total), i + o))

    def to_json(self) -> dict[str, int]:
        return {"input": self.input, "output": self.output, "total": self.total}


@dataclass(frozen=True, slots=True)
class TransportFailure:
    """The ``error`` of a failed outcome: ``http.<status>`` or ``transport``, and a message."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class ProviderOutcome:
    """What came of one call, normalised (§6.5) into the statuses of §4.9.

    ``text`` is what the model wrote (for any status but ``completed``, what arrived before the
    end: ``partial``).  ``stop_reason`` is the provider's own word (``stop``, ``end_turn``,
    ``MAX_TOKENS``, ``max_output_tokens``…).  ``reason`` is set for ``cancelled`` and
    ``timed-out``; ``enforced_timeout_ms`` for ``timed-out``; ``reached_limit`` (``tokenBudget``)
    for ``limit-reached``; ``error`` for ``failed``.  ``events`` are the provider's stream events as
    parsed JSON, for a capture (§5 redaction is the capturer's job; the API key is already gone).
    ``interrupted``: the caller's thread got Ctrl-C (the caller decides whether to exit 130).
    """

    status: Status
    text: str
    duration_ms: int
    stop_reason: str | None = None
    usage: Usage | None = None
    error: TransportFailure | None = None
    reason: str | None = None
    enforced_timeout_ms: int | None = None
    reached_limit: str | None = None
    warnings: tuple[str, ...] = ()
    tool_calls: tuple[str, ...] = ()
    events: tuple[Any, ...] = ()
    interrupted: bool = False

    @property
    def partial(self) -> bool:
        return self.status != "completed"

    def to_json(self) -> dict[str, Any]:
        """The response fields §4.9 validates (``status``, ``output``, ``usage``, ``durationMs`` and
        the status's own fields), plus ``stopReason`` and ``warnings`` for the reader."""
        out: dict[str, Any] = {
            "status": self.status,
            "output": {"text": self.text, "partial": self.partial},
            "durationMs": self.duration_ms,
        }
        if self.usage is not None:
            out["usage"] = {"tokens": self.usage.to_json()}
        if self.error is not None:
            out["error"] = self.error.to_json()
        if self.reason is not None:
            out["reason"] = self.reason
        if self.enforced_timeout_ms is not None:
            out["enforcedTimeoutMs"] = self.enforced_timeout_ms
        if self.reached_limit is not None:
            out["reachedLimit"] = self.reached_limit
        if self.stop_reason is not None:
            out["stopReason"] = self.stop_reason
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out


#: the key given to an SDK client when the call's key travels in another header (or there is none):
#: never sent, since every header the SDK would put it in is omitted
NO_KEY: Final = "forgec-no-key"


def client_credentials(call: ProviderCall) -> tuple[str, bool, dict[str, str]]:
    """The key for the SDK client, whether the SDK sends it itself, and the custom auth header.

    A key in the API's own header is the SDK's job (*native*).  Otherwise the caller omits the SDK's
    own auth headers (each SDK names them differently) after the model's headers, and then applies
    the returned one: a custom gateway's ``auth_header`` carrying the key (empty without a key).
    """
    native = call.api_key is not None and call.auth_header is None
    custom = {call.auth_header: call.api_key} if call.api_key is not None and call.auth_header is not None else {}
    return (call.api_key if native and call.api_key is not None else NO_KEY), native, custom


def malformed(what: str) -> ProviderFailure:
    """The failure of an event that is valid JSON but not what the API sends."""
    return ProviderFailure("transport", f"Malformed response from the provider: {what}")


def event_type(event: Any) -> str:
    """The ``type`` of a typed stream event (Messages, Responses); malformed without one."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise malformed("a stream event is not an object with a `type`")
    return str(event["type"])


@dataclass(slots=True)
class StreamState:
    """What an API module learned from the stream once it ended normally.

    ``length_stop``: the provider stopped at the output-token cap.  ``complete``: the stream said
    it was done (a cut-off stream is a failure, not a short answer).
    """

    stop_reason: str | None = None
    usage: Usage | None = None
    length_stop: bool = False
    complete: bool = False
    tool_calls: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def saw_tool_call(self, name: Any) -> None:
        """Record a tool the model asked for (each name once, in order of first request)."""
        if isinstance(name, str) and name and name not in self.tool_calls:
            self.tool_calls.append(name)


class Channel:
    """The worker's side of the queue: what an API module reports while it streams."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()

    def text(self, delta: str) -> None:
        """A piece of the model's text, in order."""
        if delta:
            self._queue.put(("text", delta))

    def event(self, raw: Any) -> None:
        """One provider event as parsed JSON (for the outcome's capture)."""
        self._queue.put(("event", raw))

    @property
    def stopped(self) -> bool:
        """The caller has given up (cancelled, timed out, interrupted): stop reading and close."""
        return self._stop.is_set()

    def _put(self, kind: str, value: Any) -> None:
        self._queue.put((kind, value))

    def _get(self, timeout: float) -> tuple[str, Any] | None:
        try:
            return self._queue.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None

    def _stop_now(self) -> None:
        self._stop.set()


def require_sdk(module: str, package: str, api: str) -> ModuleType:
    """Import an SDK module, or say which extra installs it (the SDKs are never a base dependency)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingSdkError(
            f"Sending to the {api} API needs its official Python SDK ({package}), which is not installed: "
            f"{INSTALL_HINT}"
        ) from None


def http_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """The HTTP client's own (timeout, other) exception classes, which an SDK may let through
    unwrapped while a stream is read: ``httpx2``'s (today's SDKs) and ``httpx``'s (older ones)."""
    timeouts: list[type[BaseException]] = []
    others: list[type[BaseException]] = []
    for name in ("httpx2", "httpx"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        timeouts.append(module.TimeoutException)
        others.extend((module.HTTPError, module.StreamError))
    return tuple(timeouts), tuple(others)


def scrub(value: Any, secret: str | None) -> Any:
    """``value`` with every occurrence of ``secret`` in its strings (keys too) replaced by ``[redacted]``."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, REDACTED)
    if isinstance(value, list | tuple):
        return type(value)(scrub(v, secret) for v in value)
    if isinstance(value, dict):
        return {scrub(k, secret): scrub(v, secret) for k, v in value.items()}
    return value


def provider_message(body: Any, fallback: str) -> str:
    """The human message of a provider's error body (``{"error": {"message": …}}`` in all four
    APIs' shapes, or a plain text), else ``fallback``."""
    message: Any = None
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            message = error.get("message")
        elif isinstance(error, str):
            message = error
        if message is None and isinstance(body.get("message"), str):
            message = body["message"]
    elif isinstance(body, list) and len(body) == 1:
        return provider_message(body[0], fallback)
    elif isinstance(body, str) and body.strip():
        message = body.strip()
    if not isinstance(message, str) or not message.strip():
        return fallback
    return message


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _limit(message: str) -> str:
    message = " ".join(message.split())
    return message if len(message) <= _MESSAGE_LIMIT else message[:_MESSAGE_LIMIT] + "…"


def _seconds(value: float) -> str:
    return f"{value:g} s"


class _Crash:
    """An exception the worker did not expect (a bug), carried to the caller's thread to be re-raised."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _work(stream: Callable[[ProviderCall, Channel], StreamState], call: ProviderCall, channel: Channel) -> None:
    try:
        state = stream(call, channel)
    except ProviderFailure as failure:
        channel._put("failure", failure)
    except BaseException as error:  # carried to the caller's thread and re-raised there
        channel._put("crash", _Crash(error))
    else:
        channel._put("done", state)


def run_call(
    call: ProviderCall,
    stream: Callable[[ProviderCall, Channel], StreamState],
    *,
    on_text: Callable[[str], object] | None = None,
    cancel: threading.Event | None = None,
) -> ProviderOutcome:
    """Run ``stream`` (an API module's) for ``call`` and normalise what happens into an outcome."""
    channel = Channel()
    start = time.monotonic()
    deadline = start + call.timeout_s
    pieces: list[str] = []
    events: list[Any] = []
    # The model's text and the events are scrubbed of a key that could be a secret; a placeholder
    # such as "none" for a local server would otherwise be cut out of every answer.
    secret = call.api_key if call.api_key is not None and len(call.api_key) >= _SCRUB_TEXT_FROM else None

    def finish(status: Status, **fields: Any) -> ProviderOutcome:
        # stop reasons, warnings and tool names come from the provider too
        fields = {name: value if name == "usage" else scrub(value, secret) for name, value in fields.items()}
        return ProviderOutcome(
            status, scrub("".join(pieces), secret), max(0, round((time.monotonic() - start) * 1000)),
            events=tuple(scrub(events, secret)), **fields,
        )  # fmt: skip

    worker = threading.Thread(target=_work, args=(stream, call, channel), name=f"forgec-{call.api}", daemon=True)
    worker.start()
    try:
        while True:
            if cancel is not None and cancel.is_set():
                return finish("cancelled", reason="cancelled by the caller")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return finish("timed-out", reason=f"no complete response within {_seconds(call.timeout_s)}",
                              enforced_timeout_ms=max(1, round(call.timeout_s * 1000)))  # fmt: skip
            item = channel._get(min(remaining, _POLL_S))
            if item is None:
                continue
            kind, value = item
            if kind == "text":
                pieces.append(value)
                if on_text is not None:
                    on_text(scrub(value, secret))
            elif kind == "event":
                events.append(value)
            elif kind == "failure":
                return _failed(finish, value, call)
            elif kind == "crash":
                raise value.error
            else:
                return _ended(finish, value, call)
    except KeyboardInterrupt:
        return finish("cancelled", reason="interrupted (Ctrl-C)", interrupted=True)
    finally:
        channel._stop_now()


def _failed(finish: Callable[..., ProviderOutcome], failure: ProviderFailure, call: ProviderCall) -> ProviderOutcome:
    message = _limit(scrub(str(failure), call.api_key))
    if failure.kind == "timeout":
        return finish("timed-out", reason=message, enforced_timeout_ms=max(1, round(call.timeout_s * 1000)))
    code = f"http.{failure.status}" if failure.kind == "http" and failure.status is not None else "transport"
    return finish("failed", error=TransportFailure(code, message))


def _ended(finish: Callable[..., ProviderOutcome], state: StreamState, call: ProviderCall) -> ProviderOutcome:
    warnings = list(state.warnings)
    common: dict[str, Any] = {"stop_reason": state.stop_reason, "usage": state.usage, "tool_calls": tuple(state.tool_calls)}
    if state.tool_calls:
        warnings.append(
            f"The model asked to call {', '.join(state.tool_calls)}; forgec runs no tools, so the call is not executed."
        )
    if not state.complete:
        return finish("failed", error=TransportFailure(
            "transport", "The response stream ended before the provider marked it complete."
        ), warnings=tuple(warnings), **common)  # fmt: skip
    if state.length_stop:
        if call.token_budget is not None:
            return finish("limit-reached", reached_limit="tokenBudget", warnings=tuple(warnings), **common)
        warnings.append(
            f"The provider stopped at the output-token cap ({state.stop_reason}); the text may be cut off."
        )
    return finish("completed", warnings=tuple(warnings), **common)
