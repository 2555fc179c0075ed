"""Hover: what the thing under the cursor is, in the words ``forgec rule`` and the docs use.

A macro shows what it renders and its arguments; a slot, its description and options; a rule code
(in a ``# forgec: ignore[FG118]`` comment or anywhere) the rule's explanation and link; a
``{{getvar::x}}`` where ``x`` is set; a profile's ``promptStack`` the stack file it resolves to.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.lsp.cursor import read_cursor
from forgec.lsp.facts import (
    macro_at,
    macro_summaries,
    parse_text,
    slot_descriptions,
    slot_options,
    variable_sites,
    word_at,
)
from forgec.model import VARIABLE_READER_MACROS

if TYPE_CHECKING:
    from forgec.lsp.files import FileKind
    from forgec.lsp.project import Project

__all__ = ["hover_markdown", "rule_markdown"]

_CODE = re.compile(r"FG\d{3}")


def rule_markdown(code: str) -> str | None:
    """The rule as ``forgec rule CODE`` explains it, in Markdown (``None``: no such rule)."""
    from forgec.rules import rule_for

    try:
        rule = rule_for(code)
    except KeyError:
        return None
    origin = "pi-forge diagnostic" if rule.pi_forge else "forgec rule (not reported by pi-forge)"
    lines = [f"**{rule.code} {rule.name}** — default level {rule.level} ({origin})", "", rule.summary]
    for title, example in (("Bad", rule.bad), ("Good", rule.good)):
        if example:
            lines += ["", f"{title}:", "```", example, "```"]
    lines += ["", f"[{rule.code} in the rule reference]({rule.url}) · `forgec rule {rule.code}`"]
    return "\n".join(lines)


def slot_markdown(name: str, registry: Any) -> str | None:
    descriptions = slot_descriptions(registry)
    if name not in descriptions:
        return None
    lines = [f"**slot `{name}`** — {descriptions[name]}"]
    options = slot_options(name, registry)
    if options:
        lines += ["", "| option | type | default |", "|---|---|---|"]
        for option, schema in options.items():
            kind = str(schema.get("type", ""))
            if "values" in schema:
                kind += ": " + " \\| ".join(str(v) for v in schema["values"])
            default = schema.get("default", "")
            lines.append(
                f"| `{option}` | {kind} | {default!r} |" if default != "" else f"| `{option}` | {kind} | |"
            )
    return "\n".join(lines)


def hover_markdown(
    project: Project, path: Path, kind: FileKind, text: str, offset: int
) -> tuple[str, int, int] | None:
    """(Markdown, start, end) of the hover at ``offset``, or ``None``."""
    registry = project.environment(path).registry
    macro = macro_at(text, offset)
    if macro is not None and kind == "stack":
        if macro.part >= 0 and macro.command in VARIABLE_READER_MACROS and macro.args:
            name = (
                macro.args[0]
                if macro.args[0] not in ("turn", "session") or len(macro.args) < 2
                else macro.args[1]
            )
            sites = variable_sites(parse_text(text, path)).get(name, [])
            where = (
                ", ".join(f"line {s.line}" for s in sites)
                if sites
                else "nowhere in this stack (a session variable of the host?)"
            )
            return f"variable `{name}` is set at {where}", macro.start, macro.end
        summaries = macro_summaries(registry)
        if macro.command in summaries:
            from forgec.compile.macros.builtins import BUILTIN_MACROS

            lines = [f"**macro `{{{{{macro.command}}}}}`** — renders {summaries[macro.command]}"]
            builtin = BUILTIN_MACROS.get(macro.command)
            if builtin is not None and builtin.min_args:
                most = "any number of" if builtin.max_args is None else str(builtin.max_args)
                lines.append(f"\n{builtin.min_args} to {most} `::` arguments")
            return "\n".join(lines), macro.start, macro.end
        return None
    word, start, end = word_at(text, offset)
    code = _CODE.search(word)
    if code is not None:
        markdown = rule_markdown(code.group(0))
        if markdown is not None:
            return markdown, start + code.start(), start + code.end()
    if kind == "stack" and read_cursor(text, end, path.suffix.lower() in (".yaml", ".yml")).key == "slot":
        markdown = slot_markdown(word, registry)  # the value of an item's ``slot``, not any word
        if markdown is not None:
            return markdown, start, end
    if kind == "profile":
        from forgec.lsp.navigation import profile_stack

        target = profile_stack(project, path, text, offset)
        if target is not None:
            stack_path, stack_id, scope = target
            return f"prompt stack `{scope}:{stack_id}` — `{stack_path}`", start, end
    return None
