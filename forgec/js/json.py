"""``JSON.parse`` as V8 (Node 20, V8 11.3) does it: the value, and on failure V8's exact reason.

pi-forge reads a stack file with ``JSON.parse``; a file it cannot parse is reported as
``Failed to parse JSON: <reason>`` (compile-core.md §10.2) with the reason texts of §16.10.  Reading
must stay fast (``forgec validate`` of one file cold < 150 ms), so :func:`loads` first tries
CPython's C ``json`` module, which accepts exactly the JSON grammar once ``NaN``/``Infinity`` are
refused, and only when that fails (or runs out of recursion) runs :class:`_Scanner`, a hand-written
transliteration of V8's ``JsonParser`` that knows *why* the text is invalid and *where*.

The scanner is iterative (an explicit stack), so it also reads documents nested deeper than the C
module can; :data:`MAX_DEPTH` bounds that (a documented deviation: V8 has no limit of its own, but
every later stage of forgec would need to recurse that deep too).  The same scanner, in tracking
mode, records where each value sits in the text; :mod:`forgec.source` uses it lazily to turn a
diagnostic's pointer into line and column.

Numbers follow the team's data model: an integer literal (no fraction, no exponent) becomes ``int``
when it is exactly representable as a double (``|n| <= 2**53``), otherwise the ``float`` JavaScript
would hold (``123456789012345678901`` -> ``1.2345678901234568e+20``); every other literal becomes
``float`` (``1e400`` -> ``inf``, as ``Infinity`` in JavaScript).  Duplicate keys: the last value wins
and the key keeps its first position, as in JavaScript.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

from forgec.errors import ForgecError

__all__ = [
    "FAST_MAX_DEPTH", "MAX_DEPTH", "NOT_PARSED", "ORJSON_AFTER_BYTES", "TOO_MANY_OPENINGS", "JSONParseError", "loads", "loads_bytes",
    "loads_decoded", "loads_shallow", "scan_decoded", "scan_spans", "use_orjson", "v8_parse_error",
]  # fmt: skip

#: Deepest nesting forgec reads (compile-core §16.16 asks for at least 2,000).
MAX_DEPTH = 5000
#: Recursion limit set while the C ``json`` module parses (one level per nesting level in 3.11): a
#: document near :data:`MAX_DEPTH` fails there and the scanner decides exactly.
_C_RECURSION_LIMIT = MAX_DEPTH


class JSONParseError(ForgecError, ValueError):
    """Invalid JSON: ``reason`` is V8's ``JSON.parse`` message, ``offset`` a code-point index."""

    def __init__(self, reason: str, offset: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        #: index into the Python string (code points), for line/column; ``None`` if not applicable
        self.offset = offset


class JSONDepthError(JSONParseError):
    """Valid JSON nested deeper than :data:`MAX_DEPTH` (forgec's limit, not V8's)."""


_TWO53 = 2**53


def _parse_int(literal: str) -> int | float:
    if len(literal) < 16:
        return int(literal)
    value = int(literal)
    return value if -_TWO53 <= value <= _TWO53 else float(literal)


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_constant=_refuse_constant)
#: the scanner ``_DECODER.decode`` runs, called directly (``decode`` and ``raw_decode`` only add two
#: Python frames and whitespace regexes around it; every compile parses two files)
_SCAN_ONCE: Any = _DECODER.scan_once  # type: ignore[attr-defined]  # CPython's scanner, not in the stubs
#: the same scanner without the ``parse_int`` hook: integers become ``int`` in C.  Used only for a
#: text with no run of 16 digits -- every integer literal in it is then shorter than 16 digits
#: (a sign does not matter: 15 digits are below 2**53), where ``_parse_int`` returns ``int()``
#: too.  The hook was a Python call per integer, ~20 % of parsing a context file.
_SCAN_PLAIN: Any = json.JSONDecoder(parse_constant=_refuse_constant).scan_once  # type: ignore[attr-defined]
#: the most integer literals :data:`_KNOWN_INTEGERS` holds before it starts again
_KNOWN_INTEGERS_MAX = 4096
#: the longest literal :data:`_KNOWN_INTEGERS` keeps (a millisecond timestamp has 13 digits)
_KNOWN_LITERAL_CHARS = 24


class _KnownIntegers(dict):  # type: ignore[type-arg]  # str -> int | float
    """Integer literals read before and their values (:func:`_parse_int`), shared by every call of
    :data:`_SCAN_KNOWN`: a literal met again is answered by a ``dict`` lookup in C, one met first by
    :func:`_parse_int` in :meth:`__missing__` (at most :data:`_KNOWN_INTEGERS_MAX` of them, each at most
    :data:`_KNOWN_LITERAL_CHARS` long, then it starts again).  A context repeats its integers from
    turn to turn (the history's timestamps and token counts, small counts and sizes), and the lookup
    costs about what C's own conversion of a literal costs; values are ``int``/``float``, immutable,
    so sharing them between calls and threads shows nowhere (each step is one ``dict`` operation)."""

    def __missing__(self, literal: str) -> int | float:
        value = _parse_int(literal)
        if len(literal) <= _KNOWN_LITERAL_CHARS:  # a bound on what the table holds (4,096 short texts)
            if len(self) >= _KNOWN_INTEGERS_MAX:
                self.clear()
            self[literal] = value
        return value


_KNOWN_INTEGERS = _KnownIntegers()
#: the C scanner with :data:`_KNOWN_INTEGERS` as its ``parse_int``: exactly :data:`_SCAN_ONCE`'s values
#: (each literal through :func:`_parse_int`) without a Python call per integer met before, so it
#: needs no digit-run pass over the text to be picked (:func:`loads_shallow`)
_SCAN_KNOWN: Any = json.JSONDecoder(parse_int=_KNOWN_INTEGERS.__getitem__, parse_constant=_refuse_constant).scan_once  # type: ignore[attr-defined]
#: digits -> ``0``, ``[`` and ``{`` -> ``[``, every other byte -> a space: a run of 16 digits becomes
#: ``_LONG_RUN``, and ``count(b"[")`` counts the openings.  A ``bytes.translate``, a substring search
#: and a count are C loops; ``re.search("[0-9]{16}")`` costs ~10x more.
_DIGIT_MAP = bytes(48 if 48 <= byte <= 57 else 91 if byte in (91, 123) else 32 for byte in range(256))
_LONG_RUN = b"0" * 16
#: :func:`loads_decoded` counts integer literals up to one per this many bytes before it tests for digit runs
_BYTES_PER_COUNTED_INT = 256


class _ManyIntegers(Exception):
    """Internal: :func:`loads_decoded`'s counting decoder met more integers than it takes on."""


class _IntegerMemo(dict):  # type: ignore[type-arg]  # str -> int | float
    """The ``parse_int`` hook of :func:`scan_decoded`, as ``memo.__getitem__``: each distinct literal
    is converted once by :func:`_parse_int` (in :meth:`__missing__`, counted against ``budget``);
    a literal met again is answered by ``dict`` lookup in C, with no Python frame.  A preset repeats
    a few integers (NemoEngine: 1,581 literals, 18 distinct), so the Python call per integer
    (~0.2 µs) was ~0.25 ms of its parse.  Equal literals then share one value object: ``int`` and
    ``float`` are immutable, so nothing can tell."""

    def __init__(self, budget: int) -> None:
        super().__init__()
        self.budget = budget

    def __missing__(self, literal: str) -> int | float:
        if len(self) >= self.budget:
            raise _ManyIntegers
        value = self[literal] = _parse_int(literal)
        return value


#: what :func:`loads_shallow` answers for a text with too many openings (never a JSON value)
TOO_MANY_OPENINGS: Any = object()
#: what :func:`scan_decoded` answers for a text the C scanner does not parse (never a JSON value)
NOT_PARSED: Any = object()
_JSON_WS = " \t\n\r"


def _end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where ``pattern`` -- one that matches the empty string too, so it always matches -- stops at ``pos``."""
    match = pattern.match(text, pos)
    assert match is not None
    return match.end()


def _mapped(text: str) -> bytes:
    """``text`` through :data:`_DIGIT_MAP` (its UTF-8 bytes: no other byte is a digit or bracket)."""
    return text.encode("utf-8", "surrogatepass").translate(_DIGIT_MAP)


# --- the optional accelerator: orjson ------------------------------------------------------------
#
# With the ``[speed]`` extra installed, a file's bytes are first read by orjson (a Rust parser, ~2.5x
# the C scanner's speed on a context file, and it needs no decoded text).  It is used only where its
# value is provably the one the C scanner and the hooks above give; everything else -- no orjson, a
# byte-order mark, invalid UTF-8, a lone surrogate escape, ``1e400``, an integer beyond +-(2**53 - 1),
# nesting past FAST_MAX_DEPTH, any invalid text -- falls back to the path above, unchanged, which gives
# V8's value or V8's error.  Integers: orjson gives an ``int`` up to 64 bits, where forgec's data model
# holds JavaScript's double beyond 2**53; its ``dumps`` with OPT_STRICT_INTEGER refuses exactly those
# (and nesting deeper than 254 levels), so one C pass over the value tells whether any is there.  A large
# document that is not all ASCII is walked instead (:func:`_fits`, the same answer): that pass also
# encodes every non-ASCII string to UTF-8.
# tests/js/test_json_orjson.py compares the two paths on a table of edge cases and on generated texts.

# When: importing orjson costs ~2 ms in a compile's process (it imports ``uuid``, ``platform`` and
# ``datetime``), about what it saves on 1-3 MB of JSON, so a process imports it only once it has read
# ORJSON_AFTER_BYTES through the usual path: a cold ``forgec validate`` of a few files never pays for
# it, a host or a batch run switches after its first few hundred files, a large preset at once.
# ``FORGEC_ORJSON=0`` never uses it, ``FORGEC_ORJSON=1`` from the first file (CI's compiled run, so
# the whole suite and the output hashes go through it).

#: the deepest nesting a value :func:`loads_bytes` returns can have (orjson's ``dumps`` stops at 255)
FAST_MAX_DEPTH = 254
#: bytes a process reads through the usual path before :func:`loads_bytes` imports orjson
ORJSON_AFTER_BYTES = 0 if os.environ.get("FORGEC_ORJSON") == "1" else 1 << 20
_BOM = b"\xef\xbb\xbf"
#: ``(orjson.loads, orjson.dumps, orjson.OPT_STRICT_INTEGER, orjson.OPT_SORT_KEYS)``, or None: absent, turned off, or not yet
_ORJSON: Any = None
#: whether :func:`_find_orjson` has run (then :data:`_ORJSON` is final until :func:`use_orjson`)
_ORJSON_LOOKED = False
#: bytes offered to :func:`loads_bytes` before it looked for orjson (threads -- the language server's
#: workers -- may lose a count, which only delays the switch, or both look, which imports it once)
_BYTES_BEFORE = 0


def _find_orjson() -> Any:
    """Import orjson once, unless ``FORGEC_ORJSON=0``; its three names, or None."""
    global _ORJSON, _ORJSON_LOOKED
    _ORJSON_LOOKED = True
    _ORJSON = None
    if os.environ.get("FORGEC_ORJSON") == "0":
        return None
    try:
        import orjson
    except ImportError:
        return None
    _ORJSON = (orjson.loads, orjson.dumps, orjson.OPT_STRICT_INTEGER, orjson.OPT_SORT_KEYS)
    return _ORJSON


def orjson_in_use() -> bool:
    """Whether :func:`loads_bytes` reads through orjson now (then :func:`dumps_sorted` writes too)."""
    return _ORJSON is not None


def dumps_sorted(value: Any) -> bytes | None:
    """orjson's compact UTF-8 text of ``value`` with every object's keys sorted by code point, or None
    when orjson is not in use now (see :func:`loads_bytes`: it is looked for after a megabyte of JSON, so
    a small run never imports it) or refuses ``value`` (a lone surrogate, a key that is not exactly a
    string, a type it does not know).  The caller vouches that ``value`` is data orjson writes as the
    ``json`` encoder would (``forgec.fingerprint._check_plain``): orjson also writes dataclasses, dates
    and NaN, which the runtime does not."""
    fast = _ORJSON
    if fast is None:
        return None
    try:
        data: bytes = fast[1](value, None, fast[3])
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    return data


def use_orjson(enabled: bool | None) -> bool:
    """Turn the orjson path on now (if orjson is installed and ``FORGEC_ORJSON`` is not ``0``), off, or
    (``None``) back to waiting for :data:`ORJSON_AFTER_BYTES`, for tests and benchmarks; whether it is used now."""
    global _ORJSON, _ORJSON_LOOKED, _BYTES_BEFORE
    if enabled:
        return _find_orjson() is not None
    _ORJSON, _ORJSON_LOOKED, _BYTES_BEFORE = None, enabled is not None, 0
    return False


def loads_bytes(data: bytes) -> Any:
    """``JSON.parse`` of ``data`` decoded as strict UTF-8, read by orjson, or :data:`NOT_PARSED` where
    the caller must take its usual path (see above): the value, when there is one, is exactly the one
    :func:`loads` gives for ``data.decode("utf-8")``, and it nests at most :data:`FAST_MAX_DEPTH` deep."""
    global _BYTES_BEFORE
    if _ORJSON_LOOKED:
        fast = _ORJSON
    else:
        _BYTES_BEFORE += len(data)
        if _BYTES_BEFORE < ORJSON_AFTER_BYTES:
            return NOT_PARSED
        fast = _find_orjson()
    if fast is None or data.startswith(_BOM):  # orjson refuses a BOM today; JSON.parse always does
        return NOT_PARSED
    try:
        value = fast[0](data)
        if len(data) < _WALK_FROM_BYTES or data.isascii():
            fast[1](value, None, fast[2])  # an integer beyond +-(2**53 - 1), or too deep: TypeError
        elif not _fits([value], 0):
            return NOT_PARSED
    except (ValueError, TypeError):  # orjson.JSONDecodeError is a ValueError, JSONEncodeError a TypeError
        return NOT_PARSED
    return value


#: from this size on, a document that is not all ASCII is checked by :func:`_fits` instead of ``dumps``
#: (stop 32): ``dumps`` encodes every non-ASCII string to UTF-8, most of its cost on a large preset of
#: prose (1.0 of 1.1 ms on a 1.7 MB one, against 0.5 ms for the walk interpreted); on ASCII or small
#: files of many small values (contexts, stack files) the C pass is the cheaper one (0.34 against 0.46 ms
#: for 219 corpus files, compiled)
_WALK_FROM_BYTES = 256 * 1024


#: the largest magnitude of an integer :func:`loads_bytes` keeps (JavaScript's safe integers)
_SAFE_INTEGER = (1 << 53) - 1


def _fits(container: Any, depth: int) -> bool:
    """Whether ``container`` (a dict or list orjson made, at nesting ``depth``; ``[value]`` at 0 for a whole value)
    holds no integer beyond +-(2**53 - 1) and nests at most :data:`FAST_MAX_DEPTH` deep: exactly what
    ``orjson.dumps(value, None, OPT_STRICT_INTEGER)`` accepts for a value ``orjson.loads`` made
    (stop 31's check).  A walk that skips strings: the ``dumps`` check encoded every non-ASCII string
    to UTF-8 (a preset's 1.2 MB of prose: ~1 ms, most of the check), this looks only at containers and
    integers (stop 32)."""
    if depth > FAST_MAX_DEPTH:
        return False
    for item in container.values() if type(container) is dict else container:
        kind = type(item)
        if kind is int:
            if item > _SAFE_INTEGER or item < -_SAFE_INTEGER:
                return False
        elif (kind is dict or kind is list) and not _fits(item, depth + 1):
            return False
    return True


def loads(text: str) -> Any:
    """Parse ``text`` exactly as ``JSON.parse``; raise :class:`JSONParseError` with V8's reason."""
    return _loads(text, _LONG_RUN in _mapped(text))


def loads_decoded(text: str, data: bytes, *, fast: bool = True) -> Any:
    """:func:`loads` of ``text``, which is ``data`` decoded as UTF-8 (bad bytes replaced, as Node reads
    a file), for a document of prose with few integer literals (a SillyTavern preset: about one a
    kilobyte).  The digit-run test costs a pass over ``data`` and a buffer of its size (about 1 ms on
    a 1.7 MB preset, page faults included); the hooked decoder it would avoid costs ~0.15 µs an
    integer (0.2 ms on that preset; a repeated literal costs a ``dict`` lookup, :class:`_IntegerMemo`).
    So the hooked decoder runs first, counting distinct literals: past one per
    :data:`_BYTES_PER_COUNTED_INT` bytes of ``data`` it gives up, and the test on ``data`` picks
    the decoder as :func:`loads` does (ASCII bytes decode one to one and every other byte maps to a
    space in either, so the runs are the same) -- a text full of numbers costs at most about twice
    the test.  Both decoders give the same value (see :data:`_SCAN_PLAIN`).  orjson, when installed,
    reads ``data`` first (:func:`loads_bytes`: it refuses bytes that are not UTF-8, so ``text`` is
    then their plain decoding), unless ``fast`` is false (a caller that has asked it already)."""
    if fast:
        value = loads_bytes(data)
        if value is not NOT_PARSED:
            return value
    value = scan_decoded(text, data)
    # Invalid, or deeper than the C module manages: the V8 scanner decides and explains.
    return _Scanner(text).parse() if value is NOT_PARSED else value


def scan_decoded(text: str, data: bytes) -> Any:
    """:func:`loads_decoded` by the C scanner alone: the value, or :data:`NOT_PARSED` where
    :func:`loads_decoded` would hand ``text`` to the V8 scanner (invalid, or nested too deeply for
    the C module).  For a caller that parses a text equal in value to the one it must explain
    (:mod:`forgec.js.json_utf8`) and asks the V8 scanner about the original."""
    memo = _IntegerMemo(len(data) // _BYTES_PER_COUNTED_INT)
    scan: Any = json.JSONDecoder(parse_int=memo.__getitem__, parse_constant=_refuse_constant).scan_once  # type: ignore[attr-defined]
    try:
        return _scan_c(text, scan)
    except _ManyIntegers:
        return _scan_c(text, _SCAN_ONCE if _LONG_RUN in data.translate(_DIGIT_MAP) else _SCAN_PLAIN)


def loads_shallow(text: str, max_openings: int, data: bytes | None = None) -> Any:
    """:func:`loads`, or :data:`TOO_MANY_OPENINGS` without parsing when ``text`` holds more than
    ``max_openings`` ``[`` and ``{`` characters (anywhere, strings included): a bound on how deep
    the value can nest (without ``data``, decided in the same pass that picks the decoder).

    ``data``: the bytes ``text`` was decoded from as strict UTF-8 (a file's), which are then its
    encoding: the openings are counted in them (no ``[`` or ``{`` byte is part of another character)
    and :data:`_SCAN_KNOWN` reads the text, with no pass to pick a decoder."""
    if data is None:
        mapped = _mapped(text)
        if mapped.count(b"[") > max_openings:
            return TOO_MANY_OPENINGS
        scan = _SCAN_ONCE if _LONG_RUN in mapped else _SCAN_PLAIN
    else:
        # a file's bytes: two counts, and the shared-literal scanner instead of a digit-run search
        # (see _SCAN_KNOWN; the mapping pass was ~60 % of this step, each count ~20 %)
        if data.count(b"[") + data.count(b"{") > max_openings:
            return TOO_MANY_OPENINGS
        scan = _SCAN_KNOWN
    # what _loads does, without its two calls (every compile of a context file comes here)
    value = _scan_c(text, scan)
    return _Scanner(text).parse() if value is NOT_PARSED else value


def _loads(text: str, long_digit_run: bool) -> Any:
    """:func:`loads`, told whether ``text`` holds 16 digits in a row (then the hooked decoder)."""
    return _loads_with(text, _SCAN_ONCE if long_digit_run else _SCAN_PLAIN)


def _loads_with(text: str, scan: Any) -> Any:
    """:func:`loads` with the C scanner ``scan`` (what it raises other than a parse failure passes)."""
    value = _scan_c(text, scan)
    # Invalid, or deeper than the C module manages: the V8 scanner decides and explains.
    return _Scanner(text).parse() if value is NOT_PARSED else value


def _scan_c(text: str, scan: Any) -> Any:
    """The value the C scanner ``scan`` reads from ``text``, or :data:`NOT_PARSED` (invalid, or
    deeper than the C module manages); what it raises other than a parse failure passes."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(_C_RECURSION_LIMIT)
        value, end = scan(text, len(text) - len(text.lstrip(_JSON_WS)))
        if end == len(text) or not text[end:].strip(_JSON_WS):  # nothing but whitespace after it
            return value
    except (ValueError, RecursionError, StopIteration):  # StopIteration: no value where one must start
        pass
    finally:
        sys.setrecursionlimit(limit)
    return NOT_PARSED


def v8_parse_error(text: str) -> JSONParseError | None:
    """The error ``JSON.parse(text)`` throws, or ``None`` if it parses (for tests and tools)."""
    try:
        _Scanner(text).parse()
    except JSONParseError as error:
        return error
    return None


def scan_spans(
    text: str, wanted: set[tuple[str | int, ...]] | None = None
) -> dict[tuple[str | int, ...], tuple[int, int, int, int]]:
    """Where each value of the (valid) JSON ``text`` sits: pointer -> ``(key_start, key_end,
    value_start, value_end)`` as code-point offsets (``key_*`` are ``-1`` for array elements and
    the root).  With ``wanted``, only those pointers are recorded.  Duplicate keys: the last wins.
    """
    scanner = _Scanner(text, track=True, wanted=wanted)
    scanner.parse()
    return scanner.spans


# --- the V8 scanner ------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_PLAIN_STRING = re.compile(r'[^"\\\x00-\x1f]*')
_DIGITS = re.compile(r"[0-9]*")
_HEX = "0123456789abcdefABCDEF"
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_SPECIAL_TEXTS = frozenset({"NaN", "Infinity", "undefined", "[object Object]"})
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_MAX_CONTEXT = 10
_MIN_LENGTH_FOR_CONTEXT = 21

# token classes of the first character (V8's one_char_json_tokens)
_EOS, _STRING, _NUMBER, _LBRACE, _RBRACE, _LBRACK, _RBRACK = range(7)
_TRUE, _FALSE, _NULL, _COLON, _COMMA, _ILLEGAL = range(7, 13)
_TOKENS = {
    '"': _STRING,
    "-": _NUMBER,
    "{": _LBRACE,
    "}": _RBRACE,
    "[": _LBRACK,
    "]": _RBRACK,
    "t": _TRUE,
    "f": _FALSE,
    "n": _NULL,
    ":": _COLON,
    ",": _COMMA,
}
for _digit in "0123456789":
    _TOKENS[_digit] = _NUMBER


class _Fail(Exception):
    """Internal: carries the finished :class:`JSONParseError` out of the scanner."""


class _Scanner:
    """V8's ``JsonParser`` (src/json/json-parser.cc, V8 11.3), iterative, in Python.

    ``pos`` is a code-point index into ``text``; messages report UTF-16 offsets as V8 does.
    """

    def __init__(
        self, text: str, *, track: bool = False, wanted: set[tuple[str | int, ...]] | None = None
    ) -> None:
        self.text = text
        self.end = len(text)
        self.pos = 0
        self.track = track
        self.wanted = wanted
        self.spans: dict[tuple[str | int, ...], tuple[int, int, int, int]] = {}

    # -- errors

    def _units(self, offset: int) -> int:
        """UTF-16 offset of code-point index ``offset``."""
        return offset + len(_ASTRAL.findall(self.text, 0, offset))

    def _error(self, reason: str, offset: int | None) -> _Fail:
        return _Fail(JSONParseError(reason, offset))

    def _at(self, template: str) -> _Fail:
        """A message with V8's ``at position N``."""
        return self._error(f"{template} in JSON at position {self._units(self.pos)}", self.pos)

    def _token_of(self, index: int) -> int:
        if index >= self.end:
            return _EOS
        return _TOKENS.get(self.text[index], _ILLEGAL)

    def _unexpected(self, token: int | None = None) -> _Fail:
        """``ReportUnexpectedToken(token)`` without an explicit message."""
        if token is None:
            token = self._token_of(self.pos)
        if token == _EOS:
            return self._error("Unexpected end of JSON input", self.end)
        if token == _NUMBER:
            return self._at("Unexpected number")
        if token == _STRING:
            return self._at("Unexpected string")
        if self.text in _SPECIAL_TEXTS:
            return self._error(f'"{self.text}" is not valid JSON', self.pos)
        from forgec.js.values import utf16_slice

        p = self._units(self.pos)
        length = self._units(self.end)
        char = utf16_slice(self.text, p, p + 1)
        if length < _MIN_LENGTH_FOR_CONTEXT:
            snippet = f'"{self.text}"'
        elif p < _MAX_CONTEXT:
            snippet = f'"{utf16_slice(self.text, 0, p + _MAX_CONTEXT)}"...'
        elif p < length - _MAX_CONTEXT:
            snippet = f'..."{utf16_slice(self.text, p - _MAX_CONTEXT, p + _MAX_CONTEXT)}"...'
        else:
            snippet = f'..."{utf16_slice(self.text, p - _MAX_CONTEXT, length)}"'
        return self._error(f"Unexpected token '{char}', {snippet} is not valid JSON", self.pos)

    # -- lexing helpers

    def _skip_ws(self) -> int:
        self.pos = _end(_WS, self.text, self.pos)
        return self._token_of(self.pos)

    def _expect(self, char: str, message: str | None) -> None:
        """``ExpectNext``: skip whitespace, require ``char``."""
        self._skip_ws()
        if self.pos < self.end and self.text[self.pos] == char:
            self.pos += 1
            return
        if message is not None:
            raise self._at(message)
        raise self._unexpected()

    def _string(self) -> str:
        """``ScanJsonString``; ``pos`` is just after the opening quote."""
        text, end = self.text, self.end
        parts: list[str] = []
        surrogate = False
        while True:
            stop = _end(_PLAIN_STRING, text, self.pos)
            if stop > self.pos:
                parts.append(text[self.pos : stop])
            self.pos = stop
            if stop >= end:
                raise self._at("Unterminated string")
            char = text[stop]
            if char == '"':
                self.pos = stop + 1
                break
            if char == "\\":
                self.pos = stop + 1
                if self.pos >= end:
                    raise self._unexpected(_EOS)
                esc = text[self.pos]
                if ord(esc) > 0xFF:
                    raise self._unexpected(_ILLEGAL)
                if esc in _ESCAPES:
                    parts.append(_ESCAPES[esc])
                    self.pos += 1
                elif esc == "u":
                    value = 0
                    for _ in range(4):
                        self.pos += 1
                        if self.pos >= end or text[self.pos] not in _HEX:
                            raise self._at("Bad Unicode escape")
                        value = value * 16 + int(text[self.pos], 16)
                    parts.append(chr(value))
                    surrogate = surrogate or 0xD800 <= value <= 0xDFFF
                    self.pos += 1
                else:
                    raise self._at("Bad escaped character")
                continue
            raise self._at("Bad control character in string literal")
        joined = "".join(parts)
        if surrogate:  # "\ud83d\ude00" is one character, as in Python's json module
            from forgec.js.values import rejoin_surrogates

            joined = rejoin_surrogates(joined)
        return joined

    def _number(self) -> int | float:
        """``ParseJsonNumber``; ``pos`` is at ``-`` or the first digit."""
        text, end = self.text, self.end
        start = self.pos
        if text[self.pos] == "-":
            self.pos += 1
        char = text[self.pos] if self.pos < end else ""
        if char == "0":
            self.pos += 1
            if self.pos < end and "0" <= text[self.pos] <= "9":
                raise self._unexpected(_NUMBER)
        elif "0" <= char <= "9" and char:
            self.pos = _end(_DIGITS, text, self.pos)
        else:
            raise self._at("No number after minus sign")
        integral = True
        if self.pos < end and text[self.pos] == ".":
            integral = False
            self.pos += 1
            if not (self.pos < end and "0" <= text[self.pos] <= "9"):
                raise self._at("Unterminated fractional number")
            self.pos = _end(_DIGITS, text, self.pos)
        if self.pos < end and text[self.pos] in "eE":
            integral = False
            self.pos += 1
            if self.pos < end and text[self.pos] in "+-":
                self.pos += 1
            if not (self.pos < end and "0" <= text[self.pos] <= "9"):
                raise self._at("Exponent part is missing a number")
            self.pos = _end(_DIGITS, text, self.pos)
        literal = text[start : self.pos]
        return _parse_int(literal) if integral else float(literal)

    def _literal(self, word: str, value: Any) -> Any:
        """``ScanLiteral``: the first character already matched."""
        text = self.text
        if text.startswith(word, self.pos):
            self.pos += len(word)
            return value
        self.pos += 1
        for expected in word[1:]:
            if self.pos >= self.end:
                raise self._unexpected(_EOS)
            if text[self.pos] != expected:
                raise self._unexpected()
            self.pos += 1
        raise self._unexpected(_EOS)  # pragma: no cover - startswith would have matched

    # -- the parser

    def _record(self, path: list[str | int], key_span: tuple[int, int], start: int, end: int) -> None:
        pointer = tuple(path)
        if self.wanted is None or pointer in self.wanted:
            self.spans[pointer] = (key_span[0], key_span[1], start, end)

    def parse(self) -> Any:
        try:
            value = self._parse_value()
            if self._skip_ws() != _EOS:
                raise self._error(
                    f"Unexpected non-whitespace character after JSON at position {self._units(self.pos)}",
                    self.pos,
                )
            return value
        except _Fail as fail:
            raise fail.args[0] from None

    def _parse_value(self) -> Any:
        # Each frame: [container, is_object, pending_key, key_span, value_start]
        stack: list[list[Any]] = []
        path: list[str | int] = []
        track = self.track
        text = self.text
        no_key = (-1, -1)
        key_span = no_key
        while True:
            # produce a value
            token = self._skip_ws()
            start = self.pos
            if token == _STRING:
                self.pos += 1
                value: Any = self._string()
            elif token == _NUMBER:
                value = self._number()
            elif token == _LBRACE:
                if len(stack) >= MAX_DEPTH:
                    raise _Fail(JSONDepthError(f"nesting deeper than {MAX_DEPTH} levels", start))
                self.pos += 1
                if self._skip_ws() == _RBRACE:
                    self.pos += 1
                    value = {}
                else:
                    if self.pos >= self.end or text[self.pos] != '"':
                        raise self._at("Expected property name or '}'")
                    stack.append([{}, True, None, key_span, start])
                    key_start = self.pos
                    self.pos += 1
                    key = self._string()
                    key_span = (key_start, self.pos)
                    stack[-1][2] = key
                    if track:
                        path.append(key)
                    self._expect(":", "Expected ':' after property name")
                    continue
            elif token == _LBRACK:
                if len(stack) >= MAX_DEPTH:
                    raise _Fail(JSONDepthError(f"nesting deeper than {MAX_DEPTH} levels", start))
                self.pos += 1
                if self._skip_ws() == _RBRACK:
                    self.pos += 1
                    value = []
                else:
                    stack.append([[], False, None, key_span, start])
                    key_span = no_key
                    if track:
                        path.append(0)
                    continue
            elif token == _TRUE:
                value = self._literal("true", True)
            elif token == _FALSE:
                value = self._literal("false", False)
            elif token == _NULL:
                value = self._literal("null", None)
            else:
                raise self._unexpected(token)
            if track:
                self._record(path, key_span, start, self.pos)

            # consume the continuation stack
            while True:
                if not stack:
                    return value
                frame = stack[-1]
                container = frame[0]
                if frame[1]:
                    container[frame[2]] = value
                    if self._skip_ws() == _COMMA:
                        self.pos += 1
                        if self._skip_ws() != _STRING:
                            raise self._at("Expected double-quoted property name")
                        key_start = self.pos
                        self.pos += 1
                        key = self._string()
                        key_span = (key_start, self.pos)
                        frame[2] = key
                        if track:
                            path[-1] = key
                        self._expect(":", None)
                        break
                    if self.pos < self.end and text[self.pos] == "}":
                        self.pos += 1
                    else:
                        raise self._at("Expected ',' or '}' after property value")
                else:
                    container.append(value)
                    if self._skip_ws() == _COMMA:
                        self.pos += 1
                        key_span = no_key
                        if track:
                            path[-1] = len(container)
                        break
                    if self.pos < self.end and text[self.pos] == "]":
                        self.pos += 1
                    else:
                        raise self._at("Expected ',' or ']' after array element")
                stack.pop()
                value = container
                key_span = frame[3]
                if track:
                    path.pop()
                    self._record(path, key_span, frame[4], self.pos)
