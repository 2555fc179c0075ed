"""Nested repeats must not keep ``regex.compile`` (which cannot be interrupted) busy for minutes."""

from __future__ import annotations

import time

import pytest

from forgec.js.regex import JSRegexError, compile_js
from forgec.js.regex._cost import COMPILE_BUDGET, compile_cost


def _nest(depth: int, quantifier: str) -> str:
    return "(?:" * depth + "a" + (")" + quantifier) * depth


@pytest.mark.parametrize(("pattern", "cost"), [
    ("abc", 3), ("a+", 2), ("a{3}", 4), ("(?:ab){2,}", 3 * 3), ("[a-z]+", 2), (r"\d{2}x", 4),
    ("a|bc", 3), ("(?:a|b)*", 3), ("a{", 2),
])  # fmt: skip
def test_cost_model(pattern: str, cost: int) -> None:
    # every atom 1 (":" of "(?:" included), a repeat with minimum n >= 1 costs n + 1 times its body
    assert compile_cost(pattern) == cost


@pytest.mark.parametrize("quantifier", ["+", "{2,}", "{3}"])
def test_deeply_nested_minimum_repeats_are_refused_at_once(quantifier: str) -> None:
    started = time.monotonic()
    with pytest.raises(JSRegexError) as caught:
        compile_js(_nest(40, quantifier), "g")
    assert time.monotonic() - started < 2
    assert caught.value.unsupported
    assert "too costly to compile" in caught.value.reason


def test_nested_stars_fall_back_to_the_plain_emission() -> None:
    # the empty-iteration rewrite would turn 30 nested ``*`` into 30 nested ``+`` (2^30 units);
    # without it the pattern is cheap, so it compiles and matches as a star nest does
    pattern = compile_js(_nest(30, "*"), "g")
    assert compile_cost(pattern.emitted_pattern) <= COMPILE_BUDGET
    assert pattern.search("aaa").matched == "aaa"


def test_realistic_nesting_is_unaffected() -> None:
    found = compile_js(r"(?:(?:\w+\s?){1,3}[.!?]){2,}", "g").search("Hi there.Yes! ok")
    assert found is not None and found.matched == "Hi there.Yes!"


@pytest.mark.parametrize("pattern", ["(" * 3000 + "a" + ")*" * 3000, "(?:" * 3000 + "a" + ")" * 3000])
def test_nesting_deeper_than_the_stack_is_an_unsupported_pattern(pattern: str) -> None:
    with pytest.raises(JSRegexError) as caught:  # never a RecursionError out of the library
        compile_js(pattern, "g")
    assert caught.value.unsupported and "nested too deeply" in caught.value.reason


def test_a_big_character_class_weighs_what_it_costs_to_copy() -> None:
    """``\\p{L}`` under ``iu`` is emitted as a class of thousands of characters: repeating it is no
    cheaper than repeating that many atoms (it took 2 s and 1.9 GiB when counted as one)."""
    small = compile_cost("(?:[a-z]{10}){10}")
    big = compile_cost("(?:[" + "a-z" * 3000 + "]{10}){10}")
    assert big > 100 * small
    with pytest.raises(JSRegexError) as caught:
        compile_js(r"(?:\p{L}{300}){100}", "giu")
    assert "too costly to compile" in caught.value.reason
    compile_js(r"(?:\p{L}{30}){10}", "giu")  # a realistic use still compiles


def test_big_classes_written_many_times_weigh_their_parsing() -> None:
    """``regex`` parses a class member by member in Python (~5 µs a character): 2,000 written
    ``[\\p{L}\\p{Nd}]`` under ``iu`` (26 KB) parsed for minutes with no repetition at all (issue 13)."""
    one_class = "[" + "\\u00e9-\\u00ff" * 900 + "]"  # ~10,000 characters, like \p{L} under iu
    assert compile_cost(one_class) < COMPILE_BUDGET // 20
    assert compile_cost(one_class * 60) > COMPILE_BUDGET
    assert compile_cost("[a-z]" * 60) == 60  # small classes stay one unit, with no parse cost


def test_a_class_written_thousands_of_times_is_closed_over_case_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from forgec.js.regex import _casefold, _emit

    closures: list[int] = []
    real = _casefold.close_over_case

    def counting(ranges: list[tuple[int, int]], unicode: bool) -> list[tuple[int, int]]:
        closures.append(len(ranges))
        return real(ranges, unicode)

    monkeypatch.setattr(_casefold, "close_over_case", counting)
    monkeypatch.setattr(_emit, "_CLASS_TEXTS", {})
    with pytest.raises(JSRegexError) as caught:
        compile_js("(?:" + r"[\p{L}\p{Nd}]" * 2000 + ")", "giu")
    assert "too costly to compile" in caught.value.reason
    assert len(closures) == 1  # one distinct class: emitted once, remembered for the other 1,999
