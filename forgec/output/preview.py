"""Human renderings of a compile report: pi-forge's preview text (compile-core.md §11.2), a rich
terminal view of the same content, and Markdown.

All three read the compile report (:mod:`forgec.report`), so what a person sees is exactly what the
JSON contract says: system prompt, each message with its role and where it came from, diagnostics.
"""

from __future__ import annotations

import re
from typing import Any

from forgec.js.values import js_len, js_string, js_trim, js_trim_start, js_truthy, utf16_slice
from forgec.model.messages import preview_text

__all__ = [
    "PREVIEW_LIMIT",
    "Shown",
    "layout_cut",
    "message_title",
    "preview_diagnostics",
    "render_diagnostics",
    "render_markdown",
    "render_rich",
    "render_text",
]

#: §11.2: the message layout is cut after this many UTF-16 units
PREVIEW_LIMIT = 8000


def message_title(index: int, source: Any) -> str:
    """§11.2 section title of message ``index`` (0-based)."""
    if not isinstance(source, dict):
        return f"Message {index + 1}"
    kind = source.get("kind")
    if kind == "stack-item":
        name = source.get("itemName")
        name = js_trim(name) if isinstance(name, str) else ""
        item_id = source.get("itemId")
        if name:
            return name
        if isinstance(item_id, str) and item_id:
            return item_id
        return f"Stack item {index + 1}"
    if kind == "chat-history":
        name = source.get("itemName")
        name = js_trim(name) if isinstance(name, str) else ""
        return f"{name or 'Chat history'} #{js_string(source.get('historyIndex'))}"
    if kind == "implicit-history":
        return f"Conversation history #{js_string(source.get('historyIndex'))}"
    return f"Message {index + 1}"


def preview_diagnostics(report: dict[str, Any]) -> list[dict[str, Any]]:
    """§11.1 step 5: loader diagnostics, then the system compile's, then the messages compile's."""
    out: list[dict[str, Any]] = []
    for section in ("validation", "system", "messages"):
        part = report.get(section)
        if isinstance(part, dict):
            out.extend(d for d in part.get("diagnostics") or [] if isinstance(d, dict))
    return out


def render_diagnostics(diagnostics: list[dict[str, Any]]) -> str:
    """``No diagnostics.`` or one ``LEVEL [itemId]: message`` line each (§11.2)."""
    if not diagnostics:
        return "No diagnostics."
    lines = []
    for d in diagnostics:
        item_id = d.get("itemId")
        where = f" [{item_id}]" if isinstance(item_id, str) and item_id else ""
        lines.append(f"{str(d.get('level', '')).upper()}{where}: {d.get('message', '')}")
    return "\n".join(lines)


def _sections(report: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """(title, role or None when the role is falsy, content) per compiled message."""
    compiled = report.get("messages") or {}
    messages = compiled.get("messages") or []
    sources = compiled.get("sources") or []
    out = []
    for i, message in enumerate(messages):
        source = sources[i] if i < len(sources) else None
        role = message.get("role") if isinstance(message, dict) else None
        # shown when truthy (JavaScript): a role ``[]`` prints `` ()``, a missing one nothing
        role_text = js_string(role) if js_truthy(role) else None
        out.append((message_title(i, source), role_text, preview_text(message)))
    return out


def _layout(sections: list[tuple[str, str | None, str]], *, cut: bool = True) -> str:
    """§11.2's layout; ``cut`` False (forgec's ``--all``/``--max-messages``) keeps every section."""
    text = ""
    for title, role, content in sections:
        text += f"\n--- {title}" + (f" ({role})" if role is not None else "") + " ---\n" + content + "\n"
        if cut and js_len(text) > PREVIEW_LIMIT:
            return utf16_slice(text, 0, PREVIEW_LIMIT) + "\n\n[preview truncated]"
    return js_trim_start(text)


def layout_cut(report: dict[str, Any]) -> tuple[int, int] | None:
    """``(n, total)`` when pi-forge's 8000-unit cut falls inside message ``n`` (1-based) of
    ``total``, else None: what ``forgec preview`` tells the reader the layout lost."""
    sections = _sections(report)
    length = 0
    for index, (title, role, content) in enumerate(sections):
        length += js_len(f"\n--- {title}" + (f" ({role})" if role is not None else "") + " ---\n" + content + "\n")
        if length > PREVIEW_LIMIT:
            return index + 1, len(sections)
    return None


class Shown:
    """Which messages a forgec rendering shows: pi-forge's cut (the default), the first ``limit``
    (``--max-messages N``) or all of them (``--all``)."""

    __slots__ = ("limit", "pi_forge")

    def __init__(self, limit: int | None = None, *, pi_forge: bool = True) -> None:
        self.limit = limit
        self.pi_forge = pi_forge and limit is None

    def pick(self, sections: list[tuple[str, str | None, str]]) -> list[tuple[str, str | None, str]]:
        return sections if self.limit is None else sections[: self.limit]

    def note(self, total: int) -> str | None:
        """``[10 of 42 messages shown; --all shows every message]`` when messages were left out."""
        if self.limit is None or total <= self.limit:
            return None
        return f"[{self.limit} of {total} messages shown; --all shows every message]"


def _stack_id(report: dict[str, Any]) -> str:
    validation = report.get("validation") or {}
    stack_id = validation.get("stackId")
    return stack_id if isinstance(stack_id, str) else ""


def _system_prompt(report: dict[str, Any]) -> str:
    prompt = (report.get("system") or {}).get("prompt")
    return prompt if isinstance(prompt, str) else ""


def render_text(report: dict[str, Any], shown: Shown | None = None) -> str:
    """pi-forge's ``/preset preview`` text (§11.2), byte for byte; with ``shown`` (``--all``,
    ``--max-messages``) the layout is not cut at 8000 units but keeps the messages asked for."""
    prompt = _system_prompt(report)
    if shown is None or shown.pi_forge:
        layout = _layout(_sections(report))
    else:
        sections = _sections(report)
        layout = _layout(shown.pick(sections), cut=False)
        note = shown.note(len(sections))
        if note is not None:
            layout += "\n\n" + note
    return "\n".join(
        [
            f"# Prompt stack preview: {_stack_id(report)}",
            "",
            "## System prompt",
            "",
            prompt if prompt != "" else "(empty)",
            "",
            "## Message layout",
            "",
            layout,
            "",
            "## Diagnostics",
            "",
            render_diagnostics(preview_diagnostics(report)),
        ]
    )


def _source_label(source: Any) -> str:
    if not isinstance(source, dict):
        return ""
    kind = source.get("kind")
    if kind == "stack-item":
        return f"stack item {source.get('itemId')}"
    if kind in ("chat-history", "implicit-history"):
        where = f"slot {source.get('itemId')}" if kind == "chat-history" else "implicit"
        return f"chat history {source.get('historyIndex')}/{source.get('historyCount')} ({where})"
    return ""


def _fence(content: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", content)), default=0)
    return "`" * max(3, longest + 1)


def _md_inline(text: str) -> str:
    """One line of Markdown from untrusted text: controls (ESC, BEL, newlines) shown escaped."""
    from forgec.output.textsafe import escape_controls

    return escape_controls(text)


def _md_cell(text: str) -> str:
    """A table cell: one line (newlines shown as ``\\n``) with ``|`` escaped, so the row keeps its columns."""
    return _md_inline(text).replace("|", "\\|")


def _md_block(text: str) -> str:
    """Fenced block content: newlines are the layout, other controls are shown escaped."""
    from forgec.output.textsafe import escape_controls

    return escape_controls(text, keep_newlines=True)


def render_markdown(report: dict[str, Any], shown: Shown | None = None) -> str:
    """A Markdown document: system prompt, a message table with sources, each message, diagnostics.

    Every value from the stack (ids, names, prompt text, messages) has its terminal control
    characters shown escaped (``\\x1b``), like the text format: the document is often printed.
    Every message is shown unless ``shown`` limits them (``--max-messages``).
    """
    compiled = report.get("messages") or {}
    sources = compiled.get("sources") or []
    every = _sections(report)
    shown = shown or Shown(pi_forge=False)
    sections = shown.pick(every)
    note = shown.note(len(every))
    prompt = _system_prompt(report)
    out = [f"# Prompt stack preview: `{_md_inline(_stack_id(report))}`", "", "## System prompt", ""]
    fence = _fence(prompt)
    out += [fence + "text", _md_block(prompt), fence, ""] if prompt else ["*(empty)*", ""]
    out += ["## Messages", ""]
    if sections:
        out += ["| # | role | title | source |", "|---|---|---|---|"]
        for i, (title, role, _content) in enumerate(sections):
            source = sources[i] if i < len(sources) else None
            cells = [str(i + 1), role or "", title, _source_label(source)]
            out.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
        out.append("")
        for i, (title, role, content) in enumerate(sections):
            fence = _fence(content)
            heading = f"### {i + 1}. {_md_inline(title)}" + (f" ({_md_inline(role)})" if role else "")
            out += [heading, "", fence + "text", _md_block(content), fence, ""]
        if note is not None:
            out += [f"*{note}*", ""]
    else:
        out += ["*(no messages)*", ""]
    out += ["## Diagnostics", ""]
    diagnostics = preview_diagnostics(report)
    if not diagnostics:
        out.append("No diagnostics.")
    for d in diagnostics:
        item_id = d.get("itemId")
        where = f" `{_md_inline(item_id)}`" if isinstance(item_id, str) and item_id else ""
        level = _md_inline(str(d.get("level", "")).upper())
        out.append(f"- **{level}**{where}: {_md_inline(js_string(d.get('message', '')))}")
    return "\n".join(out) + "\n"


_LEVEL_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_ROLE_STYLE = {"user": "green", "assistant": "magenta", "custom": "blue", "toolResult": "bright_black"}


def render_rich(report: dict[str, Any], console: Any, shown: Shown | None = None) -> None:
    """The preview for a terminal: one panel per message, titled with its role and source (every
    message, unless ``shown`` limits them)."""
    from rich.panel import Panel
    from rich.rule import Rule
    from rich.text import Text

    compiled = report.get("messages") or {}
    sources = compiled.get("sources") or []
    console.print(Rule(Text(f"Prompt stack preview: {_stack_id(report)}", style="bold")))
    prompt = _system_prompt(report)
    console.print(
        Panel(Text(prompt) if prompt else Text("(empty)", style="dim"), title="System prompt", title_align="left")
    )
    every = _sections(report)
    shown = shown or Shown(pi_forge=False)
    sections = shown.pick(every)
    if not sections:
        console.print(Text("(no messages)", style="dim"))
    for i, (title, role, content) in enumerate(sections):
        source = sources[i] if i < len(sources) else None
        header = Text(f"{i + 1}. {title}")
        if role:
            header.append(f" ({role})", style=_ROLE_STYLE.get(role, "white"))
        console.print(
            Panel(
                Text(content),
                title=header,
                title_align="left",
                subtitle=_source_label(source) or None,
                subtitle_align="right",
                border_style=_ROLE_STYLE.get(role or "", "white"),
            )
        )
    note = shown.note(len(every))
    if note is not None:
        console.print(Text(note, style="dim"))
    console.print(Rule("Diagnostics", align="left"))
    diagnostics = preview_diagnostics(report)
    if not diagnostics:
        console.print(Text("No diagnostics.", style="green"))
    for d in diagnostics:
        level = str(d.get("level", ""))
        line = Text(level.upper(), style=_LEVEL_STYLE.get(level, ""))
        item_id = d.get("itemId")
        if isinstance(item_id, str) and item_id:
            line.append(f" [{item_id}]", style="bold")
        line.append(": " + str(d.get("message", "")))
        console.print(line)
