"""Canonical JSON and ``sha256:v1`` fingerprints (profiles-exec.md §3).

pi-forge identifies prompt stacks, agent profiles and prompt runtimes by a SHA-256 digest of a
canonical serialisation.  Fingerprints are compared across tools (a plan approved in Pi must match
the one forgec computes), so the text must be byte-identical to the runtime's ``canonicalJson``:
keys sorted by UTF-16 code units (not code points), numbers printed as ECMAScript prints them,
``-0`` folded into ``0``, ``undefined`` members dropped and every non-JSON value rejected with the
runtime's error text.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Final

from forgec.js.values import UNDEFINED, js_number_to_string, json_quote

__all__ = [
    "FINGERPRINT_PATTERN",
    "FingerprintError",
    "canonical_json",
    "is_fingerprint",
    "normalize_profile",
    "profile_fingerprint",
    "prompt_runtime_fingerprint",
    "sha256_v1",
    "stack_fingerprint",
]

#: The shape validator pi-forge applies to every fingerprint it receives.
FINGERPRINT_PATTERN: Final = re.compile(r"^sha256:v1:[a-f0-9]{64}$")
FINGERPRINT_SHAPE_MESSAGE: Final = "Expected sha256:v1 followed by 64 lowercase hex characters."


class FingerprintError(ValueError):
    """A value canonical JSON cannot represent; the message is the runtime's (§3.1)."""


def _utf16_key(key: str) -> bytes:
    # JavaScript's default sort compares UTF-16 code units; big-endian units sort bytewise the same.
    return key.encode("utf-16-be", "surrogatepass")


def _typeof(value: Any) -> str:
    if value is UNDEFINED:
        return "undefined"
    if callable(value):
        return "function"
    return "object"


def _canon_scalar(value: Any, path: str) -> str | None:
    """The canonical text of a non-container value; None for a container."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json_quote(value)
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise FingerprintError(f"Cannot fingerprint non-finite number at {path}.") from None
        if not math.isfinite(number):
            raise FingerprintError(f"Cannot fingerprint non-finite number at {path}.")
        return js_number_to_string(0 if number == 0 else value)
    if isinstance(value, (list, tuple, dict)):
        return None
    if value is UNDEFINED or callable(value):
        raise FingerprintError(f"Cannot fingerprint {_typeof(value)} at {path}.")
    raise FingerprintError(f"Cannot fingerprint non-plain object at {path}.")


def _canon(value: Any, path: str, ancestors: set[int], out: list[str]) -> None:
    """The checked writer: exact messages with a ``$.a[0]`` path, cycle detection.

    Iterative (an explicit stack of open containers), so nesting depth is limited only by memory.
    """
    text = _canon_scalar(value, path)
    if text is not None:
        out.append(text)
        return
    # frames: (iterator of (separator, child path, child), closing bracket, container id)
    stack: list[tuple[Any, str, int]] = []

    def open_container(container: Any, where: str) -> None:
        if id(container) in ancestors:
            raise FingerprintError(f"Cannot fingerprint cyclic value at {where}.")
        ancestors.add(id(container))
        if isinstance(container, dict):
            members = [(k, v) for k, v in container.items() if v is not UNDEFINED]
            for k, _ in members:
                if not isinstance(k, str):
                    raise FingerprintError(f"Cannot fingerprint non-plain object at {where}.")
            members.sort(key=lambda kv: _utf16_key(kv[0]))
            out.append("{")
            children = ((("," if i else "") + json_quote(k) + ":", f"{where}.{k}", v) for i, (k, v) in enumerate(members))
            stack.append((children, "}", id(container)))
        else:
            out.append("[")
            children = (("," if i else "", f"{where}[{i}]", v) for i, v in enumerate(container))
            stack.append((children, "]", id(container)))

    open_container(value, path)
    while stack:
        children, closing, ident = stack[-1]
        for separator, where, child in children:
            out.append(separator)
            text = _canon_scalar(child, where)
            if text is not None:
                out.append(text)
                continue
            open_container(child, where)
            break
        else:
            stack.pop()
            ancestors.discard(ident)
            out.append(closing)


class _Unusual(Exception):
    """Raised by :func:`_check_plain` for data the C encoder would not print as the runtime does."""


#: containers nested deeper than this take the checked path (which also detects cycles)
_PLAIN_DEPTH: Final = 64
_TWO53: Final = 2**53
#: key characters whose code-point order differs from UTF-16 order (U+E000 and above)
_HIGH_KEY_CHAR: Final = re.compile("[\ue000-\U0010ffff]")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"), check_circular=False
)
#: the C encoder :meth:`json.JSONEncoder.encode` builds on every call (with ``_ENCODER``'s settings),
#: built once: ``_C_ENCODE(value, 0)`` returns the chunks of the text
_C_ENCODE: Final = (
    None
    if json.encoder.c_make_encoder is None
    else json.encoder.c_make_encoder(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", True, False, False
    )
)


def _check_plain(value: Any, depth: int) -> None:
    """Raise :class:`_Unusual` unless ``json.dumps`` prints ``value`` exactly as ``canonicalJson``.

    That holds for exact ``dict``/``list``/``tuple``/``str``/``bool``/``None``, integers below
    2**53 and non-integral floats between 1e-4 and 1e16 (where ``repr`` and ECMAScript agree), in
    dicts whose keys are strings that sort the same by code point and by UTF-16 unit (no character
    from U+E000 up).  Lone surrogates are checked on the printed text.  This walk only looks at
    types, so it costs far less than writing the text in Python (docs/performance.md).
    """
    if depth > _PLAIN_DEPTH:
        raise _Unusual
    if type(value) is dict:
        try:
            joined = "".join(value)
        except TypeError:  # a non-string key
            raise _Unusual from None
        if not joined.isascii() and _HIGH_KEY_CHAR.search(joined):
            raise _Unusual
        items: Any = value.values()
    elif type(value) is list or type(value) is tuple:
        items = value
    else:
        items = (value,)
    for item in items:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is dict or kind is list or kind is tuple:
            _check_plain(item, depth + 1)
        elif kind is int:
            if not -_TWO53 < item < _TWO53:
                raise _Unusual
        elif not (kind is float and 1e-4 <= abs(item) < 1e16 and not item.is_integer()):
            raise _Unusual


def canonical_json(value: Any) -> str:
    """The runtime's ``canonicalJson(value)``; raises :class:`FingerprintError` on non-JSON values.

    Plain data (nearly every stack) is printed by the C ``json`` encoder once :func:`_check_plain`
    has vouched for it; anything else goes through :func:`_canon`, which also builds the value's
    path for the error message (only then).
    """
    try:
        _check_plain(value, 0)
        text = _ENCODER.encode(value) if _C_ENCODE is None else "".join(_C_ENCODE(value, 0))
    except _Unusual:
        text = None
    if text is None or (not text.isascii() and _LONE_SURROGATE.search(text)):
        out: list[str] = []
        _canon(value, "$", set(), out)
        text = "".join(out)
    return text


def sha256_v1(value: Any) -> str:
    """``sha256:v1:`` + hex SHA-256 of the canonical JSON's UTF-8 bytes."""
    text = canonical_json(value)
    return "sha256:v1:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def stack_fingerprint(stack: dict[str, Any]) -> str:
    """pi-forge's ``subagentPromptStackFingerprint``: the digest of the *normalised* stack object."""
    return sha256_v1(stack)


def prompt_runtime_fingerprint(runtime: dict[str, Any]) -> str:
    """The prompt-runtime digest, which excludes the runtime's own ``promptRuntimeFingerprint`` key."""
    return sha256_v1({k: v for k, v in runtime.items() if k != "promptRuntimeFingerprint"})


def is_fingerprint(text: object) -> bool:
    """Whether ``text`` has the ``sha256:v1:<64 hex>`` shape pi-forge accepts."""
    return isinstance(text, str) and FINGERPRINT_PATTERN.match(text) is not None


_THINKING_LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh", "max")


def normalize_profile(doc: Any, fallback_id: str = "") -> Any:
    """The normalised agent profile the host fingerprints (profiles-exec.md §1.2).

    Ids and model fields are trimmed, unknown keys dropped and wrongly typed optional fields left
    out; ``promptStack: null`` is kept.  Validation messages are the profile loader's job — this
    only reproduces the object, so a profile with errors still gets a (meaningless) digest.
    """
    from forgec.js.values import js_trim

    if not isinstance(doc, dict):
        return doc
    out: dict[str, Any] = {}
    if "schemaVersion" in doc:
        out["schemaVersion"] = doc["schemaVersion"]
    if "type" in doc:
        out["type"] = doc["type"]
    raw_id = doc.get("id")
    out["id"] = js_trim(raw_id) if isinstance(raw_id, str) and js_trim(raw_id) else fallback_id
    for key in ("name", "description"):
        if isinstance(doc.get(key), str):
            out[key] = doc[key]
    if isinstance(doc.get("autoActivate"), bool):
        out["autoActivate"] = doc["autoActivate"]
    model = doc.get("model")
    if isinstance(model, dict):
        out["model"] = {
            k: js_trim(model[k]) for k in ("provider", "id") if isinstance(model.get(k), str)
        }
    if doc.get("thinkingLevel") in _THINKING_LEVELS:
        out["thinkingLevel"] = doc["thinkingLevel"]
    stack = doc.get("promptStack", UNDEFINED)
    if stack is None:
        out["promptStack"] = None
    elif isinstance(stack, str):
        out["promptStack"] = js_trim(stack)
    return out


def profile_fingerprint(doc: Any, fallback_id: str = "") -> str:
    """The host's ``profileFingerprint`` of a profile file's parsed JSON."""
    return sha256_v1(normalize_profile(doc, fallback_id))
