"""JavaScript value semantics that pi-forge's output depends on.

pi-forge runs on V8, and its output is compared with forgec's byte for byte, so every place that
converts, measures, trims or serialises a value must behave as JavaScript does rather than as Python
does (compile-core.md §0).  Everything of that kind lives here, in one place, so the rest of the code
base can say ``js_trim`` or ``json_stringify`` and mean exactly the ECMAScript operation.

Values are the plain data produced by the JSON readers: ``dict`` (insertion ordered), ``list``,
``str``, ``int``/``float`` (never ``bool`` as a number), ``bool`` and ``None`` (JSON ``null``).
JavaScript's ``undefined`` is represented by :data:`UNDEFINED` where a distinction from ``null``
is needed; a missing dictionary key is the usual form of absence.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from json.encoder import encode_basestring as _encode_basestring
from typing import Any, ClassVar, Final, TypeGuard

__all__ = [
    "HOLE",
    "UNDEFINED",
    "JSBigInt",
    "JSNonPlainObject",
    "civil_from_days",
    "dumps_report",
    "is_array_index",
    "is_integral_number",
    "is_number",
    "is_string_array",
    "js_items",
    "js_key_order",
    "js_len",
    "js_number_to_string",
    "js_string",
    "js_trim",
    "js_trim_end",
    "js_trim_start",
    "js_truthy",
    "json_literal",
    "json_quote",
    "json_stringify",
    "rejoin_surrogates",
    "utf16_key",
    "utf16_slice",
]


# the surrogate bounds as chr() values: mypyc (docs/performance.md) refuses lone surrogates in literals
_SUR_LO: Final = chr(0xD800)
_SUR_HI: Final = chr(0xDFFF)
_HIGH_END: Final = chr(0xDBFF)
_LOW_START: Final = chr(0xDC00)


class _Undefined:
    """The JavaScript ``undefined`` value, distinct from JSON ``null`` (``None``)."""

    _instance: ClassVar[_Undefined | None] = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()


class _Hole:
    """A hole of a sparse JavaScript array (``[1, , 3]``): no element at all, not even ``undefined``."""

    _instance: ClassVar[_Hole | None] = None

    def __new__(cls) -> _Hole:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "HOLE"


HOLE: Final = _Hole()


class JSBigInt:
    """A JavaScript ``bigint`` (``42n``): a number JSON cannot hold (``JSON.stringify`` throws)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"{self.value}n"


class JSNonPlainObject(dict[str, Any]):
    """An object whose prototype is not ``Object.prototype`` -- a ``Date``, a ``Map``, a class
    instance: its own enumerable properties are the dict's items (none for a ``Date`` or a ``Map``).

    ``kind`` names the class; a ``Date`` keeps its ISO text, which ``JSON.stringify`` prints
    (``toJSON``).  Canonical JSON refuses such objects; redaction walks their own properties.
    """

    def __init__(self, kind: str, iso: str | None = None) -> None:
        super().__init__()
        self.kind = kind
        self.iso = iso

# --- whitespace (§0.6) ---------------------------------------------------------------------------

#: The exact code points ``String.prototype.trim`` removes (WhiteSpace + LineTerminator).
JS_WHITESPACE: Final = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """``String.prototype.trim``: unlike ``str.strip`` it removes U+FEFF and keeps U+0085, U+001C–U+001F."""
    return text.strip(JS_WHITESPACE)


def js_trim_start(text: str) -> str:
    """``String.prototype.trimStart``."""
    return text.lstrip(JS_WHITESPACE)


def js_trim_end(text: str) -> str:
    """``String.prototype.trimEnd``."""
    return text.rstrip(JS_WHITESPACE)


# --- UTF-16 lengths and slices (§0.7) ------------------------------------------------------------

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def js_len(text: str) -> int:
    """Length in UTF-16 code units, as JavaScript's ``length`` counts it."""
    if text.isascii():
        return len(text)
    # encoding is linear and in C; counting astral matches would build one object per match.  Plain
    # "utf-16" is one of str.encode's named fast paths (no codec-registry lookup, no argument tuple:
    # ~85 ns against ~240 ns for "utf-16-le" on a 40-character text); it adds a two-byte BOM
    try:
        return len(text.encode("utf-16")) // 2 - 1
    except UnicodeEncodeError:
        # lone surrogates: UTF-16's ``surrogatepass`` handles them one by one (~0.4 µs each; a doubled
        # lone surrogate took minutes, issue 13), UTF-8's in C; each astral character is one code
        # point and two units, and the one UTF-8 sequence that starts with F0-F4
        data = text.encode("utf-8", "surrogatepass")
        return len(text) + len(data) - len(data.translate(None, _ASTRAL_LEADS))


_ASTRAL_LEADS = bytes(range(0xF0, 0xF5))


def _to_units(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


def _from_units(data: bytes) -> str:
    return data.decode("utf-16-le", "surrogatepass")


def utf16_key(text: str) -> bytes:
    """A sort key that orders strings as JavaScript's default ``sort()`` and ``<`` do: by UTF-16
    code units (so U+FFFF sorts after U+10000, whose units are surrogates), not by code points."""
    return text.encode("utf-16-be", "surrogatepass")


def utf16_slice(text: str, start: int, end: int | None = None) -> str:
    """``String.prototype.slice`` on UTF-16 units; may leave lone surrogates at the cut."""
    if text.isascii():
        return text[start:end]
    units = _to_units(text)
    n = len(units) // 2
    s = max(n + start, 0) if start < 0 else min(start, n)
    e = n if end is None else (max(n + end, 0) if end < 0 else min(end, n))
    if e <= s:
        return ""
    return _from_units(units[2 * s : 2 * e])


def rejoin_surrogates(text: str) -> str:
    """Re-join surrogate pairs that ended up adjacent after UTF-16 slicing (§16.3)."""
    if not any(_SUR_LO <= ch <= _SUR_HI for ch in text):
        return text
    return _from_units(_to_units(text))


def js_concat(parts: list[str] | tuple[str, ...], separator: str = "") -> str:
    """JavaScript string concatenation in forgec's one representation of a string.

    A JavaScript string is UTF-16 units; forgec holds a Python ``str`` with every valid surrogate pair
    joined into its code point, so equality, dictionary keys and lengths agree with JavaScript's only
    if that stays true.  Concatenation is where it can break: a part ending in a lone high surrogate
    followed by one starting with a lone low surrogate form a pair in JavaScript (``"\\ud83d" +
    "\\ude00" === "😀"``) but two characters in Python.  So the pair is joined here (issue 12, point 2);
    ASCII text (most renders) is returned after one C-level check; otherwise one check per part."""
    text = separator.join(parts)
    if separator or len(parts) < 2 or text.isascii():
        return text  # forgec's separators ("::", newlines) never hold a surrogate half
    last = ""
    for part in parts:
        if not part:
            continue  # an empty part between the halves still lets them meet
        if last and _SUR_LO <= last <= _HIGH_END and _LOW_START <= part[0] <= _SUR_HI:
            return _from_units(_to_units(text))
        last = part[-1]
    return text


# --- truthiness and numbers (§0.2, §0.3) ---------------------------------------------------------


def is_number(value: object) -> TypeGuard[int | float]:
    """A JSON number: ``int`` or ``float`` but never ``bool``."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_integral_number(value: object) -> TypeGuard[int | float]:
    """``Number.isInteger``: a finite number without a fractional part (``3.0`` qualifies)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value) and value.is_integer()


def is_string_array(value: object) -> TypeGuard[list[str]]:
    """An array whose every element is a string (``Array.isArray(v) && v.every(x => typeof x === "string")``)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def js_truthy(value: object) -> bool:
    """JavaScript truthiness: ``[]`` and ``{}`` are truthy, ``0``, ``NaN`` and ``""`` are not."""
    if value is None or value is UNDEFINED or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def js_number_to_string(value: float | int) -> str:
    """ECMAScript ``Number::toString`` (radix 10): shortest round-trip digits, JS exponent rules."""
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers")
    if isinstance(value, int):
        if abs(value) < 2**53:
            return str(value)
        try:
            value = float(value)
        except OverflowError:  # beyond the largest double: JavaScript's Number is infinite there
            return "Infinity" if value > 0 else "-Infinity"
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr() gives the shortest round-trip digits; re-layout them with JavaScript's rules.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    exp = int(exponent) if exponent else 0
    if "." in mantissa:
        int_part, frac_part = mantissa.split(".")
    else:
        int_part, frac_part = mantissa, ""
    if frac_part == "0":
        frac_part = ""
    digits = (int_part + frac_part).lstrip("0")
    # position of the decimal point relative to the digit string: value = 0.digits × 10^n
    leading_zeros = len(int_part + frac_part) - len((int_part + frac_part).lstrip("0"))
    n = len(int_part) + exp - leading_zeros
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp_text = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + exp_text
    return sign + digits[0] + "." + digits[1:] + "e" + exp_text


def json_literal(value: object) -> str | None:
    """``null``, ``true`` or ``false`` for JSON's three literals, else None.

    Identity checks, not equality: ``True == 1`` in Python, and 1 is a number, not ``true``.
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return None


def js_string(value: Any) -> str:
    """``String(value)`` (§0.4): arrays join with commas, objects are ``[object Object]``."""
    if value is UNDEFINED:
        return "undefined"
    literal = json_literal(value)
    if literal is not None:
        return literal
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return js_number_to_string(value)
    if isinstance(value, list):
        return ",".join("" if item is None or item is UNDEFINED else js_string(item) for item in value)
    return "[object Object]"


# --- dates (§0.11) -------------------------------------------------------------------------------


def civil_from_days(days: int) -> tuple[int, int, int]:
    """Proleptic Gregorian ``(year, month, day)`` of a day count since 1970-01-01, for any year.

    JavaScript's ``Date`` covers ±275,760 years; :mod:`datetime` stops at years 1 and 9999, so dates
    are computed arithmetically (Howard Hinnant's ``civil_from_days``).
    """
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


# --- object key order (§0.5) ---------------------------------------------------------------------


def is_array_index(key: str) -> bool:
    """A canonical array index key ("0", "12", not "01"), which JavaScript enumerates first."""
    if not key or not key.isdigit() or not key.isascii():
        return False
    if len(key) > 1 and key[0] == "0":
        return False
    return int(key) <= 4294967294


def js_key_order(obj: dict[str, Any]) -> list[str]:
    """Keys in JavaScript enumeration order: array-index keys ascending, then insertion order."""
    keys = list(obj)
    index_keys = [k for k in keys if is_array_index(k)]
    if not index_keys:
        return keys
    index_keys.sort(key=int)
    return index_keys + [k for k in keys if not is_array_index(k)]


def js_items(obj: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """``Object.entries`` order."""
    for key in js_key_order(obj):
        yield key, obj[key]


# --- JSON.stringify (§0.5) -----------------------------------------------------------------------

#: a surrogate pair split into two code points (what UTF-16 slicing leaves), to be joined again
_SPLIT_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def _has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point: the only ones strict UTF-8 cannot encode.

    The codec's C loop is five to ten times as fast as a ``[\\ud800-\\udfff]`` search, which
    tests each character against the class (a converted preset quotes over a megabyte of text).
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


#: from this length on, :func:`json_quote` escapes a non-ASCII text through its UTF-8 bytes
_BYTES_QUOTE_MIN = 512
#: the control characters other than tab, newline and carriage return: a text holding one takes the
#: string encoder (they are rare in prompts; those three are escaped byte-wise)
_RARE_CONTROLS = bytes(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D))


def json_quote(text: str) -> str:
    """A JSON string literal exactly as ``JSON.stringify`` writes it (lone surrogates escaped).

    Without surrogates, Python's C string encoder (``ensure_ascii=False``) writes exactly what V8
    writes (the short escapes, ``\\u00xx`` in lower case, nothing else), about five times faster than
    a substitution: ``{{json::…}}`` nested in a block escapes strings of tens of millions of units
    (issue 13, family 8).  A long non-ASCII text goes through its UTF-8 bytes instead: the encoding is the
    surrogate test, and when the only control characters are tab, newline and carriage return, the
    encoder's escapes are five ``bytes.replace`` calls (an ASCII byte never occurs inside a multi-byte
    sequence), about three times as fast as the encoder on prompt text (stop 23)."""
    if text.isascii():
        return _encode_basestring(text)
    if len(text) >= _BYTES_QUOTE_MIN:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            return _quote_with_surrogates(text)
        if len(data.translate(None, _RARE_CONTROLS)) != len(data):
            return _encode_basestring(text)
        escaped = (
            data.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
            .replace(b"\r", b"\\r").replace(b"\t", b"\\t")
        )  # fmt: skip
        return '"' + escaped.decode("utf-8") + '"'
    return _quote_with_surrogates(text) if _has_surrogate(text) else _encode_basestring(text)


def _quote_with_surrogates(text: str) -> str:
    """:func:`json_quote` of a text holding surrogate code points."""
    # pairs split by UTF-16 slicing are joined again; the lone surrogates left are what UTF-8 cannot
    # encode, and ``backslashreplace`` writes exactly V8's escape for them (``\\udXXX``, lower case),
    # all in C: a callback per character took minutes on a doubled lone surrogate (issue 13)
    joined = _from_units(_to_units(text)) if _SPLIT_PAIR.search(text) else text
    return _encode_basestring(joined).encode("utf-8", "backslashreplace").decode("utf-8")


def _number_json(value: float | int) -> str:
    """A number as ``JSON.stringify`` writes it: non-finite values (also huge ints) are ``null``."""
    text = js_number_to_string(value)
    return "null" if text in ("Infinity", "-Infinity", "NaN") else text


def json_stringify(value: Any, indent: int | None = None, *, sort_keys: bool = False) -> str | None:
    """``JSON.stringify(value, null, indent)``; returns ``None`` where JavaScript returns ``undefined``.

    Object keys follow JavaScript enumeration order; members whose value is :data:`UNDEFINED` or a
    function are skipped and such array elements (and holes) print ``null``; a ``bigint`` raises
    ``TypeError`` with V8's text.
    """
    if value is UNDEFINED or callable(value):
        return None
    parts: list[str] = []
    _write_json(value, parts, indent, sort_keys)
    return "".join(parts)


def _scalar_text(value: Any) -> str | None:
    """The JSON text of a non-container value, or None for a list/tuple/dict.

    ``undefined``, a function and an array hole print ``null`` (they only reach here as array
    elements: object members holding them are skipped); a ``bigint`` throws as in JavaScript.
    """
    if value is UNDEFINED or value is HOLE:
        return "null"
    literal = json_literal(value)
    if literal is not None:
        return literal
    if isinstance(value, str):
        return json_quote(value)
    if isinstance(value, (int, float)):
        return _number_json(value)
    if isinstance(value, JSNonPlainObject) and value.iso is not None:
        return json_quote(value.iso)  # Date.prototype.toJSON
    if isinstance(value, (list, tuple, dict)):
        return None
    if isinstance(value, JSBigInt):
        raise TypeError("Do not know how to serialize a BigInt")
    if callable(value):
        return "null"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


#: how deep :func:`_write_fast` recurses before the iterative writer takes the value over
_FAST_DEPTH = 200
#: a key that may be an array index (a digit after the start or a NUL separator): such objects take
#: :func:`js_key_order`; a false positive (a key holding NUL then a digit) only costs that call
_MAYBE_INDEX_KEY = re.compile("(?:^|\x00)[0-9]")
_SAFE_INT = 2**53


class _TooDeep(Exception):
    """Raised by :func:`_write_fast` past :data:`_FAST_DEPTH`: the caller starts again iteratively."""


def _write_json(value: Any, out: list[str], indent: int | None, sort_keys: bool) -> None:
    """Write ``value`` as ``JSON.stringify`` does: the recursive writer, or the iterative one for deep data.

    The recursive writer dispatches on the exact type of plain JSON data (``str``, ``int``, ``dict``…)
    without the per-value calls of the general writer; it is about three times as fast on a converted
    preset or a compile report.  Past :data:`_FAST_DEPTH` levels (or near Python's recursion limit) it
    gives up and :func:`_stringify_into`, which handles any depth, writes the whole value again.
    """
    mark = len(out)
    try:
        _write_fast(value, out, None if indent is None else " " * indent, "", sort_keys, 0)
    except (_TooDeep, RecursionError):
        del out[mark:]
        _stringify_into(value, out, indent, "", sort_keys=sort_keys)


def _js_keys(obj: dict[Any, Any]) -> list[Any]:
    keys = list(obj)
    try:
        maybe_index = _MAYBE_INDEX_KEY.search("\x00".join(keys)) is not None
    except TypeError:  # a key that is not a string: the general order decides (and fails) as before
        maybe_index = True
    return js_key_order(obj) if maybe_index else keys


#: object keys already quoted: a document repeats a few keys thousands of times (a converted preset:
#: ~7,000 members, a dozen names), bounded so that documents with ever-new keys cannot grow it far
_QUOTED_KEYS: dict[str, str] = {}
_QUOTED_KEYS_MAX = 4096


def _quote_key(key: str) -> str:
    """:func:`json_quote` of an object key, remembered in :data:`_QUOTED_KEYS` when short."""
    quoted = json_quote(key)
    if len(key) <= 64 and len(_QUOTED_KEYS) < _QUOTED_KEYS_MAX:
        _QUOTED_KEYS[key] = quoted
    return quoted


def _write_fast(value: Any, out: list[str], unit: str | None, level: str, sort_keys: bool, depth: int) -> None:
    """The recursive writer of :func:`_write_json` (same output as :func:`_stringify_into`)."""
    kind = type(value)
    if kind is str:
        out.append(json_quote(value))
        return
    if kind is int:
        out.append(str(value) if -_SAFE_INT < value < _SAFE_INT else _number_json(value))
        return
    if kind is bool or value is None:
        out.append("true" if value is True else "false" if value is False else "null")
        return
    if kind is not dict and kind is not list:  # plain containers skip the scalar tests
        text = _scalar_text(value)
        if text is not None:
            out.append(text)
            return
    if depth >= _FAST_DEPTH:
        raise _TooDeep
    inner = None if unit is None else level + unit
    if isinstance(value, dict):
        keys = sorted(value) if sort_keys else _js_keys(value)
        first = True
        for key in keys:
            child = value[key]
            kind = type(child)
            if kind not in _PLAIN_TYPES and (child is UNDEFINED or callable(child)):
                continue
            quoted = _QUOTED_KEYS.get(key) or _quote_key(key)
            if inner is None:
                out.append(("{" if first else ",") + quoted + ":")
            else:
                out.append(("{\n" if first else ",\n") + inner + quoted + ": ")
            first = False
            # the commonest members written here, as the call below would write them (a call per
            # value was most of the writer's own time on a converted preset)
            if kind is str:
                out.append(json_quote(child))
            elif kind is bool:
                out.append("true" if child else "false")
            elif kind is int and -_SAFE_INT < child < _SAFE_INT:
                out.append(str(child))
            else:
                _write_fast(child, out, unit, level if inner is None else inner, sort_keys, depth + 1)
        if first:
            out.append("{}")
        else:
            out.append("}" if inner is None else "\n" + level + "}")
        return
    if not value:
        out.append("[]")
        return
    separator = "," if inner is None else ",\n" + inner
    out.append("[" if inner is None else "[\n" + inner)
    first = True
    for child in value:
        if not first:
            out.append(separator)
        first = False
        if type(child) is str:
            out.append(json_quote(child))
        else:
            _write_fast(child, out, unit, level if inner is None else inner, sort_keys, depth + 1)
    out.append("]" if inner is None else "\n" + level + "]")


_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), dict, list})


def _stringify_into(
    value: Any, out: list[str], indent: int | None, current: str, *, sort_keys: bool = False
) -> None:
    """Write ``value`` as JSON into ``out``.

    Iterative, with an explicit stack of open containers, so data nested thousands of levels deep
    (the readers accept 5,000) is written without touching Python's recursion limit.
    """
    text = _scalar_text(value)
    if text is not None:
        out.append(text)
        return
    # each frame: (iterator over (prefix, child) pairs, closing text)
    stack: list[tuple[Any, str, str]] = []

    def open_container(container: Any, level: str) -> None:
        if isinstance(container, dict):
            pairs = sorted(container.items()) if sort_keys else js_items(container)
            members = [(k, v) for k, v in pairs if v is not UNDEFINED and not callable(v)]
            if not members:
                out.append("{}")
                return
            if indent is None:
                out.append("{")
                items = ((("," if i else "") + json_quote(k) + ":", v) for i, (k, v) in enumerate(members))
                stack.append((items, "}", level))
            else:
                inner = level + " " * indent
                out.append("{\n")
                items = (
                    ((",\n" if i else "") + inner + json_quote(k) + ": ", v) for i, (k, v) in enumerate(members)
                )
                stack.append((items, "\n" + level + "}", inner))
        else:
            if not container:
                out.append("[]")
                return
            if indent is None:
                out.append("[")
                items = (("," if i else "", v) for i, v in enumerate(container))
                stack.append((items, "]", level))
            else:
                inner = level + " " * indent
                out.append("[\n")
                items = (((",\n" if i else "") + inner, v) for i, v in enumerate(container))
                stack.append((items, "\n" + level + "]", inner))

    open_container(value, current)
    while stack:
        items, closing, level = stack[-1]
        for prefix, child in items:
            out.append(prefix)
            text = _scalar_text(child)
            if text is not None:
                out.append(text)
                continue
            open_container(child, level)
            break
        else:
            stack.pop()
            out.append(closing)


# --- reports (conformance *Output*) --------------------------------------------------------------


def dumps_report(doc: Any) -> str:
    """The compile-report serialisation: ``json.dumps(doc, indent=2, sort_keys=True,
    ensure_ascii=False) + "\n"`` with numbers printed as JavaScript prints them (§16.11) and lone
    surrogates escaped (§16.7).  ``json.dumps`` itself cannot be told how to print floats.
    """
    parts: list[str] = []
    _write_json(doc, parts, 2, True)
    parts.append("\n")
    return "".join(parts)

