"""JavaScript value semantics (compile-core.md §0), checked against the spec's observed values."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forgec.js.values import (
    dumps_report,
    is_integral_number,
    js_len,
    js_number_to_string,
    js_string,
    js_trim,
    js_truthy,
    json_quote,
    json_stringify,
    rejoin_surrogates,
    utf16_slice,
)

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e16, "10000000000000000"),
        (1e21, "1e+21"),
        (0.00001, "0.00001"),
        (1e-7, "1e-7"),
        (2.5e-7, "2.5e-7"),
        (1.5e300, "1.5e+300"),
        (0.1 + 0.2, "0.30000000000000004"),
        (123456789012345678901, "123456789012345680000"),
        (-0.0, "0"),
        (5.0, "5"),
        (-3.5, "-3.5"),
        (1e-6, "0.000001"),
        (float("inf"), "Infinity"),
    ],
)
def test_number_to_string_matches_observed_values(value: float, text: str) -> None:
    assert js_number_to_string(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_to_string_round_trips(value: float) -> None:
    assert float(js_number_to_string(value)) == value


def test_object_key_order_puts_array_indexes_first() -> None:
    data = {"b": 1, "2": 2, "01": 3, "1": 4, "-1": 5, "4294967295": 6, "4294967294": 7}
    assert (
        json_stringify(data)
        == '{"1":4,"2":2,"4294967294":7,"b":1,"01":3,"-1":5,"4294967295":6}'
    )


def test_pretty_stringify_matches_javascript_layout() -> None:
    assert json_stringify({"a": [1, {}], "e": []}, 2) == '{\n  "a": [\n    1,\n    {}\n  ],\n  "e": []\n}'


def test_quote_escapes_controls_lowercase_and_lone_surrogates() -> None:
    assert json_quote('a"\\\b\f\n\r\t\x01\x7f\u2028/') == '"a\\"\\\\\\b\\f\\n\\r\\t\\u0001\x7f\u2028/"'
    assert json_quote("a\ud83d\u00e9\ude3a") == '"a\\ud83d\u00e9\\ude3a"'
    assert json_quote("\ud83d\ude3a") == '"\U0001f63a"'


def _quote_json_string(text: str) -> str:
    """ECMA-262 QuoteJSONString, code unit by code unit (the definition, not forgec's fast path)."""
    units = text.encode("utf-16-le", "surrogatepass")
    codes = [int.from_bytes(units[i : i + 2], "little") for i in range(0, len(units), 2)]
    short = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"}
    out, i = ['"'], 0
    while i < len(codes):
        c = codes[i]
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(codes) and 0xDC00 <= codes[i + 1] <= 0xDFFF:
            out.append(chr(0x10000 + ((c - 0xD800) << 10) + codes[i + 1] - 0xDC00))
            i += 2
            continue
        out.append(short[c] if c in short else f"\\u{c:04x}" if c < 0x20 or 0xD800 <= c <= 0xDFFF else chr(c))
        i += 1
    return "".join(out) + '"'


_SPECIAL = st.sampled_from(["\ud83d", "\ude3a", '"', "\\", "\x00", "\b", "\x1f", "\x7f", "\u2028", "\U0001f63a"])


@given(st.text(alphabet=st.one_of(st.characters(codec=None, exclude_categories=()), _SPECIAL)))
def test_quote_is_the_definition_on_any_text(text: str) -> None:
    """The C encoder serves text without surrogates; any text still gives the spec's literal."""
    assert json_quote(text) == _quote_json_string(text)


def test_trim_uses_the_javascript_whitespace_set() -> None:
    assert js_trim("\ufeff\u00a0 x \u3000") == "x"
    assert js_trim("\x85x\x1c") == "\x85x\x1c"


def test_truthiness() -> None:
    assert js_truthy([]) and js_truthy({}) and js_truthy("false")
    assert not any(js_truthy(v) for v in (0, 0.0, "", None, False, float("nan")))


def test_string_conversion() -> None:
    assert js_string(["a", None, ["b", 1.0]]) == "a,,b,1"
    assert js_string({"a": 1}) == "[object Object]"
    assert js_string(True) == "true"


def test_integrality_excludes_booleans() -> None:
    assert is_integral_number(3.0) and is_integral_number(1e300)
    assert not is_integral_number(True) and not is_integral_number(2.5)


def test_utf16_lengths_and_slices() -> None:
    assert js_len("a😀") == 3
    tail = utf16_slice("x😺b", -2)
    assert tail == "\ude3ab"
    assert rejoin_surrogates(utf16_slice("x😺b", 0, 2) + tail) == "x😺b"


def test_report_serialisation_reproduces_every_expected_document() -> None:
    files = sorted(CASES.glob("*/expected.json"))
    assert files, "conformance corpus missing"
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert dumps_report(json.loads(text)) == text, path.parent.name


def test_writing_is_not_limited_by_python_recursion() -> None:
    deep: list = []
    current = deep
    for _ in range(10_000):
        child: list = []
        current.append({"k": child})
        current = child
    text = json_stringify(deep)
    assert text is not None and text.startswith('[{"k":[{"k":') and text.endswith("}]" * 10_000)
    assert dumps_report({"v": deep}).count("\n") > 20_000


def test_integers_beyond_a_double_print_as_javascript_infinity() -> None:
    assert js_number_to_string(10**400) == "Infinity"
    assert json_stringify([10**400]) == "[null]"


@given(st.text(alphabet=st.one_of(st.characters(codec=None, exclude_categories=()), _SPECIAL)))
def test_length_counts_utf16_units_of_any_text(text: str) -> None:
    assert js_len(text) == len(text.encode("utf-16-le", "surrogatepass")) // 2
    assert js_len(text + "\ud800" + text) == 2 * js_len(text) + 1


def test_lone_surrogates_are_measured_and_quoted_in_c() -> None:
    """A block that doubles a lone surrogate to 64 Mi units spent minutes in UTF-16's ``surrogatepass``
    (one handler call per surrogate) and in a regex callback per character (issue 13, a family 9
    variant). Side by side in one run: lone surrogates cost the order of ordinary non-ASCII text."""
    import time

    def best(call: Callable[[], object]) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        return min(times)

    lone, plain = "\ud800" * 2**20, "é" * 2**20
    assert json_quote(lone) == '"' + "\\ud800" * 2**20 + '"'
    # a complexity guard, not a timing: the per-surrogate handler took minutes (thousands of times
    # the plain text's cost), so a wide margin keeps the test meaningful on a loaded machine
    assert best(lambda: js_len(lone)) < 200 * best(lambda: js_len(plain)) + 0.05
    assert best(lambda: json_quote(lone)) < 200 * best(lambda: json_quote(plain)) + 0.05
