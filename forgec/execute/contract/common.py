"""§4.0: the predicates, texts and small validators every part of the contract shares.

Two families of validators meet in pi-forge 0.4.1: the host's own (``validation.ts``) and the
execution runtime's portable ones (``@zihanw/pi-subagent-runtime`` core), which the host re-exports
and *re-paths* (a runtime path ``$.id`` becomes ``backend.id``).  Their texts differ in small ways
(``Duplicate value: x`` vs ``Duplicate value: x.``), so both versions live here under distinct names.

The module also holds forgec's stand-ins for JavaScript's thrown errors (:class:`JSTypeError`,
:class:`JSError`) and the JavaScript property reads (:func:`prop`) that decide *where* the reference
throws on malformed input, with V8's message texts.  :func:`thrown_as_js` is the one explicit mapping
from a forgec exception to the reference's ``{name, message}``.
"""

from __future__ import annotations

import math
import re
from typing import Any, Final, TypeGuard

from forgec.errors import EXIT_FAILED, ForgecError
from forgec.execute.host import ContractDiagnostic
from forgec.fingerprint import FINGERPRINT_SHAPE_MESSAGE, FingerprintError, is_fingerprint
from forgec.js.values import UNDEFINED, JSNonPlainObject, is_number, js_string, js_trim

__all__ = [
    "ACCESS_CAPABILITY_KEYS",
    "ACCESS_LEVELS",
    "CONTRACT_VERSION",
    "LIMIT_NAMES",
    "NAMESPACE_PATTERN",
    "OPAQUE_ID_PATTERN",
    "TOOL_EFFECTS",
    "JSError",
    "JSRangeError",
    "JSTypeError",
    "call_site",
    "error",
    "get",
    "has_errors",
    "is_iso_date",
    "is_non_negative_finite",
    "is_non_negative_integer",
    "is_plain_record",
    "is_positive_integer",
    "is_record",
    "is_safe_relative_path",
    "iso_to_ms",
    "iterate",
    "js_eq",
    "js_gt",
    "js_includes",
    "js_map",
    "js_truthy",
    "prop",
    "repath",
    "thrown_as_js",
    "validate_diagnostic_array",
    "validate_fingerprint",
    "validate_model_reference",
    "validate_namespace",
    "validate_opaque_id",
    "validate_string_array",
    "validate_unique_non_empty_strings",
    "validate_unique_string_array",
]

CONTRACT_VERSION: Final = 1
LIMIT_NAMES: Final = ("timeoutMs", "maxTurns", "tokenBudget", "maxOutputBytes")
ACCESS_LEVELS: Final = ("none", "read-only", "workspace-write")
TOOL_EFFECTS: Final = ("filesystem-read", "filesystem-write", "process", "network")
ACCESS_CAPABILITY_KEYS: Final = (
    "readOnlyMountIsolation",
    "readWriteMountIsolation",
    "symlinkSafeContainment",
    "processIsolation",
    "agentNetworkIsolation",
)
#: JavaScript regexes without the ``u`` flag: ``$`` matches only at the very end (no ``\n`` before it)
OPAQUE_ID_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
NAMESPACE_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")

ID_MESSAGE: Final = "Expected an opaque id using letters, numbers, dot, underscore, colon, or hyphen (max 128)."
NAMESPACE_MESSAGE: Final = "Expected a namespace using letters, numbers, dot, underscore, or hyphen (max 128)."
_MAX_SAFE: Final = 2**53 - 1


# --- thrown errors -----------------------------------------------------------------------------------


class JSTypeError(ForgecError, TypeError):
    """What the reference throws as a JavaScript ``TypeError`` (a property read on ``undefined``, a
    non-iterable spread); the message is V8's text."""

    exit_code = EXIT_FAILED
    js_name = "TypeError"


class JSError(ForgecError):
    """What the reference throws as a plain ``Error`` (``new Error(...)``) with its own text."""

    exit_code = EXIT_FAILED
    js_name = "Error"


class JSRangeError(JSError):
    """A JavaScript ``RangeError`` (``new Date("bad").toISOString()``: ``Invalid time value``)."""

    js_name = "RangeError"


def thrown_as_js(exc: BaseException) -> tuple[str, str] | None:
    """``(name, message)`` of the JavaScript error the reference throws where forgec raised ``exc``,
    or ``None`` when ``exc`` is not one of those (a bug, to be reported as such).

    The mapping is explicit: canonical JSON's refusals are ``TypeError`` in the runtime
    (:class:`~forgec.fingerprint.FingerprintError`), the contract's own are :class:`JSTypeError` /
    :class:`JSError`.
    """
    if isinstance(exc, (JSTypeError, JSError)):
        return exc.js_name, str(exc)
    if isinstance(exc, FingerprintError):
        return "TypeError", str(exc)
    return None


def _describe(value: Any) -> str:
    return "null" if value is None else "undefined"


def prop(value: Any, key: str | int) -> Any:
    """``value[key]`` with JavaScript's rules: a read on ``null``/``undefined`` throws V8's
    ``Cannot read properties of undefined (reading 'key')``; a missing member is ``undefined``;
    arrays and strings answer ``length`` and indexes; other primitives have no own members."""
    if value is None or value is UNDEFINED:
        raise JSTypeError(f"Cannot read properties of {_describe(value)} (reading '{key}')")
    if isinstance(value, dict):
        return value.get(str(key), UNDEFINED)
    if isinstance(value, (list, tuple, str)):
        if key == "length":
            from forgec.js.values import js_len

            return len(value) if not isinstance(value, str) else js_len(value)
        index = key if isinstance(key, int) else (int(key) if str(key).isdigit() else None)
        if index is not None and 0 <= index < len(value):
            return value[index]
    return UNDEFINED


def get(value: Any, *path: str | int) -> Any:
    """``value.a.b.c`` (each step through :func:`prop`)."""
    for key in path:
        value = prop(value, key)
    return value


def call_site(expression: str, value: Any, wanted: str = "iterable") -> JSTypeError:
    """V8's error for an expression whose value is not ``iterable`` (or not a ``function``)."""
    if wanted == "function":
        return JSTypeError(f"{expression} is not a function")
    if value is None or value is UNDEFINED:
        return JSTypeError(f"{expression} is not iterable (cannot read property Symbol(Symbol.iterator))")
    return JSTypeError(f"{expression} is not iterable")


def iterate(value: Any, expression: str) -> list[Any]:
    """``for (const x of value)`` / ``[...value]``: arrays, and strings character by character (by
    code point, as the string iterator goes); anything else throws as V8 does."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return list(value)
    raise call_site(expression, value)


# --- predicates ---------------------------------------------------------------------------------------


def is_record(value: Any) -> TypeGuard[dict[str, Any]]:
    """``!!value && typeof value === "object" && !Array.isArray(value)`` (a Date or Map is one too)."""
    return isinstance(value, dict)


def _is_safe_integer(value: Any) -> bool:
    if not is_number(value):
        return False
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return False
    return abs(value) <= _MAX_SAFE


def is_positive_integer(value: Any) -> TypeGuard[int | float]:
    """``Number.isSafeInteger(value) && value > 0`` (``3.0`` is an integer in JavaScript)."""
    return _is_safe_integer(value) and value > 0


def is_non_negative_integer(value: Any) -> TypeGuard[int | float]:
    return _is_safe_integer(value) and value >= 0


def is_non_negative_finite(value: Any) -> TypeGuard[int | float]:
    return is_number(value) and math.isfinite(value) and value >= 0


def is_safe_relative_path(value: Any, allow_dot: bool = False) -> bool:
    """A normalised relative POSIX path: no ``\\``, no leading ``/``, no NUL, non-empty, no empty,
    ``.`` or ``..`` segment; ``.`` alone only when ``allow_dot``."""
    if not isinstance(value, str) or "\\" in value or value.startswith("/") or "\0" in value:
        return False
    if allow_dot and value == ".":
        return True
    if not value:
        return False
    return all(segment not in ("", ".", "..") for segment in value.split("/"))


_ISO: Final = re.compile(r"([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z")
_MAX_TIME: Final = 8.64e15


def _days_from_civil(year: int, month: int, day: int) -> int:
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def iso_to_ms(text: Any) -> int | None:
    """Epoch milliseconds of a string that ``new Date(text).toISOString()`` gives back unchanged
    (the runtime's ``isIsoDate``), else ``None``.

    Only the ``toISOString`` shape can round-trip, so the check is that shape with every field in
    range: a day past the month's end or hour 24 would be normalised by ``Date`` and come back
    different.
    """
    if not isinstance(text, str):
        return None
    match = _ISO.fullmatch(text)
    if match is None:
        return None
    year_text, *rest = match.groups()
    if year_text == "-000000":
        return None
    year = int(year_text)
    if len(year_text) == 7 and 0 <= year <= 9999:
        return None  # toISOString writes these years with four digits
    month, day, hour, minute, second, milli = (int(part) for part in rest)
    if not (1 <= month <= 12 and hour <= 23 and minute <= 59 and second <= 59):
        return None
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    length = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    if not 1 <= day <= length:
        return None
    ms = ((_days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli
    return ms if abs(ms) <= _MAX_TIME else None


def is_iso_date(value: Any) -> bool:
    """``isIsoDate``: parses, and re-serialises to exactly the same ``toISOString()`` text."""
    return iso_to_ms(value) is not None


def has_errors(diagnostics: list[ContractDiagnostic]) -> bool:
    return any(d.level == "error" for d in diagnostics)


# --- small validators -----------------------------------------------------------------------------------


def error(code: str, message: str, path: str | None = None) -> ContractDiagnostic:
    return ContractDiagnostic("error", code, message, path)


def repath(diagnostics: list[ContractDiagnostic], path: str) -> list[ContractDiagnostic]:
    """The host's ``repath``: a runtime diagnostic rooted at ``$`` moves under ``path``."""
    out = []
    for d in diagnostics:
        if d.path and d.path.startswith("$"):
            d = ContractDiagnostic(d.level, d.code, d.message, path + d.path[1:])
        out.append(d)
    return out


def validate_opaque_id(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not (isinstance(value, str) and OPAQUE_ID_PATTERN.fullmatch(value)):
        diagnostics.append(error("id.invalid", ID_MESSAGE, path))


def validate_namespace(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not (isinstance(value, str) and NAMESPACE_PATTERN.fullmatch(value)):
        diagnostics.append(error("namespace.invalid", NAMESPACE_MESSAGE, path))


def validate_fingerprint(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not is_fingerprint(value):
        diagnostics.append(error("fingerprint.invalid", FINGERPRINT_SHAPE_MESSAGE, path))


def _blank(value: Any) -> bool:
    return not isinstance(value, str) or not js_trim(value)


def validate_model_reference(
    value: Any, path: str, diagnostics: list[ContractDiagnostic], *, runtime: bool = False
) -> None:
    """Non-blank string ``provider`` and ``id``; the runtime's text differs from the host's."""
    if not is_record(value) or _blank(value.get("provider")) or _blank(value.get("id")):
        message = (
            "Model reference requires non-empty provider and id strings."
            if runtime
            else "Model reference requires provider and id."
        )
        diagnostics.append(error("model.reference", message, path))


def validate_unique_string_array(value: list[Any], path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's unique string array (``effectiveToolIds``, context-receipt ids): no period."""
    seen: set[str] = set()
    for index, item in enumerate(value):
        if not isinstance(item, str):
            diagnostics.append(error("array.string", "Expected a string.", f"{path}[{index}]"))
        elif item in seen:
            diagnostics.append(error("array.duplicate", f"Duplicate value: {item}", f"{path}[{index}]"))
        else:
            seen.add(item)


def validate_unique_non_empty_strings(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The runtime's unique non-blank strings (``mediaMimeTypes``, ``selectedTools``): with a period."""
    if not isinstance(value, list):
        diagnostics.append(error("array.type", "Expected an array of strings.", path))
        return
    seen: set[str] = set()
    for index, item in enumerate(value):
        if _blank(item):
            diagnostics.append(error("array.string", "Expected a non-empty string.", f"{path}[{index}]"))
        elif item in seen:
            diagnostics.append(error("array.duplicate", f"Duplicate value: {item}.", f"{path}[{index}]"))
        else:
            seen.add(item)


def validate_string_array(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The runtime's plain string array (``promptGuidelines``)."""
    if not isinstance(value, list):
        diagnostics.append(error("array.type", "Expected an array of strings.", path))
        return
    for index, item in enumerate(value):
        if not isinstance(item, str):
            diagnostics.append(error("array.string", "Expected a string.", f"{path}[{index}]"))


def validate_diagnostic_array(value: list[Any], path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's check of a diagnostics array: each item needs a level and string code/message."""
    for index, item in enumerate(value):
        if not (
            is_record(item)
            and js_string(item.get("level", UNDEFINED)) in ("error", "warning", "info")
            and isinstance(item.get("code"), str)
            and isinstance(item.get("message"), str)
        ):
            diagnostics.append(
                error("diagnostic.invalid", "Diagnostic requires level, code, and message.", f"{path}[{index}]")
            )


def is_plain_record(value: Any) -> bool:
    """A record that canonical JSON accepts as an object (not a Date, Map or class instance)."""
    return isinstance(value, dict) and not isinstance(value, JSNonPlainObject)


# --- JavaScript comparisons -------------------------------------------------------------------------


def js_eq(left: Any, right: Any) -> bool:
    """``left === right``: primitives by type and value (``NaN`` unequal to itself, ``-0 === 0``),
    objects and arrays by identity."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if is_number(left) and is_number(right):
        return bool(left == right)
    if isinstance(left, str) and isinstance(right, str):
        return left == right
    if left is None or left is UNDEFINED or right is None or right is UNDEFINED:
        return left is right
    if isinstance(left, (dict, list, tuple)) or isinstance(right, (dict, list, tuple)):
        return left is right
    return bool(left == right) and type(left) is type(right)


def _same_value_zero(left: Any, right: Any) -> bool:
    """``Array.prototype.includes``' comparison: ``===`` except that ``NaN`` equals ``NaN``."""
    if is_number(left) and is_number(right) and left != left and right != right:
        return True
    return js_eq(left, right)


def js_includes(receiver: Any, value: Any, expression: str) -> bool:
    """``receiver.includes(value)``: an array's SameValueZero search, a string's substring search
    (of ``String(value)``); anything else throws as V8 does."""
    if isinstance(receiver, (list, tuple)):
        return any(_same_value_zero(item, value) for item in receiver)
    if isinstance(receiver, str):
        return js_string(value) in receiver
    prop(receiver, "includes")  # undefined/null: "Cannot read properties of undefined (reading 'includes')"
    raise call_site(f"{expression}.includes", receiver, "function")


def js_truthy(value: Any) -> bool:
    from forgec.js.values import js_truthy as truthy

    return truthy(value)


def _to_number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if is_number(value):
        return float(value)
    if value is None:
        return 0.0
    if isinstance(value, str):
        text = js_trim(value)
        if not text:
            return 0.0
        try:
            return float(text)
        except ValueError:
            return math.nan
    return math.nan


def js_gt(left: Any, right: Any) -> bool:
    """``left > right`` for the values a receipt holds (numbers; strings compare by UTF-16 units)."""
    if isinstance(left, str) and isinstance(right, str):
        from forgec.js.values import utf16_key

        return utf16_key(left) > utf16_key(right)
    return _to_number(left) > _to_number(right)


def js_map(value: Any, expression: str) -> list[Any]:
    """The receiver of ``value.map(...)``/``.filter``/``.some``: an array, else V8's error."""
    if isinstance(value, (list, tuple)):
        return list(value)
    method = expression.rsplit(".", 1)[-1]
    prop(value, method)  # null/undefined: "Cannot read properties of undefined (reading 'map')"
    raise call_site(expression, value, "function")
