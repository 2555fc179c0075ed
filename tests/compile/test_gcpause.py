"""The garbage-collector pause around large compiles: on inside small ones, off inside large ones, put
back after, kept off when the caller had disabled it (the pause itself: tests/source/test_collector.py)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from forgec.compile.assemble import compile_prompt
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.plugins import Registry
from forgec.source.collector import LARGE_COMPILE

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
