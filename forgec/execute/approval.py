"""What a person approves: the plan's summary, its full prompt, and the approval record (§4.10, §6.6).

The summary is pi-forge's ten lines, with the last one -- "No OS sandbox; provider gets
prompt/files read by agent." -- replaced by an honest egress notice for forgec's backend, which
reads no file and runs no tool: the prompt goes to one URL and text comes back.  The full view
shows every fingerprint in full and the exact provider-bound prompt.  An approval binds to the
plan's *execution fingerprint*: a plan changed in any way (prompt, model, limits, endpoint, body)
has another fingerprint and needs another approval.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["abbreviate_fingerprint", "approval_record", "full_prompt", "plan_summary"]

_SPACE = re.compile(r"\s+")


def _cut(text: Any, limit: int) -> str:
    """Whitespace collapsed and cut to ``limit`` characters (``…`` as ``...``), as pi-forge does."""
    collapsed = _SPACE.sub(" ", str(text)).strip()
    return collapsed if len(collapsed) <= limit else collapsed[: limit - 3] + "..."


def abbreviate_fingerprint(fingerprint: str) -> str:
    """The first 11 and the last 10 characters joined by ``...`` (24 characters)."""
    return fingerprint if len(fingerprint) <= 24 else f"{fingerprint[:11]}...{fingerprint[-10:]}"


def _timeout(plan: dict[str, Any]) -> str:
    receipt = (plan.get("limits") or {}).get("timeoutMs")
    if not isinstance(receipt, dict):
        return "none"
    return f"{receipt.get('value')} ms {receipt.get('enforcement')}"


def plan_summary(document: dict[str, Any]) -> list[str]:
    """The ten lines a person reads before approving (§4.10 lines 1-9 and forgec's egress line)."""
    plan, transport = document["plan"], document["transport"]
    profile = plan["profile"]
    stack = profile.get("promptStackId") or "none"
    tools = ", ".join(plan.get("effectiveToolIds") or []) or "none"
    system, messages = plan["systemPrompt"], plan["messages"]
    boundary = (plan.get("access") or {}).get("executionBoundary", "none")
    cwd = ((plan.get("preflight") or {}).get("promptRuntime") or {}).get("options", {}).get("cwd", ".")
    return [
        f"Run foreground subagent {_cut(profile['profileId'], 44)}?",
        f"Task: {_cut(document['request']['input']['text'], 48)}",
        f"Backend: {_cut(plan['backendId'], 44)}",
        f"Model: {_cut(plan['model']['provider'] + '/' + plan['model']['id'] + ' · thinking ' + str(plan['thinkingLevel']), 44)}",
        f"Stack/tools: {_cut(stack + ' · ' + tools, 44)}",
        f"Directory: {_cut(cwd, 44)}",
        f"Boundary: {_cut(boundary, 16)} · {_timeout(plan)}",
        f"Payload: {len(system)} system chars + {len(messages)} messages",
        f"Execution: {abbreviate_fingerprint(plan['executionFingerprint'])} (see full prompt)",
        f"Egress: the prompt above is sent to {transport['endpoint']}; no file is read, no tool is run.",
    ]


def _part(part: dict[str, Any]) -> str:
    if part.get("type") == "media":
        return f"[{part.get('mimeType')} media {part.get('mediaId')}]"
    return str(part.get("text", ""))


def full_prompt(document: dict[str, Any]) -> str:
    """The read-only full view: the task, where it goes, all three fingerprints in full, then the
    exact provider-bound system prompt and messages."""
    plan, request, transport = document["plan"], document["request"], document["transport"]
    profile = plan["profile"]
    lines = [
        f"Task: {request['input']['text'][:2000]}",
        f"Backend: {plan['backendId']}",
        f"Endpoint: {transport['endpoint']}",
        f"Provider: {plan['model']['provider']}",
        f"Model: {plan['model']['id']}",
        f"Thinking: {plan['thinkingLevel']}",
        f"Stack: {profile.get('promptStackId') or 'none'}",
        f"Tools: {', '.join(plan.get('effectiveToolIds') or []) or 'none'}",
        "Working directory: " + str(((plan.get('preflight') or {}).get('promptRuntime') or {}).get('options', {}).get('cwd', '.')),
        f"Boundary: {(plan.get('access') or {}).get('executionBoundary', 'none')}",
        f"Timeout: {_timeout(plan)}",
        f"Payload: {len(plan['systemPrompt'])} system chars + {len(plan['messages'])} messages",
        f"Prompt runtime fingerprint: {plan['promptRuntimeFingerprint']}",
        f"Conversation fingerprint: {plan['conversationFingerprint']}",
        f"Execution fingerprint: {plan['executionFingerprint']}",
        "",
        "## System prompt",
        "",
        plan["systemPrompt"],
    ]
    for number, message in enumerate(plan["messages"], start=1):
        heading = f"## Message {number}: {message.get('role')}"
        if message.get("protectedTask") is True:
            heading += " (protected delegated task)"
        if message.get("source"):
            heading += f" [{message['source']}]"
        lines += ["", heading, "", "\n".join(_part(p) for p in message.get("content", []) if isinstance(p, dict))]
    return "\n".join(lines) + "\n"


def approval_record(execution_fingerprint: str, *, approved_at: str, source: str, viewed_full_prompt: bool) -> dict[str, Any]:
    """pi-forge's approval record, bound to one execution fingerprint."""
    return {
        "required": True,
        "approved": True,
        "viewedFullPrompt": viewed_full_prompt,
        "source": source,
        "executionFingerprint": execution_fingerprint,
        "approvedAt": approved_at,
    }
