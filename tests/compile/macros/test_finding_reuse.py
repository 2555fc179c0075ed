"""The engine hands out an unresolved-macro finding again for the same block (engine.unresolved_diagnostic).

A finding is kept on the cached parsed macro; these tests check it is reused only when everything it
says is the same, including values Python calls equal but JSON prints differently (``1``/``True``).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.macros import expand_text
from forgec.diagnostics import Diagnostic

TEXT = "a {{nowhere-to-be-found}} b"


def _finding(**kwargs: Any) -> Diagnostic:
    _out, diagnostics = expand_text(TEXT, **kwargs)
    assert len(diagnostics) == 1
    return diagnostics[0]


def test_same_block_gets_the_same_finding() -> None:
    _finding(item_id="x", pointer=("items", 1, "content"))  # the parse cache keeps a text from its second parse
    first = _finding(item_id="x", pointer=("items", 1, "content"))
    second = _finding(item_id="x", pointer=("items", 1, "content"))
    assert second is first
    assert (second.level, second.message, second.offset, second.length) == ("warning", "Unresolved macro: {{nowhere-to-be-found}}", 2, 23)


def test_equal_but_different_pointers_get_their_own_finding() -> None:
    as_bool = _finding(item_id="y", pointer=("items", True, "content"))
    as_int = _finding(item_id="y", pointer=("items", 1, "content"))
    assert type(as_bool.pointer[1]) is bool  # type: ignore[index]
    assert type(as_int.pointer[1]) is int  # type: ignore[index]


def test_non_string_ids_are_never_confused() -> None:
    assert _finding(item_id=True).item_id is True
    assert type(_finding(item_id=1).item_id) is int
    assert _finding(item_id=[1]).item_id == [1]


def test_the_policy_and_the_id_are_part_of_the_finding() -> None:
    warn = _finding(item_id="z")
    error = _finding(item_id="z", stack={"defaults": {"unresolvedMacroPolicy": "error"}})
    other = _finding(item_id="w")
    assert (warn.level, error.level) == ("warning", "error")
    assert (other.item_id, warn.item_id) == ("w", "z")
