"""Property tests: the lark-based engine equals the spec-literal reference scanner on random text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.compile.macros import expand_text
from forgec.compile.macros.grammar import _parse_fast, parse_with_lark
from forgec.model.variables import VariableStore

from .reference import ReferenceSession

# single characters the scanner cares about, plus whole words so that built-ins actually occur
_PIECES = st.sampled_from(
    ["{", "}", ":", " ", "a", "b", "x", "\t", "{{", "}}", "::", "upper", "lower", "getvar", "setvar", "ifvar", "turn"]
)
TEXT = st.lists(_PIECES, max_size=40).map("".join)
CHARS = st.text(alphabet="{}: ab", max_size=30)

_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _compare(text: str, policy: str = "warn") -> None:
    initial = {"a": "A", "b": "{{a}}"}
    reference = ReferenceSession(dict(initial), policy)
    expected = reference.scan(text)
    store = VariableStore(session={}, turn=dict(initial))
    stack = {"defaults": {"unresolvedMacroPolicy": policy}}
    out, diagnostics = expand_text(text, store=store, stack=stack)
    assert out == expected
    assert [d.message for d in diagnostics] == reference.messages()
    assert all(d.level == ("error" if policy == "error" else "warning") for d in diagnostics)
    assert store.turn == reference.variables


@_SETTINGS
@given(TEXT)
def test_engine_matches_reference_on_words(text: str) -> None:
    _compare(text)


@_SETTINGS
@given(CHARS, st.sampled_from(["warn", "keep", "error"]))
def test_engine_matches_reference_on_characters(text: str, policy: str) -> None:
    _compare(text, policy)


@_SETTINGS
@given(st.one_of(TEXT, CHARS, st.text(max_size=30)))
def test_fast_parser_equals_lark_parser(text: str) -> None:
    assert _parse_fast(text) == parse_with_lark(text)


@_SETTINGS
@given(st.text(alphabet="{}:ab \r\n", max_size=60))
def test_never_raises_and_keeps_plain_text(text: str) -> None:
    out, _ = expand_text(text)
    if "{{" not in text:
        assert out is text


def test_fast_parser_equals_lark_parser_on_every_short_text() -> None:
    """Every text of up to 7 characters over ``{``, ``}``, ``:`` and a letter: each way runs of the three
    pair characters can meet, split and nest (the fast parser cuts them with ``str.split``, one pair
    character at a time, and merges no text pieces inside a closed macro)."""
    import itertools

    for size in range(8):
        for letters in itertools.product("{}:a", repeat=size):
            text = "".join(letters)
            assert _parse_fast(text) == parse_with_lark(text), text
