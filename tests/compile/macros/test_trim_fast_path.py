"""The engine skips ``strip(JS_WHITESPACE)`` for a command or a name that ``str.isalnum`` accepts, and the
``rstrip`` of a last argument that ends in a letter or a digit (a cheap native test in the compiled build,
stop 29). The premise: no JavaScript white-space character is alphanumeric, so a text the test passes has
nothing to trim; a text with white space at either end takes the trim as before (every character of
``JS_WHITESPACE``, at every guarded place: the flat and the nested command, ``setvar``'s and ``getvar``'s
name, the last argument of a ``setvar`` and of a filter)."""

from __future__ import annotations

import pytest

from forgec.compile.macros import block
from forgec.js.values import JS_WHITESPACE
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

# each text is expanded afresh (a first sight: the top-level path), and inside an ``if`` (the parse's path)
_TAB_TEXTS = {
    "{{\tsetvar\t::\tk\t::v 1\t}}[{{\tgetvar\t::\tk\t}}][{{\tupper\t::x y\t}}][{{\tunknown1\t}}]": (
        "[v 1][X Y][{{\tunknown1\t}}]",
        [("FG202", "Unresolved macro: {{unknown1}}")],
    ),
    "{{setvar::k::\tv1\t}}{{getvar::k}}{{upper::a\t}}{{upper::\t}}{{setvar::\t::x}}{{getvar::\t}}{{\t}}": (
        "\tv1A{{setvar::\t::x}}{{getvar::\t}}{{\t}}",
        [("FG202", "Unresolved macro: {{setvar::\t::x}}"), ("FG202", "Unresolved macro: {{getvar::}}")],
    ),
    "{{setvar::m::z}}{{\tsetvar\t::\tk\t::{{\tgetvar\t::\tm\t}}y\t}}{{\tupper\t::{{getvar::k}}\t}}"
    "[{{\tgetvar\t::\tk\t}}][{{\tupper\t::{{getvar::k}}::\t}}]": ("ZY[zy][ZY]", []),
}


def _expand(text: str) -> tuple[str, list[tuple[str, str]]]:
    store = VariableStore(session={}, turn={}, session_dirty=False)
    diagnostics: list = []
    stack = {"items": [{"id": "a", "kind": "block", "content": text}]}
    out = block.expand_block(text, item_id="a", stack=stack, runtime=Runtime(now_ms=0), store=store,
                             diagnostics=diagnostics, selected_tools=[], pointer=("items", 0, "content"))
    return out, [(d.code, d.message) for d in diagnostics]


@pytest.mark.parametrize("char", list(JS_WHITESPACE))
def test_no_js_white_space_character_is_alphanumeric(char: str) -> None:
    assert not char.isalnum()
    assert not ("a" + char).isalnum() and not (char + "a").isalnum()
    assert not ("a" + char)[-1:].isalnum()


@pytest.mark.parametrize("text", list(_TAB_TEXTS))
def test_trims_with_a_tab(text: str) -> None:
    assert _expand(text) == _TAB_TEXTS[text]


@pytest.mark.parametrize("char", list(JS_WHITESPACE))
@pytest.mark.parametrize("text", list(_TAB_TEXTS))
def test_trims_every_white_space_character_as_a_tab(text: str, char: str) -> None:
    out, findings = _TAB_TEXTS[text]
    assert _expand(text.replace("\t", char)) == (
        out.replace("\t", char), [(code, message.replace("\t", char)) for code, message in findings])


def test_alphanumeric_commands_names_and_ends_take_the_fast_path() -> None:
    assert _expand("{{setvar::k0::value 0}}{{getvar::k0}} {{upper::section 0}} {{setvar::k1::v1}}{{getvar::k1}}") == (
        "value 0 SECTION 0 v1", [])
