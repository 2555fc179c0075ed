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
from forgec.source.collector import LARGE_COMPILE, SPARE_DEPTH, SPARE_LISTS, _spares, make_spares

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
    assert list(_spares) == waiting and all(s is w for s, w in zip(_spares, waiting, strict=True))
    assert all(messages is not w and sources is not w for w in waiting)


def test_after_a_pool_of_compiles_the_lists_are_in_the_oldest_generation() -> None:
    """With CPython's default thresholds and the collector on, a large compile's lists were made
    :data:`SPARE_DEPTH` large compiles earlier and have been through a generation-1 collection since:
    neither a young nor a generation-1 collection walks what they hold (the 100,000 elements of a
    50,000-message report were walked by every ~10th compile's generation-1 collection)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        _spares.clear()
        for _ in range(SPARE_DEPTH + 2):
            held = _history_lists(LARGE_COMPILE)
        assert len(_spares) == SPARE_LISTS * SPARE_DEPTH
        younger = {id(o) for o in [*gc.get_objects(0), *gc.get_objects(1)]}
        assert all(id(lst) not in younger for lst in held)
    finally:
        gc.set_threshold(*thresholds)


def test_spares_are_handed_out_oldest_first() -> None:
    """The pool is first in, first out: each compile takes the spares that waited longest."""
    _spares.clear()
    make_spares()
    pool = list(_spares)
    assert len(pool) == SPARE_LISTS * SPARE_DEPTH
    first = _history_lists(LARGE_COMPILE)
    assert all(any(lst is p for p in pool[:SPARE_LISTS]) for lst in first)
    assert [id(lst) for lst in _spares][: len(pool) - SPARE_LISTS] == [id(p) for p in pool[SPARE_LISTS:]]
