"""pi-forge's twelve built-in slots and the slot dispatcher (compile-core.md §6).

:data:`SLOT_RENDERERS` is the one table of built-in renderers, in pi-forge's registration order
(:data:`forgec.model.BUILTIN_SLOT_NAMES`).  :func:`render_slot` is §6.1's dispatch: it finds
the renderer (built-ins first — pi-forge refuses to re-register a built-in name — then the plugin
registry's custom slots), runs it, and turns an unknown name or a failure into pi-forge's
diagnostics.  Slot output is never macro-expanded; the caller trims it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from forgec.compile.slots.base import SlotContext, SlotFailure, SlotRenderer
from forgec.compile.slots.clock import render_cwd, render_date, render_date_cwd
from forgec.compile.slots.info import render_active_model, render_chat_history, render_pi_docs
from forgec.compile.slots.project import render_append_system_prompt, render_project_context
from forgec.compile.slots.skills import render_skills
from forgec.compile.slots.tools import render_tool_guidelines, render_tools
from forgec.compile.slots.variables import render_variables
from forgec.diagnostics import Diagnostic
from forgec.js.values import UNDEFINED, js_string
from forgec.model import BUILTIN_SLOT_NAMES
from forgec.model.runtime import Runtime
from forgec.model.slot_schemas import SLOT_DESCRIPTIONS, SLOT_OPTION_SCHEMAS
from forgec.model.variables import VariableStore
from forgec.rules.slots import SLOT_FAILED, UNSUPPORTED_SLOT

if TYPE_CHECKING:
    from forgec.plugins import Registry

__all__ = [
    "BUILTIN_SLOT_NAMES",
    "SLOT_DESCRIPTIONS",
    "SLOT_OPTION_SCHEMAS",
    "SLOT_RENDERERS",
    "SlotContext",
    "SlotFailure",
    "SlotRenderer",
    "render_slot",
]

#: built-in slot name -> renderer, in registration order (§6.15)
SLOT_RENDERERS: MappingProxyType[str, SlotRenderer] = MappingProxyType(
    {
        "chat-history": render_chat_history,
        "tools": render_tools,
        "tool-guidelines": render_tool_guidelines,
        "skills": render_skills,
        "project-context": render_project_context,
        "append-system-prompt": render_append_system_prompt,
        "date": render_date,
        "cwd": render_cwd,
        "date-cwd": render_date_cwd,
        "active-model": render_active_model,
        "pi-docs": render_pi_docs,
        "variables": render_variables,
    }
)
assert tuple(SLOT_RENDERERS) == BUILTIN_SLOT_NAMES


def _find_renderer(slot: Any, registry: Registry | None) -> Any:
    """The built-in renderer of ``slot``, else the registry's custom one (built-ins cannot be
    overridden: pi-forge refuses to register a built-in name)."""
    if not isinstance(slot, str):
        return None
    renderer = SLOT_RENDERERS.get(slot)
    if renderer is None and registry is not None:
        return registry.slots.get(slot)
    return renderer


def _call(renderer: Any, ctx: SlotContext) -> Any:
    """Built-ins and plain callables take the context; plugin objects may expose ``.render(ctx)``."""
    if callable(renderer):  # every built-in: no attribute lookup that fails first
        return renderer(ctx)
    render = getattr(renderer, "render", None)
    if callable(render):
        return render(ctx)
    return renderer(ctx)


def _pointer(stack: dict[str, Any], item: dict[str, Any]) -> tuple[str | int, ...] | None:
    """Where the item sits in the stack document (found by identity), for editor positions."""
    items = stack.get("items") if isinstance(stack, dict) else None
    if isinstance(items, list):
        for index, candidate in enumerate(items):
            if candidate is item:
                return ("items", index, "slot")
    return None


def _failure_detail(error: BaseException) -> str:
    """``error.message`` for errors, ``String(error)`` otherwise, as pi-forge formats it."""
    return str(error)


def render_slot(
    item: dict[str, Any],
    *,
    stack: dict[str, Any],
    runtime: Runtime,
    store: VariableStore | None,
    diagnostics: list[Diagnostic],
    registry: Registry | None = None,
) -> str:
    """Render one slot item; problems become diagnostics and ``""`` (§6.1). Never raises."""
    slot = item.get("slot", UNDEFINED)
    item_id = item.get("id")
    renderer = _find_renderer(slot, registry)
    if renderer is None:
        diagnostics.append(
            Diagnostic(
                "warning",
                f"Unsupported slot: {js_string(slot)}",
                UNSUPPORTED_SLOT.code,
                item_id=item_id,
                pointer=_pointer(stack, item),
            )
        )
        return ""
    ctx = SlotContext(item, stack, runtime, store, diagnostics)  # by position: keywords cost ~0.1 µs a slot
    try:
        text = _call(renderer, ctx)
    except Exception as error:  # any renderer failure is a diagnostic, never a traceback
        diagnostics.append(
            Diagnostic(
                "error",
                f'Slot "{js_string(slot)}" failed: {_failure_detail(error)}',
                SLOT_FAILED.code,
                item_id=item_id,
                pointer=_pointer(stack, item),
            )
        )
        return ""
    if text is None or text is UNDEFINED:
        return ""
    return text if isinstance(text, str) else js_string(text)
