"""§4.8: creating and validating the host's ``AgentExecutionPlan``, and sealing it as the runtime does.

``create_agent_execution_plan`` cross-checks everything the preparation claims against a fresh
computation (tool negotiation, context budget, the protected task) and refuses (no plan) on any
error.  It is not a validator: structurally malformed inputs -- a preflight without
``backend.capabilities``, a runtime without ``model`` -- make it raise
:class:`~forgec.execute.contract.common.JSTypeError` with V8's text, as the reference throws.

``validate_agent_execution_plan`` checks a plan read back from disk.  The host never recomputes the
conversation or execution fingerprints (a tampered prompt is caught by the runtime's sealed handle);
forgec plays the runtime for its own backends, so :func:`seal_execution` computes both exactly as the
runtime issues them and :func:`verify_sealed_plan` recomputes them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from forgec.execute.contract.budget import budget_subagent_context, render_subagent_selected_context
from forgec.execute.contract.common import (
    CONTRACT_VERSION,
    JSError,
    JSTypeError,
    error,
    get,
    has_errors,
    is_non_negative_integer,
    is_positive_integer,
    is_record,
    iterate,
    js_eq,
    js_map,
    js_truthy,
    prop,
    validate_fingerprint,
    validate_model_reference,
    validate_opaque_id,
    validate_unique_string_array,
)
from forgec.execute.contract.fingerprints import (
    canonical_subagent_json,
    conversation_fingerprint,
    execution_fingerprint,
    subagent_fingerprint,
)
from forgec.execute.contract.messages import is_protected_subagent_task_preserved
from forgec.execute.contract.preflight import (
    validate_access_receipt,
    validate_backend_preflight,
    validate_limit_receipt,
    validate_preparation_runtime,
)
from forgec.execute.contract.request import validate_agent_request
from forgec.execute.contract.shapes import PlanResult
from forgec.execute.contract.tools import negotiate_subagent_tools
from forgec.execute.host import ContractDiagnostic, validate_agent_profile_snapshot
from forgec.fingerprint import FingerprintError
from forgec.js.values import UNDEFINED, js_string

__all__ = [
    "SealedExecution",
    "as_contract_diagnostic",
    "build_execution_intent",
    "create_agent_execution_plan",
    "portable_conversation",
    "preflight_id_for",
    "seal_execution",
    "validate_agent_execution_plan",
    "validate_prepared_message",
    "verify_sealed_plan",
]


def as_contract_diagnostic(value: Any) -> ContractDiagnostic:
    """A diagnostic object carried in from JSON (a preparation's), as a :class:`ContractDiagnostic`."""
    if isinstance(value, ContractDiagnostic):
        return value
    if not isinstance(value, dict):
        raise JSTypeError(f"Cannot read properties of {'null' if value is None else 'undefined'} (reading 'level')") if value is None or value is UNDEFINED else JSTypeError("diagnostic is not an object")
    path = value.get("path")
    return ContractDiagnostic(
        js_string(value.get("level", UNDEFINED)),
        js_string(value.get("code", UNDEFINED)),
        js_string(value.get("message", UNDEFINED)),
        path if isinstance(path, str) else None,
    )


def _spread_diagnostics(value: Any, expression: str) -> list[ContractDiagnostic]:
    return [as_contract_diagnostic(d) for d in iterate(value, expression)]


def _model_differs(left: Any, right: Any) -> bool:
    return not js_eq(prop(left, "provider"), prop(right, "provider")) or not js_eq(prop(left, "id"), prop(right, "id"))


def create_agent_execution_plan(
    *,
    run_id: Any,
    request: Any,
    snapshot: Any,
    preflight: Any,
    preparation: Any,
    runtime: Any,
    conversation_fingerprint: Any,
    execution_fingerprint: Any,
) -> PlanResult:
    """pi-forge's ``createAgentExecutionPlan`` (§4.8).

    ``preparation`` is ``prepareSubagentHostPlan``'s output as JSON (``Preparation.to_json()``); the
    two fingerprints are the runtime's, issued at sealing.  Diagnostics, in order: the request, the
    snapshot, the preflight (against both), the preparation's and its negotiation's, the run id, the
    runtime (expected fidelity = the backend's unless ``partial``), both fingerprint shapes, then the
    cross-checks -- where the fresh negotiation's diagnostics are appended again, so
    ``tools.unmatched-allow`` warnings show twice when the preparation also carried them.
    """
    if hasattr(preparation, "to_json"):
        preparation = preparation.to_json()
    diagnostics: list[ContractDiagnostic] = [
        *validate_agent_request(request),
        *validate_agent_profile_snapshot(snapshot),
        *validate_backend_preflight(preflight, request, snapshot),
        *_spread_diagnostics(prop(preparation, "diagnostics"), "input.preparation.diagnostics"),
        *_spread_diagnostics(get(preparation, "toolNegotiation", "diagnostics"), "input.preparation.toolNegotiation.diagnostics"),
    ]
    validate_opaque_id(run_id, "runId", diagnostics)
    fidelity = get(preflight, "backend", "capabilities", "promptRuntimeFidelity")
    expected = js_string(fidelity) if js_truthy(fidelity) and fidelity != "partial" else None
    validate_preparation_runtime(runtime, "runtime", diagnostics, expected)
    validate_fingerprint(conversation_fingerprint, "conversationFingerprint", diagnostics)
    validate_fingerprint(execution_fingerprint, "executionFingerprint", diagnostics)
    if _model_differs(prop(runtime, "model"), prop(preflight, "model")):
        diagnostics.append(error("plan.runtime-model", "Prompt runtime model does not match preflight model.", "runtime.model"))
    if not js_eq(prop(request, "profileId"), prop(snapshot, "profileId")):
        diagnostics.append(error("plan.profile-id", "Request profileId does not match the resolved snapshot.", "profileId"))
    expected_fingerprint = prop(request, "expectedProfileFingerprint")
    if js_truthy(expected_fingerprint) and not js_eq(expected_fingerprint, prop(snapshot, "profileFingerprint")):
        diagnostics.append(
            error("plan.profile-drift", "Resolved profile fingerprint does not match expectedProfileFingerprint.", "expectedProfileFingerprint")
        )
    messages = prop(preparation, "messages")
    if not is_protected_subagent_task_preserved(messages, prop(request, "input")):
        diagnostics.append(
            error("plan.protected-task", "Prepared messages do not preserve the delegated task as the final user message.", "messages")
        )
    stack = prop(snapshot, "promptStack")
    policy = UNDEFINED if stack is None or stack is UNDEFINED else prop(stack, "tools")
    fresh = negotiate_subagent_tools(prop(preflight, "toolCatalog"), policy, prop(request, "access"))
    diagnostics.extend(fresh.diagnostics)
    prepared_tools = prop(preparation, "toolNegotiation")
    if canonical_subagent_json(prop(prepared_tools, "effectiveToolIds")) != canonical_subagent_json(fresh.effective_tool_ids) or (
        canonical_subagent_json(prop(prepared_tools, "effectiveToolNames")) != canonical_subagent_json(fresh.effective_tool_names)
    ):
        diagnostics.append(
            error("plan.tool-negotiation", "Prepared effective tools do not match catalog, stack policy, and request access.", "toolNegotiation")
        )
    receipt = prop(preparation, "contextBudget")
    selected = prop(request, "selectedContext")
    if js_truthy(selected):
        budget = budget_subagent_context(selected)
        diagnostics.extend(d for d in budget.diagnostics if d.level == "error")
        if not js_truthy(receipt) or canonical_subagent_json(receipt) != canonical_subagent_json(budget.receipt):
            diagnostics.append(
                error("plan.context-budget", "Preparation context budget receipt does not match the deterministic request budget.", "contextBudget")
            )
        text = render_subagent_selected_context(budget.items)
        context_messages = [m for m in js_map(messages, "input.preparation.messages.filter") if prop(m, "source") == "selected-context"]
        if text:
            if len(context_messages) != 1 or canonical_subagent_json(prop(context_messages[0], "content")) != canonical_subagent_json(
                [{"type": "text", "text": text}]
            ):
                diagnostics.append(
                    error("plan.selected-context", "Prepared messages do not contain the exact budgeted selected context.", "messages")
                )
        elif context_messages:
            diagnostics.append(
                error(
                    "plan.selected-context-empty",
                    "Prepared messages contain selected context when the deterministic budget selected none.",
                    "messages",
                )
            )
    elif js_truthy(receipt):
        diagnostics.append(
            error("plan.context-budget-extra", "Preparation returned a context budget for a request without selected context.", "contextBudget")
        )
    elif any(prop(m, "source") == "selected-context" for m in js_map(messages, "input.preparation.messages.some")):
        diagnostics.append(
            error("plan.selected-context-extra", "Preparation contains selected context for a request that did not select any.", "messages")
        )
    if fidelity == "partial":
        diagnostics.append(
            error(
                "plan.partial-runtime",
                "A partial prompt-runtime preflight cannot produce an execution plan.",
                "preflight.backend.capabilities.promptRuntimeFidelity",
            )
        )
    runtime_fidelity = prop(runtime, "fidelity")
    if runtime_fidelity == "exact-preflight" and fidelity != "exact-preflight":
        diagnostics.append(error("plan.runtime-fidelity", "Preflight does not support exact-preflight prompt preparation.", "runtime.fidelity"))
    if runtime_fidelity == "backend-assisted" and fidelity != "backend-assisted":
        diagnostics.append(error("plan.runtime-fidelity", "Preflight does not support backend-assisted prompt preparation.", "runtime.fidelity"))
    if has_errors(diagnostics):
        return PlanResult(None, diagnostics)
    plan: dict[str, Any] = {
        "schemaVersion": CONTRACT_VERSION,
        "runId": run_id,
        "requestId": prop(request, "requestId"),
        "backendId": get(preflight, "backend", "id"),
        "preflightId": prop(preflight, "preflightId"),
        "preflight": copy.deepcopy(preflight),
        "profile": copy.deepcopy(snapshot),
        "model": copy.deepcopy(prop(preflight, "model")),
        "thinkingLevel": prop(preflight, "thinkingLevel"),
        "systemPrompt": prop(preparation, "systemPrompt"),
        "messages": copy.deepcopy(messages),
        "effectiveToolIds": list(js_map(prop(prepared_tools, "effectiveToolIds"), "effectiveToolIds")),
        "access": copy.deepcopy(prop(preflight, "access")),
        "limits": copy.deepcopy(prop(preflight, "limits")),
    }
    if js_truthy(receipt):
        plan["contextBudget"] = copy.deepcopy(receipt)
    plan["resultProjection"] = copy.deepcopy(prop(request, "resultProjection"))
    plan["promptRuntimeFingerprint"] = prop(runtime, "promptRuntimeFingerprint")
    plan["conversationFingerprint"] = conversation_fingerprint
    plan["executionFingerprint"] = execution_fingerprint
    return PlanResult(plan, diagnostics)


# --- validating a plan ------------------------------------------------------------------------------------


def validate_prepared_message(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's ``validatePreparedMessage``."""
    if not is_record(value):
        diagnostics.append(error("plan.message", "Prepared message must be an object.", path))
        return
    if js_string(value.get("role", UNDEFINED)) not in ("user", "assistant", "custom"):
        diagnostics.append(error("plan.message-role", "Unsupported prepared message role.", f"{path}.role"))
    content = value.get("content")
    if not isinstance(content, list) or not content:
        diagnostics.append(error("plan.message-content", "Prepared message content must be a non-empty array.", f"{path}.content"))
        return
    for index, part in enumerate(content):
        at = f"{path}.content[{index}]"
        if not is_record(part):
            diagnostics.append(error("plan.content-part", "Content part must be an object.", at))
        elif part.get("type") == "text":
            if not isinstance(part.get("text"), str):
                diagnostics.append(error("plan.text-part", "Text content requires text.", f"{at}.text"))
        elif part.get("type") == "media":
            validate_opaque_id(part.get("mediaId"), f"{at}.mediaId", diagnostics)
            mime = part.get("mimeType")
            if not isinstance(mime, str) or "/" not in mime:
                diagnostics.append(error("plan.media-mime", "Media content requires mimeType.", f"{at}.mimeType"))
            validate_fingerprint(part.get("digest", UNDEFINED), f"{at}.digest", diagnostics)
            if part.get("backendResourceId", UNDEFINED) is not UNDEFINED:
                validate_opaque_id(part["backendResourceId"], f"{at}.backendResourceId", diagnostics)
        else:
            diagnostics.append(error("plan.content-type", "Unsupported prepared content part type.", f"{at}.type"))
    flag = value.get("protectedTask", UNDEFINED)
    if flag is not UNDEFINED and not isinstance(flag, bool):
        diagnostics.append(error("plan.protected-flag", "protectedTask must be boolean.", f"{path}.protectedTask"))


def _validate_context_receipt(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not is_record(value):
        diagnostics.append(error("context-receipt.type", "Context budget receipt must be an object.", path))
        return
    max_bytes, included = value.get("maxBytes"), value.get("includedBytes")
    if not is_positive_integer(max_bytes):
        diagnostics.append(error("context-receipt.max", "maxBytes must be a positive integer.", f"{path}.maxBytes"))
    if not is_non_negative_integer(included) or (is_positive_integer(max_bytes) and included > max_bytes):
        diagnostics.append(
            error("context-receipt.bytes", "includedBytes must be non-negative and no greater than maxBytes.", f"{path}.includedBytes")
        )
    for key in ("includedItemIds", "omittedItemIds"):
        ids = value.get(key)
        if not isinstance(ids, list):
            diagnostics.append(error("context-receipt.ids", f"{key} must be an array.", f"{path}.{key}"))
        else:
            validate_unique_string_array(ids, f"{path}.{key}", diagnostics)


def _prefixed(diagnostics: list[ContractDiagnostic], prefix: str) -> list[ContractDiagnostic]:
    return [ContractDiagnostic(d.level, d.code, d.message, f"{prefix}.{d.path}" if d.path else prefix) for d in diagnostics]


def validate_agent_execution_plan(plan: Any, request: Any = UNDEFINED) -> list[ContractDiagnostic]:
    """pi-forge's ``validateAgentExecutionPlan(plan, request?)`` (§4.8).

    The embedded preflight (against ``request`` and the embedded snapshot) and snapshot are
    validated with their paths prefixed ``preflight.``/``profile.`` (``preflight.$`` for a root
    finding); then the plan's own fields; then its consistency with the embedded receipt (a
    comparison that cannot be made is ``plan.receipt-malformed``) and with the request.
    """
    if not is_record(plan):
        return [error("plan.type", "AgentExecutionPlan must be an object.", "$")]
    diagnostics: list[ContractDiagnostic] = []
    version = plan.get("schemaVersion")
    if version != CONTRACT_VERSION or isinstance(version, bool):
        diagnostics.append(error("plan.schema-version", "schemaVersion must be 1.", "schemaVersion"))
    for key in ("runId", "requestId", "backendId", "preflightId"):
        validate_opaque_id(plan.get(key), key, diagnostics)
    profile = plan.get("profile", UNDEFINED)
    preflight = plan.get("preflight", UNDEFINED)
    given_request = request if js_truthy(request) else UNDEFINED
    diagnostics.extend(
        _prefixed(validate_backend_preflight(preflight, given_request, profile if is_record(profile) else UNDEFINED), "preflight")
    )
    diagnostics.extend(_prefixed(validate_agent_profile_snapshot(profile), "profile"))
    validate_model_reference(plan.get("model", UNDEFINED), "model", diagnostics)
    if not isinstance(plan.get("thinkingLevel"), str):
        diagnostics.append(error("plan.thinking", "thinkingLevel must be a string.", "thinkingLevel"))
    if not isinstance(plan.get("systemPrompt"), str):
        diagnostics.append(error("plan.system-prompt", "systemPrompt must be a string.", "systemPrompt"))
    for key in ("promptRuntimeFingerprint", "conversationFingerprint", "executionFingerprint"):
        validate_fingerprint(plan.get(key, UNDEFINED), key, diagnostics)
    messages = plan.get("messages")
    if not isinstance(messages, list):
        diagnostics.append(error("plan.messages", "messages must be an array.", "messages"))
    else:
        for index, message in enumerate(messages):
            validate_prepared_message(message, f"messages[{index}]", diagnostics)
    tool_ids = plan.get("effectiveToolIds")
    if not isinstance(tool_ids, list):
        diagnostics.append(error("plan.tools", "effectiveToolIds must be an array.", "effectiveToolIds"))
    else:
        validate_unique_string_array(tool_ids, "effectiveToolIds", diagnostics)
    validate_access_receipt(plan.get("access", UNDEFINED), "access", diagnostics)
    validate_limit_receipt(plan.get("limits", UNDEFINED), "limits", diagnostics)
    if plan.get("contextBudget", UNDEFINED) is not UNDEFINED:
        _validate_context_receipt(plan["contextBudget"], "contextBudget", diagnostics)
    projection = plan.get("resultProjection")
    if not (is_record(projection) and is_positive_integer(projection.get("maxChars"))):
        diagnostics.append(
            error("plan.result-projection", "resultProjection.maxChars must be a positive integer.", "resultProjection.maxChars")
        )
    if is_record(preflight):
        if not js_eq(plan.get("preflightId", UNDEFINED), preflight.get("preflightId", UNDEFINED)):
            diagnostics.append(error("plan.preflight-id", "preflightId does not match the embedded preflight receipt.", "preflightId"))
        backend = preflight.get("backend")
        if is_record(backend) and not js_eq(plan.get("backendId", UNDEFINED), backend.get("id", UNDEFINED)):
            diagnostics.append(error("plan.backend-id", "backendId does not match the embedded preflight receipt.", "backendId"))
        try:
            _check_receipts(plan, preflight, diagnostics)
        except (FingerprintError, JSTypeError, JSError) as problem:
            diagnostics.append(error("plan.receipt-malformed", f"Cannot compare malformed plan receipt: {problem}", "preflight"))
    if js_truthy(request):
        if not js_eq(plan.get("requestId", UNDEFINED), prop(request, "requestId")):
            diagnostics.append(error("plan.request-id", "Plan requestId does not match the request.", "requestId"))
        if is_record(projection) and canonical_subagent_json(projection) != canonical_subagent_json(prop(request, "resultProjection")):
            diagnostics.append(error("plan.result-projection-mismatch", "Plan resultProjection does not match the request.", "resultProjection"))
    if isinstance(messages, list) and js_truthy(request) and not is_protected_subagent_task_preserved(messages, prop(request, "input")):
        diagnostics.append(error("plan.protected-task", "The final plan message does not preserve the request task.", "messages"))
    return diagnostics


def _check_receipts(plan: dict[str, Any], preflight: dict[str, Any], diagnostics: list[ContractDiagnostic]) -> None:
    canon = canonical_subagent_json
    if canon(plan.get("model", UNDEFINED)) != canon(preflight.get("model", UNDEFINED)):
        diagnostics.append(error("plan.model-receipt", "Plan model does not match the preflight receipt.", "model"))
    if not js_eq(plan.get("thinkingLevel", UNDEFINED), preflight.get("thinkingLevel", UNDEFINED)):
        diagnostics.append(error("plan.thinking-receipt", "Plan thinkingLevel does not match the preflight receipt.", "thinkingLevel"))
    if canon(plan.get("access", UNDEFINED)) != canon(preflight.get("access", UNDEFINED)):
        diagnostics.append(error("plan.access-receipt", "Plan access does not match the preflight receipt.", "access"))
    if canon(plan.get("limits", UNDEFINED)) != canon(preflight.get("limits", UNDEFINED)):
        diagnostics.append(error("plan.limit-receipt", "Plan limits do not match the preflight receipt.", "limits"))
    tool_ids, catalog = plan.get("effectiveToolIds"), preflight.get("toolCatalog")
    if isinstance(tool_ids, list) and isinstance(catalog, list):
        catalog_ids = [tool.get("id", UNDEFINED) for tool in catalog if is_record(tool)]
        if any(not any(js_eq(tool_id, known) for known in catalog_ids) for tool_id in tool_ids):
            diagnostics.append(
                error("plan.tool-receipt", "Plan contains an effective tool id absent from the preflight catalog.", "effectiveToolIds")
            )


# --- sealing, as the runtime does (forgec's own backends) -------------------------------------------------------


def portable_conversation(system_prompt: str, messages: list[Any]) -> dict[str, Any]:
    """What the host hands the runtime to seal: ``{systemPrompt, messages}`` with each message reduced
    to its portable ``{role, content}`` (Forge strips ``protectedTask``/``source``)."""
    return {
        "systemPrompt": system_prompt,
        "messages": [{"role": prop(m, "role"), "content": copy.deepcopy(prop(m, "content"))} for m in messages],
    }


def build_execution_intent(
    request: Any,
    *,
    model: dict[str, str],
    thinking_level: str | None,
    requested_tools: list[str],
    provenance: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The runtime's execution intent for a request: the model and thinking level, the negotiated
    tool names, the request's access and limits, its media, and string provenance (the profile and
    stack ids; forgec adds ``httpBody``/``endpoint``/``api`` so the execution fingerprint covers the
    exact HTTP exchange, §6.5)."""
    intent: dict[str, Any] = {"model": {"provider": model["provider"], "id": model["id"]}}
    if thinking_level is not None:
        intent["thinkingLevel"] = thinking_level
    intent["requestedTools"] = list(requested_tools)
    intent["access"] = copy.deepcopy(prop(request, "access"))
    intent["limits"] = copy.deepcopy(prop(request, "limits"))
    media = get(request, "input", "media")
    if isinstance(media, list) and media:
        intent["media"] = copy.deepcopy(media)
    if provenance:
        intent["provenance"] = dict(provenance)
    return intent


@dataclass(frozen=True, slots=True)
class SealedExecution:
    """A sealed plan snapshot and its two runtime fingerprints."""

    snapshot: dict[str, Any]
    conversation_fingerprint: str
    execution_fingerprint: str


def seal_execution(
    *,
    prepared_run_id: str,
    intent: dict[str, Any],
    preflight: dict[str, Any],
    prompt_runtime: dict[str, Any],
    conversation: dict[str, Any],
    effective_tools: list[dict[str, str]],
) -> SealedExecution:
    """Seal a prepared run the way the runtime does (§3.5): the conversation fingerprint over
    ``{systemPrompt, messages(role, content)}``, then the execution fingerprint over the sealed
    snapshot -- ``schemaVersion``, ``preparedRunId``, ``backendId``, ``preflightId``, ``intent``,
    the complete accepted ``preflight``, ``promptRuntime``, ``conversation``, ``effectiveTools``
    and ``conversationFingerprint`` -- minus ``executionFingerprint`` itself.  The same conversation
    on two backends gives equal conversation fingerprints and different execution fingerprints."""
    conversation_digest = conversation_fingerprint(conversation)
    snapshot: dict[str, Any] = {
        "schemaVersion": CONTRACT_VERSION,
        "preparedRunId": prepared_run_id,
        "backendId": preflight["backend"]["id"],
        "preflightId": preflight["preflightId"],
        "intent": copy.deepcopy(intent),
        "preflight": copy.deepcopy(preflight),
        "promptRuntime": copy.deepcopy(prompt_runtime),
        "conversation": copy.deepcopy(conversation),
        "effectiveTools": [dict(tool) for tool in effective_tools],
        "conversationFingerprint": conversation_digest,
    }
    execution_digest = execution_fingerprint(snapshot)
    snapshot["executionFingerprint"] = execution_digest
    return SealedExecution(snapshot, conversation_digest, execution_digest)


def verify_sealed_plan(sealed: Any) -> list[ContractDiagnostic]:
    """Recompute a sealed snapshot's fingerprints (the runtime's ``plan.conversation-fingerprint`` /
    ``plan.execution-fingerprint`` checks); what forgec's ``approve``/``run`` must do because forgec
    owns the runtime role for its backends."""
    diagnostics: list[ContractDiagnostic] = []
    if not is_record(sealed):
        return [error("plan.type", "Sealed plan must be an object.", "$")]
    try:
        if sealed.get("conversationFingerprint") != conversation_fingerprint(sealed.get("conversation", UNDEFINED)):
            diagnostics.append(
                error(
                    "plan.conversation-fingerprint",
                    "conversationFingerprint does not match the prepared conversation.",
                    "conversationFingerprint",
                )
            )
    except FingerprintError:
        diagnostics.append(error("plan.conversation-canonical", "Prepared conversation contains a non-canonical value.", "conversation"))
    try:
        if sealed.get("executionFingerprint") != execution_fingerprint(sealed):
            diagnostics.append(
                error("plan.execution-fingerprint", "executionFingerprint does not match the sealed plan.", "executionFingerprint")
            )
    except FingerprintError:
        diagnostics.append(error("plan.execution-canonical", "Sealed plan contains a non-canonical value.", "$"))
    return diagnostics


def preflight_id_for(intent: dict[str, Any]) -> str:
    """A deterministic preflight id for a self-issued preflight: ``preflight:<16 hex of the intent digest>``."""
    return "preflight:" + subagent_fingerprint(intent).removeprefix("sha256:v1:")[:16]
