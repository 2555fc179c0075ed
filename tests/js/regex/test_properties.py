"""Property tests: random patterns never raise anything but JSRegexError; transforms never hang."""

from __future__ import annotations

import contextlib
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.js.regex import JSRegexError, JSRegexTimeout, compile_js, transform_string

TOKENS = ["a", "b", ".", "\\d", "\\w", "\\s", "\\b", "^", "$", "[a-c]", "[^a]", "[", "]", "(", ")", "(?:",
          "(?=", "(?<=", "(?<!", "(?<n>", "|", "*", "+", "?", "{1,3}", "{", "}", "\\1", "\\k<n>", "\\p{L}",
          "\\u{61}", "\\c", "\\", "-", "\U0001f63a", "\u017f", "\\ud83d", "*?", "{2,}"]

patterns = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=8).map("".join)
flags = st.sets(st.sampled_from("gimsu")).map(lambda s: "".join(sorted(s)))
texts = st.text(alphabet=st.sampled_from([*list("ab \n\rſ1_"), "😺"]), max_size=12)


@settings(max_examples=400, deadline=None)
@given(patterns, flags, texts)
def test_random_patterns_only_raise_jsregexerror(pattern: str, fl: str, text: str) -> None:
    try:
        p = compile_js(pattern, fl)
    except JSRegexError as exc:
        assert str(exc).startswith(f"Invalid regular expression: /{pattern}/")
        assert not exc.unsupported
        return
    try:
        result, count = transform_string(p, text, "[$&|$1|$<n>]", timeout=2.0)
    except JSRegexTimeout:
        return
    assert isinstance(result, str) and count >= 0


def test_catastrophic_backtracking_times_out() -> None:
    p = compile_js("(a|aa)+$", "")
    start = time.monotonic()
    with contextlib.suppress(JSRegexTimeout):
        transform_string(p, "a" * 60 + "b", "x", timeout=0.3)
    assert time.monotonic() - start < 3.0


# Capture-heavy patterns (balanced groups, quantified groups, references, lookbehind): the emitter writes
# some bodies twice and rewrites others (_nonempty.py); every such pattern must still compile in `regex`
# (no reference to a group that vanished) and match without raising.
_atoms = st.sampled_from(["a", "b", ".", "[ab]", "\\w", "\\1", "\\2", "\\k<n>", "x?", "(?:)"])
_quants = st.sampled_from(["", "", "*", "+", "?", "{0,2}", "{2}", "*?", "+?", "??"])


def _wrap(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    opener = st.sampled_from(["(", "(?:", "(?<n>", "(?=", "(?!", "(?<=", "(?<!"])
    body = st.lists(children, min_size=1, max_size=3).map("".join)
    alts = st.lists(body, min_size=1, max_size=3).map("|".join)
    return st.tuples(opener, alts, _quants).map(
        lambda t: t[0] + t[1] + ")" + (t[2] if not t[0].startswith("(?<") or t[0] == "(?<n>" else ""))


capture_patterns = st.recursive(st.tuples(_atoms, _quants).map("".join), _wrap, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(capture_patterns, flags, texts)
def test_capture_patterns_compile_and_run(pattern: str, fl: str, text: str) -> None:
    try:
        p = compile_js(pattern, fl)
    except JSRegexError as exc:
        assert not exc.unsupported, str(exc)
        return
    try:
        result, count = transform_string(p, text, "[$&|$1|$2|$<n>]", timeout=2.0)
    except JSRegexTimeout:
        return
    assert isinstance(result, str) and count >= 0
    m = p.search(text)
    if m is not None:
        assert len(m.groups()) == p.group_count
