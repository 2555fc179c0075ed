"""The optional orjson path (:func:`forgec.js.json.loads_bytes`, the ``[speed]`` extra) against the C scanner.

Whatever orjson returns must be exactly what :func:`forgec.js.json.loads` gives for the decoded text --
value, types (``int``/``float``/``bool``), ``-0.0``, key order, the last of duplicate keys -- and whatever
it would read differently must come back as ``NOT_PARSED`` (the caller's usual path then decides).  The
comparisons are on ``repr``, which tells ``1`` from ``1.0`` and ``0.0`` from ``-0.0`` and shows key order.
Runs only where orjson is installed (the compiled CI run installs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forgec.js.json as fj
from forgec.js.json import FAST_MAX_DEPTH, NOT_PARSED, JSONParseError, loads, loads_bytes, use_orjson

pytest.importorskip("orjson")


pytestmark = pytest.mark.usefixtures("orjson_on")  # every test here: orjson in use (tests/conftest.py)


def _same_or_refused(data: bytes) -> Any:
    """``loads_bytes(data)``; when it answers, assert it is :func:`loads`'s value of the decoded text."""
    fast = loads_bytes(data)
    if fast is not NOT_PARSED:
        try:
            slow = loads(data.decode("utf-8"))
        except (UnicodeDecodeError, JSONParseError) as error:  # orjson read what JSON.parse refuses
            pytest.fail(f"orjson accepted {data!r}, the reference path refuses it: {error}")
        assert repr(fast) == repr(slow), data
    return fast


# (text, whether orjson answers): every row must agree with loads() when it answers, and the second
# column pins which side each edge falls on, so a test that only ever meets NOT_PARSED cannot pass unseen
EDGES = [
    # integers: plain up to 2**53 - 1, beyond that the usual path (JavaScript's double)
    ("0", True), ("-0", True), ("[-0, 0, 1, -1]", True),
    ("9007199254740991", True), ("-9007199254740991", True),
    ("9007199254740992", False), ("-9007199254740992", False), ("9007199254740993", False),
    ("[1, 12345678901234567]", False), ("9223372036854775807", False), ("18446744073709551615", False),
    # past 64 bits orjson reads the literal as a double itself: the same double (JSON.parse's, too)
    ("18446744073709551616", True), ("123456789012345678901234567890", True), ("-18446744073709551617", True),
    ("1" * 300, True), ("1" * 400, False), ("[" + "9" * 309 + "]", False),
    ('{"a": [{"b": 9007199254740993}]}', False), ('"9007199254740993"', True), ('{"9007199254740993": 1}', True),
    # floats: exponents, signs, -0.0, subnormals, 17 digits, the largest and smallest doubles
    ("-0.0", True), ("0.0", True), ("1E+2", True), ("1e2", True), ("1E-2", True), ("1.0", True),
    ("[1.5e-7, 2.5, -3.25e10]", True), ("0.1", True), ("0.30000000000000004", True),
    ("1.7976931348623157e308", True), ("-1.7976931348623157e308", True), ("2.2250738585072014e-308", True),
    ("4.9e-324", True), ("5e-324", True), ("2.4e-324", True), ("1e-400", True), ("-1e-400", True),
    ("123456789012345678901234567890.5", True), ("9007199254740993.0", True), ("1.00000000000000011102230246251565404236316680908203125", True),
    ("1e400", False), ("-1e400", False), ("1.7976931348623159e308", False),
    # constants and words JSON does not have
    ("NaN", False), ("Infinity", False), ("-Infinity", False), ("[nan]", False), ("True", False), ("None", False),
    ("true", True), ("false", True), ("null", True), ("[true, false, null]", True),
    # objects: duplicate keys (the last value, the first position), empty keys, __proto__
    ('{"a": 1, "b": 2, "a": 3}', True), ('{"": 1, "": [2]}', True), ('{"__proto__": {"x": 1}}', True),
    ('{"a": {"x": 1}, "a": {"y": 2}}', True), ('{"constructor": 1, "toString": 2}', True),
    # strings: every escape, escaped pairs, lone surrogates, control characters, DEL, non-ASCII
    (r'"\" \\ \/ \b \f \n \r \t"', True), (r'"\u0041\u00e9\u20ac\uFFFF\u0000"', True), (r'"\ud83d\ude00"', True),
    (r'"\ud800"', False), (r'"\udc00"', False), (r'"\ud800x"', False), (r'"\ude00\ud83d"', False),
    (r'"\x41"', False), (r'"\u12"', False), (r'"\U0041"', False), ('"\\', False), ('"a', False),
    ('"a\x00b"', False), ('"a\x1fb"', False), ('"a\tb"', False), ('"a\nb"', False), ('"a\x7fb"', True),
    ('"é😀\u2028\u2029\ufeff"', True), ('{"é": "😀"}', True),
    # whitespace: only space, tab, newline and carriage return, before, between and after
    (" \t\n\r[ 1 , 2 ]\r\n\t ", True), ("\x0c1", False), ("1\x0c", False), ("\xa01", False), ("\u20281", False),
    ("\u00851", False), ("\x0b[]", False), ("[1,\x0c2]", False),
    # structure
    ("", False), (" ", False), ("[", False), ("]", False), ("[1,]", False), ('{"a":1,}', False), ("[1 2]", False),
    ("{a: 1}", False), ("{'a': 1}", False), ('{"a" 1}', False), ("[] []", False), ("1 2", False), ("01", False),
    ("-", False), ("1.", False), (".5", False), ("1e", False), ("+1", False), ("--1", False), ("0x10", False),
    ("[]", True), ("{}", True), ('""', True), ("[[], {}, [[]]]", True), ("// c\n1", False), ("/* c */1", False),
]  # fmt: skip


@pytest.mark.parametrize(("text", "answers"), EDGES)
def test_edges_agree_with_the_c_scanner(text: str, answers: bool) -> None:
    fast = _same_or_refused(text.encode("utf-8", "surrogatepass"))
    assert (fast is not NOT_PARSED) is answers, text


def test_integers_at_the_bound_keep_their_type() -> None:
    assert type(loads_bytes(b"[9007199254740991]")[0]) is int
    assert type(loads_bytes(b"[-0]")[0]) is int
    assert type(loads_bytes(b"[1.0]")[0]) is float
    assert loads_bytes(b"[9007199254740992]") is NOT_PARSED  # 2**53 stays int on the usual path: refused here


def test_bytes_json_parse_cannot_read_are_refused() -> None:
    """A BOM (JSON.parse fails on U+FEFF; contexts read it as a space on the full path) and bytes that
    are not UTF-8 (Node replaces them, with FG010) never come back parsed."""
    for data in (b"\xef\xbb\xbf{}", b"\xef\xbb\xbf[1]", b'"\xff"', b'["\xc3"]', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"',
                 b'"\xc0\xaf"', b"[1]\x00", b"\x00[1]"):  # fmt: skip
        assert loads_bytes(data) is NOT_PARSED, data


def test_depth_bound() -> None:
    """A value never nests deeper than FAST_MAX_DEPTH, which is below the context's limit."""
    from forgec.codecs.context import CONTEXT_MAX_DEPTH

    assert FAST_MAX_DEPTH < CONTEXT_MAX_DEPTH
    assert _same_or_refused(b"[" * FAST_MAX_DEPTH + b"]" * FAST_MAX_DEPTH) is not NOT_PARSED
    deeper = FAST_MAX_DEPTH + 1
    assert loads_bytes(b"[" * deeper + b"]" * deeper) is NOT_PARSED
    assert loads_bytes(b'{"a":' * deeper + b"1" + b"}" * deeper) is NOT_PARSED


def _dumps_accepts(value: Any) -> bool:
    """Stop 31's check: orjson's own ``dumps`` with OPT_STRICT_INTEGER (big integers, depth)."""
    import orjson

    try:
        orjson.dumps(value, None, orjson.OPT_STRICT_INTEGER)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("inner", ["[]", "{}", "[1]", '{"a":1}', "1", '"s"', "9007199254740992", "[-9007199254740992]"])
@pytest.mark.parametrize("opening", ["[", '{"k":', '[0,{"k":'])
def test_the_walk_accepts_what_dumps_accepts_around_the_depth_bound(inner: str, opening: str) -> None:
    """``_fits`` (stop 32's walk, which skips strings) takes exactly the values orjson's ``dumps``
    check took, at the depth bound whatever the innermost value and the kind of container."""
    import orjson

    closing = {"[": "]", '{"k":': "}", '[0,{"k":': "}]"}[opening]
    for wrappers in range(FAST_MAX_DEPTH - 4, FAST_MAX_DEPTH + 3):
        text = opening * wrappers + inner + closing * wrappers
        value = orjson.loads(text)
        expected = _dumps_accepts(value)
        assert fj._fits([value], 0) is expected, (wrappers, inner, opening)
        assert (loads_bytes(text.encode()) is NOT_PARSED) is not expected


@pytest.mark.parametrize(
    "literal",
    ["9007199254740991", "9007199254740992", "-9007199254740991", "-9007199254740992", "9223372036854775807",
     "-9223372036854775808", "18446744073709551615", "0", "-0", "true", "1.5", '"9007199254740993"'],
)
def test_the_walk_accepts_the_integers_dumps_accepts(literal: str) -> None:
    """Bare, in a list, as a member, deep in a mix: the integer bound is ``dumps``'s, booleans and
    strings of digits are not integers."""
    import orjson

    for text in (literal, f"[{literal}]", f'{{"a":"x","b":{literal}}}', f'[1,{{"a":[[],{{}},"s",[{literal}]]}}]'):
        value = orjson.loads(text)
        assert fj._fits([value], 0) is _dumps_accepts(value), text


def _dumps_forbidden(*args: Any) -> bytes:
    raise AssertionError("the dumps check ran")


@pytest.mark.parametrize("inner", ["1", "[]", "9007199254740991", "9007199254740992", "-9007199254740992", "true"])
@pytest.mark.parametrize("extra", [-2, -1, 0, 1])
def test_a_large_document_of_prose_is_walked(monkeypatch: pytest.MonkeyPatch, inner: str, extra: int) -> None:
    """From ``_WALK_FROM_BYTES`` on, a document that is not all ASCII is checked by the walk, never
    by ``dumps`` (which would encode its prose to UTF-8), and ``loads_bytes`` answers as ``dumps`` did;
    an ASCII one of the same size, or a small one, still takes ``dumps``."""
    import orjson

    prose = '"' + "\u00e9\U0001f600" * (fj._WALK_FROM_BYTES // 6 + 1) + '"'
    wrappers = FAST_MAX_DEPTH - 1 + extra  # inside the outer list: FAST_MAX_DEPTH + extra containers
    text = "[" + prose + "," + "[" * wrappers + inner + "]" * wrappers + "]"
    value = orjson.loads(text)
    expected = _dumps_accepts(value)
    monkeypatch.setattr(fj, "_ORJSON", (orjson.loads, _dumps_forbidden, orjson.OPT_STRICT_INTEGER))
    got = loads_bytes(text.encode())
    assert (got is NOT_PARSED) is not expected
    if expected:
        assert repr(got) == repr(value)
    ascii_text = text.replace("\u00e9\U0001f600", "abcdef")
    with pytest.raises(AssertionError, match="the dumps check ran"):
        loads_bytes(ascii_text.encode())
    small = "[" + '"\u00e9",' + "[" * wrappers + inner + "]" * wrappers + "]"
    with pytest.raises(AssertionError, match="the dumps check ran"):
        loads_bytes(small.encode())


def test_turned_off_and_back_to_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fj, "ORJSON_AFTER_BYTES", 1 << 20)  # as without FORGEC_ORJSON=1
    assert loads_bytes(b"[1]") == [1]
    assert not use_orjson(False)
    assert loads_bytes(b" " * (1 << 20) + b"[1]") is NOT_PARSED
    assert not use_orjson(None)
    assert loads_bytes(b"[1]") is NOT_PARSED
    assert loads_bytes(b" " * (1 << 20) + b"[1]") == [1]
    assert loads_bytes(b"[2]") == [2]


def test_environment_variable() -> None:
    """``FORGEC_ORJSON=0`` keeps orjson out of the process (not even imported); ``1`` uses it from the
    first read; unset or anything else waits for ORJSON_AFTER_BYTES."""
    probe = (
        "import sys, forgec.js.json as j; small = j.loads_bytes(b'[1]'); big = j.loads_bytes(b' ' * (1 << 20) + b'[1]'); "
        "print(small is j.NOT_PARSED, big is j.NOT_PARSED, 'orjson' in sys.modules)"
    )
    for value, expected in (("0", "True True False"), ("1", "False False True"), ("", "True False True"),
                            (None, "True False True")):  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k != "FORGEC_ORJSON"}
        if value is not None:
            env["FORGEC_ORJSON"] = value
        out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True, cwd="/")
        assert out.stdout.split() == expected.split(), value


def test_imported_only_after_a_megabyte() -> None:
    """Importing forgec, then reading files up to ORJSON_AFTER_BYTES, leaves orjson unimported (a cold
    ``validate`` never pays for it); the read that reaches the bound imports it and is orjson's."""
    probe = (
        "import sys, forgec.js.json as j, forgec.codecs.context, forgec.codecs.stack\n"
        "print('orjson' in sys.modules)\n"
        "print(j.loads_bytes(b' ' * (j.ORJSON_AFTER_BYTES - 4) + b'[1]') is j.NOT_PARSED, 'orjson' in sys.modules)\n"
        "print(j.loads_bytes(b'[2]'), 'orjson' in sys.modules)\n"
        "print(j.loads_bytes(b'[3]'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "FORGEC_ORJSON"}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True, cwd="/")
    assert out.stdout.split("\n")[:4] == ["False", "True False", "[2] True", "[3]"]


# --- generated documents --------------------------------------------------------------------------

_WS = st.text(" \t\n\r", max_size=2) | st.sampled_from(["", "", "", "\x0c", "\xa0", "\u2028"])
_DIGITS = st.text("0123456789", min_size=1, max_size=22) | st.text("0123456789", min_size=17, max_size=60)
_INTS = st.builds(lambda sign, d: sign + (d.lstrip("0") or "0"), st.sampled_from(["", "-"]), _DIGITS)
_FLOATS = st.builds(
    lambda sign, whole, frac, exp: sign + (whole.lstrip("0") or "0") + frac + exp,
    st.sampled_from(["", "-"]),
    _DIGITS,
    st.sampled_from(["", ""]) | st.text("0123456789", min_size=1, max_size=20).map(lambda f: "." + f),
    st.sampled_from([""]) | st.builds(lambda e, s, n: e + s + n, st.sampled_from("eE"), st.sampled_from(["", "+", "-"]),
                                      st.integers(0, 420).map(str)),
)  # fmt: skip
_ESCAPES = st.sampled_from(['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]) | st.integers(0, 0xFFFF).map(
    lambda unit: f"\\u{unit:04x}" if unit % 2 else f"\\u{unit:04X}"
)
_CHARS = st.characters(exclude_categories=["Cs"]).filter(lambda c: c not in '"\\')
_STRINGS = st.lists(_ESCAPES | _CHARS | st.sampled_from(["\\ud83d\\ude00", "😀", "\x00", "\x1f", "\x7f"]), max_size=8).map(
    lambda parts: '"' + "".join(parts) + '"'
)
_SCALARS = st.one_of(_INTS, _FLOATS, _STRINGS, st.sampled_from(["true", "false", "null", "NaN", "-0", "-0.0", "1e400"]))


def _compose(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    arrays = st.lists(st.tuples(_WS, children, _WS), max_size=5).map(
        lambda items: "[" + ",".join(a + v + b for a, v, b in items) + "]"
    )
    keys = st.sampled_from(['"a"', '"b"', '""', '"__proto__"', '"\\u0061"', '"é"']) | _STRINGS
    objects = st.lists(st.tuples(keys, _WS, children), max_size=5).map(
        lambda pairs: "{" + ",".join(f"{k}{w}:{v}" for k, w, v in pairs) + "}"
    )
    return arrays | objects


_DOCUMENTS = st.tuples(_WS, st.recursive(_SCALARS, _compose, max_leaves=25), _WS).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCUMENTS)
def test_generated_documents_agree(text: str) -> None:
    """Numbers of every shape and size, every escape (lone surrogates too), raw control characters,
    duplicate and empty keys, whitespace inside and outside the set: orjson's answer is loads()'s."""
    _same_or_refused(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=400, deadline=None)
@given(_DOCUMENTS, st.integers(0, 200), st.binary(min_size=1, max_size=3))
def test_damaged_bytes_agree(text: str, at: int, junk: bytes) -> None:
    """Bytes spliced anywhere (invalid UTF-8, NUL, a BOM in the middle): refused, or loads()'s value."""
    data = text.encode("utf-8", "surrogatepass")
    at %= len(data) + 1
    _same_or_refused(data[:at] + junk + data[at:])


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**70), 2**70))
def test_numbers_as_python_writes_them(number: float) -> None:
    """Shortest round-trip floats, subnormals included, and integers around both bounds."""
    _same_or_refused(json.dumps([number, {"n": number}]).encode())


# --- the readers that use it ----------------------------------------------------------------------


def _corpus_contexts() -> list[Path]:
    root = os.environ.get("FORGEC_SHARED_CASES")
    if not root:
        pytest.skip("FORGEC_SHARED_CASES is not set")
    return sorted(Path(root).glob("*/context.json"))[:80]


def test_contexts_read_the_same_with_and_without_orjson(tmp_path: Path) -> None:
    """The direct context reader gives the same data, instant and defaults either way (corpus files
    and files on each side of the edges above, a BOM and bad bytes included)."""
    from forgec.codecs.context import ContextError, load_context

    paths = list(_corpus_contexts())
    extra = {
        "big.json": b'{"messages": [{"role": "user", "content": "x", "timestamp": 9007199254740993}]}',
        "bom.json": b'\xef\xbb\xbf{"messages": []}',
        "bad.json": b'{"messages": [{"role": "user", "content": "\xff"}]}',
        "deep.json": b'{"variables": {"x": ' + b"[" * 300 + b"]" * 300 + b"}}",
        "float.json": b'{"messages": [], "variables": {"a": -0.0, "b": 1E+2, "c": 1e400}}',
        "dup.json": b'{"messages": [], "variables": {"a": 1, "a": 2}, "variables": {"b": 3}}',
    }
    for name, data in extra.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)

    def read(path: Path) -> str:
        try:
            context = load_context(path)
        except ContextError as error:
            return f"error {error}"
        return repr((context.data, context.source, context._now))

    with_orjson = [read(p) for p in paths]
    use_orjson(False)
    without = [read(p) for p in paths]
    assert with_orjson == without


def test_stack_files_read_the_same_with_and_without_orjson(tmp_path: Path) -> None:
    from forgec.codecs.stack import STACK_CACHE, load_stack_file

    root = os.environ.get("FORGEC_SHARED_CASES")
    if not root:
        pytest.skip("FORGEC_SHARED_CASES is not set")
    paths = sorted(Path(root).glob("*/stack.json"))[:80]
    for name, data in {
        "big.stack.json": b'{"schemaVersion": 1, "type": "pi-forge-stack", "id": "x", "n": 12345678901234567}',
        "bom.stack.json": b'\xef\xbb\xbf{"schemaVersion": 1}',
        "bad.stack.json": b'{"schemaVersion": 1, "name": "\xff"}',
        "nan.stack.json": b'{"schemaVersion": NaN}',
    }.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)

    def read_all() -> list[str]:
        STACK_CACHE.clear()
        out = []
        for path in paths:
            loaded = load_stack_file(path)
            out.append(repr((loaded.stack, loaded.raw, [(d.code, d.message, d.span) for d in loaded.diagnostics])))
        return out

    with_orjson = read_all()
    use_orjson(False)
    assert with_orjson == read_all()


def test_each_reader_asks_orjson_once() -> None:
    """A file orjson declines (a big integer, an invalid text) is not handed to it a second time by the
    importer's fallback; the value or error is the usual path's."""
    import orjson

    from forgec.js.json_utf8 import loads_utf8

    calls: list[bytes] = []

    def counted(data: bytes) -> Any:
        calls.append(data)
        return orjson.loads(data)

    fj._ORJSON, fj._ORJSON_LOOKED = (counted, orjson.dumps, orjson.OPT_STRICT_INTEGER), True
    assert loads_utf8(b"[9007199254740993]") == [9007199254740992.0]
    with pytest.raises(JSONParseError):
        loads_utf8(b"[1,]")
    assert loads_utf8(b'["\\ud800"]') == ["\ud800"]
    assert len(calls) == 3
