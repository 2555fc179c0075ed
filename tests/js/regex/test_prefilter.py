"""The fast paths of ``transform_string`` against the engine alone (issue 14, regex rules).

Every fast path must give exactly what the plain search loop gives: the required-literal prefilter
(``_literal.py``) never rejects a text that has a match, the search start at the literal's first place
finds the same matches, a literal pattern through ``str.replace`` equals the engine, the native ``\\b``
and multiline ``^``/``$`` equal the spelled-out ones, and the per-search ``timeout`` is dropped only where ``_cost.attempt_work``
proves it cannot be reached.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from forgec.js.regex import JSRegexError, compile_js, replace_literal, transform_prefiltered, transform_string
from forgec.js.regex._cost import attempt_bound, attempt_work
from forgec.js.regex.pattern import _LINE_END, _LINE_START, JSPattern
from forgec.js.regex.syntax import parse_checked

HERE = Path(__file__).parent
VECTORS = [v for name in ("vectors.json", "capture_vectors.json")
           for v in json.loads((HERE / name).read_text(encoding="utf-8")) if "text" in v]


def _plain(pattern: JSPattern) -> JSPattern:
    """The same compiled pattern with every shortcut off: the search loop alone.

    Built through the constructor, not ``copy.copy``: in the mypyc build (docs/performance.md,
    "Compiled modules") ``JSPattern`` is a native class whose ``__new__`` needs the constructor's
    arguments, so a copy made the way ``copy`` makes one fails there."""
    plain = JSPattern(pattern.source, pattern.flags, pattern.regex, pattern._emitted, pattern.group_count,
                      pattern.group_names)
    plain._needles, plain._non_ascii, plain._anchor, plain._nonempty, plain._literal = (), False, None, False, None
    plain._work, plain._multiline, plain._final = None, None, None
    return plain


def _spans(pattern: JSPattern, text: str) -> list[tuple[int, int]]:
    return [(m.start, m.end) for m in pattern.iter_view(pattern.view(text), 10.0)]


def test_prefilter_and_search_start_agree_with_the_plain_loop_on_every_node_vector() -> None:
    checked = rejected = 0
    for v in VECTORS:
        try:
            pattern = compile_js(v["pattern"], v["flags"])
        except JSRegexError:
            continue
        for text in (v["text"], v["text"] * 2 + "x"):
            plain = _plain(pattern)
            expected = _spans(plain, text)
            if not pattern.may_match(text):
                rejected += 1
                assert expected == [], (v["pattern"], v["flags"], text)
            assert _spans(pattern, text) == expected, (v["pattern"], v["flags"], text)
            for replace in ("X", "[$&]"):
                assert transform_string(pattern, text, replace, timeout=10.0) == transform_string(
                    plain, text, replace, timeout=10.0)
            checked += 1
    assert checked > 5000 and rejected > 500  # the prefilter is exercised, not vacuous


@pytest.mark.parametrize(
    ("pattern", "flags", "needles", "offset"),
    [
        (r"\bsaffrons?\b", "gi", ("saffron",), 0),
        (r"Token-(\d+)", "g", ("Token-",), 0),
        (r"\b(very|really|quite) ", "gi", ("very", "really", "quite"), None),
        (r"(\d+)\s*(?:gold|coins?)", "gi", ("gold", "coin"), None),
        (r"\.{3,}", "g", ("...",), 0),
        (r"[“”]", "g", ("“", "”"), None),
        (r"<think>[\s\S]*?</think>", "g", ("</think>",), None),
    ],
)
def test_required_runs(pattern: str, flags: str, needles: tuple[str, ...], offset: int | None) -> None:
    compiled = compile_js(pattern, flags)
    assert compiled.required is not None and compiled.required.needles == needles
    if offset is not None:
        assert compiled._anchor is not None and compiled._anchor[1] == offset


@pytest.mark.parametrize(
    ("pattern", "flags", "text"),
    [
        ("s", "giu", "\u017f"),  # ſ folds to s with u: lower() does not, so no run is used
        ("k", "giu", "\u212a"),  # the Kelvin sign
        ("σ", "gi", "Σς"),  # final sigma: lower() depends on context
        ("i", "gi", "\u0130"),  # İ lower-cases to two characters
        ("straße", "gi", "STRAẞE"),
        ("é", "gi", "É"),
    ],
)
def test_case_folding_never_hides_a_match(pattern: str, flags: str, text: str) -> None:
    compiled = compile_js(pattern, flags)
    expected = transform_string(_plain(compiled), text, "[$&]", timeout=10.0)
    assert transform_string(compiled, text, "[$&]", timeout=10.0) == expected
    if expected[1]:
        assert compiled.may_match(text)


def test_a_pattern_that_needs_non_ascii_rejects_ascii_texts_in_one_check() -> None:
    emoji = compile_js(r"\p{Extended_Pictographic}", "gu")
    assert not emoji.may_match("plain ASCII text")
    assert transform_string(emoji, "a 😺 b", "") == ("a  b", 1)
    folded = compile_js("\u212a", "giu")  # matches the ASCII k: not a non-ASCII requirement
    assert folded.may_match("k") and transform_string(folded, "k", "x") == ("x", 1)


@pytest.mark.parametrize(
    "text",
    ["ab", "xaby ab", "a\ud83d\ude3aab", "\ud83d\ude3aab\ud83d", "\ud83dab\ude3a", "", "ba", "abab"],
)
@pytest.mark.parametrize("flags", ["", "g", "gu", "gm"])
@pytest.mark.parametrize("max_chars", [None, 1, 3])
def test_a_literal_pattern_through_str_replace_equals_the_engine(text: str, flags: str, max_chars: int | None) -> None:
    literal = compile_js("ab", flags)
    assert literal._literal == "ab"
    engine = _plain(literal)
    for replace in ("X", "", "\ud83d", "ab"):
        assert transform_string(literal, text, replace, max_chars=max_chars) == transform_string(
            engine, text, replace, max_chars=max_chars)


@pytest.mark.parametrize(
    "text",
    ["ab", "xaby ab", "a\ud83d\ude3aab", "\ud83d\ude3aab\ud83d", "\ud83dab\ude3a", "\ud83dab", "ab\ude3a", "", "ba", "abab"],
)
@pytest.mark.parametrize("flags", ["", "g", "gu", "gm", "gs", "mu"])
def test_replace_literal_equals_transform_prefiltered(text: str, flags: str) -> None:
    """The regex pass's literal case (a literal pattern, a template without ``$``, no ``maxChars``)
    gives what the general path gives, surrogate halves and re-joined pairs included."""
    literal = compile_js("ab", flags)
    assert literal.literal == "ab"
    for replace in ("X", "", "\ud83d", "\ude3a", "ab", "b"):
        assert replace_literal(literal, text, replace) == transform_prefiltered(literal, text, replace), (text, replace)
        assert replace_literal(literal, text, replace) == transform_string(_plain(literal), text, replace)


def test_ascii_word_boundaries_are_native_except_with_iu() -> None:
    import regex

    for flags in ("g", "gi", "gu"):
        native = compile_js(r"\bfoo\B", flags)
        assert native.regex.pattern != native.emitted_pattern and "\\b" in native.regex.pattern
        spelled = regex.compile(native.emitted_pattern, regex.VERSION0)
        for text in ("foo", "foos", "ſfoox", "\u212afoox", "_foo1", "é foo9", "foo\ud83d"):
            view = native.view(text)
            assert [m.span() for m in native.regex.finditer(view)] == [m.span() for m in spelled.finditer(view)]
    kept = compile_js(r"\bfoo\b", "giu")  # ſ and K are word characters here: no native equivalent
    assert kept.regex.pattern == kept.emitted_pattern


@pytest.mark.parametrize("text", ["  a\n  b \n", "  a\r  b \r\n", "x\u2028  y  ", "\n\n  \n", "  a\u2029b  "])
@pytest.mark.parametrize(("pattern", "flags"), [(r"^\s+", "gm"), (r"[ \t]+$", "gm"), (r"(?<=^|\n)\w", "gmu"), (r"^$", "gm")])
def test_native_multiline_anchors_equal_the_spelled_out_ones(pattern: str, flags: str, text: str) -> None:
    compiled = compile_js(pattern, flags)
    assert compiled._multiline is not None
    assert _LINE_START not in compiled._multiline.pattern and _LINE_END not in compiled._multiline.pattern
    assert _spans(compiled, text) == _spans(_plain(compiled), text)
    assert transform_string(compiled, text, "[$&]") == transform_string(_plain(compiled), text, "[$&]")


@pytest.mark.parametrize(("pattern", "flags"), [(r"[ \t]+$", "gm"), (r"a$", "gim"), (r"[12]+$", "gmu"), (r"(?:x|y)?[ab]$", "gm")])
def test_a_multiline_final_class_rejects_only_texts_without_a_match(pattern: str, flags: str) -> None:
    compiled = compile_js(pattern, flags)
    assert compiled._line_ends is not None
    pieces = ["a", "A", "b", " ", "\t", "1", "x", "\n", "\r", "\u2028", "\u2029", "\ud83d\ude3a", "\ud800", "é"]
    rng = random.Random(14)
    rejected = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        expected = transform_string(_plain(compiled), text, "[$&]")
        if not compiled.may_match(text):
            rejected += 1
            assert expected[1] == 0, text
        assert transform_string(compiled, text, "[$&]") == expected, text
        found = compiled.candidates([text], [text.lower()].copy, [text.isascii()].copy)
        assert found is None or (found == [0]) == compiled.may_match(text)
    assert rejected > 100


@pytest.mark.parametrize(
    ("pattern", "work"),
    [("abc", 3), ("a?b", 4), (r"\bsaffrons?\b", 20), ("(?:a|b){2}", 8), ("(?=ab)c", 3)],
)
def test_attempt_work_of_bounded_patterns(pattern: str, work: int) -> None:
    assert attempt_work(parse_checked(pattern, "").tree) == work


@pytest.mark.parametrize("pattern", [r"\s+$", "a*", "(a)\\1", "(?:a{1,10}){1,10}", "(a|aa){1,40}"])
def test_attempt_work_is_unproven_for_unbounded_or_huge_patterns(pattern: str) -> None:
    assert attempt_work(parse_checked(pattern, "").tree) is None


@pytest.mark.parametrize(
    ("pattern", "flags", "bound"),
    [
        (r"(\w+) \1\b", "gi", (4, 3)),  # \w+ then a space: only the longest run goes on to the reference
        (r"^\s+", "gm", (2, 2)),
        (r"[ \t]+$", "gm", (2, 3)),
        (r"\s*\(OOC:[^)]*\)", "g", (8, 4)),  # two runs, each followed by a character outside it
        ("a+a", "", (2, 3)),  # not disjoint: the last "a" is tried after every way of a+
        (r"(?:um+|uh+),? ", "gi", (12, 12)),
    ],
)
def test_attempt_bound_grows_with_the_text(pattern: str, flags: str, bound: tuple[int, int]) -> None:
    assert attempt_bound(parse_checked(pattern, flags).tree, flags) == bound


@pytest.mark.parametrize("pattern", [r"a*b*", r"(a|aa)+", r"\w+\w+", r"(\w+)\1", r"(\d+)\s*x", r"(?:ab)+", r"(a)+"])
def test_attempt_bound_is_unproven_where_the_work_can_be_quadratic_per_attempt(pattern: str) -> None:
    assert attempt_bound(parse_checked(pattern, "").tree, "") is None


@pytest.mark.parametrize(
    ("pattern", "flags", "twins"),
    [
        (r"(\w+) \1\b", "gi", (True, False)),
        (r"^\s+", "gm", (True, True)),
        (r"\p{L}+ ", "gu", (False, False)),  # ``re`` has no \p{…}
        (r"(?<=a+)b+", "g", (False, False)),  # variable-length lookbehind
        (r"(?:a|b)*c+x", "g", (False, False)),  # unproven: nothing to gain without a timeout
        (r"\bfoo\w+", "g", (False, False)),  # a run at a fixed offset: ``regex`` searches from it
        (r"(a)+b+", "g", (False, False)),  # capture resets read ``regex``'s ``spans``
    ],
)
def test_re_twins_only_where_both_engines_mean_the_same(pattern: str, flags: str, twins: tuple[bool, bool]) -> None:
    compiled = compile_js(pattern, flags)
    assert tuple(t is not None for t in compiled._twins) == twins


def test_the_twin_finds_what_regex_finds_and_the_clock_keeps_regex() -> None:
    compiled = compile_js(r"(\w+) \1\b", "gi")
    text = "the The cat sat sat on the mat mat. " * 3
    assert compiled._twins[0] is not None
    fast = _spans(compiled, text)  # short: unclocked, through ``re``
    assert fast == _spans(_plain(compiled), text) == [(0, 7), (12, 19), (27, 34), (36, 43), (48, 55), (63, 70),
                                                        (72, 79), (84, 91), (99, 106)]
    long_text = "ab " * 2000 + "x x"
    assert _spans(compiled, long_text)[-1] == (len(long_text) - 3, len(long_text))


class _Recorder:
    """Stands in for a compiled ``regex`` pattern and records the ``timeout`` of each call."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.timeouts: list[float | None] = []

    def search(self, *args: Any, timeout: float | None = None) -> Any:
        self.timeouts.append(timeout)
        return self.inner.search(*args, timeout=timeout)

    def finditer(self, *args: Any, timeout: float | None = None) -> Any:
        self.timeouts.append(timeout)
        return self.inner.finditer(*args, timeout=timeout)


@pytest.mark.parametrize(
    ("pattern", "text", "clocked"),
    [
        (r"\bfoo\b", "a foo b " * 10, False),  # 5 steps an attempt, 81 positions: far inside 1 s
        (r"\bfoo\b", "a foo b " * 50_000, True),  # 400,001 x 5 steps at 1 µs: past 1 s, the clock stays
        (r"\s+$", "a foo b ", False),  # 9 attempts of at most 2 + 3 x 9 steps (``attempt_bound``)
        (r"\s+$", "a foo b " * 200, True),  # 1,601 attempts of up to 4,805 steps: past 1 s at 1 µs a step
        (r"(?:\w+)+$", "a foo b", True),  # nested unbounded repeats: never proven
    ],
)
def test_the_timeout_is_dropped_only_where_the_work_is_proven_to_fit(
    pattern: str, text: str, clocked: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the cached pattern itself, its attributes restored after the test (``copy.copy`` cannot copy the
    # mypyc build's native class, see ``_plain``)
    compiled = compile_js(pattern, "g")
    recorder = _Recorder(compiled.regex)
    monkeypatch.setattr(compiled, "regex", recorder)
    monkeypatch.setattr(compiled, "_anchor", None)  # search by the engine from every position (the bound covers that)
    monkeypatch.setattr(compiled, "_twins", (None, None))  # the recorder, not ``re``, runs the unclocked searches
    transform_string(compiled, text, "x", timeout=1.0)
    assert recorder.timeouts and all((t is not None) == clocked for t in recorder.timeouts)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(\w+) \1\b", (1,)),
        (r"(a)\1(b)\2\1", (1, 2)),
        (r"(a)(?:\1)*", ()),  # a reference inside a quantifier
        (r"(a)|\1", ()),  # inside an alternative
        (r"\1(a)", ()),  # before its group
        (r"(?<=\1(a))b", ()),  # inside a lookbehind
        (r"((a)) \2", ()),  # a group inside a group: not a top-level item
        (r"(a) \1 (?:\1)?", ()),  # one reference of two is optional
        (r"(?<n>a)\k<n>", (1,)),
    ],
)
def test_always_set_groups(pattern: str, expected: tuple[int, ...]) -> None:
    from forgec.js.regex.pattern import _always_set

    assert _always_set(parse_checked(pattern, "").tree) == expected


def test_plain_references_match_as_the_conditional_ones_on_every_node_vector() -> None:
    """Where ``_always_set`` drops the ``(?(gN)…)`` condition of a reference, the compiled pattern finds
    the same matches and captures as the emitted one (the condition is always true there)."""
    import regex

    checked = 0
    for v in VECTORS:
        try:
            pattern = compile_js(v["pattern"], v["flags"])
        except JSRegexError:
            continue
        if pattern.regex.pattern.count("(?(") == pattern.emitted_pattern.count("(?("):
            continue
        conditional = regex.compile(pattern.emitted_pattern, pattern.regex.flags)
        for text in (v["text"], v["text"] * 2 + "x"):
            subject = pattern._matchable(pattern.view(text))
            got = [(m.span(), m.groups()) for m in pattern.regex.finditer(subject)]
            assert got == [(m.span(), m.groups()) for m in conditional.finditer(subject)], v["pattern"]
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("pattern", "flags", "ends", "not_ends"),
    [
        (r"\s+$", "", [" ", "a\t", "x\u3000", "a\n"], ["", "a", "a b", " a"]),
        (r"a$", "i", ["A", "ba"], ["ab", ""]),
        (r"(?:x[ab])+\b$", "g", ["xa", "zxb"], ["xc", "xa "]),
        (r"k$", "iu", ["k", "K", "\u212a"], ["x"]),
        (r"\s+$", "", ["a\ud83d", "a\ude3a", "a😺"], []),  # surrogate or astral last character: not judged
    ],
)
def test_final_class_prefilter(pattern: str, flags: str, ends: list[str], not_ends: list[str]) -> None:
    compiled = compile_js(pattern, flags)
    assert compiled._final is not None
    for text in ends:
        assert compiled.may_match(text), text
    for text in not_ends:
        assert not compiled.may_match(text), text
        assert transform_string(_plain(compiled), text, "X", timeout=10.0) == (text, 0)


@pytest.mark.parametrize(("pattern", "flags"), [(r"\s+$", "m"), (r"(a|b)$", ""), (r"x(?=y)$", ""), (r"a$|b", ""),
                                                (r"a*$", ""), (r"\s+", "")])
def test_final_class_only_for_the_plain_shape(pattern: str, flags: str) -> None:
    assert compile_js(pattern, flags)._final is None


def test_final_class_with_max_chars_cut() -> None:
    """``maxChars`` keeps the text's end: the body a rule runs on ends with the text's last character."""
    compiled = compile_js(r"[ \t]+$", "")
    assert transform_string(compiled, "a  b  ", "", max_chars=3) == ("a  b", 1)
    assert transform_string(compiled, "a  b", "", max_chars=3) == ("a  b", 0)
