"""The ``tools`` and ``tool-guidelines`` slots (compile-core.md §6.3, §6.4).

Both read "the selected tools": ``options.selectedTools`` after the stack's tool policy.  The
guidelines slot filters only its own built-in bash sentence through that list; the host's
``promptGuidelines`` are used as given, even those of denied tools (conformance *Reference
behaviour worth knowing*).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.passes.policy import selected_tools
from forgec.compile.slots.base import SlotContext, nullish, require_str
from forgec.compile.slots.helpers import escape_xml, plain_bullet, plain_continuation
from forgec.js.values import UNDEFINED, js_string, js_trim

NO_SNIPPET = "No prompt snippet provided."
BASH_GUIDELINE = "Use bash for file operations like ls, rg, find"
PI_DEFAULT_GUIDELINES = ("Be concise in your responses", "Show file paths clearly when working with files")
DEFAULT_GUIDELINES_HEADING = "Tool guidelines:"


def _snippet_for(snippets: Any, name: Any) -> Any:
    if not isinstance(snippets, dict):
        return UNDEFINED
    return snippets.get(name if isinstance(name, str) else js_string(name), UNDEFINED)


def render_tools(ctx: SlotContext) -> str:
    """``Available tools:`` bullets (plain) or ``<available_tools>`` (XML)."""
    snippets = ctx.runtime.options.get("toolSnippets")
    if nullish(snippets):
        snippets = {}
    only_with_snippets = ctx.flag("onlyWithSnippets")
    tools = selected_tools(ctx.stack, ctx.runtime)
    if only_with_snippets:
        tools = [t for t in tools if isinstance(s := _snippet_for(snippets, t), str) and s != ""]
    rows: list[tuple[Any, Any]] = []
    for name in tools:
        snippet = _snippet_for(snippets, name)
        rows.append((name, NO_SNIPPET if nullish(snippet) else snippet))

    if ctx.format() == "plain":
        lines = ["Available tools:"]
        for name, snippet in rows:
            lines.append(plain_bullet(js_string(name), require_str(snippet, "split")))
        if not rows:
            lines.append("(none)" if only_with_snippets else "- (none)")
        return "\n".join(lines)

    lines = ["<available_tools>"]
    for name, snippet in rows:
        lines.append(
            f'  <tool name="{escape_xml(require_str(name, "replace"))}">'
            f"{escape_xml(require_str(snippet, 'replace'))}</tool>"
        )
    if not rows:
        lines.append("  (none)")
    lines.append("</available_tools>")
    return "\n".join(lines)


def render_tool_guidelines(ctx: SlotContext) -> str:
    """The de-duplicated, trimmed guideline list; ``""`` when there is none."""
    lines: list[str] = []

    def add(line: Any) -> None:
        text = js_trim(require_str(line, "trim", "guideline"))
        if text and text not in lines:
            lines.append(text)

    tools = selected_tools(ctx.stack, ctx.runtime)
    if "bash" in tools and not any(t in tools for t in ("grep", "find", "ls")):
        add(BASH_GUIDELINE if ctx.flag("piStyle") else BASH_GUIDELINE + ".")
    guidelines = ctx.runtime.options.get("promptGuidelines")
    if isinstance(guidelines, list):
        for line in guidelines:
            add(line)
    if ctx.flag("includePiDefaultGuidelines"):
        for line in PI_DEFAULT_GUIDELINES:
            add(line)
    if not lines:
        return ""

    if ctx.format() == "plain":
        heading_option = ctx.option("heading")
        heading = js_trim(heading_option) if isinstance(heading_option, str) else DEFAULT_GUIDELINES_HEADING
        out = [heading] if heading else []
        out.extend("- " + plain_continuation(line, "  ") for line in lines)
        return "\n".join(out)

    return "\n".join(["<tool_guidelines>", *("- " + line for line in lines), "</tool_guidelines>"])
