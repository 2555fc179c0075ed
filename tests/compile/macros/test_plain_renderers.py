"""The engine's direct rendering of variable and filter built-ins (``Session._render_plain``) is the generic path.

For texts built from every form those built-ins take (scopes, white space around names and values,
empty names, surplus and missing arguments, nested macros in used and unused arguments, ``::`` runs,
non-string values, ``__proto__``), each expansion with the direct path is compared with one where the
engine has no direct renderers (``PLAIN_RENDERERS`` emptied): output, findings (all fields), the store
afterwards (key order and dirty flag included), and the replay recorded from it.
"""

from __future__ import annotations

import random
from typing import Any

from forgec.compile.macros import builtins, engine, expand_block
from forgec.compile.macros.replay import REPLAYS
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

NAMES = ["a", " a ", "b", "\ufeffa\t", "", "  ", "turn", "session", "__proto__", "obj", "{{getvar::b}}"]
VALUES = ["", "x", " y ", "A::b", "a:::b", "ß", "é\u03a3", "{{upper::in}}", "v ", "\ud83d"]
COMMANDS = ["getvar", "var", "getturnvar", "getsessionvar", "setvar", "setturnvar", "setsessionvar",
            "trim", "upper", "lower", " getvar ", "clearvar", "ifvar"]


def _macro(rng: random.Random) -> str:
    command = rng.choice(COMMANDS)
    args = [rng.choice(NAMES if i == 0 else [*NAMES, *VALUES]) for i in range(rng.randint(0, 4))]
    if rng.random() < 0.2:
        args.insert(0, rng.choice(["turn", "session", " session "]))
    return "{{" + "::".join([command, *args]) + rng.choice(["", " ", "\n", ":"]) + "}}"


def _store(rng: random.Random) -> VariableStore:
    session = {n: rng.choice([*VALUES, 3, {"k": [1]}, None]) for n in ["a", "b", "obj", "__proto__"] if rng.random() < 0.5}
    turn = {n: rng.choice(VALUES) for n in ["a", "b"] if rng.random() < 0.5}
    return VariableStore(session=session, turn=turn, session_dirty=rng.random() < 0.5)


def _expand(text: str, store: VariableStore | None, stack: dict[str, Any]) -> tuple[Any, ...]:
    diagnostics: list[Any] = []
    out = expand_block(text, item_id="item-1", stack=stack, runtime=Runtime(now_ms=0), store=store,
                       diagnostics=diagnostics, selected_tools=[], pointer=("items", 1, "content"))
    found = [(d.level, d.message, d.code, d.item_id, d.pointer, d.offset, d.length) for d in diagnostics]
    state = None if store is None else (list(store.turn.items()), list(store.session.items()), store.session_dirty)
    return out, found, state


def _recorded(text: str) -> Any:
    entries = REPLAYS.get(text) or {}
    return [(e.reads, e.writes, e.output, [(f.message, f.offset) for f in e.findings]) for e in entries.values()]


def test_the_direct_path_is_the_generic_path() -> None:
    assert builtins.BUILTIN_RENDERERS["getvar"] in engine.PLAIN_RENDERERS  # registered by the built-ins
    rng = random.Random(25)
    saved = dict(engine.PLAIN_RENDERERS)
    for _ in range(3_000):
        text = "".join(rng.choice([_macro(rng), " t ", "{{getvar::{{getvar::a}}}}"]) for _ in range(rng.randint(1, 4)))
        stack = {"variables": {"a": "static", "b": 7}, "defaults": {"unresolvedMacroPolicy": rng.choice(["warn", "error"])}}
        seed = rng.random()
        store = None if seed < 0.1 else _store(random.Random(seed))
        results = []
        for direct in (True, False):
            engine.set_plain_renderers(saved if direct else {})
            try:
                REPLAYS.clear()
                copy = None if store is None else VariableStore(dict(store.session), dict(store.turn), store.session_dirty)
                _expand(text, copy, stack)  # the first sight, not recorded
                copy = None if store is None else VariableStore(dict(store.session), dict(store.turn), store.session_dirty)
                results.append((_expand(text, copy, stack), _recorded(text)))
            finally:
                engine.set_plain_renderers(saved)
        assert results[0] == results[1], text
    REPLAYS.clear()


def test_near_the_limits_the_direct_path_steps_aside(monkeypatch: Any) -> None:
    """With the length and work caps lowered, long values and results fail exactly as on the generic path
    (the direct path returns before reading or writing anything)."""
    monkeypatch.setattr(engine, "MAX_BLOCK_LENGTH", 40)
    monkeypatch.setattr(engine, "MAX_BLOCK_WORK", 60)
    saved = dict(engine.PLAIN_RENDERERS)
    texts = [
        "{{getvar::a}}{{getvar::a}}",
        "{{upper::" + "y" * 30 + "}}{{lower::" + "Z" * 30 + "}}{{trim::  " + "t" * 25 + "  }}{{upper::after}}",
        "{{setvar::c::" + "v" * 45 + "}}{{getvar::c}}{{setvar::d::" + "w" * 12 + "::" + "w" * 12 + "}}",
        "{{upper::{{getvar::a}}}}{{upper::ß" + "ß" * 12 + "}}",
    ]
    for text in texts:
        results = []
        for direct in (True, False):
            engine.set_plain_renderers(saved if direct else {})
            try:
                REPLAYS.clear()
                store = VariableStore(session={}, turn={"a": "x" * 25}, session_dirty=False)
                results.append(_expand(text, store, {}))
            finally:
                engine.set_plain_renderers(saved)
        assert results[0] == results[1], text
        assert results[0][1], text  # each text crosses a cap somewhere
    REPLAYS.clear()


def test_the_dispatch_table_is_in_step_with_the_plain_renderers() -> None:
    """One look-up per macro (``Session.dispatch``): each built-in's renderer with its ``PLAIN_RENDERERS`` entry,
    remade when the plain renderers change (``set_plain_renderers``), and made afresh for another table."""
    table = builtins.BUILTIN_RENDERERS
    expected = {name: (renderer, engine.PLAIN_RENDERERS.get(renderer)) for name, renderer in table.items()}
    assert engine.dispatch_table(table) == expected
    assert sum(plain is not None for _renderer, plain in expected.values()) == 10
    other = dict(table)
    assert engine.dispatch_table(other) == expected and engine.dispatch_table(other) is not engine.dispatch_table(table)
    saved = dict(engine.PLAIN_RENDERERS)
    try:
        engine.set_plain_renderers({})
        assert all(plain is None for _renderer, plain in engine.dispatch_table(table).values())
        assert all(plain is None for _renderer, plain in engine.dispatch_table(other).values())
    finally:
        engine.set_plain_renderers(saved)
    assert engine.dispatch_table(table) == expected
