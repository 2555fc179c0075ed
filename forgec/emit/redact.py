"""pi-forge's provider-payload redaction and rendering (profiles-exec.md §5).

``/payload`` in pi-forge shows the next request body with credential-shaped keys replaced, large
base64 blobs and images omitted and long strings, arrays and objects cut, so a body can be pasted
into a bug report.  The capture record (:func:`capture_payload`) applies exactly those rules, which are
key-based only: a secret inside an ordinary string value is not found.

``forgec compile --redact`` goes further (``deep=True``, forgec's own, never in a capture record):
a string that holds JSON -- OpenAI's tool-call ``arguments`` is a JSON *string*, so its keys are
invisible to the key-based walk -- is parsed, redacted the same way and written back, and substrings
shaped like credentials (``sk-…`` API keys, ``Bearer …`` tokens, private-key blocks, AWS, GitHub,
Google and Slack keys) are replaced by ``[redacted]`` wherever they appear.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from forgec.js.values import UNDEFINED, js_items, js_len, js_string, json_stringify, utf16_slice

__all__ = [
    "MAX_RENDERED_CHARS",
    "Capture",
    "capture_payload",
    "is_secret_key",
    "normalize_key",
    "redact_payload",
    "render_payload",
]

MAX_DEPTH: Final = 8
MAX_ARRAY_ITEMS: Final = 80
MAX_OBJECT_KEYS: Final = 120
MAX_STRING_CHARS: Final = 12_000
BASE64_MIN_CHARS: Final = 8_000
MAX_RENDERED_CHARS: Final = 200_000

REDACTED: Final = "[redacted]"
DEPTH_MARKER: Final = "[pi-forge: max depth reached]"
IMAGE_MARKER: Final = "[image data omitted]"
OMITTED_KEY: Final = "[pi-forge: omitted]"
OMITTED_VALUE: Final = f"object has more than {MAX_OBJECT_KEYS} keys"

#: Usage/limit keys that contain "token" but are not credentials (compared after normalisation).
PRESERVED_TOKEN_KEYS: Final = frozenset(
    {
        "accepted_prediction_tokens",
        "audio_tokens",
        "cached_tokens",
        "completion_tokens",
        "input_tokens",
        "max_completion_tokens",
        "max_output_tokens",
        "max_tokens",
        "output_tokens",
        "prompt_tokens",
        "reasoning_tokens",
        "rejected_prediction_tokens",
        "token_budget",
        "token_count",
        "tokenizer",
        "total_tokens",
    }
)
_SECRET_MARKERS: Final = (
    "api-key",
    "api_key",
    "apikey",
    "authorization",
    "bearer",
    "token",
    "secret",
    "password",
    "cookie",
    "credential",
)
#: credential-shaped substrings forgec's deep redaction replaces (the capture record does not)
_SECRET_VALUES: Final = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)"
    r"|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}"
    r"|\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}"
    r"|\bAIza[0-9A-Za-z_-]{35}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}",
    re.S,
)
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_BASE64_LIKE = re.compile(r"[A-Za-z0-9+/=\r\n]+")


def normalize_key(key: str) -> str:
    """``maxOutputTokens`` → ``max_output_tokens``: split camel case, collapse punctuation, lower-case."""
    return _NON_ALNUM.sub("_", _CAMEL.sub(r"\1_\2", key)).strip("_").lower()


def is_secret_key(key: str) -> bool:
    """Whether a key's value is replaced by ``[redacted]`` (token-usage keys are kept)."""
    if normalize_key(key) in PRESERVED_TOKEN_KEYS:
        return False
    lowered = key.lower()
    return any(marker in lowered for marker in _SECRET_MARKERS)


def _redact_string(text: str, deep: bool = False) -> str:
    if deep:
        text = _deep_string(text)
    if text.startswith("data:image/"):
        return IMAGE_MARKER
    length = js_len(text)
    if length > BASE64_MIN_CHARS and _BASE64_LIKE.fullmatch(text):
        return f"[base64-like data omitted: {length} chars]"
    if length > MAX_STRING_CHARS:
        return utf16_slice(text, 0, MAX_STRING_CHARS) + f"\n[pi-forge: string truncated from {length} chars]"
    return text


def _deep_string(text: str) -> str:
    """A string's JSON content redacted (keys included), and credential-shaped substrings removed."""
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        from forgec.js.json import JSONParseError, loads

        try:
            inner = loads(stripped)
        except (JSONParseError, RecursionError):
            inner = UNDEFINED
        if isinstance(inner, (dict, list)):
            rewritten = json_stringify(_redact(inner, 1, deep=True))
            if rewritten is not None:
                return rewritten
    return _SECRET_VALUES.sub(REDACTED, text) if _could_hold_secret(text) else text


def _could_hold_secret(text: str) -> bool:
    """A cheap filter before the credential patterns run."""
    return any(marker in text for marker in ("-----BEGIN", "Bearer", "sk-", "AKIA", "gh", "AIza", "xox"))


def _redact(value: Any, depth: int, *, deep: bool = False) -> Any:
    if depth > MAX_DEPTH:
        return DEPTH_MARKER
    if isinstance(value, str):
        return _redact_string(value, deep)
    if isinstance(value, (list, tuple)):
        items = [_redact(item, depth + 1, deep=deep) for item in value[:MAX_ARRAY_ITEMS]]
        if len(value) > MAX_ARRAY_ITEMS:
            items.append(f"[pi-forge: {len(value) - MAX_ARRAY_ITEMS} more items omitted]")
        return items
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for emitted, (key, item) in enumerate(js_items(value)):
            if emitted >= MAX_OBJECT_KEYS:
                out[OMITTED_KEY] = OMITTED_VALUE
                break
            out[key] = REDACTED if is_secret_key(key) else _redact(item, depth + 1, deep=deep)
        return out
    return value


def redact_payload(value: Any, *, deep: bool = False) -> Any:
    """A redacted copy of a request body (the input is not modified).

    ``deep``: forgec's stronger redaction (see the module docstring); pi-forge's otherwise.
    """
    return _redact(value, 0, deep=deep)


@dataclass(frozen=True, slots=True)
class Capture:
    """pi-forge's capture record of one provider payload (profiles-exec.md §5).

    ``payload`` is the redacted value (``None`` when the text was truncated or could not be
    produced); ``captured_at`` the ISO time of the capture, ``stack_id`` the active stack and
    ``save_path`` where the text is saved, each only when known.
    """

    payload: Any
    text: str
    chars: int
    approx_tokens: int
    truncated: bool
    error: str | None = None
    captured_at: str | None = None
    stack_id: str | None = None
    save_path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as pi-forge writes it (``payload`` absent when there is none)."""
        doc: dict[str, Any] = {}
        for key, value in (("capturedAt", self.captured_at), ("stackId", self.stack_id), ("savePath", self.save_path)):
            if value is not None:
                doc[key] = value
        if not (self.truncated or self.error is not None):
            doc["payload"] = self.payload
        doc.update({
            "text": self.text,
            "chars": self.chars,
            "approxTokens": self.approx_tokens,
            "truncated": self.truncated,
        })
        if self.error is not None:
            doc["error"] = self.error
        return doc


def render_payload(redacted: Any) -> str:
    """JSON with two-space indentation as ``JSON.stringify(value, null, 2)`` writes it."""
    text = json_stringify(redacted, 2)
    return js_string(UNDEFINED) if text is None else text


def capture_payload(
    body: Any,
    *,
    captured_at: str | None = None,
    stack_id: str | None = None,
    save_path: str | None = None,
    deep: bool = False,
) -> Capture:
    """Redact, render and size a body: the text is what ``--redact`` prints or saves.

    ``captured_at``, ``stack_id`` and ``save_path`` complete pi-forge's capture record (§5);
    ``deep`` is forgec's stronger redaction, which a capture record never uses.
    """
    redacted = redact_payload(body, deep=deep)
    error: str | None = None
    payload: Any = redacted
    try:
        text = render_payload(redacted)
    except (TypeError, ValueError, RecursionError) as exc:
        text = error = f"Failed to stringify provider payload: {exc}"
        payload = None
    truncated = False
    if error is None and js_len(text) > MAX_RENDERED_CHARS:
        text = (
            utf16_slice(text, 0, MAX_RENDERED_CHARS)
            + f"\n\n[pi-forge: payload truncated after {MAX_RENDERED_CHARS} chars]"
        )
        truncated = True
        payload = None
    chars = js_len(text)
    return Capture(
        payload, text, chars, max(1, math.ceil(chars / 4)), truncated, error, captured_at, stack_id, save_path
    )
