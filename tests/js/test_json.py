"""The JSON reader: JSON.parse's data model and V8's error texts (compile-core.md §16.10, §16.16)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.js.json import (
    MAX_DEPTH,
    TOO_MANY_OPENINGS,
    JSONDepthError,
    JSONParseError,
    loads,
    loads_decoded,
    loads_shallow,
    scan_spans,
    v8_parse_error,
)

# (text, reason): the rows of §16.10's table, with the texts Node 20.20.2 gives for them.
V8_TABLE = [
    ("", "Unexpected end of JSON input"),
    ("  \n", "Unexpected end of JSON input"),
    ("[", "Unexpected end of JSON input"),
    ('{"a":"x\\', "Unexpected end of JSON input"),
    ("tru", "Unexpected end of JSON input"),
    ("{a:1}", "Expected property name or '}' in JSON at position 1"),
    ("{'a':1}", "Expected property name or '}' in JSON at position 1"),
    ("{,}", "Expected property name or '}' in JSON at position 1"),
    ('{"a":1,}', "Expected double-quoted property name in JSON at position 7"),
    ('{"a" 1}', "Expected ':' after property name in JSON at position 5"),
    ('{"a"}', "Expected ':' after property name in JSON at position 4"),
    ('{"a":1 "b":2}', "Expected ',' or '}' after property value in JSON at position 7"),
    ('{"a":1', "Expected ',' or '}' after property value in JSON at position 6"),
    ('{"a":0x10}', "Expected ',' or '}' after property value in JSON at position 6"),
    ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
    ("[1,2", "Expected ',' or ']' after array element in JSON at position 4"),
    ("[1.5.2]", "Expected ',' or ']' after array element in JSON at position 4"),
    ('{"a":1}}', "Unexpected non-whitespace character after JSON at position 7"),
    ("1 2", "Unexpected non-whitespace character after JSON at position 2"),
    ('"abc', "Unterminated string in JSON at position 4"),
    ('"a\x01"', "Bad control character in string literal in JSON at position 2"),
    ('"\\q"', "Bad escaped character in JSON at position 2"),
    ('"\\u12G4"', "Bad Unicode escape in JSON at position 5"),
    ("-", "No number after minus sign in JSON at position 1"),
    ("1e", "Exponent part is missing a number in JSON at position 2"),
    ("1e+", "Exponent part is missing a number in JSON at position 3"),
    ("1.", "Unterminated fractional number in JSON at position 2"),
    ("1.e3", "Unterminated fractional number in JSON at position 2"),
    ("01", "Unexpected number in JSON at position 1"),
    ('{"a":1,"b" 2}', "Unexpected number in JSON at position 11"),
    ('{"a":1,"b" "c"}', "Unexpected string in JSON at position 11"),
    ("NaN", '"NaN" is not valid JSON'),
    ("Infinity", '"Infinity" is not valid JSON'),
    ("undefined", '"undefined" is not valid JSON'),
    (" NaN", "Unexpected token 'N', \" NaN\" is not valid JSON"),
    ('{"a":NaN}', "Unexpected token 'N', \"{\"a\":NaN}\" is not valid JSON"),
    ("[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"),
    ('{"a":}', "Unexpected token '}', \"{\"a\":}\" is not valid JSON"),
    ('{"a":tru}', "Unexpected token '}', \"{\"a\":tru}\" is not valid JSON"),
    ("\ufeff{}", "Unexpected token '\ufeff', \"\ufeff{}\" is not valid JSON"),
    ("'x'", "Unexpected token ''', \"'x'\" is not valid JSON"),
    ("// c\n{}", "Unexpected token '/', \"// c\n{}\" is not valid JSON"),
]


@pytest.mark.parametrize(("text", "reason"), V8_TABLE, ids=[repr(t) for t, _ in V8_TABLE])
def test_v8_reason_table(text: str, reason: str) -> None:
    error = v8_parse_error(text)
    assert error is not None and error.reason == reason
    with pytest.raises(JSONParseError) as raised:
        loads(text)
    assert raised.value.reason == reason


_W = " " * 9


@pytest.mark.parametrize(
    ("bad_at", "reason"),
    [  # texts Node 20.20.2 gives (§16.10: verified on a 40-unit text with the bad unit at 9, 10, 29, 30, 39)
        (9, f"Unexpected token 'x', \"{_W}x{_W}\"... is not valid JSON"),
        (10, f"Unexpected token 'x', ...\" {_W}x{_W}\"... is not valid JSON"),
        (29, f"Unexpected token 'x', ...\" {_W}x{_W}\"... is not valid JSON"),
        (30, f"Unexpected token 'x', ...\" {_W}x{_W}\" is not valid JSON"),
        (39, f"Unexpected token 'x', ...\" {_W}x\" is not valid JSON"),
    ],
)
def test_unexpected_token_snippets_on_40_units(bad_at: int, reason: str) -> None:
    text = " " * bad_at + "x" + " " * (39 - bad_at)
    error = v8_parse_error(text)
    assert error is not None and error.reason == reason


def test_unexpected_token_snippets_on_short_texts() -> None:
    assert v8_parse_error("x".ljust(21)).reason == f"Unexpected token 'x', \"x{_W}\"... is not valid JSON"
    assert v8_parse_error("x".ljust(20)).reason == f"Unexpected token 'x', \"x{' ' * 19}\" is not valid JSON"


def test_positions_count_utf16_units() -> None:
    error = v8_parse_error('{"😀":1,}')
    assert error is not None
    assert error.reason == "Expected double-quoted property name in JSON at position 8"
    assert error.offset == 7  # code points, for line/column


def test_data_model() -> None:
    value = loads('{"a":1,"b":1.0,"c":1e400,"d":-0.0,"e":123456789012345678901,"f":9007199254740993,"a":2}')
    assert list(value) == ["a", "b", "c", "d", "e", "f"]  # duplicate key keeps its first position
    assert value["a"] == 2 and type(value["a"]) is int  # last value wins
    assert type(value["b"]) is float
    assert value["c"] == math.inf
    assert math.copysign(1, value["d"]) == -1
    assert value["e"] == 1.2345678901234568e20 and type(value["e"]) is float
    assert type(value["f"]) is float
    assert loads('"\\ud83d\\ude00 \\ud83d"') == "😀 \ud83d"


def test_deep_documents_load_up_to_the_limit() -> None:
    for depth in (2000, 3000, MAX_DEPTH):
        value = loads("[" * depth + "]" * depth)
        for _ in range(depth - 1):
            value = value[0]
        assert value == []
    with pytest.raises(JSONDepthError):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(JSONParseError):  # invalid *and* deep: still a clean error, never RecursionError
        loads('{"a":' * 100_000)


def test_scan_spans() -> None:
    text = '{"a": [1, {"b": "x"}],\n "c": true}'
    spans = scan_spans(text)
    assert spans[()] == (-1, -1, 0, len(text))
    key_start, key_end, start, end = spans[("a", 1, "b")]
    assert text[key_start:key_end] == '"b"' and text[start:end] == '"x"'
    assert text[spans[("a",)][2] : spans[("a",)][3]] == '[1, {"b": "x"}]'
    assert text[spans[("c",)][0] : spans[("c",)][1]] == '"c"'
    assert scan_spans(text, {("c",)}) == {("c",): spans[("c",)]}


# --- differential test against Node (the reference engine), when available ------------------------

_NODE = shutil.which("node")
_SCRIPT = (
    "const cs=JSON.parse(require('fs').readFileSync(0,'utf8'));"
    "process.stdout.write(JSON.stringify(cs.map(t=>{try{JSON.parse(t);return null}catch(e){return e.message}})))"
)


def _node_reasons(texts: list[str]) -> list[str | None]:
    done = subprocess.run([_NODE or "node", "-e", _SCRIPT], input=json.dumps(texts), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


_PIECES = st.sampled_from(
    ['{', '}', '[', ']', ',', ':', '"a"', '"', '\\', 'u', '1', '0', '-', '.', 'e', '+', 'true', 'tru', 'null', ' ',
     '\n', 'x', "'", 'NaN', '😀', '\\u00', '\x01', '"\\n"', '1.5', '-0', '{"k":', '[1,']
)


@pytest.mark.skipif(_NODE is None, reason="node is not installed")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_PIECES, max_size=14).map("".join), min_size=50, max_size=50))
def test_matches_node_json_parse(texts: list[str]) -> None:
    reference = _node_reasons(texts)
    for text, expected in zip(texts, reference, strict=True):
        error = v8_parse_error(text)
        assert (error.reason if error else None) == expected, text
        if expected is None:
            assert loads(text) == json.loads(text, parse_constant=lambda c: pytest.fail(c))
        else:
            with pytest.raises(JSONParseError):
                loads(text)  # the fast path never accepts what JSON.parse rejects


# --- the hook-free fast path: the same values as the hooked decoder ------------------------------

_TWO53 = 2**53


def _v8_int(literal: str) -> int | float:
    """JSON.parse's integer, written out independently of forgec: exact up to 2**53, else a double."""
    value = int(literal)
    return value if -_TWO53 <= value <= _TWO53 else float(literal)


def _reference(text: str) -> object:
    return json.loads(text, parse_int=_v8_int, parse_constant=lambda c: pytest.fail(c))


_INT_LITERALS = st.builds(
    lambda sign, digits: sign + digits.lstrip("0") if digits.lstrip("0") else sign + "0",
    st.sampled_from(["", "-"]),
    st.text("0123456789", min_size=1, max_size=24),
)
_SCALARS = st.one_of(
    _INT_LITERALS,
    st.sampled_from(["9007199254740992", "9007199254740993", "-9007199254740993", "1e400", "-0", "-0.0", "1.5e-7"]),
    st.text("0123456789abc é😀", max_size=30).map(json.dumps),
    st.sampled_from(["true", "false", "null"]),
)


def _compose(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    arrays = st.lists(children, max_size=5).map(lambda items: "[" + ",".join(items) + "]")
    keys = st.sampled_from(['"a"', '"b"', '"1234567890123456"', '"c"'])
    objects = st.lists(st.tuples(keys, children), max_size=5).map(
        lambda pairs: "{" + ",".join(f"{k}: {v}" for k, v in pairs) + "}"
    )
    return arrays | objects


_DOCUMENTS = st.recursive(_SCALARS, _compose, max_leaves=20)


@settings(max_examples=600, deadline=None)
@given(_DOCUMENTS)
def test_fast_path_values_match_the_hooked_decoder(text: str) -> None:
    """Integers of every length (a 16-digit run in a string or a key too), -0, 1e400, duplicate
    keys: whichever decoder :func:`loads` picks, values, types and key order are the reference's."""
    assert repr(loads(text)) == repr(_reference(text))


def test_fast_path_edges() -> None:
    for text in ("123456789012345", "-123456789012345", "9007199254740993", "[1234567890123456]",
                 '{"x": "1234567890123456", "y": 9007199254740993}', '"é1234567890123456"'):
        assert repr(loads(text)) == repr(_reference(text)), text
    assert type(loads("[9007199254740993]")[0]) is float
    assert type(loads("[900719925474099]")[0]) is int
    with pytest.raises(JSONParseError):
        loads("[NaN]")


@settings(max_examples=300, deadline=None)
@given(_DOCUMENTS, st.integers(0, 12))
def test_loads_shallow_counts_every_opening(text: str, bound: int) -> None:
    """``[`` and ``{`` anywhere (in strings too, next to non-ASCII text) count; under the bound
    the value is :func:`loads`'s."""
    text = text.replace('"a"', '"é[{"')
    openings = text.count("[") + text.count("{")
    value = loads_shallow(text, bound)
    if openings > bound:
        assert value is TOO_MANY_OPENINGS
    else:
        assert repr(value) == repr(loads(text))
    # given the bytes the text was decoded from, the same answer without encoding it again
    from_bytes = loads_shallow(text, bound, text.encode("utf-8", "surrogatepass"))
    assert from_bytes is TOO_MANY_OPENINGS if openings > bound else repr(from_bytes) == repr(value)


def test_loads_shallow_at_the_bound() -> None:
    assert loads_shallow("[[[]]]", 3) == [[[]]]
    assert loads_shallow("[[[]]]", 2) is TOO_MANY_OPENINGS
    assert loads_shallow('["{{{"]', 3) is TOO_MANY_OPENINGS
    assert loads_shallow('["é{{{"]', 3, '["é{{{"]'.encode()) is TOO_MANY_OPENINGS
    assert loads_shallow('["é{{"]', 3, '["é{{"]'.encode()) == ["é{{"]
    assert type(loads_shallow('["é", 9007199254740993]', 3, '["é", 9007199254740993]'.encode())[1]) is float
    with pytest.raises(JSONParseError):
        loads_shallow("[1,]", 5)


def test_loads_shallow_from_bytes_reads_each_literal_as_the_hooked_decoder() -> None:
    """The file path's scanner shares its integer literals between calls: a literal met first and met
    again (in another text, in a string beside a 16-digit run, by another sign) has the hooked
    decoder's value and type each time, and the shared table starts again when full."""
    import forgec.js.json as js_json

    literals = ["0", "-0", "7", "123456789012345", "9007199254740992", "9007199254740993",
                "-9007199254740993", "12345678901234567890123", "1773476001000"]  # fmt: skip
    for _ in range(2):
        for literal in literals:
            text = f'{{"n": {literal}, "s": "{literal}", "l": [{literal}, {literal}.0]}}'
            value = loads_shallow(text, 5, text.encode())
            assert repr(value) == repr(_reference(text)), text
    limit = js_json._KNOWN_INTEGERS_MAX
    for start in (0, limit):  # a table filled past its limit answers the same values
        text = "[" + ",".join(str(10**15 + start + i) for i in range(limit + 10)) + "]"
        assert repr(loads_shallow(text, 1, text.encode())) == repr(_reference(text))
        assert len(js_json._KNOWN_INTEGERS) <= limit
    long_literal = "1" * (js_json._KNOWN_LITERAL_CHARS + 1)  # converted, not kept
    text = f"[{long_literal}, -{long_literal}]"
    assert repr(loads_shallow(text, 1, text.encode())) == repr(_reference(text))
    assert long_literal not in js_json._KNOWN_INTEGERS


@settings(max_examples=400, deadline=None)
@given(_DOCUMENTS, st.sampled_from([0, 1, 300, 5000]))
def test_loads_decoded_matches_loads(text: str, padding: int) -> None:
    """The preset reader's counting decoder (docs/performance-log.md, "Stop 25"): under its integer
    budget (padding makes the budget) and past it (the digit-run test then picks the decoder), the
    value, its types and key order are :func:`loads`'s -- integers beyond 2**53 become floats."""
    padded = text + " " * padding
    data = padded.encode("utf-8")
    assert repr(loads_decoded(padded, data)) == repr(_reference(text))


def test_loads_decoded_on_both_sides_of_the_budget() -> None:
    # 800 distinct integer literals in ~11 kB: past the budget (it counts distinct literals)
    many = "[" + ",".join(f"{9007199254740993 + i},{i}" for i in range(400)) + "]"
    few = many + " " * 256 * 900  # the same integers, within the budget
    for text in (many, few):
        value = loads_decoded(text, text.encode())
        assert type(value[0]) is float and type(value[1]) is int
        assert repr(value) == repr(_reference(text))


def test_loads_decoded_counts_distinct_literals() -> None:
    """The counting decoder's memo: a literal met again is answered from it and not counted, each
    distinct one is converted once (``_parse_int``: beyond 2**53 a float) and counted against the
    budget, past which it gives up (and the digit-run test picks the decoder)."""
    from forgec.js.json import _IntegerMemo, _ManyIntegers

    memo = _IntegerMemo(2)
    assert [memo["7"], memo["7"], memo["9007199254740993"], memo["7"]] == [7, 7, 9007199254740992.0, 7]
    assert type(memo["9007199254740993"]) is float and type(memo["7"]) is int
    with pytest.raises(_ManyIntegers):
        memo["8"]
    assert _IntegerMemo(0).get("1") is None  # get() never converts
    with pytest.raises(_ManyIntegers):
        _IntegerMemo(0)["1"]
    # 800 integers, 4 distinct, in ~10 kB: within the budget; the values are loads's
    text = "[" + ",".join(["9007199254740993", "7", "-3", "12345678901234567"] * 200) + "]"
    value = loads_decoded(text, text.encode())
    assert repr(value) == repr(_reference(text))
    assert [type(v) for v in value[:4]] == [float, int, int, float]


@pytest.mark.parametrize("text", [row[0] for row in V8_TABLE] + ["[1, 2, 1e400, NaN]", '{"a": 123456789012345678}x'])
def test_loads_decoded_fails_as_loads(text: str) -> None:
    expected = v8_parse_error(text)
    if expected is None:
        assert repr(loads_decoded(text, text.encode("utf-8", "surrogatepass"))) == repr(loads(text))
        return
    with pytest.raises(JSONParseError) as raised:
        loads_decoded(text, text.encode("utf-8", "surrogatepass"))
    assert (raised.value.reason, raised.value.offset) == (expected.reason, expected.offset)
