"""The ``skills`` slot (compile-core.md §6.5).

Lists the skills the model may load, minus those hidden with ``disableModelInvocation`` and those the
stack's ``skills`` policy removes.  The policy is applied here and nowhere else: it is not a
security boundary (the loader says so in an info diagnostic).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.passes.policy import apply_policy, selected_tools
from forgec.compile.slots.base import SlotContext, SlotFailure, nullish, require_str
from forgec.compile.slots.helpers import escape_xml, plain_bullet, plain_continuation
from forgec.js.values import UNDEFINED, js_string, js_truthy

SKILLS_PREAMBLE = (
    "The following skills provide specialized instructions for specific tasks.",
    "Use the read tool to load a skill's file when the task matches its description.",
    "When a skill file references a relative path, resolve it against the skill directory "
    "(parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.",
    "",
)


def _field(skill: Any, key: str) -> Any:
    if skill is None:
        raise SlotFailure(f"Cannot read properties of null (reading '{key}')")
    return skill.get(key, UNDEFINED) if isinstance(skill, dict) else UNDEFINED


def visible_skills(ctx: SlotContext) -> list[Any]:
    """Skills in host order, without hidden ones and without those the skill policy drops."""
    skills = ctx.runtime.options.get("skills")
    if nullish(skills) or not isinstance(skills, list):
        skills = []
    policy = ctx.stack.get("skills")
    out = []
    for skill in skills:
        if js_truthy(_field(skill, "disableModelInvocation")):
            continue
        if not apply_policy(policy, [_field(skill, "name")]):
            continue
        out.append(skill)
    return out


def render_skills(ctx: SlotContext) -> str:
    """The fixed preamble, then ``Available skills:`` bullets (plain) or ``<available_skills>``."""
    if ctx.flag("requireReadTool") and "read" not in selected_tools(ctx.stack, ctx.runtime):
        return ""
    skills = visible_skills(ctx)
    if not skills:
        return ""
    lines = list(SKILLS_PREAMBLE)
    if ctx.format() == "plain":
        lines.append("Available skills:")
        for skill in skills:
            lines.append(
                plain_bullet(
                    js_string(_field(skill, "name")), require_str(_field(skill, "description"), "split")
                )
            )
            lines.append(
                "  Location: " + plain_continuation(require_str(_field(skill, "filePath"), "split"), "  ")
            )
        return "\n".join(lines)

    lines.append("<available_skills>")
    for skill in skills:
        lines.extend(
            [
                "  <skill>",
                f"    <name>{escape_xml(require_str(_field(skill, 'name'), 'replace'))}</name>",
                "    <description>"
                f"{escape_xml(require_str(_field(skill, 'description'), 'replace'))}</description>",
                f"    <location>{escape_xml(require_str(_field(skill, 'filePath'), 'replace'))}</location>",
                "  </skill>",
            ]
        )
    lines.append("</available_skills>")
    return "\n".join(lines)
