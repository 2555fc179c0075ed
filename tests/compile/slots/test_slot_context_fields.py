"""``render_slot`` builds the renderer's :class:`SlotContext` by position: each field must hold what
its name says (a reordered dataclass would hand a renderer the stack as its item)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from forgec.compile.slots import render_slot
from forgec.compile.slots.base import SlotContext
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore


def test_a_renderer_gets_each_input_under_its_own_name() -> None:
    seen: list[SlotContext] = []

    def renderer(ctx: SlotContext) -> str:
        seen.append(ctx)
        return "ok"

    item: dict[str, Any] = {"kind": "slot", "slot": "custom-probe", "id": "p"}
    stack: dict[str, Any] = {"id": "s", "items": [item]}
    runtime = Runtime()
    store = VariableStore()
    diagnostics: list[Any] = []
    registry: Any = SimpleNamespace(slots={"custom-probe": renderer})
    text = render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics, registry=registry)
    assert text == "ok"
    (ctx,) = seen
    assert ctx.item is item and ctx.stack is stack and ctx.runtime is runtime
    assert ctx.store is store and ctx.diagnostics is diagnostics
    assert [f for f in SlotContext.__dataclass_fields__] == ["item", "stack", "runtime", "store", "diagnostics"]
