"""The ``project-context`` and ``append-system-prompt`` slots (compile-core.md §6.6, §6.7).

Both pass host text through: context-file contents are never escaped (in XML only the path is), and
the appended prompt is neither escaped nor macro-expanded.
"""

from __future__ import annotations

from typing import Any

from forgec.compile.slots.base import SlotContext, SlotFailure, nullish, require_str
from forgec.compile.slots.helpers import escape_xml, indent_plain_block
from forgec.js.values import UNDEFINED, js_string, js_trim_end


def _field(entry: Any, key: str) -> Any:
    if entry is None:
        raise SlotFailure(f"Cannot read properties of null (reading '{key}')")
    return entry.get(key, UNDEFINED) if isinstance(entry, dict) else UNDEFINED


def _line(value: Any) -> str:
    """A value pushed into a line array and joined: ``Array.join`` prints null/undefined as ``""``."""
    return "" if nullish(value) else js_string(value)


def render_project_context(ctx: SlotContext) -> str:
    """``<project_context>`` with one ``<project_instructions>`` per file, or the plain layout."""
    files = ctx.runtime.options.get("contextFiles")
    if nullish(files) or not isinstance(files, list) or not files:
        return ""
    if ctx.format() == "plain":
        lines = ["Project context:", "", "Project-specific instructions and guidelines:", ""]
        for entry in files:
            lines.append(f"Path: {js_string(_field(entry, 'path'))}")
            lines.append(indent_plain_block(require_str(_field(entry, "content"), "split"), "  "))
            lines.append("")
        return js_trim_end("\n".join(lines))

    lines = ["<project_context>", "", "Project-specific instructions and guidelines:", ""]
    for entry in files:
        lines.append(
            f'<project_instructions path="{escape_xml(require_str(_field(entry, "path"), "replace"))}">'
        )
        lines.append(_line(_field(entry, "content")))
        lines.append("</project_instructions>")
        lines.append("")
    lines.append("</project_context>")
    return "\n".join(lines)


def render_append_system_prompt(ctx: SlotContext) -> str:
    """``options.appendSystemPrompt`` verbatim, ``""`` when absent or null."""
    value = ctx.runtime.options.get("appendSystemPrompt")
    if nullish(value):
        return ""
    return value if isinstance(value, str) else js_string(value)
