"""JavaScript operations on message values, failing with V8's TypeError texts (issue 12, point 3).

The context schema lets a message field hold any JSON value, while pi-ai 0.83.0's code assumes the
types its TypeScript declares.  Where it reads a property of ``null``, calls a string method on a
number or iterates an object, V8 throws, and the reference records that error instead of a body.
These helpers perform each such operation the way JavaScript does -- including what it *accepts*
(arrays have ``includes`` and ``length``, strings are iterable, ``JSON.stringify`` drops
``undefined``) -- and raise :class:`PayloadError` with the text V8 would print.

V8 names the failing operand by its source text (``msg.content.map is not a function``,
``content is not iterable``), so each helper takes the expression as pi-ai's code spells it; the
call sites quote pi-ai's source.  ``scripts/gen_payload_shapes.py`` records the reference's answers
for every message shape the schema admits and ``tests/emit/test_payload_shapes.py`` holds forgec to them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

from forgec.errors import EXIT_FAILED, ForgecError
from forgec.js.values import UNDEFINED, js_len, js_string, js_trim

__all__ = [
    "PayloadError",
    "array_method",
    "destructure_split",
    "iterate",
    "join_piece",
    "js_add",
    "js_gt",
    "js_property_error",
    "js_strict_equal",
    "map_key",
    "nullish",
    "prop",
    "put",
    "string_method",
    "template",
    "to_number",
    "trimmed",
]


class PayloadError(ForgecError):
    """pi-ai threw before the body was complete; the text becomes ``payloads.<api>.error``.

    Exit code 1: the input compiled, but the request pi-ai would build from it fails.
    """

    exit_code = EXIT_FAILED


#: the methods each receiver type has that pi-ai calls on message values
_STRING_METHODS: Final = frozenset({"trim", "replace", "split", "startsWith", "includes", "slice", "indexOf"})
_ARRAY_METHODS: Final = frozenset(
    {"map", "filter", "some", "flatMap", "includes", "slice", "indexOf", "join", "forEach"}
)


def js_property_error(value: Any, prop_name: str) -> PayloadError:
    """V8's TypeError for reading a property of ``undefined``/``null``."""
    kind = "null" if value is None else "undefined"
    return PayloadError(f"Cannot read properties of {kind} (reading '{prop_name}')")


def _is_nullish(value: Any) -> bool:
    return value is None or value is UNDEFINED


def prop(obj: Any, key: str) -> Any:
    """``obj.key``: a missing member is ``undefined``; ``null``/``undefined`` throw.

    Strings and arrays answer ``length`` (UTF-16 units for strings); every other property of a
    primitive or an array reads as ``undefined`` here (pi-ai reads no other).
    """
    if type(obj) is dict:  # the common case first: this runs for every field pi-ai reads
        return obj.get(key, UNDEFINED)
    if _is_nullish(obj):
        raise js_property_error(obj, key)
    if isinstance(obj, dict):
        return obj.get(key, UNDEFINED)
    if key == "length":
        if isinstance(obj, str):
            return js_len(obj)
        if isinstance(obj, list):
            return len(obj)
    return UNDEFINED


def nullish(value: Any, default: Any) -> Any:
    """``value ?? default``."""
    return default if _is_nullish(value) else value


def _method(value: Any, name: str, expr: str, methods: frozenset[str], kind: type) -> None:
    if _is_nullish(value):
        raise js_property_error(value, name)
    if not (isinstance(value, kind) and name in methods):
        raise PayloadError(f"{expr}.{name} is not a function")


def string_method(value: Any, name: str, expr: str) -> str:
    """Check that ``expr.name(...)`` can run on ``value`` as a string method; returns the string.

    An array also has ``includes``/``slice``/``indexOf``; callers that accept arrays check first.
    """
    _method(value, name, expr, _STRING_METHODS, str)
    return value  # type: ignore[no-any-return]


def array_method(value: Any, name: str, expr: str) -> list[Any]:
    """Check that ``expr.name(...)`` can run on ``value`` as an array method; returns the list."""
    _method(value, name, expr, _ARRAY_METHODS, list)
    return value  # type: ignore[no-any-return]


def destructure_split(value: Any, expr: str) -> list[str]:
    """``const [a, b] = expr.split("|")``: V8 words a missing ``split`` for a destructuring target."""
    if _is_nullish(value):
        raise js_property_error(value, "split")
    if not isinstance(value, str):
        raise PayloadError(f"{expr}.split is not a function or its return value is not iterable")
    return value.split("|")


def trimmed(value: Any, expr: str) -> str:
    """``expr.trim()``."""
    return js_trim(string_method(value, "trim", expr))


def iterate(value: Any, expr: str) -> Iterator[Any]:
    """``for (const x of expr)``: arrays by element, strings by code point, nothing else."""
    if isinstance(value, list):
        return iter(value)
    if isinstance(value, str):
        return iter(value)  # forgec strings hold pairs joined: one item per code point, as JavaScript
    raise PayloadError(f"{expr} is not iterable")


def template(value: Any) -> str:
    """``${value}`` in a template literal (``String(value)``)."""
    return js_string(value)


def join_piece(value: Any) -> str:
    """An element of ``Array.prototype.join``: ``null``/``undefined`` become ``""``."""
    return "" if _is_nullish(value) else js_string(value)


def to_number(value: Any) -> float:
    """JavaScript ``ToNumber`` of a JSON value (arrays through their joined text, objects NaN)."""
    if value is UNDEFINED:
        return math.nan
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, list):
        return to_number(js_string(value))
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0.0
        lowered = text.lower()
        if lowered.startswith(("0x", "0o", "0b")):
            try:
                return float(int(text, 0))
            except ValueError:
                return math.nan
        if text in ("Infinity", "+Infinity"):
            return math.inf
        if text == "-Infinity":
            return -math.inf
        if "inf" in lowered or "nan" in lowered or "_" in text:
            return math.nan
        try:
            return float(text)
        except ValueError:
            return math.nan
    return math.nan


def map_key(value: Any) -> Any:
    """A key with JavaScript ``Map``/``Set`` semantics: primitives by value, objects by identity
    (so an object where an id belongs is looked up like JavaScript does, never hashed)."""
    if isinstance(value, (dict, list)):
        return ("object", id(value))
    if value is True or value is False:
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", float(value))
    return value


def put(obj: dict[str, Any], key: str, value: Any) -> None:
    """``{..., key: value}``: a member holding ``undefined`` is left out, as JSON serialisation does."""
    if value is not UNDEFINED:
        obj[key] = value


def _to_primitive(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return js_string(value)
    return value


def js_add(left: Any, right: Any) -> Any:
    """``left + right``: string concatenation once either side is (or converts to) a string."""
    a, b = _to_primitive(left), _to_primitive(right)
    if isinstance(a, str) or isinstance(b, str):
        return template(a) + template(b)
    return to_number(a) + to_number(b)


def js_gt(left: Any, right: float) -> bool:
    """``left > right`` for a number on the right (``NaN`` compares false)."""
    return to_number(_to_primitive(left)) > right


def js_strict_equal(left: Any, right: Any) -> bool:
    """``left === right`` (objects by identity; ``true`` is not ``1``)."""
    if isinstance(left, (dict, list)) or isinstance(right, (dict, list)):
        return left is right
    if isinstance(left, bool) or isinstance(right, bool) or left is None or right is None:
        return left is right
    if left is UNDEFINED or right is UNDEFINED:
        return left is right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return float(left) == float(right)
    return type(left) is type(right) and bool(left == right)
