"""Macro values are JavaScript strings (issue 12, point 2): the two halves of a surrogate pair glued
by macros are the whole character, as UTF-16 makes them, for comparison, lookup keys and length."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.js.values import js_concat, js_len
from forgec.report import compile_report

HI, LO, WHOLE = "\ud83d", "\ude00", "\U0001f600"


def _run(content: str, ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    items = [{"kind": "block", "id": "b", "role": "system", "content": content}]
    return compile_report({"schemaVersion": 1, "id": "u", "items": items, **stack}, ctx or {}).to_report()


SESSION = {"variables": {"hi": HI, "lo": LO}}


def test_glued_halves_compare_equal_to_the_character_in_ifeq() -> None:
    report = _run("{{setvar::v::{{hi}}{{lo}}}}[{{ifeq::v::" + WHOLE + "::eq::ne}}][{{ifeq::e::{{hi}}{{lo}}::eq::ne}}]"
                  "[{{ifeq::e::{{hi}}::eq::ne}}]", SESSION, variables={"e": WHOLE})
    assert report["system"]["prompt"] == "[eq][eq][ne]"
    assert report["variables"]["turn"] == {"v": WHOLE}


def test_session_value_built_in_two_steps_is_the_character() -> None:
    report = _run("{{setsessionvar::s::{{hi}}}}{{setsessionvar::s::{{getvar::s}}{{lo}}}}[{{ifeq::s::" + WHOLE + "::eq::ne}}]",
                  SESSION)
    assert report["system"]["prompt"] == "[eq]"
    assert report["variables"]["session"]["s"] == WHOLE


def test_a_variable_name_glued_from_halves_finds_the_variable() -> None:
    report = _run("[{{getvar::{{hi}}{{lo}}x}}][{{" + WHOLE + "x}}]{{setvar::{{hi}}{{lo}}y::set}}[{{getvar::" + WHOLE + "y}}]",
                  SESSION, variables={WHOLE + "x": "static"})
    assert report["system"]["prompt"] == "[static][static][set]"
    assert list(report["variables"]["turn"]) == [WHOLE + "y"]


def test_text_and_macro_output_glue_too() -> None:
    assert _run(f"[{HI}{{{{lo}}}}][{{{{hi}}}}{LO}]", SESSION)["system"]["prompt"] == f"[{WHOLE}][{WHOLE}]"


def test_a_lone_half_stays_lone() -> None:
    report = _run("[{{hi}}][{{json::{{hi}}}}][{{lo}}{{hi}}]", SESSION)
    assert report["system"]["prompt"] == f"[{HI}][\"\\ud83d\"][{LO}{HI}]"


@pytest.mark.parametrize(
    ("parts", "joined"),
    [
        ([HI, LO], WHOLE),
        ([HI, "", LO], WHOLE),
        (["a" + HI, LO + "b"], "a" + WHOLE + "b"),
        ([LO, HI], LO + HI),
        ([HI, HI, LO], HI + WHOLE),
        (["ab", "cd"], "abcd"),
        ([], ""),
    ],
)
def test_js_concat(parts: list[str], joined: str) -> None:
    assert js_concat(parts) == joined
    assert js_len(js_concat(parts)) == sum(js_len(p) for p in parts)
