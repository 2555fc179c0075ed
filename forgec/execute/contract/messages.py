"""§4.6, second half: the protected delegated task and the initial message list.

The delegated task is the one thing a prompt stack can never rewrite: it is appended last, as a user
message flagged ``protectedTask: true`` with source ``delegated-task``, and every later stage checks
that the final message still carries exactly that content (media parts compared without the
backend's ``backendResourceId``).  Prompt-stack messages may not claim the reserved sources.
"""

from __future__ import annotations

import copy
from typing import Any

from forgec.execute.contract.budget import budget_subagent_context, render_subagent_selected_context
from forgec.execute.contract.common import call_site, error, has_errors, js_map, js_truthy, prop
from forgec.execute.contract.fingerprints import canonical_subagent_json
from forgec.execute.contract.shapes import InitialMessages
from forgec.execute.host import ContractDiagnostic
from forgec.js.values import UNDEFINED

__all__ = [
    "append_protected_subagent_task",
    "create_protected_subagent_task",
    "is_protected_subagent_task_preserved",
    "prepare_subagent_initial_messages",
]


def create_protected_subagent_task(task: Any) -> dict[str, Any]:
    """``createProtectedSubagentTask(input)``: a text part when ``input.text`` is non-empty, then one
    media part ``{type, mediaId, mimeType, digest}`` per media reference (no resource handle: the
    backend resolves handles itself)."""
    content: list[dict[str, Any]] = []
    text = prop(task, "text")
    if js_truthy(text):
        content.append({"type": "text", "text": text})
    media = prop(task, "media")
    for item in js_map([] if media is None or media is UNDEFINED else media, "(input.media ?? []).map"):
        content.append({"type": "media", "mediaId": prop(item, "id"), "mimeType": prop(item, "mimeType"), "digest": prop(item, "digest")})
    return {"role": "user", "content": content, "protectedTask": True, "source": "delegated-task"}


def append_protected_subagent_task(messages: Any, task: Any) -> list[Any]:
    """``appendProtectedSubagentTask``: a copy of ``messages`` followed by the protected task."""
    return [*copy.deepcopy(js_map(messages, "messages")), create_protected_subagent_task(task)]


def _comparable(part: Any) -> Any:
    if prop(part, "type") == "text":
        return part
    return {"type": "media", "mediaId": prop(part, "mediaId"), "mimeType": prop(part, "mimeType"), "digest": prop(part, "digest")}


def is_protected_subagent_task_preserved(messages: Any, task: Any) -> bool:
    """``isProtectedSubagentTaskPreserved``: the last message is a user message with
    ``protectedTask === true`` whose content equals the freshly built task's, canonically, part by
    part (a text part as it is; a media part by ``type``/``mediaId``/``mimeType``/``digest``)."""
    if not isinstance(messages, (list, tuple)):
        prop(messages, "at")
        raise call_site("messages.at", messages, "function")
    final = messages[-1] if messages else UNDEFINED
    if not js_truthy(final) or prop(final, "role") != "user" or prop(final, "protectedTask") is not True:
        return False
    actual = [_comparable(part) for part in js_map(prop(final, "content"), "finalMessage.content.map")]
    expected = [_comparable(part) for part in create_protected_subagent_task(task)["content"]]
    return canonical_subagent_json(actual) == canonical_subagent_json(expected)


def _reserved(message: Any) -> bool:
    return js_truthy(prop(message, "protectedTask")) or prop(message, "source") in ("delegated-task", "selected-context")


def prepare_subagent_initial_messages(request: Any, prompt_stack_messages: Any = None) -> InitialMessages:
    """``prepareSubagentInitialMessages(request, promptStackMessages = [])`` (§4.6).

    Order: the selected-context message (when the budget kept something), copies of the prompt-stack
    messages, the protected task.  Stack messages claiming a reserved source are refused
    (``messages.reserved-source``, no messages); any error of the budget gives no messages but the
    receipt is still returned.
    """
    stack_messages = [] if prompt_stack_messages is None or prompt_stack_messages is UNDEFINED else prompt_stack_messages
    diagnostics: list[ContractDiagnostic] = []
    if any(_reserved(m) for m in js_map(stack_messages, "promptStackMessages.some")):
        diagnostics.append(
            error(
                "messages.reserved-source",
                "Prompt-stack messages cannot claim protected task or selected-context sources.",
                "promptStackMessages",
            )
        )
        return InitialMessages([], None, diagnostics)
    receipt: dict[str, Any] | None = None
    context_message: dict[str, Any] | None = None
    selected = prop(request, "selectedContext")
    if js_truthy(selected):
        budgeted = budget_subagent_context(selected)
        diagnostics.extend(budgeted.diagnostics)
        receipt = budgeted.receipt
        text = render_subagent_selected_context(budgeted.items)
        if text:
            context_message = {"role": "user", "content": [{"type": "text", "text": text}], "source": "selected-context"}
    if has_errors(diagnostics):
        return InitialMessages([], receipt, diagnostics)
    head = [context_message] if context_message is not None else []
    messages = append_protected_subagent_task([*head, *copy.deepcopy(list(stack_messages))], prop(request, "input"))
    return InitialMessages(messages, receipt, diagnostics)
