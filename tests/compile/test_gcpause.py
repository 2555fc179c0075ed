"""The garbage-collector pause around large compiles: on inside small ones, off inside large ones, and
always put back as it was -- after an exception, when nested, across threads, when the caller had
disabled it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from forgec.compile.assemble import compile_prompt
from forgec.compile.gcpause import LARGE_INPUT, gc_paused
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.plugins import Registry


@pytest.fixture(autouse=True)
def _gc_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:  # pragma: no cover - pytest runs with the collector on
        gc.disable()


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
    assert _compile(LARGE_INPUT) == [False]
    assert gc.isenabled()


def test_a_small_compile_leaves_the_collector_alone() -> None:
    assert _compile(10) == [True]
    assert gc.isenabled()


def test_a_caller_that_disabled_the_collector_keeps_it_disabled() -> None:
    gc.disable()
    assert _compile(LARGE_INPUT) == [False]
    assert not gc.isenabled()


def test_restored_after_an_exception() -> None:
    with pytest.raises(ZeroDivisionError), gc_paused(LARGE_INPUT):
        assert not gc.isenabled()
        _ = 1 / 0
    assert gc.isenabled()


def test_nested_pauses_restore_only_at_the_outermost() -> None:
    with gc_paused(LARGE_INPUT):
        with gc_paused(LARGE_INPUT):
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_pauses_on_threads_restore_once_the_last_one_leaves() -> None:
    entered = threading.Event()
    leave = threading.Event()

    def hold() -> None:
        with gc_paused(LARGE_INPUT):
            entered.set()
            leave.wait(5)

    worker = threading.Thread(target=hold)
    worker.start()
    assert entered.wait(5)
    with gc_paused(LARGE_INPUT):
        assert not gc.isenabled()
    assert not gc.isenabled()  # the worker's compile is still running
    leave.set()
    worker.join(5)
    assert gc.isenabled()


def test_below_the_threshold_nothing_changes() -> None:
    with gc_paused(LARGE_INPUT - 1):
        assert gc.isenabled()
