"""A provider stand-in on 127.0.0.1 that speaks the four APIs forgec sends to, for tests and first runs.

The official SDKs (``openai``, ``anthropic``, ``google-genai``) talk to it as to the real services,
over real HTTP, streaming server-sent events:

* Chat Completions -- ``POST …/chat/completions``: ``chat.completion.chunk`` ``data:`` lines, the
  usage chunk when ``stream_options.include_usage`` asks for it, then ``data: [DONE]``;
* Responses -- ``POST …/responses``: the typed events ``response.created`` …
  ``response.output_text.delta`` … ``response.completed`` (with usage);
* Anthropic Messages -- ``POST …/v1/messages``: ``message_start``, ``content_block_start``,
  ``ping``, ``content_block_delta``…, ``content_block_stop``, ``message_delta`` (stop reason,
  usage), ``message_stop``;
* Gemini -- ``POST …/models/{model}:streamGenerateContent?alt=sse``: ``GenerateContentResponse``
  chunks, the last with ``finishReason`` and ``usageMetadata``.

Every request is recorded (:class:`RecordedRequest`): method, path, query, headers and the parsed
JSON body.  A credential never leaves the process in clear and is never kept: credential headers
(``Authorization``, ``x-api-key``, ``x-goog-api-key``, and any header whose name says key, token,
secret, auth or credential) are recorded as ``[present]``, and the value's SHA-256 digest is kept
so a test can check that the right key arrived (:meth:`RecordedRequest.credential_is`).

What it answers is set per test with :meth:`ProviderServer.reply` (:class:`Reply`): a normal
streamed answer, an HTTP error in the API's own error shape, an error event inside a started
stream, a malformed stream (undecodable JSON,
valid JSON of the wrong shape, a stream cut off before its end), a slow stream (for timeouts and
cancellation), or a stop at the output-token cap.  Nothing listens beyond 127.0.0.1.

In a test::

    with ProviderServer() as server:
        server.reply(Reply.error(429, "slow down"))
        base_url = server.base_url("openai-completions")      # http://127.0.0.1:PORT/v1
        ...
        assert server.last_request.body == body

For a first ``forgec run`` without a provider: ``python -m forgec.testing.provider_server
[--port N]`` prints the base URL of each API to put in a model catalog and answers every request
with a canned reply that echoes the last user message.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final, Literal
from urllib.parse import parse_qsl, urlsplit

__all__ = ["APIS", "DEFAULT_TEXT", "ProviderServer", "RecordedRequest", "Reply", "credential_digest", "main"]

HOST: Final = "127.0.0.1"
APIS: Final = ("anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses")
DEFAULT_TEXT: Final = "Hello from the forgec provider stand-in."
#: the base URL path of each API, as a model catalog's ``baseUrl`` holds it (the SDKs add the rest)
_BASE_PATHS: Final = {
    "anthropic-messages": "",
    "google-generative-ai": "/v1beta",
    "openai-completions": "/v1",
    "openai-responses": "/v1",
}
_GEMINI: Final = re.compile(r"/models/(?P<model>[^:]+):streamGenerateContent$")
_SECRET_WORDS: Final = ("key", "token", "secret", "auth", "credential", "password", "cookie")
_PRESENT: Final = "[present]"
_CREATED: Final = 1767225600  # 2026-01-01T00:00:00Z: replies are the same on every run

Kind = Literal["normal", "error", "stream-error", "malformed", "slow", "length"]
Malformation = Literal["json", "shape", "truncated"]


def credential_digest(value: str) -> str:
    """The digest a recorded request keeps of its credential (``Bearer`` prefix removed)."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Reply:
    """How the server answers: build one with :meth:`normal`, :meth:`error`, :meth:`malformed`,
    :meth:`slow` or :meth:`length`.

    ``text`` is streamed word by word.  ``slow``: ``delay`` seconds pass after the first piece of
    text (or, with ``before_headers``, before the response starts).  ``echo``: the text ends with
    the last user message the request carried.
    """

    kind: Kind = "normal"
    text: str = DEFAULT_TEXT
    status: int = 500
    message: str = "The provider stand-in was told to fail."
    delay: float = 0.0
    before_headers: bool = False
    malformation: Malformation = "json"
    echo: bool = False

    @classmethod
    def normal(cls, text: str = DEFAULT_TEXT, *, echo: bool = False) -> Reply:
        return cls("normal", text, echo=echo)

    @classmethod
    def error(cls, status: int = 500, message: str = "The provider stand-in was told to fail.") -> Reply:
        return cls("error", status=status, message=message)

    @classmethod
    def stream_error(cls, message: str = "The provider stand-in failed mid-stream.") -> Reply:
        """A 200 stream that starts, then reports an error event in the API's own shape."""
        return cls("stream-error", message=message)

    @classmethod
    def malformed(cls, malformation: Malformation = "json") -> Reply:
        return cls("malformed", malformation=malformation)

    @classmethod
    def slow(cls, delay: float = 5.0, text: str = DEFAULT_TEXT, *, before_headers: bool = False) -> Reply:
        return cls("slow", text, delay=delay, before_headers=before_headers)

    @classmethod
    def length(cls, text: str = "This answer stops at the cap") -> Reply:
        return cls("length", text)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server saw it, credentials reduced to ``[present]`` and a digest.

    ``credentials`` maps each credential header (lower case; ``?name`` for a query parameter) to
    the SHA-256 digest of its value.
    """

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    api: str | None
    model: str | None
    credentials: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def credential_header(self) -> str | None:
        """The first header that carried a credential."""
        return next(iter(self.credentials), None)

    def header(self, name: str) -> str | None:
        """A header's value by case-insensitive name (``[present]`` for a credential)."""
        return self.headers.get(name.lower())

    def credential_is(self, value: str, header: str | None = None) -> bool:
        """Whether the request carried exactly this credential (in ``header``, or in any)."""
        digest = credential_digest(value)
        found = self.credentials.items() if header is None else [(header.lower(), self.credentials.get(header.lower(), ""))]
        return any(hmac.compare_digest(kept, digest) for _, kept in found)


def _is_credential(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS)


def _bare(value: str) -> str:
    return value[7:] if value[:7].lower() == "bearer " else value


def _route(path: str) -> tuple[str | None, str | None]:
    """The API of a request path, and the model a Gemini path names."""
    if path.endswith("/chat/completions"):
        return "openai-completions", None
    if path.endswith("/responses"):
        return "openai-responses", None
    if path.endswith("/messages"):
        return "anthropic-messages", None
    match = _GEMINI.search(path)
    if match:
        return "google-generative-ai", match.group("model")
    return None, None


def _pieces(text: str) -> list[str]:
    return re.findall(r"\s*\S+\s*", text) or [text]


def _text_of(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [str(p["text"]) for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


def last_user_text(api: str, body: Any) -> str | None:
    """The text of the last user turn of a request body (for the echoing reply)."""
    if not isinstance(body, dict):
        return None
    key, content_key = {
        "openai-completions": ("messages", "content"),
        "openai-responses": ("input", "content"),
        "anthropic-messages": ("messages", "content"),
        "google-generative-ai": ("contents", "parts"),
    }[api]
    turns = body.get(key)
    if isinstance(turns, str):
        return turns
    for turn in reversed(turns if isinstance(turns, list) else []):
        if isinstance(turn, dict) and turn.get("role") == "user":
            text = _text_of(turn.get(content_key))
            if text:
                return text
    return None


# --- the four streams --------------------------------------------------------------------------------
#
# Each builder returns the frames of one response: ``head`` (before any text), ``deltas`` (one frame per
# piece of text), ``tail`` (the end).  The handler writes them, pausing where a slow reply says.


@dataclass(slots=True)
class _Frames:
    head: list[bytes]
    deltas: list[bytes]
    tail: list[bytes]
    broken: bytes  # a valid-JSON frame of the wrong shape
    undecodable: bytes = b"data: {not json\n\n"  # a frame whose data is not JSON


def _stream_error(api: str, message: str) -> bytes:
    """The error event each API sends inside a stream that has already started."""
    if api == "openai-responses":
        return _data({"type": "error", "sequence_number": 98, "code": "server_error", "message": message, "param": None}, "error")
    if api == "anthropic-messages":
        return _data({"type": "error", "error": {"type": "overloaded_error", "message": message}}, "error")
    if api == "google-generative-ai":
        return _data({"error": {"code": 500, "message": message, "status": "INTERNAL"}})
    return _data({"error": {"message": message, "type": "server_error", "param": None, "code": None}})


def _data(value: Any, event: str | None = None) -> bytes:
    line = f"data: {json.dumps(value, ensure_ascii=False)}\n\n"
    return ((f"event: {event}\n" if event else "") + line).encode("utf-8")


@dataclass(frozen=True, slots=True)
class _Turn:
    api: str
    model: str
    pieces: list[str]
    length: bool
    input_tokens: int
    include_usage: bool

    @property
    def output_tokens(self) -> int:
        return len(self.pieces)


def _chat(turn: _Turn) -> _Frames:
    base = {"id": "chatcmpl-forgec", "object": "chat.completion.chunk", "created": _CREATED, "model": turn.model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        return _data({**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]})

    tail = [chunk({}, "length" if turn.length else "stop")]
    if turn.include_usage:
        usage = {"prompt_tokens": turn.input_tokens, "completion_tokens": turn.output_tokens,
                 "total_tokens": turn.input_tokens + turn.output_tokens}  # fmt: skip
        tail.append(_data({**base, "choices": [], "usage": usage}))
    tail.append(b"data: [DONE]\n\n")
    return _Frames(
        [chunk({"role": "assistant", "content": ""})],
        [chunk({"content": piece}) for piece in turn.pieces],
        tail,
        _data({**base, "choices": "not an array"}),
    )


def _responses(turn: _Turn) -> _Frames:
    sequence = iter(range(1_000_000))

    def event(kind: str, **fields: Any) -> bytes:
        return _data({"type": kind, "sequence_number": next(sequence), **fields}, kind)

    text = "".join(turn.pieces)
    response = {"id": "resp_forgec", "object": "response", "created_at": _CREATED, "model": turn.model,
                "status": "in_progress", "output": [], "usage": None, "error": None, "incomplete_details": None}  # fmt: skip
    part = {"type": "output_text", "text": "", "annotations": []}
    item = {"id": "msg_forgec", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    head = [
        event("response.created", response=response),
        event("response.in_progress", response=response),
        event("response.output_item.added", output_index=0, item=item),
        event("response.content_part.added", item_id="msg_forgec", output_index=0, content_index=0, part=part),
    ]
    deltas = [
        event("response.output_text.delta", item_id="msg_forgec", output_index=0, content_index=0, delta=piece, logprobs=[])
        for piece in turn.pieces
    ]
    done_part = {**part, "text": text}
    done_item = {**item, "status": "completed" if not turn.length else "incomplete", "content": [done_part]}
    usage = {"input_tokens": turn.input_tokens, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": turn.output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": turn.input_tokens + turn.output_tokens}  # fmt: skip
    final = {**response, "output": [done_item], "usage": usage}
    if turn.length:
        end = event("response.incomplete", response={**final, "status": "incomplete",
                                                     "incomplete_details": {"reason": "max_output_tokens"}})  # fmt: skip
    else:
        end = event("response.completed", response={**final, "status": "completed"})
    tail = [
        event("response.output_text.done", item_id="msg_forgec", output_index=0, content_index=0, text=text, logprobs=[]),
        event("response.content_part.done", item_id="msg_forgec", output_index=0, content_index=0, part=done_part),
        event("response.output_item.done", output_index=0, item=done_item),
        end,
    ]
    broken = _data({"type": "response.output_text.delta", "sequence_number": 99, "delta": 42}, "response.output_text.delta")
    return _Frames(head, deltas, tail, broken, b"event: response.output_text.delta\ndata: {not json\n\n")


def _anthropic(turn: _Turn) -> _Frames:
    message: dict[str, Any] = {"id": "msg_forgec", "type": "message", "role": "assistant", "model": turn.model, "content": [],
               "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": turn.input_tokens, "output_tokens": 1}}  # fmt: skip
    head = [
        _data({"type": "message_start", "message": message}, "message_start"),
        _data({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}, "content_block_start"),
        _data({"type": "ping"}, "ping"),
    ]
    deltas = [
        _data({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}, "content_block_delta")
        for piece in turn.pieces
    ]
    tail = [
        _data({"type": "content_block_stop", "index": 0}, "content_block_stop"),
        _data({"type": "message_delta", "delta": {"stop_reason": "max_tokens" if turn.length else "end_turn",
                                                  "stop_sequence": None},
               "usage": {"output_tokens": turn.output_tokens}}, "message_delta"),
        _data({"type": "message_stop"}, "message_stop"),
    ]
    broken = _data({"type": "content_block_delta", "index": 0, "delta": "not an object"}, "content_block_delta")
    return _Frames(head, deltas, tail, broken, b"event: content_block_delta\ndata: {not json\n\n")


def _gemini(turn: _Turn) -> _Frames:
    def chunk(text: str, finish: str | None = None) -> bytes:
        candidate: dict[str, Any] = {"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        usage = {"promptTokenCount": turn.input_tokens, "candidatesTokenCount": turn.output_tokens,
                 "totalTokenCount": turn.input_tokens + turn.output_tokens}  # fmt: skip
        return _data({"candidates": [candidate], "usageMetadata": usage, "modelVersion": turn.model,
                      "responseId": "forgec"})  # fmt: skip

    pieces = turn.pieces
    deltas = [chunk(piece) for piece in pieces[:-1]]
    deltas.append(chunk(pieces[-1], "MAX_TOKENS" if turn.length else "STOP"))
    return _Frames([], deltas, [], _data({"candidates": "not an array"}))


_BUILDERS: Final[dict[str, Callable[[_Turn], _Frames]]] = {
    "openai-completions": _chat,
    "openai-responses": _responses,
    "anthropic-messages": _anthropic,
    "google-generative-ai": _gemini,
}

_GOOGLE_STATUS: Final = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                         404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}  # fmt: skip
_ANTHROPIC_TYPE: Final = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                          404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                          529: "overloaded_error"}  # fmt: skip


def error_body(api: str | None, status: int, message: str) -> dict[str, Any]:
    """An error in the API's own shape (what its SDK reads the message from)."""
    if api == "anthropic-messages":
        return {"type": "error", "error": {"type": _ANTHROPIC_TYPE.get(status, "api_error"), "message": message}}
    if api == "google-generative-ai":
        return {"error": {"code": status, "message": message, "status": _GOOGLE_STATUS.get(status, "INTERNAL")}}
    kind = "invalid_request_error" if status < 500 else "server_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


# --- the server ---------------------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ProviderServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (cancelled, timed out) is normal here, not worth a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "forgec-provider-stand-in"

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: a stand-in's access log would print in every test; the command logs its own line."""

    def do_GET(self) -> None:
        routes = "\n".join(f"{api:22} POST {self.server.owner.base_url(api)}{_suffix(api)}" for api in APIS)
        self._send_json(200, None, None, text=f"forgec provider stand-in (streaming only)\n{routes}\n")

    def do_POST(self) -> None:
        owner = self.server.owner
        split = urlsplit(self.path)
        api, path_model = _route(split.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = owner._record(self.command, split.path, split.query, self.headers.items(), body, api, path_model)
        if api is None:
            self._send_json(404, None, {"error": {"message": f"forgec provider stand-in: no API at POST {split.path}"}})
            return
        if not isinstance(body, dict):
            self._send_json(400, api, error_body(api, 400, "The request body is not a JSON object."))
            return
        if owner._required is not None and owner._required not in request.credentials.values():
            self._send_json(401, api, error_body(api, 401, "Invalid API key."))
            return
        if api != "google-generative-ai" and body.get("stream") is not True:
            self._send_json(400, api, error_body(api, 400, "The stand-in serves streaming requests only (pi-ai always streams)."))
            return
        self._answer(api, request, body, owner.current_reply(), len(raw))

    def _answer(self, api: str, request: RecordedRequest, body: dict[str, Any], reply: Reply, size: int) -> None:
        stopping = self.server.owner._stopping
        if reply.kind == "error":
            self._send_json(reply.status, api, error_body(api, reply.status, reply.message))
            return
        if reply.kind == "slow" and reply.before_headers and stopping.wait(reply.delay):
            return
        text = reply.text
        if reply.echo:
            said = last_user_text(api, body)
            if said:
                text = f'{text} You said: "{_shorten(said)}"'
        options = body.get("stream_options")
        turn = _Turn(
            api, request.model or str(body.get("model") or "stand-in"), _pieces(text), reply.kind == "length",
            max(1, size // 4), isinstance(options, dict) and options.get("include_usage") is True,
        )  # fmt: skip
        frames = _BUILDERS[api](turn)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        if reply.kind == "stream-error":
            self._write([*frames.head, *frames.deltas[:1], _stream_error(api, reply.message)])
            return
        if reply.kind == "malformed":
            first = frames.deltas[:1] if reply.malformation == "truncated" else []
            broken = {"json": [frames.undecodable], "shape": [frames.broken], "truncated": []}[reply.malformation]
            self._write([*frames.head, *first, *broken])
            return
        if reply.kind == "slow" and not reply.before_headers:
            self._write([*frames.head, *frames.deltas[:1]])
            if stopping.wait(reply.delay):
                return
            self._write([*frames.deltas[1:], *frames.tail])
            return
        self._write([*frames.head, *frames.deltas, *frames.tail])

    def _write(self, frames: Sequence[bytes]) -> None:
        for frame in frames:
            self.wfile.write(frame)
            self.wfile.flush()

    def _send_json(self, status: int, api: str | None, value: Any, *, text: str | None = None) -> None:
        data = text.encode("utf-8") if text is not None else json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8" if text is not None else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)


def _suffix(api: str) -> str:
    return {
        "anthropic-messages": "/v1/messages",
        "google-generative-ai": "/models/{model}:streamGenerateContent?alt=sse",
        "openai-completions": "/chat/completions",
        "openai-responses": "/responses",
    }[api]


def _shorten(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ProviderServer:
    """The stand-in: a threaded HTTP server on 127.0.0.1 (``port`` 0: any free port).

    ``api_key``: when given, a request without exactly this credential gets a 401 in the API's
    error shape (only its digest is kept).  ``on_request`` is called with each recorded request
    (the command prints a line per request with it).
    """

    def __init__(
        self,
        port: int = 0,
        *,
        reply: Reply | None = None,
        api_key: str | None = None,
        on_request: Callable[[RecordedRequest], None] | None = None,
    ) -> None:
        self._port = port
        self._reply = reply or Reply.normal()
        self._required = credential_digest(api_key) if api_key is not None else None
        self._on_request = on_request
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle

    def start(self) -> ProviderServer:
        """Bind 127.0.0.1 and serve in a daemon thread."""
        if self._server is not None:
            return self
        server = _Server((HOST, self._port), _Handler)
        server.owner = self
        self._server = server
        self._stopping.clear()
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="forgec-provider-stand-in", daemon=True)  # fmt: skip
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; slow replies still waiting end at once."""
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ProviderServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()

    # -- addresses

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the provider stand-in is not running")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def base_url(self, api: str) -> str:
        """The ``baseUrl`` a model catalog entry of ``api`` needs to reach this server."""
        if api not in _BASE_PATHS:
            raise ValueError(f"unknown API {api!r}; one of {', '.join(APIS)}")
        return self.url + _BASE_PATHS[api]

    # -- replies and records

    def reply(self, reply: Reply) -> None:
        """Answer every following request this way."""
        with self._lock:
            self._reply = reply

    def current_reply(self) -> Reply:
        with self._lock:
            return self._reply

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def last_request(self) -> RecordedRequest:
        with self._lock:
            if not self._requests:
                raise LookupError("the provider stand-in has received no request")
            return self._requests[-1]

    def clear(self) -> None:
        with self._lock:
            self._requests.clear()

    def _record(
        self, method: str, path: str, query: str, headers: Iterator[tuple[str, str]] | Any,
        body: Any, api: str | None, model: str | None,
    ) -> RecordedRequest:  # fmt: skip
        kept: dict[str, str] = {}
        credentials: dict[str, str] = {}
        for name, value in headers:
            lowered = name.lower()
            if _is_credential(lowered):
                kept[lowered] = _PRESENT
                credentials.setdefault(lowered, credential_digest(_bare(value)))
            else:
                kept[lowered] = value
        params = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            if _is_credential(name):
                params[name] = _PRESENT
                credentials.setdefault(f"?{name}", credential_digest(value))
            else:
                params[name] = value
        if model is None and isinstance(body, dict) and isinstance(body.get("model"), str):
            model = body["model"]
        request = RecordedRequest(method, path, params, kept, body, api, model, credentials)
        with self._lock:
            self._requests.append(request)
        if self._on_request is not None:
            self._on_request(request)
        return request


def _catalog(server: ProviderServer) -> dict[str, Any]:
    """A model catalog of one stand-in model per API (no credentials needed)."""
    models: list[dict[str, Any]] = []
    for api in APIS:
        models.append({"provider": "stand-in", "id": f"{api}-model", "name": f"Stand-in ({api})", "api": api,
                       "baseUrl": server.base_url(api), "auth": {}, "contextWindow": 128000, "maxTokens": 4096})  # fmt: skip
    return {"schemaVersion": 1, "models": models}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m forgec.testing.provider_server [--port N]``: serve until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m forgec.testing.provider_server",
        description="A local stand-in for the four provider APIs: streams a canned reply that echoes the "
        "last user message. Listens on 127.0.0.1 only.",
    )
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0: any free port)")
    args = parser.parse_args(argv)

    def log(request: RecordedRequest) -> None:
        credential = f"credential in {request.credential_header}" if request.credential_header else "no credential"
        print(f"{request.method} {request.path} {request.api or '(no API)'} model={request.model} {credential}",
              file=sys.stderr, flush=True)  # fmt: skip

    server = ProviderServer(args.port, reply=Reply.normal(echo=True), on_request=log)
    def announce() -> None:
        print(f"forgec provider stand-in on http://{HOST}:{server.port} (Ctrl-C to stop)\n")
        print("Base URLs for a model catalog (baseUrl):")
        for api in APIS:
            print(f"  {api:22} {server.base_url(api)}")
        print("\nA catalog to use with --models (no credentials needed):")
        print(json.dumps(_catalog(server), indent=2), flush=True)

    try:
        server.start()
    except OSError as error:
        print(f"error: cannot listen on {HOST}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 2
    announce()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
