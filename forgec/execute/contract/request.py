"""§4.2: ``validateAgentRequest``, its parts, and builders for the requests forgec sends.

The selected-context and media checks are the host's (``validation.ts``); the access and limit checks
are the runtime's portable validators (``access.…``/``limits.…`` paths).  Every finding is collected:
only a non-object request stops the walk (and a ``workspaces`` that is not an array stops the access
checks, as in the runtime).
"""

from __future__ import annotations

import re
import uuid
from typing import Any, Final

from forgec.execute.contract.common import (
    ACCESS_LEVELS,
    CONTRACT_VERSION,
    LIMIT_NAMES,
    error,
    is_non_negative_integer,
    is_positive_integer,
    is_record,
    is_safe_relative_path,
    validate_fingerprint,
    validate_opaque_id,
)
from forgec.execute.contract.shapes import AccessRequest, AgentRequest, LimitRequirement
from forgec.execute.host import ContractDiagnostic
from forgec.js.values import UNDEFINED, js_key_order, js_string, js_trim

__all__ = [
    "CONTEXT_ITEM_KINDS",
    "build_agent_request",
    "forge_delegation_request",
    "validate_access_request",
    "validate_agent_request",
    "validate_limit_request",
    "validate_media_reference",
    "validate_selected_context",
]

CONTEXT_ITEM_KINDS: Final = ("summary", "user-excerpt", "assistant-excerpt", "tool-result-excerpt", "resource-excerpt")
_IMAGE_MIME: Final = re.compile(r"image/[A-Za-z0-9.+-]+")


def _has(value: dict[str, Any], key: str) -> bool:
    """``value.key !== undefined``."""
    return value.get(key, UNDEFINED) is not UNDEFINED


def validate_media_reference(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's ``validateMediaReference``: an image reference by opaque handle and digest."""
    if not is_record(value):
        diagnostics.append(error("request.media-item", "Media reference must be an object.", path))
        return
    validate_opaque_id(value.get("id"), f"{path}.id", diagnostics)
    if value.get("kind") != "image":
        diagnostics.append(error("request.media-kind", "Only image media is supported in v1.", f"{path}.kind"))
    mime = value.get("mimeType")
    if not (isinstance(mime, str) and _IMAGE_MIME.fullmatch(mime)):
        diagnostics.append(error("request.media-mime", "mimeType must be an image MIME type.", f"{path}.mimeType"))
    validate_fingerprint(value.get("digest", UNDEFINED), f"{path}.digest", diagnostics)
    validate_opaque_id(value.get("resourceHandle"), f"{path}.resourceHandle", diagnostics)


def validate_selected_context(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> list[ContractDiagnostic]:
    """The host's ``validateSelectedContext`` (appends to and returns ``diagnostics``)."""
    if not is_record(value):
        diagnostics.append(error("context.type", "selectedContext must be an object.", path))
        return diagnostics
    if not is_positive_integer(value.get("maxBytes")):
        diagnostics.append(error("context.max-bytes", "maxBytes must be a positive integer.", f"{path}.maxBytes"))
    items = value.get("items")
    if not isinstance(items, list):
        diagnostics.append(error("context.items", "items must be an array.", f"{path}.items"))
        return diagnostics
    ids: set[str] = set()
    for index, item in enumerate(items):
        where = f"{path}.items[{index}]"
        if not is_record(item):
            diagnostics.append(error("context.item", "Context item must be an object.", where))
            continue
        item_id = item.get("id")
        validate_opaque_id(item_id, f"{where}.id", diagnostics)
        if isinstance(item_id, str) and item_id in ids:
            diagnostics.append(error("context.duplicate-id", f"Duplicate context item id: {item_id}", f"{where}.id"))
        if isinstance(item_id, str):
            ids.add(item_id)
        if js_string(item.get("kind", UNDEFINED)) not in CONTEXT_ITEM_KINDS:
            diagnostics.append(error("context.kind", "Unsupported context item kind.", f"{where}.kind"))
        text = item.get("text")
        if not isinstance(text, str) or not js_trim(text):
            diagnostics.append(error("context.text", "Context item text must not be empty.", f"{where}.text"))
        if _has(item, "required") and not isinstance(item.get("required"), bool):
            diagnostics.append(error("context.required", "required must be boolean.", f"{where}.required"))
        provenance = item.get("provenance")
        source = provenance.get("source") if is_record(provenance) else None
        if not isinstance(source, str) or not js_trim(source):
            diagnostics.append(
                error("context.provenance", "Context item provenance.source is required.", f"{where}.provenance")
            )
    return diagnostics


def validate_access_request(value: Any, path: str = "access") -> list[ContractDiagnostic]:
    """The runtime's ``validateAccessRequest``; a ``workspaces`` that is not an array stops the checks."""
    if not is_record(value):
        return [error("access.type", "access must be an object.", path)]
    diagnostics: list[ContractDiagnostic] = []
    level = value.get("level", UNDEFINED)
    if js_string(level) not in ACCESS_LEVELS:
        diagnostics.append(error("access.level", "Unsupported access level.", f"{path}.level"))
    if value.get("executionBoundary") not in ("isolated", "shared-user"):
        diagnostics.append(
            error("access.execution-boundary", "executionBoundary must be isolated or shared-user.", f"{path}.executionBoundary")
        )
    workspaces = value.get("workspaces")
    if not isinstance(workspaces, list):
        diagnostics.append(error("access.workspaces", "workspaces must be an array.", f"{path}.workspaces"))
        return diagnostics
    handles: set[str] = set()
    writable = False
    for index, workspace in enumerate(workspaces):
        where = f"{path}.workspaces[{index}]"
        if not is_record(workspace):
            diagnostics.append(error("access.workspace", "Workspace must be an object.", where))
            continue
        handle = workspace.get("handle")
        validate_opaque_id(handle, f"{where}.handle", diagnostics)
        if isinstance(handle, str):
            if handle in handles:
                diagnostics.append(
                    error("access.duplicate-workspace", f"Duplicate workspace handle: {handle}.", f"{where}.handle")
                )
            handles.add(handle)
        mode = workspace.get("mode")
        if mode not in ("read-only", "read-write"):
            diagnostics.append(
                error("access.workspace-mode", "Workspace mode must be read-only or read-write.", f"{where}.mode")
            )
        if mode == "read-write":
            writable = True
    if level == "none" and workspaces:
        diagnostics.append(error("access.none-workspaces", "Access none cannot include workspaces.", f"{path}.workspaces"))
    if level == "read-only" and writable:
        diagnostics.append(
            error("access.read-only-write", "Read-only access cannot request a read-write workspace.", f"{path}.workspaces")
        )
    if level == "workspace-write" and not writable:
        diagnostics.append(
            error("access.write-missing", "workspace-write requires at least one read-write workspace.", f"{path}.workspaces")
        )
    if value.get("network") not in ("deny", "allow"):
        diagnostics.append(error("access.network", "network must be deny or allow.", f"{path}.network"))
    allow_process = value.get("allowProcess", UNDEFINED)
    if allow_process is not UNDEFINED and not isinstance(allow_process, bool):
        diagnostics.append(error("access.process", "allowProcess must be boolean.", f"{path}.allowProcess"))
    if allow_process is True and level != "workspace-write":
        diagnostics.append(error("access.process-level", "Process access requires workspace-write.", f"{path}.allowProcess"))
    cwd = value.get("workingDirectory", UNDEFINED)
    if cwd is not UNDEFINED:
        if not is_record(cwd):
            diagnostics.append(error("access.cwd", "workingDirectory must be an object.", f"{path}.workingDirectory"))
        else:
            if js_string(cwd.get("workspaceHandle", UNDEFINED)) not in handles:
                diagnostics.append(
                    error(
                        "access.cwd-workspace",
                        "workingDirectory must reference a requested workspace.",
                        f"{path}.workingDirectory.workspaceHandle",
                    )
                )
            if not is_safe_relative_path(cwd.get("path"), True):
                diagnostics.append(
                    error(
                        "access.cwd-path",
                        "workingDirectory.path must be a normalized relative POSIX path.",
                        f"{path}.workingDirectory.path",
                    )
                )
    if level == "none" and cwd is not UNDEFINED:
        diagnostics.append(
            error("access.none-cwd", "Access none cannot include a workingDirectory.", f"{path}.workingDirectory")
        )
    return diagnostics


def validate_limit_request(value: Any, path: str = "limits") -> list[ContractDiagnostic]:
    """The runtime's ``validateLimitRequest`` (members in JavaScript enumeration order)."""
    if not is_record(value):
        return [error("limits.type", "limits must be an object.", path)]
    diagnostics: list[ContractDiagnostic] = []
    for name in js_key_order(value):
        requirement = value[name]
        if name not in LIMIT_NAMES:
            diagnostics.append(error("limits.unknown", f"Unknown limit: {name}.", f"{path}.{name}"))
            continue
        if not (
            is_record(requirement)
            and is_positive_integer(requirement.get("value"))
            and requirement.get("enforcement") in ("required", "best-effort")
        ):
            diagnostics.append(
                error(
                    "limits.requirement",
                    "Each limit requires a positive integer value and required or best-effort enforcement.",
                    f"{path}.{name}",
                )
            )
    return diagnostics


def validate_agent_request(value: Any) -> list[ContractDiagnostic]:
    """pi-forge's ``validateAgentRequest`` (§4.2): every problem of the request, in check order."""
    if not is_record(value):
        return [error("request.type", "AgentRequest must be an object.", "$")]
    diagnostics: list[ContractDiagnostic] = []
    if value.get("schemaVersion") != CONTRACT_VERSION or isinstance(value.get("schemaVersion"), bool):
        diagnostics.append(error("request.schema-version", "schemaVersion must be 1.", "schemaVersion"))
    validate_opaque_id(value.get("requestId"), "requestId", diagnostics)
    validate_opaque_id(value.get("profileId"), "profileId", diagnostics)
    if _has(value, "expectedProfileFingerprint"):
        validate_fingerprint(value["expectedProfileFingerprint"], "expectedProfileFingerprint", diagnostics)
    task = value.get("input")
    if not is_record(task):
        diagnostics.append(error("request.input", "input must be an object.", "input"))
    else:
        text = task.get("text")
        media = task.get("media", UNDEFINED)
        if not isinstance(text, str):
            diagnostics.append(error("request.input-text", "input.text must be a string.", "input.text"))
        if media is not UNDEFINED and not isinstance(media, list):
            diagnostics.append(error("request.media", "input.media must be an array.", "input.media"))
        if isinstance(media, list):
            for index, item in enumerate(media):
                validate_media_reference(item, f"input.media[{index}]", diagnostics)
        if isinstance(text, str) and not js_trim(text) and not (isinstance(media, list) and media):
            diagnostics.append(error("request.empty-task", "The delegated task must contain text or media.", "input"))
    if _has(value, "selectedContext"):
        validate_selected_context(value["selectedContext"], "selectedContext", diagnostics)
    diagnostics.extend(validate_access_request(value.get("access", UNDEFINED), "access"))
    diagnostics.extend(validate_limit_request(value.get("limits", UNDEFINED), "limits"))
    projection = value.get("resultProjection")
    if not (is_record(projection) and is_positive_integer(projection.get("maxChars"))):
        diagnostics.append(
            error("request.result-projection", "resultProjection.maxChars must be a positive integer.", "resultProjection.maxChars")
        )
    parent = value.get("parent")
    if not is_record(parent):
        diagnostics.append(error("request.parent", "parent must be an object.", "parent"))
    else:
        depth, max_depth = parent.get("depth"), parent.get("maxDepth")
        if not is_non_negative_integer(depth):
            diagnostics.append(error("request.depth", "parent.depth must be a non-negative integer.", "parent.depth"))
        if not is_positive_integer(max_depth):
            diagnostics.append(error("request.max-depth", "parent.maxDepth must be a positive integer.", "parent.maxDepth"))
        if is_non_negative_integer(depth) and is_positive_integer(max_depth) and depth >= max_depth:
            diagnostics.append(error("request.depth-limit", "parent.depth must be less than parent.maxDepth.", "parent.depth"))
        for key in ("runId", "sessionId"):
            if _has(parent, key):
                validate_opaque_id(parent[key], f"parent.{key}", diagnostics)
    if not isinstance(value.get("remoteEgressConsent"), bool):
        diagnostics.append(error("request.egress-consent", "remoteEgressConsent must be boolean.", "remoteEgressConsent"))
    return diagnostics


# --- building requests ------------------------------------------------------------------------------


def build_agent_request(
    *,
    profile_id: str,
    task: str,
    request_id: str | None = None,
    expected_profile_fingerprint: str | None = None,
    media: list[dict[str, Any]] | None = None,
    selected_context: dict[str, Any] | None = None,
    access: AccessRequest | None = None,
    timeout_ms: int = 120_000,
    token_budget: int | None = None,
    max_chars: int = 12_000,
    remote_egress_consent: bool = False,
    session_id: str | None = None,
    depth: int = 0,
    max_depth: int = 1,
) -> AgentRequest:
    """The request forgec sends to its own HTTP backends (profiles-exec.md §6.5).

    Access defaults to ``none`` (the model only returns text), the timeout is ``best-effort`` (the
    backend enforces it by aborting the HTTP request), ``tokenBudget`` -- output tokens -- is
    ``required`` when given, and ``remoteEgressConsent`` is true only when the user consented.  A
    random ``request:<uuid>`` id is made when none is given; pass one for reproducible plans.
    """
    limits: dict[str, LimitRequirement] = {"timeoutMs": {"value": timeout_ms, "enforcement": "best-effort"}}
    if token_budget is not None:
        limits["tokenBudget"] = {"value": token_budget, "enforcement": "required"}
    task_input: dict[str, Any] = {"text": task}
    if media:
        task_input["media"] = media
    parent: dict[str, Any] = {"depth": depth, "maxDepth": max_depth}
    if session_id is not None:
        parent = {"sessionId": session_id, **parent}
    request: dict[str, Any] = {
        "schemaVersion": CONTRACT_VERSION,
        "requestId": request_id if request_id is not None else f"request:{uuid.uuid4()}",
        "profileId": profile_id,
    }
    if expected_profile_fingerprint is not None:
        request["expectedProfileFingerprint"] = expected_profile_fingerprint
    request["input"] = task_input
    if selected_context is not None:
        request["selectedContext"] = selected_context
    request["access"] = access if access is not None else {
        "level": "none",
        "workspaces": [],
        "network": "deny",
        "executionBoundary": "isolated",
    }
    request["limits"] = limits
    request["resultProjection"] = {"maxChars": max_chars}
    request["parent"] = parent
    request["remoteEgressConsent"] = remote_egress_consent
    return request  # type: ignore[return-value]  # built member by member to keep the reference's key order


def forge_delegation_request(
    *, profile_id: str, task: str, timeout_ms: int, session_id: str, expected_profile_fingerprint: str, request_id: str | None = None
) -> AgentRequest:
    """The request Forge 0.4.1 builds for every delegation (§4.10): read-only ``project`` workspace at
    ``.``, network allowed, shared-user boundary, a best-effort timeout, 12,000 result characters,
    depth 0 of 1, and egress consent (the approval dialog obtains it)."""
    return build_agent_request(
        profile_id=profile_id,
        task=task,
        request_id=request_id,
        expected_profile_fingerprint=expected_profile_fingerprint,
        access={
            "level": "read-only",
            "workspaces": [{"handle": "project", "mode": "read-only"}],
            "workingDirectory": {"workspaceHandle": "project", "path": "."},
            "network": "allow",
            "executionBoundary": "shared-user",
        },
        timeout_ms=timeout_ms,
        max_chars=12_000,
        remote_egress_consent=True,
        session_id=session_id,
        depth=0,
        max_depth=1,
    )
