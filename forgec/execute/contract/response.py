"""§4.9: ``validateAgentResponse``, the terminal-status matrix, and artifact and trace references.

A response is checked on its own (shape, receipts, usage, the status matrix), then against the request
and the execution plan it claims to answer.  The plan comparisons that go through canonical JSON run
inside a ``try`` in the reference: a value canonical JSON refuses becomes ``response.malformed``.
"""

from __future__ import annotations

import re
from typing import Any, Final

from forgec.execute.contract.common import (
    LIMIT_NAMES,
    JSError,
    JSTypeError,
    error,
    get,
    is_iso_date,
    is_non_negative_finite,
    is_non_negative_integer,
    is_positive_integer,
    is_record,
    is_safe_relative_path,
    js_eq,
    js_truthy,
    prop,
    validate_fingerprint,
    validate_model_reference,
    validate_namespace,
    validate_opaque_id,
    validate_unique_string_array,
)
from forgec.execute.contract.fingerprints import canonical_subagent_json
from forgec.execute.contract.preflight import validate_access_receipt, validate_limit_receipt
from forgec.execute.host import ContractDiagnostic
from forgec.fingerprint import FingerprintError
from forgec.js.values import UNDEFINED, js_string, js_trim

__all__ = [
    "RESPONSE_STATUSES",
    "validate_agent_response",
    "validate_subagent_artifact_reference",
    "validate_subagent_trace_reference",
    "validate_usage",
]

RESPONSE_STATUSES: Final = ("completed", "failed", "cancelled", "timed-out", "limit-reached")
_CURRENCY: Final = re.compile(r"[A-Z]{3}")


def validate_subagent_artifact_reference(value: Any, path: str = "artifact") -> list[ContractDiagnostic]:
    """``validateSubagentArtifactReference``: opaque id, namespace, a relative path with no dot
    segment at all (``.`` alone is refused too), authorization, lifetime and cleanup owner."""
    if not is_record(value):
        return [error("artifact.type", "Artifact reference must be an object.", path)]
    diagnostics: list[ContractDiagnostic] = []
    validate_opaque_id(value.get("id"), f"{path}.id", diagnostics)
    validate_namespace(value.get("workspaceNamespace"), f"{path}.workspaceNamespace", diagnostics)
    if not is_safe_relative_path(value.get("path")):
        diagnostics.append(
            error("artifact.path", "Artifact path must be a normalized relative POSIX path without dot segments.", f"{path}.path")
        )
    if value.get("authorization") not in ("read", "write"):
        diagnostics.append(error("artifact.authorization", "authorization must be read or write.", f"{path}.authorization"))
    if not _one_of(value.get("lifetime", UNDEFINED), ("run", "session", "persistent")):
        diagnostics.append(error("artifact.lifetime", "Unsupported artifact lifetime.", f"{path}.lifetime"))
    if not _one_of(value.get("cleanup", UNDEFINED), ("backend", "host", "user")):
        diagnostics.append(error("artifact.cleanup", "Unsupported artifact cleanup owner.", f"{path}.cleanup"))
    return diagnostics


def _one_of(value: Any, allowed: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in allowed


def validate_subagent_trace_reference(value: Any, path: str = "trace") -> list[ContractDiagnostic]:
    """``validateSubagentTraceReference``: opaque handle and backend id, namespace scope, optional
    ISO ``expiresAt``."""
    if not is_record(value):
        return [error("trace.type", "Trace reference must be an object.", path)]
    diagnostics: list[ContractDiagnostic] = []
    validate_opaque_id(value.get("handle"), f"{path}.handle", diagnostics)
    validate_opaque_id(value.get("backendId"), f"{path}.backendId", diagnostics)
    validate_namespace(value.get("authorizationScope"), f"{path}.authorizationScope", diagnostics)
    expires = value.get("expiresAt", UNDEFINED)
    if expires is not UNDEFINED and not is_iso_date(expires):
        diagnostics.append(error("trace.expiry", "expiresAt must be an ISO date-time string.", f"{path}.expiresAt"))
    return diagnostics


def validate_usage(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's ``validateUsage``: non-negative integer token counts whose total covers input +
    output, and a cost with a non-negative amount and an ISO 4217 code."""
    if not is_record(value):
        diagnostics.append(error("usage.type", "usage must be an object.", path))
        return
    tokens = value.get("tokens", UNDEFINED)
    if tokens is not UNDEFINED:
        if not (is_record(tokens) and all(is_non_negative_integer(tokens.get(k)) for k in ("input", "output", "total"))):
            diagnostics.append(error("usage.tokens", "Token usage values must be non-negative integers.", f"{path}.tokens"))
        elif tokens["total"] < tokens["input"] + tokens["output"]:
            diagnostics.append(error("usage.token-total", "Token total cannot be less than input + output.", f"{path}.tokens.total"))
    cost = value.get("cost", UNDEFINED)
    if cost is not UNDEFINED and not (
        is_record(cost)
        and is_non_negative_finite(cost.get("amount"))
        and isinstance(cost.get("currency"), str)
        and _CURRENCY.fullmatch(cost["currency"])
    ):
        diagnostics.append(error("usage.cost", "Cost requires a non-negative amount and ISO 4217 currency code.", f"{path}.cost"))


def _defined(response: dict[str, Any], key: str) -> bool:
    return response.get(key, UNDEFINED) is not UNDEFINED


def _status_matrix(response: dict[str, Any], diagnostics: list[ContractDiagnostic]) -> None:
    output = response.get("output", UNDEFINED)
    status = response.get("status", UNDEFINED)
    if output is not UNDEFINED and not (
        is_record(output) and isinstance(output.get("text"), str) and isinstance(output.get("partial"), bool)
    ):
        diagnostics.append(error("response.output", "output must contain text and partial.", "output"))
    if status == "completed":
        if any(_defined(response, k) for k in ("error", "reason", "reachedLimit", "enforcedTimeoutMs")):
            diagnostics.append(
                error("response.completed-fields", "Completed responses cannot contain terminal error/reason/limit fields.", "status")
            )
        if is_record(output) and output.get("partial", UNDEFINED) is not False:
            diagnostics.append(error("response.completed-partial", "Completed output cannot be partial.", "output.partial"))
        return
    if is_record(output) and output.get("partial", UNDEFINED) is not True:
        diagnostics.append(error("response.partial", "Non-completed output must be marked partial.", "output.partial"))

    def forbid(*fields: str) -> None:
        for key in fields:
            if _defined(response, key):
                diagnostics.append(error("response.forbidden-field", f"{js_string(status)} response cannot contain {key}.", key))

    def reason_missing() -> bool:
        reason = response.get("reason")
        return not isinstance(reason, str) or not js_trim(reason)

    if status == "failed":
        failure = response.get("error")
        if not (is_record(failure) and isinstance(failure.get("code"), str) and isinstance(failure.get("message"), str)):
            diagnostics.append(error("response.failed-error", "Failed responses require a structured error.", "error"))
        forbid("reason", "reachedLimit", "enforcedTimeoutMs")
    elif status == "cancelled":
        if reason_missing():
            diagnostics.append(error("response.reason", "cancelled responses require a reason.", "reason"))
        forbid("error", "reachedLimit", "enforcedTimeoutMs")
    elif status == "timed-out":
        if reason_missing():
            diagnostics.append(error("response.reason", "timed-out responses require a reason.", "reason"))
        if not is_positive_integer(response.get("enforcedTimeoutMs")):
            diagnostics.append(error("response.timeout", "Timed-out responses require enforcedTimeoutMs.", "enforcedTimeoutMs"))
        forbid("error", "reachedLimit")
    elif status == "limit-reached":
        if not _one_of(response.get("reachedLimit", UNDEFINED), LIMIT_NAMES):
            diagnostics.append(error("response.reached-limit", "limit-reached responses require a valid reachedLimit.", "reachedLimit"))
        forbid("error", "reason", "enforcedTimeoutMs")


def validate_agent_response(response: Any, request: Any = UNDEFINED, plan: Any = UNDEFINED) -> list[ContractDiagnostic]:
    """pi-forge's ``validateAgentResponse(response, {request?, plan?})`` (§4.9)."""
    if not is_record(response):
        return [error("response.type", "AgentResponse must be an object.", "$")]
    diagnostics: list[ContractDiagnostic] = []
    status = response.get("status", UNDEFINED)
    if not _one_of(status, RESPONSE_STATUSES):
        diagnostics.append(error("response.status", "Unsupported response status.", "status"))
    version = response.get("schemaVersion")
    if version != 1 or isinstance(version, bool):
        diagnostics.append(error("response.schema-version", "schemaVersion must be 1.", "schemaVersion"))
    for key in ("requestId", "runId", "backendId"):
        validate_opaque_id(response.get(key), key, diagnostics)
    validate_fingerprint(response.get("profileFingerprint", UNDEFINED), "profileFingerprint", diagnostics)
    validate_fingerprint(response.get("executionFingerprint", UNDEFINED), "executionFingerprint", diagnostics)
    validate_model_reference(response.get("model", UNDEFINED), "model", diagnostics)
    tools = response.get("effectiveToolIds")
    if not isinstance(tools, list):
        diagnostics.append(error("response.tools", "effectiveToolIds must be a string array.", "effectiveToolIds"))
    else:
        validate_unique_string_array(tools, "effectiveToolIds", diagnostics)
    if not is_non_negative_finite(response.get("durationMs")):
        diagnostics.append(error("response.duration", "durationMs must be a non-negative finite number.", "durationMs"))
    artifacts = response.get("artifacts")
    if not isinstance(artifacts, list):
        diagnostics.append(error("response.artifacts", "artifacts must be an array.", "artifacts"))
    else:
        for index, artifact in enumerate(artifacts):
            diagnostics.extend(validate_subagent_artifact_reference(artifact, f"artifacts[{index}]"))
    trace = response.get("trace", UNDEFINED)
    if trace is not UNDEFINED:
        diagnostics.extend(validate_subagent_trace_reference(trace, "trace"))
        if is_record(trace) and not js_eq(trace.get("backendId", UNDEFINED), response.get("backendId", UNDEFINED)):
            diagnostics.append(error("response.trace-backend", "Trace backendId must match response backendId.", "trace.backendId"))
    if _defined(response, "usage"):
        validate_usage(response["usage"], "usage", diagnostics)
    enforcement = response.get("enforcement")
    if not is_record(enforcement):
        diagnostics.append(error("response.enforcement", "enforcement must be an object.", "enforcement"))
    else:
        validate_access_receipt(enforcement.get("access", UNDEFINED), "enforcement.access", diagnostics)
        validate_limit_receipt(enforcement.get("limits", UNDEFINED), "enforcement.limits", diagnostics)
    _status_matrix(response, diagnostics)
    if js_truthy(request) and not js_eq(response.get("requestId", UNDEFINED), prop(request, "requestId")):
        diagnostics.append(error("response.request-id", "requestId does not match the request.", "requestId"))
    if js_truthy(plan):
        _against_plan(response, plan, diagnostics)
    return diagnostics


def _against_plan(response: dict[str, Any], plan: Any, diagnostics: list[ContractDiagnostic]) -> None:
    value = response.get
    if not js_eq(value("requestId", UNDEFINED), prop(plan, "requestId")):
        diagnostics.append(error("response.request-plan-id", "requestId does not match the execution plan.", "requestId"))
    if not js_eq(value("runId", UNDEFINED), prop(plan, "runId")):
        diagnostics.append(error("response.run-id", "runId does not match the execution plan.", "runId"))
    if not js_eq(value("backendId", UNDEFINED), prop(plan, "backendId")):
        diagnostics.append(error("response.backend-id", "backendId does not match the execution plan.", "backendId"))
    if not js_eq(value("executionFingerprint", UNDEFINED), prop(plan, "executionFingerprint")):
        diagnostics.append(error("response.execution-fingerprint", "executionFingerprint does not match the execution plan.", "executionFingerprint"))
    if not js_eq(value("profileFingerprint", UNDEFINED), get(plan, "profile", "profileFingerprint")):
        diagnostics.append(error("response.profile-fingerprint", "profileFingerprint does not match the execution plan.", "profileFingerprint"))
    status = value("status", UNDEFINED)
    limits = prop(plan, "limits")
    if status == "timed-out":
        timeout = prop(limits, "timeoutMs")
        receipt_value = UNDEFINED if timeout is None or timeout is UNDEFINED else prop(timeout, "value")
        if not js_eq(value("enforcedTimeoutMs", UNDEFINED), receipt_value):
            diagnostics.append(
                error("response.timeout-receipt", "enforcedTimeoutMs does not match the execution plan timeout receipt.", "enforcedTimeoutMs")
            )
    if status == "limit-reached" and not js_truthy(prop(limits, js_string(value("reachedLimit", UNDEFINED)))):
        diagnostics.append(error("response.limit-receipt-missing", "reachedLimit has no enforcement receipt in the execution plan.", "reachedLimit"))
    capabilities = get(plan, "preflight", "backend", "capabilities") if value("trace", UNDEFINED) is not UNDEFINED else UNDEFINED
    if value("trace", UNDEFINED) is not UNDEFINED and not js_truthy(prop(capabilities, "traceInspection")):
        diagnostics.append(error("response.trace-capability", "Backend returned a trace without advertising traceInspection.", "trace"))
    artifacts = value("artifacts")
    if isinstance(artifacts, list) and artifacts and not js_truthy(get(plan, "preflight", "backend", "capabilities", "artifactRetention")):
        diagnostics.append(error("response.artifact-capability", "Backend returned artifacts without advertising artifactRetention.", "artifacts"))
    canon = canonical_subagent_json
    try:
        if canon(value("model", UNDEFINED)) != canon(prop(plan, "model")):
            diagnostics.append(error("response.model-mismatch", "Response model does not match the execution plan.", "model"))
        tools = value("effectiveToolIds")
        if isinstance(tools, list) and canon(tools) != canon(prop(plan, "effectiveToolIds")):
            diagnostics.append(error("response.tools-mismatch", "effectiveToolIds do not match the execution plan.", "effectiveToolIds"))
        enforcement = value("enforcement")
        if is_record(enforcement):
            if canon(enforcement.get("access", UNDEFINED)) != canon(prop(plan, "access")):
                diagnostics.append(error("response.access-receipt", "Access enforcement receipt does not match the execution plan.", "enforcement.access"))
            if canon(enforcement.get("limits", UNDEFINED)) != canon(prop(plan, "limits")):
                diagnostics.append(error("response.limit-receipt", "Limit enforcement receipt does not match the execution plan.", "enforcement.limits"))
    except (FingerprintError, JSTypeError, JSError) as problem:
        diagnostics.append(error("response.malformed", f"Cannot compare malformed response with plan: {problem}", "$"))
