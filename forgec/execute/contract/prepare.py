"""§4.7: ``prepareSubagentHostPlan`` -- host compilation inside delegation preparation.

Given the request, the snapshot, the accepted preflight and the prompt runtime, the host negotiates
the tools against the preflight's catalog, compiles the snapshot's stack (if any) over the runtime's
base system prompt with a build-option set narrowed to the effective tools, turns the stack's
synthetic messages into prepared messages, and assembles the initial messages (§4.6).

The compile is forgec's own compiler (:mod:`forgec.compile`), run as pi-forge runs it here: no
variable store (writes are ignored, reads see only static variables), the task text as
``{{lastUserMessage}}``, ``preparedAt`` as "now", the runtime's model as ``{provider, id, api:
"unknown"}``.  Date and time text is rendered in ``time_zone`` (the reference uses the process's
zone; the conformance corpus runs in UTC, which is the default here).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from forgec.execute.contract.common import (
    JSError,
    JSRangeError,
    JSTypeError,
    get,
    iso_to_ms,
    iterate,
    js_truthy,
    prop,
)
from forgec.execute.contract.messages import prepare_subagent_initial_messages
from forgec.execute.contract.shapes import Preparation
from forgec.execute.contract.tools import negotiate_subagent_tools
from forgec.execute.host import ContractDiagnostic
from forgec.js.values import UNDEFINED, js_items, js_string

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
    from forgec.plugins import Registry

__all__ = ["prepare_subagent_host_plan", "prepared_prompt_stack_message"]


def _stack_of(snapshot: Any) -> Any:
    """``input.snapshot.promptStack`` (``undefined`` when the snapshot has none)."""
    return prop(snapshot, "promptStack")


def prepared_prompt_stack_message(message: Any) -> dict[str, Any]:
    """A compiled stack message as a prepared message: roles ``user``/``assistant``/``custom`` only
    (anything else throws ``Unsupported prompt-stack message role for subagent preparation: <role>``),
    only text parts with string text kept (a string content is one text part), an empty list
    becoming one empty text part, source ``prompt-stack``."""
    role = prop(message, "role")
    if role not in ("user", "assistant", "custom") or not isinstance(role, str):
        raise JSError(f"Unsupported prompt-stack message role for subagent preparation: {js_string(role)}")
    raw = prop(message, "content")
    if isinstance(raw, str):
        parts: list[Any] = [{"type": "text", "text": raw}]
    elif isinstance(raw, list):
        parts = [p for p in raw if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)]
    else:
        parts = []
    return {"role": role, "content": parts if parts else [{"type": "text", "text": ""}], "source": "prompt-stack"}


def _prompt_diagnostic(stage: str, diagnostic: Diagnostic) -> ContractDiagnostic:
    path = f"promptStack.items.{diagnostic.item_id}" if diagnostic.item_id else "promptStack"
    return ContractDiagnostic(diagnostic.level, f"preparation.{stage}", diagnostic.message, path)


def _build_options(runtime_options: Any, effective_names: list[Any]) -> dict[str, Any]:
    """The build options: the runtime's, with ``selectedTools`` = the effective names, snippets of
    effective tools only, guidelines only when a tool is effective, skills and context files copied."""
    options: dict[str, Any] = copy.deepcopy(runtime_options) if isinstance(runtime_options, dict) else {}
    snippets = prop(runtime_options, "toolSnippets")
    if snippets is None or snippets is UNDEFINED:
        raise JSTypeError("Cannot convert undefined or null to object")
    options["selectedTools"] = list(effective_names)
    options["toolSnippets"] = (
        {name: text for name, text in js_items(snippets) if name in effective_names} if isinstance(snippets, dict) else {}
    )
    guidelines = prop(runtime_options, "promptGuidelines")
    options["promptGuidelines"] = list(iterate(guidelines, "input.runtime.options.promptGuidelines")) if effective_names else []
    options["skills"] = copy.deepcopy(prop(runtime_options, "skills"))
    options["contextFiles"] = list(iterate(prop(runtime_options, "contextFiles"), "input.runtime.options.contextFiles"))
    return options


def prepare_subagent_host_plan(
    request: Any,
    snapshot: Any,
    preflight: Any,
    runtime: Any,
    *,
    registry: Registry | None = None,
    time_zone: str = "UTC",
) -> Preparation:
    """pi-forge's ``prepareSubagentHostPlan({request, snapshot, preflight, runtime})``.

    Returns the system prompt (the base prompt unchanged without a stack), the initial messages
    (selected context, stack messages, protected task), the context receipt, the tool negotiation
    and the diagnostics: the compiler's (``preparation.system``/``preparation.messages``) then the
    message assembly's.  The negotiation's own diagnostics stay in ``tool_negotiation``.
    ``registry``: forgec plugins providing custom macros and slots to the compile.
    Raises :class:`~forgec.execute.contract.common.JSError` for a stack message of another role.
    """
    from forgec.compile.assemble import compile_messages, compile_system_prompt
    from forgec.model.runtime import Runtime

    stack = _stack_of(snapshot)
    policy = UNDEFINED if stack is None or stack is UNDEFINED else prop(stack, "tools")
    negotiation = negotiate_subagent_tools(prop(preflight, "toolCatalog"), policy, prop(request, "access"))
    runtime_options = prop(runtime, "options")
    options = _build_options(runtime_options, negotiation.effective_tool_names)
    model = prop(runtime, "model")
    prepared_at = prop(runtime, "preparedAt")
    now_ms = iso_to_ms(prepared_at)
    if now_ms is None:
        raise JSRangeError("Invalid time value")
    task_text = get(request, "input", "text")
    base = prop(runtime, "baseSystemPrompt")
    compile_runtime = Runtime(
        options=options,
        model={"provider": prop(model, "provider"), "id": prop(model, "id"), "api": "unknown"},
        latest_user_message=task_text if isinstance(task_text, str) else js_string(task_text),
        now_ms=now_ms,
        time_zone=time_zone,
        base_system_prompt=base if isinstance(base, str) else "",
        messages=[],
    )
    system_prompt: Any = base
    stack_messages: list[dict[str, Any]] = []
    diagnostics: list[ContractDiagnostic] = []
    if js_truthy(stack):
        # No variable store: pi-forge passes none here, so writes are ignored (compile-core §1.2).
        no_store = None
        system = compile_system_prompt(stack, compile_runtime, no_store, registry=registry)
        system_prompt = system.prompt
        diagnostics.extend(_prompt_diagnostic("system", d) for d in system.diagnostics if not d.extra)
        compiled = compile_messages(stack, compile_runtime, no_store, [], registry=registry)
        stack_messages = [prepared_prompt_stack_message(m) for m in compiled.messages]
        diagnostics.extend(_prompt_diagnostic("messages", d) for d in compiled.diagnostics if not d.extra)
    initial = prepare_subagent_initial_messages(request, stack_messages)
    return Preparation(
        system_prompt=system_prompt,
        messages=initial.messages,
        tool_negotiation=negotiation,
        context_budget=initial.context_budget,
        diagnostics=[*diagnostics, *initial.diagnostics],
    )
