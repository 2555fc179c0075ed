"""A replayed block expansion (``forgec.compile.macros.replay``) is exactly a fresh one.

Every case expands a block once (recording it), then again under other variable states, each time
compared with a fresh expansion (the recordings forgotten) on an equal copy of the store: output,
findings (all fields) and the store afterwards, its key order and dirty flag included.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from forgec.compile.macros import expand_block
from forgec.compile.macros.replay import REPLAYS
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

NAMES = ["a", "b", "c", "__proto__"]
VALUES = ["", "x", "1", " a ", "A::b"]


def _piece(rng: random.Random) -> str:
    name = rng.choice(NAMES)
    return rng.choice([
        f"{{{{getvar::{name}}}}}", f"{{{{var::{name}}}}}", f"{{{{getsessionvar::{name}}}}}",
        f"{{{{setvar::{name}::{rng.choice(VALUES)}}}}}", f"{{{{setvar::session::{name}::v}}}}",
        f"{{{{clearvar::{name}}}}}", f"{{{{clearsessionvar::{name}}}}}",
        f"{{{{ifvar::{name}::yes::no}}}}", f"{{{{ifeq::{name}::x::same::other}}}}",
        f"{{{{upper::{{{{getvar::{name}}}}}}}}}", f"{{{{{name}}}}}", "{{unknown}}", "{{date}}", "{{json::a\"b}}",
        " text ", "{{trim::  t  }}", "{{lower::ABC}}",
    ])  # fmt: skip


def _store(rng: random.Random) -> VariableStore:
    session = {n: rng.choice([*VALUES, 3, {"k": [1]}]) for n in NAMES if rng.random() < 0.4}
    turn = {n: rng.choice(VALUES) for n in NAMES[:3] if rng.random() < 0.4}
    return VariableStore(session=session, turn=turn, session_dirty=rng.random() < 0.5)


def _copy(store: VariableStore) -> VariableStore:
    return VariableStore(session=dict(store.session), turn=dict(store.turn), session_dirty=store.session_dirty)


def _expand(text: str, store: VariableStore | None, stack: dict[str, Any], item_id: Any = "item-1",
            pointer: tuple[Any, ...] | None = ("items", 1, "content")) -> tuple[Any, ...]:
    diagnostics: list[Any] = []
    out = expand_block(text, item_id=item_id, stack=stack, runtime=Runtime(now_ms=0), store=store,
                       diagnostics=diagnostics, selected_tools=[], pointer=pointer)
    found = [(d.level, d.message, d.code, repr(d.item_id), repr(d.pointer), d.offset, d.length) for d in diagnostics]
    state = None if store is None else (list(store.turn.items()), list(store.session.items()), store.session_dirty)
    return out, found, state


def test_a_replay_is_a_fresh_expansion_under_any_variables() -> None:
    rng = random.Random(14)
    replayed = 0
    for case in range(400):
        text = "".join(_piece(rng) for _ in range(rng.randint(1, 5)))
        stack = {"variables": {"a": "static", "c": 7}, "defaults": {"unresolvedMacroPolicy": rng.choice(["warn", "error"])}}
        REPLAYS.clear()
        _expand(text, _store(rng), stack)  # recorded (when it can be)
        for _ in range(4):
            store = _store(rng) if case % 9 else None
            hits = REPLAYS.hits
            got = _expand(text, None if store is None else _copy(store), stack)
            replayed += REPLAYS.hits - hits
            REPLAYS.clear()
            assert got == _expand(text, store, stack), text
            _expand(text, _store(rng), stack)  # recorded again for the next round
    assert replayed > 100  # replays happened, and were checked


def test_what_is_not_recorded() -> None:
    stack: dict[str, Any] = {}
    REPLAYS.clear()
    # each expanded twice: the cache keeps a text from its second recording on (second sight)
    for text in ["{{setvar::a::1}}{{getvar::a}}", "{{date}}", "{{cwd}}", "{{iftools::x::a::b}}", "{{setvar::a::{{time}}}}"]:
        for _ in range(2):
            _expand(text, VariableStore(), stack)
    assert len(REPLAYS) == 0
    for _ in range(2):
        _expand("{{setvar::a::1}}{{getvar::b}}", VariableStore(), stack, item_id=1)  # a number: 1 == True in Python
    assert len(REPLAYS) == 0
    for _ in range(2):
        _expand("{{setvar::a::1}}{{getvar::b}}", VariableStore(), stack)
    assert len(REPLAYS) == 1


@pytest.mark.parametrize(("first", "second"), [(("items", 1), ("items", True)), ("x", None)])
def test_ids_and_pointers_that_python_confuses_are_kept_apart(first: Any, second: Any) -> None:
    REPLAYS.clear()
    text = "{{unknownMacro}}"
    if isinstance(first, tuple):
        a = _expand(text, VariableStore(), {}, pointer=first)
        b = _expand(text, VariableStore(), {}, pointer=second)
    else:
        a = _expand(text, VariableStore(), {}, item_id=first)
        b = _expand(text, VariableStore(), {}, item_id=second)
    assert a[1] != b[1]
    REPLAYS.clear()


def test_a_block_is_recorded_at_its_second_sight_and_replayed_from_its_third() -> None:
    """The first expansion of a text only marks it as seen (no trace is kept: its record would be
    dropped); the second records it, the third and later replay, each equal to a fresh expansion."""
    REPLAYS.clear()
    text = "{{getvar::a}}{{setvar::b::x}}{{unknownMacro}}"
    stack: dict[str, Any] = {"variables": {"a": "static"}}
    seen = []
    outputs = []
    for _ in range(4):
        hits = REPLAYS.hits
        outputs.append(_expand(text, VariableStore(), stack))
        seen.append((REPLAYS.hits - hits, len(REPLAYS)))
    assert seen == [(0, 0), (0, 1), (1, 1), (1, 1)]
    assert all(out == outputs[0] for out in outputs)
    REPLAYS.clear()
