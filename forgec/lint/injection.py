"""Injection boundaries (FG880-FG883): untrusted text that reaches a place with authority.

Sources are the text the stack's author does not write: the user's message (``{{lastUserMessage}}``
and every variable stored from it), tool results and user turns in the chat history, project context
files, the appended system prompt and imported character fields.  Sinks are the places where text is
obeyed rather than read: the system prompt (FG880, for the user's text -- project context and the
appended prompt are where Pi itself puts them), the *name* inside a macro (FG881: the text is
interpreted), a regex replacement that wraps captured text in an instruction (FG882), and an
assistant turn the model takes for its own words (FG883).  Each finding names the item and the path
from the source (:mod:`forgec.lint.flow`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic
from forgec.lint.flow import EXTERNAL, UNTRUSTED, StackFlow, analyse_stack, first_uses
from forgec.rules import analyses as codes

if TYPE_CHECKING:
    from forgec.plugins import Registry

__all__ = ["lint_stack_injection"]

#: roles whose messages hold text the author does not write
_UNTRUSTED_ROLES = ("user", "toolResult", "custom", "bashExecution")
_CAPTURE = re.compile(r"\$(?:\d|&|<[^>]*>|`|')")
_INSTRUCTION = re.compile(
    r"<\s*/?\s*[\w-]*(system|instruction|directive|rule)s?[\w-]*\s*>|\b(system|instructions?|directives?|"
    r"important|you must|must|always|never|ignore|override|obey|follow these|you are)\b",
    re.IGNORECASE,
)


def lint_stack_injection(stack: Any, registry: Registry | None = None, flow: StackFlow | None = None) -> list[Diagnostic]:
    """FG880-FG883 findings of a stack; ``flow`` reuses an analysis already made."""
    flow = flow if flow is not None else analyse_stack(stack, registry)
    findings: list[Diagnostic] = []
    for item in flow.items:
        role = item.item.get("role")
        if item.place == "system":
            uses = [use for use, _ in first_uses(item.uses, UNTRUSTED)]
        elif role == "assistant":
            uses = [use for use, _ in first_uses(item.uses, UNTRUSTED, EXTERNAL)]
        else:
            continue
        for use in uses:
            kinds = use.taint.kinds
            if item.place == "system":
                findings.append(
                    Diagnostic(
                        "warning",
                        f'Untrusted text reaches the system prompt in item "{item.item_id}": {use.taint.describe()}. '
                        "Whatever the user types then carries the system prompt's authority; quote it in a user "
                        "message instead.",
                        codes.UNTRUSTED_IN_SYSTEM, item_id=item.item_id, pointer=use.pointer,
                        offset=use.offset, length=use.length, extra=True,
                    )
                )
            elif kinds & {UNTRUSTED, EXTERNAL}:
                findings.append(
                    Diagnostic(
                        "warning",
                        f'Untrusted text in the assistant turn of item "{item.item_id}": {use.taint.describe()}. '
                        "The model reads a prefilled assistant turn as its own words; quote such text in a user "
                        "message instead.",
                        codes.UNTRUSTED_IN_ASSISTANT_TURN, item_id=item.item_id, pointer=use.pointer,
                        offset=use.offset, length=use.length, extra=True,
                    )
                )
    for dynamic in flow.dynamic_names:
        findings.append(
            Diagnostic(
                "warning",
                f"{{{{{dynamic.macro}}}}} takes its name from untrusted text ({dynamic.taint.describe()}): the user "
                "chooses which variable is used. Use a fixed name and compare the text with {{ifeq::…}}.",
                codes.UNTRUSTED_AS_MACRO_NAME, item_id=dynamic.item_id, pointer=("items", dynamic.index, "content"),
                offset=dynamic.offset, length=dynamic.length, extra=True,
            )
        )
    findings.extend(_regex_findings(stack, flow.has_history))
    return findings


def _untrusted_roles(rule: dict[str, Any]) -> list[str]:
    roles = rule.get("roles")
    if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles):
        return [r for r in roles if r in _UNTRUSTED_ROLES]
    return list(_UNTRUSTED_ROLES)


def _regex_findings(stack: Any, has_history: bool) -> list[Diagnostic]:
    regex = stack.get("regex") if isinstance(stack, dict) else None
    rules = regex.get("rules") if isinstance(regex, dict) else None
    findings: list[Diagnostic] = []
    for index, rule in enumerate(rules if isinstance(rules, list) else []):
        if not isinstance(rule, dict) or rule.get("enabled") is False:
            continue
        if rule.get("effect") not in (None, "outgoing"):
            continue
        stage, targets = rule.get("stage"), rule.get("targets")
        on_messages = stage == "history" or (
            stage == "compiled" and (not isinstance(targets, list) or "messages" in targets)
        )
        replace = rule.get("replace")
        if not on_messages or not isinstance(replace, str) or not _CAPTURE.search(replace):
            continue
        wrapper = _CAPTURE.sub("", replace)
        marker = _INSTRUCTION.search(wrapper)
        roles = _untrusted_roles(rule)
        if marker is None or not roles or (stage == "history" and not has_history):
            continue
        raw_id = rule.get("id")
        rule_id = raw_id.strip() if isinstance(raw_id, str) else str(index + 1)
        findings.append(
            Diagnostic(
                "warning",
                f"Regex rule {rule_id} captures text from {'/'.join(roles)} messages and writes it back inside "
                f'instruction-like text ("{marker.group(0).strip()}"): {"/".join(roles)} message -> {stage} regex '
                f"{rule_id} -> {replace!r}. The captured text gains the wrapper's authority; restrict roles to "
                "assistant or keep the capture out of the instruction.",
                codes.UNTRUSTED_IN_REGEX_INSTRUCTION, pointer=("regex", "rules", index, "replace"), extra=True,
            )
        )
    return findings
