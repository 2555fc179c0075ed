"""String-length limits of one expansion session (compile-core.md §16.16, forgec's FG203).

V8's limit (536,870,888 UTF-16 units) fails the innermost macro whose work would build a longer
string with ``Invalid string length`` (FG201, its text kept, outer macros continuing), whichever
concatenation it is: an argument's expansion, joined arguments or the macro's result.  forgec's own
lower cap (:data:`engine.MAX_BLOCK_LENGTH`) fails the same macro the same way with FG203, and a
block whose own output would cross a limit is kept as written with FG203.  Small limits are patched
in so the tests stay fast; one test runs the real limits on the QA reproduction.
"""

from __future__ import annotations

import time

import pytest

from forgec.compile.macros import engine, expand_text
from forgec.model.variables import VariableStore

V8 = "Invalid string length"


def _expand(text: str) -> tuple[str, list[tuple[str, str]]]:
    out, diagnostics = expand_text(text, store=VariableStore())
    return out, [(d.code, d.message) for d in diagnostics]


@pytest.fixture
def small_v8(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_STRING_LENGTH", 1_000)


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_BLOCK_LENGTH", 1_000)


def _doubling(times: int) -> str:
    return "{{setvar::v::ab}}" + "{{setvar::v::{{getvar::v}}{{getvar::v}}}}" * times + "{{getvar::v}}"


@pytest.mark.usefixtures("small_v8")
def test_argument_concatenation_fails_the_macro_that_expands_it() -> None:
    # 2 -> 4 -> ... -> 512 fit; 1,024 does not: the 9th setvar and every later one fail, v stays 512
    out, diagnostics = _expand(_doubling(12))
    assert diagnostics == [("FG201", f"Macro {{{{setvar}}}} failed: {V8}")] * 4
    assert out == "{{setvar::v::{{getvar::v}}{{getvar::v}}}}" * 4 + "ab" * 256


@pytest.mark.usefixtures("small_v8")
def test_outer_macros_continue_after_an_inner_overflow() -> None:
    text = "{{setvar::v::" + "x" * 600 + "}}{{upper::<{{setvar::w::{{v}}{{v}}}}>}}"
    out, diagnostics = _expand(text)
    assert diagnostics == [("FG201", f"Macro {{{{setvar}}}} failed: {V8}")]
    assert out == "<{{SETVAR::W::{{V}}{{V}}}}>"  # the failed macro's text, upper-cased by its parent


@pytest.mark.usefixtures("small_v8")
def test_joined_arguments_are_checked_with_their_separators() -> None:
    base = "{{setvar::v::" + "x" * 499 + "}}"
    _, diagnostics = _expand(base + "{{setvar::w::{{v}}::{{v}}}}")  # 499 + 2 + 499 = 1,000: fits
    assert diagnostics == []
    _, diagnostics = _expand(base + "{{setvar::w::{{v}}::{{v}}::}}")  # 1,002
    assert diagnostics == [("FG201", f"Macro {{{{setvar}}}} failed: {V8}")]


@pytest.mark.usefixtures("small_v8")
def test_lengths_are_utf16_units() -> None:
    # 400 astral characters are 800 units: doubled 1,600 > 1,000; 400 BMP characters doubled fit
    _, diagnostics = _expand("{{setvar::v::" + "😀" * 400 + "}}{{setvar::w::{{v}}{{v}}}}")
    assert diagnostics == [("FG201", f"Macro {{{{setvar}}}} failed: {V8}")]
    _, diagnostics = _expand("{{setvar::v::" + "é" * 400 + "}}{{setvar::w::{{v}}{{v}}}}")
    assert diagnostics == []


@pytest.mark.usefixtures("small_v8")
def test_a_result_that_grows_is_checked() -> None:
    out, diagnostics = _expand("{{upper::" + "ß" * 600 + "}}")  # "SS" each: 1,200 units
    assert diagnostics == [("FG201", f"Macro {{{{upper}}}} failed: {V8}")] and out.startswith("{{upper::ß")


@pytest.mark.usefixtures("small_v8")
def test_block_output_over_the_limit_keeps_the_block() -> None:
    """Outside any macro the reference's scanner would throw out of the compile; forgec keeps the block."""
    text = "{{setvar::v::" + "x" * 600 + "}}{{v}}{{v}}"
    out, diagnostics = expand_text(text, store=VariableStore(), item_id="blk")
    assert out == text
    assert [(d.code, d.level, d.item_id, d.offset) for d in diagnostics] == [("FG203", "error", "blk", None)]
    assert diagnostics[0].message == (
        "Block output would be longer than forgec's limit of 1000 UTF-16 units; the block is kept as written."
    )


@pytest.mark.usefixtures("small_cap")
def test_forgec_cap_fails_the_macro_with_its_own_finding() -> None:
    text = "{{setvar::v::" + "x" * 600 + "}}[{{upper::{{setvar::w::{{v}}{{v}}}}}}]"
    out, diagnostics = expand_text(text, store=VariableStore(), item_id="blk")
    assert out == "[{{SETVAR::W::{{V}}{{V}}}}]"
    assert [(d.code, d.level, d.item_id) for d in diagnostics] == [("FG203", "error", "blk")]
    assert diagnostics[0].message == (
        "Macro {{setvar}} failed: a string it builds would be longer than forgec's limit of 1000 UTF-16 "
        "units per block (a deliberate deviation; pi-forge allows 536870888)."
    )
    assert text[diagnostics[0].offset :].startswith("{{setvar::w::")


@pytest.mark.usefixtures("small_cap")
def test_forgec_cap_applies_to_xml_and_json_before_building() -> None:
    _, diagnostics = _expand("{{xml::" + "&" * 300 + "}}")  # 1,500 units
    assert [code for code, _ in diagnostics] == ["FG203"]
    _, diagnostics = _expand("{{json::" + '"' * 600 + "}}")  # 1,202 units
    assert [code for code, _ in diagnostics] == ["FG203"]
    out, diagnostics = _expand("{{json::" + '"' * 400 + "}}")  # 802 units: fits
    assert diagnostics == [] and len(out) == 802


def test_realistic_text_is_untouched() -> None:
    out, diagnostics = _expand("{{setvar::v::ab}}" + "{{setvar::v::{{v}}{{v}}}}" * 10 + "{{v}}")
    assert diagnostics == [] and out == "ab" * 1024


def test_qa_doubling_stack_is_bounded_with_the_real_limits() -> None:
    """40 doublings: the 26th would pass 64 Mi units; every later one fails fast, nothing is built."""
    assert engine.MAX_BLOCK_LENGTH == 64 * 1024 * 1024 < engine.MAX_STRING_LENGTH == 536_870_888
    text = _doubling(40)
    start = time.monotonic()
    out, diagnostics = _expand(text)
    assert time.monotonic() - start < 5
    codes = [code for code, _ in diagnostics]
    assert codes == ["FG203"] * 16  # 15 failed setvars, then the block itself (15 kept texts + 64 Mi)
    assert diagnostics[-1][1].startswith("Block output would be longer")
    assert out == text


def test_nested_json_escaping_is_bounded_by_work_not_only_length() -> None:
    """200 nested ``{{json::…}}``: each level doubles the backslashes, so the length cap is reached
    again every ~26 levels; the per-block work cap fails every later macro at once instead."""
    text = "{{json::" * 200 + "x" + "}}" * 200
    out, diagnostics = _expand(text)
    assert {code for code, _ in diagnostics} == {"FG203"}
    messages = [message for _, message in diagnostics]
    # the inner levels fit; the one that first crosses the length cap fails on length ...
    assert "a string it builds would be longer" in messages[0]
    # ... and every level around it on work, without building its string again
    assert all("have built more than forgec's limit" in m for m in messages[1:])
    assert 150 < len(messages) < 200
    assert out == text  # the outermost macro failed: its text is kept, as pi-forge keeps it


def test_reading_a_huge_variable_costs_no_work() -> None:
    """Variable reads build nothing: they stay possible after the work cap is reached elsewhere."""
    assert engine.MAX_BLOCK_WORK >= 2 * engine.MAX_BLOCK_LENGTH
    assert {"getvar", "var", "getturnvar", "getsessionvar"} <= engine._READERS


def test_escaping_work_of_deep_json_nesting_is_bounded_by_the_work_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 family 8: 2,000 nested ``{{json::…}}`` (2 KB) once escaped 64 Mi units every ~28 levels.
    Counted, not timed: every character escaped after the cap is work the cap should have refused."""
    from forgec.compile.macros import builtins

    monkeypatch.setattr(engine, "MAX_BLOCK_LENGTH", 10_000)
    monkeypatch.setattr(engine, "MAX_BLOCK_WORK", 20_000)
    escaped: list[int] = []
    real = builtins.json_quote

    def counting(value: str) -> str:
        escaped.append(len(value))
        return real(value)

    monkeypatch.setattr(builtins, "json_quote", counting)
    text = "{{json::" * 2000 + "x" + "}}" * 2000
    out, diagnostics = _expand(text)
    assert out == text
    assert {code for code, _ in diagnostics} == {"FG203"}
    # what was escaped is at most the work cap plus the one string that crossed it
    assert sum(escaped) <= engine.MAX_BLOCK_WORK + engine.MAX_BLOCK_LENGTH
    assert len(escaped) < 100  # the first ~13 levels (doubling to the cap), then nothing more
