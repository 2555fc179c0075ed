"""The garbage-collector pause around large compiles: on inside small ones, off inside large ones, put
back after, kept off when the caller had disabled it (the pause itself: tests/source/test_collector.py);
and the result lists of a large compile made inside the previous one's pause (the spares)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from forgec.compile.assemble import compile_prompt
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.plugins import Registry
from forgec.source.collector import LARGE_COMPILE, _spares, make_spares

pytestmark = pytest.mark.usefixtures("gc_enabled")


def _compile(messages: int) -> list[bool]:
    """Compile a stack whose custom macro records whether the collector was on while it ran."""
    seen: list[bool] = []

    def probe(_ctx: Any) -> str:
        seen.append(gc.isenabled())
        return "probed"

    registry = Registry()
    registry.register_macro("probe", probe)
    stack = {
        "items": [
            {"kind": "block", "id": "a", "role": "system", "content": "{{probe}}"},
            {"kind": "slot", "id": "h", "slot": "chat-history"},
        ]
    }
    history = [{"role": "user", "content": [{"type": "text", "text": f"m{i}"}], "timestamp": i} for i in range(messages)]
    compiled = compile_prompt(stack, Runtime(messages=history), VariableStore(), registry=registry)
    assert compiled.system.prompt == "probed"
    assert len(compiled.messages.messages) == messages
    return seen


def test_a_large_compile_runs_without_the_collector_and_restores_it() -> None:
    assert _compile(LARGE_COMPILE) == [False]
    assert gc.isenabled()


def test_a_small_compile_leaves_the_collector_alone() -> None:
    assert _compile(10) == [True]
    assert gc.isenabled()


def test_a_caller_that_disabled_the_collector_keeps_it_disabled() -> None:
    gc.disable()
    assert _compile(LARGE_COMPILE) == [False]
    assert not gc.isenabled()


def _history_lists(messages: int) -> tuple[list[Any], list[Any]]:
    history = [{"role": "user", "content": [{"type": "text", "text": f"m{i}"}]} for i in range(messages)]
    stack = {"items": [{"kind": "slot", "id": "h", "slot": "chat-history"}]}
    compiled = compile_prompt(stack, Runtime(messages=history), VariableStore())
    assert compiled.messages.messages == history and compiled.messages.messages is not history
    assert [s["historyIndex"] for s in compiled.messages.sources] == list(range(1, messages + 1))
    return compiled.messages.messages, compiled.messages.sources


def test_large_compiles_fill_lists_the_young_collection_no_longer_visits() -> None:
    """From the second large compile on, the message and source lists were made inside the previous
    large compile's pause and are out of the youngest generation once that pause's collection ran;
    each compile gets its own.  (The collector stays off between the steps, so only the explicit
    collection -- the one the first allocation after a pause runs -- moves anything.)"""
    gc.disable()
    _history_lists(LARGE_COMPILE)
    gc.collect(0)
    first = _history_lists(LARGE_COMPILE)
    young = {id(o) for o in gc.get_objects(0)}
    assert all(id(lst) not in young for lst in first)
    gc.collect(0)
    second = _history_lists(LARGE_COMPILE)
    young = {id(o) for o in gc.get_objects(0)}
    assert all(id(lst) not in young for lst in second)
    held = [*first, *second]
    assert len({id(lst) for lst in held}) == 4  # nothing handed out twice
    first[0].append("changed")
    first[1].clear()
    assert second == _history_lists(LARGE_COMPILE)


def test_small_compiles_make_their_lists_as_before() -> None:
    make_spares()
    waiting = list(_spares)
    messages, sources = _history_lists(10)
    assert _spares == waiting and all(s is w for s, w in zip(_spares, waiting, strict=True))
    assert all(messages is not w and sources is not w for w in waiting)
