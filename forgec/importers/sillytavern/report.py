"""The Markdown import report, byte for byte as pi-forge 0.4.1 writes it (C10, E8, E9, E15).

Every ``<...>`` substitution is converted like a JavaScript template literal (:func:`template_text`):
absent prints ``undefined``, ``null`` prints ``null``, objects ``[object Object]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from forgec.js.values import UNDEFINED, js_len, js_trim, utf16_slice

from .convert import Conversion
from .macros import MIGRATION_NOTES, NATIVE_MACROS, NATIVE_NOTES, MacroScan, display_name
from .patterns import WS_RUN_RE, template_text
from .regex_scripts import RegexSummary

_REGEX_DISCLAIMER = (
    "pi-forge does not run SillyTavern markdown rewriting, DOM/browser automation, CSS/HTML decoration, "
    "toasts, embedded JavaScript, or UI panel behavior."
)
_REGEX_CONVERTED = (
    "Enabled and disabled prompt-only deterministic regex scripts were converted to `regex.rules` with "
    '`stage: "history"`, `effect: "outgoing"`, JavaScript replacement syntax, and preserved SillyTavern '
    "metadata under `source.sillytavern`. History-stage depth is relative to the filtered chat history "
    "inserted at the `chat-history` slot, matching SillyTavern's chat-relative depth, and rules do not "
    'touch the compiled system prompt. Use `stage: "compiled"` manually for global prompt transforms.'
)
_REGEX_REVIEW = (
    "Markdown-only, mixed prompt/markdown, unspecified, invalid, or unsupported regex scripts remain "
    "report-only and require manual review."
)


@dataclass
class ReportInput:
    file_name: str
    source_path: str
    character_id: Any
    stack_id: str
    style_name: str
    names_behavior: Any
    prompts_length: Any
    order_length: Any
    conversion: Conversion
    missing: list[Any]
    regex: RegexSummary | None
    variables: dict[str, str]
    macros: MacroScan
    uses_last_user_message: bool


def cell(value: Any) -> str:
    """A regex-table cell: ``-`` for blanks, whitespace collapsed, 96 UTF-16 units at most, ``|`` escaped.

    forgec deviation (E15a): a cut through a surrogate pair drops the orphaned half.
    """
    if not isinstance(value, str):
        return "-"
    text = _cell_head(value) if len(value) > _CELL_WINDOW else None
    if text is None:
        text = collapse_whitespace(value)
        if text == "":  # the value was blank
            return "-"
    if js_len(text) > 96:
        head = utf16_slice(text, 0, 93)
        if head and 0xD800 <= ord(head[-1]) <= 0xDBFF:
            head = head[:-1]
        text = head + "..."
    return text.replace("|", "\\|")


#: how much of a long cell value :func:`_cell_head` collapses (a replacement string can be a whole
#: HTML page, of which the cell shows 93 units)
_CELL_WINDOW = 1024
#: the characters that are whitespace to one of ``str.split()`` and JavaScript's ``\s`` but not to both
_SPLIT_WS_DIFFERS = "\x1c\x1d\x1e\x1f\x85\ufeff"


def collapse_whitespace(text: str) -> str:
    """``text.replace(/\\s+/g, " ").trim()``.

    ``" ".join(text.split())`` is the same text when ``text`` holds none of the characters only one
    of the two calls whitespace (a C-level check each), and ~5x faster: the pattern has no literal
    to scan for, so ``re`` tests a class at every character and substitutes at every word gap.
    """
    for char in _SPLIT_WS_DIFFERS:
        if char in text:
            return js_trim(WS_RUN_RE.sub(" ", text))
    return " ".join(text.split())


def _cell_head(value: str) -> str | None:
    """The collapsed, trimmed text of ``value``'s first :data:`_CELL_WINDOW` characters when that
    already holds more than 96 UTF-16 units: the whole value's cell starts with the same 93 units and
    is cut as well (the whitespace after the window can only lengthen the text).  ``None`` when the
    window is too short to tell (mostly whitespace); the caller then collapses the whole value.
    """
    head = collapse_whitespace(value[:_CELL_WINDOW])
    return head if js_len(head) > 96 else None


def _dash(value: Any) -> str:
    if type(value) is str:  # the common case, printed as it is (a row has three of them)
        return value
    return "—" if value is None or value is UNDEFINED else template_text(value)


def render(data: ReportInput) -> str:
    """The report text (lines joined with ``\\n``, no trailing newline)."""
    conv, macros = data.conversion, data.macros
    names_value = (
        "?"
        if data.names_behavior is None or data.names_behavior is UNDEFINED
        else template_text(data.names_behavior)
    )
    lines = [
        f"# SillyTavern Import Report: {data.file_name}",
        "",
        f"- **Source file**: {data.source_path}",
        f"- **Character ID**: {template_text(data.character_id)}",
        f"- **Output stack ID**: {data.stack_id}",
        f"- **Names behavior**: {data.style_name} (ST value {names_value})",
        f"- **Total prompts in source**: {template_text(data.prompts_length)}",
        f"- **Items in prompt_order**: {template_text(data.order_length)}",
        f"- **Converted items**: {len(conv.items)}",
        "",
    ]
    if macros.comments_stripped > 0:
        lines.append(f"- **Comments stripped**: {macros.comments_stripped} ST comment blocks removed")
    if macros.trim_stripped > 0:
        lines.append(
            f"- **Trim markers removed**: {macros.trim_stripped} {{{{trim}}}} markers (ST formatting hint)"
        )
    lines.append("")
    if conv.marker or conv.empty or conv.order_disabled:
        lines += ["## Skipped items", ""]
        if conv.marker:
            lines.append(
                f"- {conv.marker} marker items (charDescription, worldInfo, etc.) — handled by Pi/ST runtime, "
                "not needed in prompt stack"
            )
        if conv.empty:
            lines.append(f"- {conv.empty} items with empty or missing content")
        if conv.order_disabled:
            lines.append(f"- {conv.order_disabled} items disabled in prompt_order")
        lines.append("")
    if data.missing:
        lines += ["## ⚠️ Missing identifiers in prompts array", ""]
        lines += [
            f"- `{template_text(m)}` (referenced in prompt_order but not found in prompts)" for m in data.missing
        ]
        lines.append("")
    if data.regex is not None and data.regex.total > 0:
        lines += _regex_section(data.regex)
    if data.variables:
        lines += [
            "## Auto-populated variables",
            "",
            "These ST built-in macros were auto-populated as static variables with placeholder values:",
            "",
        ]
        lines += [
            f"- `{k}` = `{v}` — replace with your character/persona name" for k, v in data.variables.items()
        ]
        lines += ["", "Edit `stack.variables` in the stack JSON or web editor to set real values.", ""]
    migration = macros.migration_sorted()
    if migration:
        lines += [
            "## ⚠️ Macros needing manual migration",
            "",
            "These ST macros appear in the preset but have no direct pi-forge equivalent:",
            "",
        ]
        for name, count in migration:
            plural = "occurrence" if count == 1 else "occurrences"
            lines.append(f"- **`{{{{{display_name(name)}}}}}`** ({count} {plural}) — {MIGRATION_NOTES[name]}")
        lines.append("")
    handled = [name for name in macros.detected if name in NATIVE_MACROS]
    if handled:
        lines += ["## Handled macros", ""]
        for name in handled:
            shown = f"`{{{{{display_name(name)}}}}}`"
            if name in ("char", "user"):
                lines.append(f"- {shown} → auto-populated as static variable")
            elif name == "lastusermessage":
                lines.append(f"- {shown} → handled by pi-forge runtime (chat-history slot)")
            elif name in NATIVE_NOTES:
                lines.append(f"- {shown} → {NATIVE_NOTES[name]}")
            else:
                lines.append(f"- {shown} → handled natively by pi-forge")
        lines.append("")
    lines += [
        "## Item mapping",
        "",
        "| # | ST Identifier | ST Name | pi-forge ID | Role | Enabled | Kind |",
        "|---|--------------|---------|-------------|------|---------|------|",
    ]
    for item in conv.items:
        source = item.get("source", {})
        role = "—" if item["kind"] == "slot" else _dash(item.get("role", UNDEFINED))
        enabled = "✗" if item.get("enabled", UNDEFINED) is False else "✓"
        lines.append(
            f"| {item['id']} | {_dash(source.get('previousId', UNDEFINED))} | {_dash(item.get('name', UNDEFINED))} "
            f"| {item['id']} | {role} | {enabled} | {item['kind']} |"
        )
    lines += ["", "## General notes", ""]
    if data.uses_last_user_message:
        lines.append(
            "- Auto-detected `{{lastUserMessage}}` in post-history content. `chat-history` slot set with "
            "`includeLastUserMessage: false`."
        )
    if macros.comments_stripped > 0 or macros.trim_stripped > 0:
        lines.append(
            f"- {macros.comments_stripped} ST comment blocks and {macros.trim_stripped} TRIM markers were "
            "stripped during import."
        )
    lines += [
        "- All items are assigned sequential numeric IDs. Original SillyTavern identifiers are preserved in "
        "`source.previousId`.",
        "- Marker items for world info, character description, persona, scenario, and dialogue examples are "
        "omitted — these are handled by the SillyTavern frontend and have no direct pi-forge equivalent.",
        f"- The stack is set with `autoActivate: false`. Use `/preset use {data.stack_id}` to activate.",
        "",
        "## Suggested next steps",
        "",
        "1. Set real values for auto-populated variables by editing `stack.variables`.",
        "2. Review items with migration-needed macros and rewrite for pi-forge's macro system.",
        "3. Consider adding a `variables` slot for template variable visibility.",
        f"4. Run `/preset validate {data.stack_id}` to check for issues.",
    ]
    return "\n".join(lines)


def _regex_section(summary: RegexSummary) -> list[str]:
    lines = [
        "## SillyTavern regex scripts",
        "",
        f"- **Total scripts**: {summary.total}",
        f"- **Enabled scripts**: {summary.enabled}",
        f"- **Disabled scripts**: {summary.disabled}",
        f"- **Prompt-only**: {summary.prompt_only}",
        f"- **Markdown-only / display-only**: {summary.markdown_only}",
        f"- **Prompt + markdown mixed**: {summary.mixed}",
    ]
    if summary.unspecified > 0:
        lines.append(f"- **Enabled with unspecified mode**: {summary.unspecified}")
    lines += [
        f"- **Converted to pi-forge rules**: {summary.converted}",
        "",
        "| Script | Enabled | Mode | Converted | Warnings | Find regex | Replacement preview |",
        "|--------|---------|------|-----------|----------|------------|---------------------|",
    ]
    for s in summary.scripts:
        warnings = cell("; ".join(s.warnings)) if s.warnings else "-"
        lines.append(
            f"| {cell(s.name)} | {'yes' if s.enabled else 'no'} | {s.mode} | {cell(s.converted_cell)} | {warnings} "
            f"| {cell(s.find_regex)} | {cell(s.replace_string)} |"
        )
    lines.append("")
    if any(s.warnings for s in summary.scripts):
        lines.append("Conversion warnings:")
        lines += [f"- {s.name}: {w}" for s in summary.scripts for w in s.warnings]
        lines.append("")
    lines.append(_REGEX_DISCLAIMER)
    if summary.converted > 0:
        lines.append(_REGEX_CONVERTED)
    lines += [_REGEX_REVIEW, ""]
    return lines
