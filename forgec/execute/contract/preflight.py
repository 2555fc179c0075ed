"""§4.4: preflight validation -- the backend descriptor, receipts, prompt runtime, and the comparison
with the request and the profile snapshot -- and the self-issued preflight of forgec's HTTP backends.

Sources of the rules: the descriptor, the limit receipt, the prompt runtime and the access
*enforcement* comparison are the runtime's portable validators (paths rooted at ``$`` and re-pathed by
the host); the tool catalog, the access receipt (with its honesty rules for the execution boundary)
and the limit comparison are the host's.  The comparison with the request runs inside a ``try`` in
the reference, so a malformed preflight there becomes ``preflight.malformed`` with V8's error text;
the snapshot comparison has no such guard, and a snapshot without a profile throws.
"""

from __future__ import annotations

import re
from typing import Any, Final

from forgec.execute.contract.common import (
    ACCESS_CAPABILITY_KEYS,
    ACCESS_LEVELS,
    LIMIT_NAMES,
    JSError,
    JSTypeError,
    error,
    get,
    is_iso_date,
    is_positive_integer,
    is_record,
    is_safe_relative_path,
    iterate,
    js_eq,
    js_gt,
    js_includes,
    js_truthy,
    prop,
    repath,
    validate_diagnostic_array,
    validate_fingerprint,
    validate_model_reference,
    validate_opaque_id,
    validate_string_array,
    validate_unique_non_empty_strings,
)
from forgec.execute.contract.fingerprints import prompt_runtime_fingerprint
from forgec.execute.contract.shapes import BackendDescriptor, BackendTool, PromptRuntime
from forgec.execute.host import ContractDiagnostic
from forgec.fingerprint import FingerprintError, is_fingerprint
from forgec.js.values import UNDEFINED, js_key_order, js_string, js_trim

__all__ = [
    "FIDELITIES",
    "forgec_http_descriptor",
    "self_issued_preflight",
    "validate_access_enforcement",
    "validate_access_receipt",
    "validate_backend_descriptor",
    "validate_backend_preflight",
    "validate_limit_receipt",
    "validate_preflight_against_request",
    "validate_preparation_runtime",
    "validate_prompt_runtime",
    "validate_tool_catalog",
]

FIDELITIES: Final = ("exact-preflight", "backend-assisted", "partial")
_LIMIT_ENFORCEMENTS: Final = ("backend-hard", "host-abort", "best-effort", "unsupported")
_MIME: Final = re.compile(r"[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+")


def _malformed(exc: JSTypeError | JSError | FingerprintError) -> str:
    return str(exc)


# --- the descriptor (runtime + host) ------------------------------------------------------------------


def _runtime_access_capabilities(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not is_record(value):
        diagnostics.append(error("access-capabilities.type", "Access capabilities must be an object.", path))
        return
    for key in ACCESS_CAPABILITY_KEYS:
        if not isinstance(value.get(key), bool):
            diagnostics.append(error("access-capabilities.value", f"{key} must be boolean.", f"{path}.{key}"))


def _runtime_descriptor(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The runtime's ``validateBackendDescriptorAt``."""
    if not is_record(value):
        diagnostics.append(error("backend.type", "Backend descriptor must be an object.", path))
        return
    validate_opaque_id(value.get("id"), f"{path}.id", diagnostics)
    version = value.get("version")
    if not isinstance(version, str) or not js_trim(version) or _units(version) > 128:
        diagnostics.append(
            error("backend.version", "Backend version must be a non-empty string of at most 128 characters.", f"{path}.version")
        )
    capabilities = value.get("capabilities")
    if not is_record(capabilities):
        diagnostics.append(error("backend.capabilities", "capabilities must be an object.", f"{path}.capabilities"))
        return
    where = f"{path}.capabilities"
    _runtime_access_capabilities(capabilities.get("access"), f"{where}.access", diagnostics)
    boundaries = capabilities.get("executionBoundaries")
    if not isinstance(boundaries, list) or not boundaries:
        diagnostics.append(
            error("backend.execution-boundaries", "executionBoundaries must advertise at least one boundary.", f"{where}.executionBoundaries")
        )
    else:
        seen: set[str] = set()
        for index, boundary in enumerate(boundaries):
            at = f"{where}.executionBoundaries[{index}]"
            if boundary not in ("isolated", "shared-user") or not isinstance(boundary, str):
                diagnostics.append(error("backend.execution-boundary", f"Unsupported execution boundary: {js_string(boundary)}.", at))
            elif boundary in seen:
                diagnostics.append(error("backend.execution-boundary-duplicate", f"Duplicate execution boundary: {boundary}.", at))
            seen.add(js_string(boundary))
    limits = capabilities.get("limits")
    if not is_record(limits):
        diagnostics.append(error("backend.limits", "limits capabilities must be an object.", f"{where}.limits"))
    else:
        for name in LIMIT_NAMES:
            supported = limits.get(name)
            at = f"{where}.limits.{name}"
            if not isinstance(supported, list) or not supported:
                diagnostics.append(error("backend.limit-capability", f"{name} must advertise at least one enforcement value.", at))
                continue
            found: set[str] = set()
            for index, item in enumerate(supported):
                if not (isinstance(item, str) and item in _LIMIT_ENFORCEMENTS):
                    diagnostics.append(error("backend.limit-enforcement", f"Unsupported limit enforcement: {js_string(item)}.", f"{at}[{index}]"))
                elif item in found:
                    diagnostics.append(error("backend.limit-duplicate", f"Duplicate limit enforcement: {item}.", f"{at}[{index}]"))
                found.add(js_string(item))
            if "unsupported" in found and len(found) > 1:
                diagnostics.append(
                    error("backend.limit-unsupported", "unsupported cannot be combined with supported enforcement values.", at)
                )
    if not isinstance(capabilities.get("cancellation"), bool):
        diagnostics.append(error("backend.cancellation", "cancellation must be boolean.", f"{where}.cancellation"))
    mimes = capabilities.get("mediaMimeTypes", UNDEFINED)
    validate_unique_non_empty_strings(mimes, f"{where}.mediaMimeTypes", diagnostics)
    if isinstance(mimes, list):  # a second pass over every string, after the uniqueness pass
        for index, mime in enumerate(mimes):
            if isinstance(mime, str) and not _MIME.fullmatch(mime):
                diagnostics.append(error("backend.media-mime", "mediaMimeTypes entries must be MIME types.", f"{where}.mediaMimeTypes[{index}]"))
    if not isinstance(capabilities.get("remoteTransport"), bool):
        diagnostics.append(error("backend.remote-transport", "remoteTransport must be boolean.", f"{where}.remoteTransport"))
    if js_string(capabilities.get("promptRuntimeFidelity", UNDEFINED)) not in FIDELITIES:
        diagnostics.append(error("backend.prompt-fidelity", "Unsupported prompt-runtime fidelity.", f"{where}.promptRuntimeFidelity"))


def _units(text: str) -> int:
    from forgec.js.values import js_len

    return js_len(text)


def validate_backend_descriptor(value: Any, path: str = "backend") -> list[ContractDiagnostic]:
    """The host's ``validateBackendDescriptor``: the runtime's rules re-pathed under ``path``, then
    the host-only ``traceInspection``/``artifactRetention`` booleans."""
    found: list[ContractDiagnostic] = []
    _runtime_descriptor(value, "$", found)
    diagnostics = repath(found, path)
    capabilities = value.get("capabilities") if is_record(value) else None
    if is_record(capabilities):
        for key in ("traceInspection", "artifactRetention"):
            if not isinstance(capabilities.get(key), bool):
                diagnostics.append(error("backend.boolean-capability", f"{key} must be boolean.", f"{path}.capabilities.{key}"))
    return diagnostics


# --- the prompt runtime (runtime) -----------------------------------------------------------------------


def validate_prompt_runtime(value: Any, expected_fidelity: str | None = None) -> list[ContractDiagnostic]:
    """The runtime's ``validatePromptRuntime`` (paths rooted at ``$``)."""
    diagnostics: list[ContractDiagnostic] = []
    path = "$"
    if not is_record(value):
        return [error("prompt-runtime.type", "Prompt runtime must be an object.", path)]
    if not isinstance(value.get("baseSystemPrompt"), str):
        diagnostics.append(error("prompt-runtime.base-system", "baseSystemPrompt must be a string.", f"{path}.baseSystemPrompt"))
    validate_model_reference(value.get("model", UNDEFINED), f"{path}.model", diagnostics, runtime=True)
    if not is_iso_date(value.get("preparedAt")):
        diagnostics.append(error("prompt-runtime.prepared-at", "preparedAt must be an ISO timestamp.", f"{path}.preparedAt"))
    fidelity = value.get("fidelity")
    if fidelity not in ("exact-preflight", "backend-assisted") or not isinstance(fidelity, str):
        diagnostics.append(
            error("prompt-runtime.fidelity", "Prompt runtime fidelity must be exact-preflight or backend-assisted.", f"{path}.fidelity")
        )
    elif expected_fidelity and fidelity != expected_fidelity:
        diagnostics.append(
            error("prompt-runtime.expected-fidelity", f"Prompt runtime fidelity must be {expected_fidelity}.", f"{path}.fidelity")
        )
    options = value.get("options")
    if not is_record(options):
        diagnostics.append(error("prompt-runtime.options", "options must be an object.", f"{path}.options"))
    else:
        _runtime_options(options, f"{path}.options", diagnostics)
    runtime_fingerprint = value.get("promptRuntimeFingerprint", UNDEFINED)
    validate_fingerprint(runtime_fingerprint, f"{path}.promptRuntimeFingerprint", diagnostics)
    if is_fingerprint(runtime_fingerprint):
        try:
            if prompt_runtime_fingerprint(value) != runtime_fingerprint:
                diagnostics.append(
                    error(
                        "prompt-runtime.fingerprint-mismatch",
                        "promptRuntimeFingerprint does not match the runtime.",
                        f"{path}.promptRuntimeFingerprint",
                    )
                )
        except FingerprintError:
            diagnostics.append(error("prompt-runtime.canonical", "Prompt runtime contains a non-canonical value.", path))
    return diagnostics


def _runtime_options(options: dict[str, Any], path: str, diagnostics: list[ContractDiagnostic]) -> None:
    custom = options.get("customPrompt", UNDEFINED)
    if custom is not UNDEFINED and not isinstance(custom, str):
        diagnostics.append(error("prompt-runtime.custom-prompt", "customPrompt must be a string.", f"{path}.customPrompt"))
    validate_unique_non_empty_strings(options.get("selectedTools", UNDEFINED), f"{path}.selectedTools", diagnostics)
    snippets = options.get("toolSnippets")
    if not is_record(snippets):
        diagnostics.append(error("prompt-runtime.tool-snippets", "toolSnippets must be a string record.", f"{path}.toolSnippets"))
    else:
        for name in js_key_order(snippets):
            if not name or not isinstance(snippets[name], str):
                diagnostics.append(
                    error(
                        "prompt-runtime.tool-snippet",
                        "Tool snippet keys must be non-empty and values must be strings.",
                        f"{path}.toolSnippets.{name}",
                    )
                )
    validate_string_array(options.get("promptGuidelines", UNDEFINED), f"{path}.promptGuidelines", diagnostics)
    append = options.get("appendSystemPrompt", UNDEFINED)
    if append is not UNDEFINED and not isinstance(append, str):
        diagnostics.append(error("prompt-runtime.append-system", "appendSystemPrompt must be a string.", f"{path}.appendSystemPrompt"))
    cwd = options.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        diagnostics.append(error("prompt-runtime.cwd", "cwd must be a non-empty string.", f"{path}.cwd"))
    files = options.get("contextFiles")
    if not isinstance(files, list):
        diagnostics.append(error("prompt-runtime.context-files", "contextFiles must be an array.", f"{path}.contextFiles"))
    else:
        for index, item in enumerate(files):
            if not (is_record(item) and isinstance(item.get("path"), str) and item["path"] and isinstance(item.get("content"), str)):
                diagnostics.append(
                    error("prompt-runtime.context-file", "Each context file requires path and content strings.", f"{path}.contextFiles[{index}]")
                )
    skills = options.get("skills")
    if not isinstance(skills, list):
        diagnostics.append(error("prompt-runtime.skills", "skills must be an array.", f"{path}.skills"))
        return
    for index, skill in enumerate(skills):
        at = f"{path}.skills[{index}]"
        if not is_record(skill):
            diagnostics.append(error("prompt-runtime.skill", "Skill must be an object.", at))
            continue
        for key in ("name", "description", "filePath"):
            if not isinstance(skill.get(key), str):
                diagnostics.append(error("prompt-runtime.skill-field", f"{key} must be a string.", f"{at}.{key}"))
        if not isinstance(skill.get("disableModelInvocation"), bool):
            diagnostics.append(
                error("prompt-runtime.skill-invocation", "disableModelInvocation must be boolean.", f"{at}.disableModelInvocation")
            )


def validate_preparation_runtime(
    value: Any, path: str, diagnostics: list[ContractDiagnostic] | None = None, expected_fidelity: str | None = None
) -> list[ContractDiagnostic]:
    """The host's ``validatePreparationRuntime``: the runtime's prompt-runtime rules re-pathed under
    ``path``; appended to ``diagnostics`` (a new list when none is given), which is returned."""
    out = diagnostics if diagnostics is not None else []
    out.extend(repath(validate_prompt_runtime(value, expected_fidelity), path))
    return out


# --- the tool catalog and the receipts (host, limit receipt runtime) -------------------------------------------


def validate_tool_catalog(value: list[Any], diagnostics: list[ContractDiagnostic]) -> None:
    """The host's ``validateToolCatalog`` (paths ``toolCatalog[i]…``)."""
    ids: set[str] = set()
    names: set[str] = set()
    for index, tool in enumerate(value):
        at = f"toolCatalog[{index}]"
        if not is_record(tool):
            diagnostics.append(error("tools.catalog-entry", "Tool catalog entry must be an object.", at))
            continue
        tool_id, name = tool.get("id"), tool.get("name")
        validate_opaque_id(tool_id, f"{at}.id", diagnostics)
        validate_opaque_id(name, f"{at}.name", diagnostics)
        if isinstance(tool_id, str) and tool_id in ids:
            diagnostics.append(error("tools.duplicate-id", f"Duplicate tool id: {tool_id}", f"{at}.id"))
        if isinstance(name, str) and name in names:
            diagnostics.append(error("tools.duplicate-name", f"Duplicate tool name: {name}", f"{at}.name"))
        if isinstance(tool_id, str):
            ids.add(tool_id)
        if isinstance(name, str):
            names.add(name)
        effects = tool.get("effects")
        if not isinstance(effects, list) or any(js_string(e) not in ("filesystem-read", "filesystem-write", "process", "network") for e in effects):
            diagnostics.append(error("tools.effects", "Tool effects must be a valid effect array.", f"{at}.effects"))


def _host_access_capabilities(value: dict[str, Any], path: str, diagnostics: list[ContractDiagnostic]) -> None:
    for key in ACCESS_CAPABILITY_KEYS:
        if not isinstance(value.get(key), bool):
            diagnostics.append(error("access-capability.boolean", f"{key} must be boolean.", f"{path}.{key}"))


def validate_access_receipt(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The host's ``validateAccessReceipt``: shape, mount uniqueness, level consistency, and what a
    receipt may claim for its execution boundary (absent means ``isolated``; a shared-user boundary
    claims no isolation at all)."""
    if not is_record(value):
        diagnostics.append(error("access-receipt.type", "Access receipt must be an object.", path))
        return
    level = value.get("level", UNDEFINED)
    if js_string(level) not in ACCESS_LEVELS:
        diagnostics.append(error("access-receipt.level", "Invalid access receipt level.", f"{path}.level"))
    mounts = value.get("mounts")
    cwd = value.get("workingDirectory", UNDEFINED)
    if not isinstance(mounts, list):
        diagnostics.append(error("access-receipt.mounts", "Access receipt mounts must be an array.", f"{path}.mounts"))
    else:
        handles: set[str] = set()
        mount_ids: set[str] = set()
        for index, mount in enumerate(mounts):
            at = f"{path}.mounts[{index}]"
            if not is_record(mount):
                diagnostics.append(error("access-receipt.mount", "Mount mapping must be an object.", at))
                continue
            handle, mount_id = mount.get("workspaceHandle"), mount.get("mountId")
            validate_opaque_id(handle, f"{at}.workspaceHandle", diagnostics)
            validate_opaque_id(mount_id, f"{at}.mountId", diagnostics)
            if mount.get("mode") not in ("read-only", "read-write"):
                diagnostics.append(error("access-receipt.mount-mode", "Mount mode must be read-only or read-write.", f"{at}.mode"))
            if isinstance(handle, str) and handle in handles:
                diagnostics.append(error("access-receipt.duplicate-workspace", f"Duplicate workspace mapping: {handle}", f"{at}.workspaceHandle"))
            if isinstance(mount_id, str) and mount_id in mount_ids:
                diagnostics.append(error("access-receipt.duplicate-mount", f"Duplicate mount id: {mount_id}", f"{at}.mountId"))
            if isinstance(handle, str):
                handles.add(handle)
            if isinstance(mount_id, str):
                mount_ids.add(mount_id)
        writable = any(is_record(m) and m.get("mode") == "read-write" for m in mounts)
        if level == "none" and mounts:
            diagnostics.append(error("access-receipt.none-mounts", "Access none cannot produce mount mappings.", f"{path}.mounts"))
        if level == "read-only" and writable:
            diagnostics.append(error("access-receipt.read-only-write", "Read-only access cannot produce a read-write mount.", f"{path}.mounts"))
        if level == "workspace-write" and not writable:
            diagnostics.append(error("access-receipt.write-missing", "workspace-write receipt requires a read-write mount.", f"{path}.mounts"))
        if cwd is not UNDEFINED:
            if not is_record(cwd):
                diagnostics.append(error("access-receipt.cwd", "workingDirectory must be an object.", f"{path}.workingDirectory"))
            else:
                if js_string(cwd.get("mountId", UNDEFINED)) not in mount_ids:
                    diagnostics.append(
                        error("access-receipt.cwd-mount", "workingDirectory must reference a receipt mount.", f"{path}.workingDirectory.mountId")
                    )
                if not is_safe_relative_path(cwd.get("path"), True):
                    diagnostics.append(
                        error("access-receipt.cwd-path", "workingDirectory path must be normalized and relative.", f"{path}.workingDirectory.path")
                    )
    if value.get("network") not in ("deny", "allow"):
        diagnostics.append(error("access-receipt.network", "Invalid access receipt network policy.", f"{path}.network"))
    process = value.get("process", UNDEFINED)
    if not isinstance(process, bool):
        diagnostics.append(error("access-receipt.process", "Access receipt process must be boolean.", f"{path}.process"))
    if process is True and level != "workspace-write":
        diagnostics.append(error("access-receipt.process-level", "Process access requires workspace-write.", f"{path}.process"))
    boundary = value.get("executionBoundary", UNDEFINED)
    if boundary is not UNDEFINED and boundary not in ("isolated", "shared-user"):
        diagnostics.append(error("access-receipt.boundary", "executionBoundary must be isolated or shared-user.", f"{path}.executionBoundary"))
    if boundary is UNDEFINED or boundary is None:
        boundary = "isolated"  # `value.executionBoundary ?? "isolated"`
    enforcement = value.get("enforcement")
    if not is_record(enforcement):
        diagnostics.append(error("access-receipt.enforcement", "Access enforcement receipt is required.", f"{path}.enforcement"))
    else:
        _host_access_capabilities(enforcement, f"{path}.enforcement", diagnostics)
        claim = enforcement.get
        if boundary == "shared-user":
            for key in ACCESS_CAPABILITY_KEYS:
                if claim(key) is True:
                    diagnostics.append(
                        error("access-receipt.shared-user-claim", f"A shared-user boundary cannot claim {key}.", f"{path}.enforcement.{key}")
                    )
        if boundary == "isolated" and level == "read-only" and not (
            js_truthy(claim("readOnlyMountIsolation")) and js_truthy(claim("symlinkSafeContainment"))
        ):
            diagnostics.append(
                error(
                    "access-receipt.read-isolation",
                    "Isolated read-only access requires mount isolation and symlink-safe containment.",
                    f"{path}.enforcement",
                )
            )
        if level == "workspace-write" and not (js_truthy(claim("readWriteMountIsolation")) and js_truthy(claim("symlinkSafeContainment"))):
            diagnostics.append(
                error(
                    "access-receipt.write-isolation",
                    "Workspace-write receipt requires write isolation and symlink-safe containment.",
                    f"{path}.enforcement",
                )
            )
        if process is True and not js_truthy(claim("processIsolation")):
            diagnostics.append(
                error("access-receipt.process-isolation", "Process receipt requires process isolation.", f"{path}.enforcement.processIsolation")
            )
        if value.get("network") == "deny" and not js_truthy(claim("agentNetworkIsolation")):
            diagnostics.append(
                error(
                    "access-receipt.network-isolation",
                    "Denied network receipt requires agent network isolation.",
                    f"{path}.enforcement.agentNetworkIsolation",
                )
            )
    if level == "none" and cwd is not UNDEFINED:
        diagnostics.append(error("access-receipt.none-cwd", "Access none cannot produce a workingDirectory.", f"{path}.workingDirectory"))


def validate_limit_receipt(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    """The runtime's ``validateLimitReceipt``."""
    if not is_record(value):
        diagnostics.append(error("limit-receipt.type", "Limit receipt must be an object.", path))
        return
    for name in js_key_order(value):
        enforced = value[name]
        if name not in LIMIT_NAMES:
            diagnostics.append(error("limit-receipt.unknown", f"Unknown enforced limit: {name}.", f"{path}.{name}"))
            continue
        if not (
            is_record(enforced)
            and is_positive_integer(enforced.get("value"))
            and js_string(enforced.get("enforcement", UNDEFINED)) in ("backend-hard", "host-abort", "best-effort")
        ):
            diagnostics.append(
                error(
                    "limit-receipt.value",
                    "An enforced limit requires a positive integer value and supported enforcement.",
                    f"{path}.{name}",
                )
            )


# --- the preflight --------------------------------------------------------------------------------------


def validate_backend_preflight(value: Any, request: Any = UNDEFINED, snapshot: Any = UNDEFINED) -> list[ContractDiagnostic]:
    """pi-forge's ``validateBackendPreflight(value, request?, snapshot?)`` (§4.4 steps 1-10).

    ``request``/``snapshot`` are compared only when given (``UNDEFINED`` or ``None`` means not given).
    Raises :class:`JSTypeError` where the reference throws: a snapshot without ``profile.model``.
    """
    if not is_record(value):
        return [error("preflight.type", "BackendPreflightResult must be an object.", "$")]
    status = value.get("status")
    if status not in ("accepted", "rejected"):
        return [error("preflight.status", "status must be accepted or rejected.", "status")]
    diagnostics: list[ContractDiagnostic] = []
    validate_opaque_id(value.get("preflightId"), "preflightId", diagnostics)
    backend = value.get("backend")
    if not is_record(backend):
        diagnostics.append(error("preflight.backend", "backend must be an object.", "backend"))
    else:
        diagnostics.extend(validate_backend_descriptor(backend, "backend"))
    reported = value.get("diagnostics")
    if not isinstance(reported, list):
        diagnostics.append(error("preflight.diagnostics", "diagnostics must be an array.", "diagnostics"))
    else:
        validate_diagnostic_array(reported, "diagnostics", diagnostics)
    reported_error = isinstance(reported, list) and any(is_record(d) and d.get("level") == "error" for d in reported)
    if status == "rejected":
        if not reported_error:
            diagnostics.append(error("preflight.rejection-error", "A rejected preflight must include an error diagnostic.", "diagnostics"))
        return diagnostics
    if reported_error:
        diagnostics.append(error("preflight.accepted-error", "An accepted preflight cannot contain error diagnostics.", "diagnostics"))
    validate_model_reference(value.get("model", UNDEFINED), "model", diagnostics)
    if not isinstance(value.get("thinkingLevel"), str):
        diagnostics.append(error("preflight.thinking", "thinkingLevel must be a string.", "thinkingLevel"))
    catalog = value.get("toolCatalog")
    if not isinstance(catalog, list):
        diagnostics.append(error("preflight.tool-catalog", "toolCatalog must be an array.", "toolCatalog"))
    else:
        validate_tool_catalog(catalog, diagnostics)
    validate_access_receipt(value.get("access", UNDEFINED), "access", diagnostics)
    validate_limit_receipt(value.get("limits", UNDEFINED), "limits", diagnostics)
    capabilities = backend.get("capabilities") if is_record(backend) else None
    if is_record(capabilities):
        fidelity = capabilities.get("promptRuntimeFidelity")
        runtime = value.get("promptRuntime", UNDEFINED)
        if fidelity == "exact-preflight":
            validate_preparation_runtime(runtime, "promptRuntime", diagnostics, "exact-preflight")
        elif runtime is not UNDEFINED:
            diagnostics.append(
                error("preflight.runtime-extra", "Only exact-preflight backends may include promptRuntime in preflight.", "promptRuntime")
            )
    if js_truthy(request):
        try:
            diagnostics.extend(validate_preflight_against_request(value, request))
        except (JSTypeError, JSError, FingerprintError) as problem:
            diagnostics.append(error("preflight.malformed", f"Cannot compare malformed preflight with request: {_malformed(problem)}", "$"))
    model = value.get("model")
    if js_truthy(snapshot) and is_record(model):
        profile_model = get(snapshot, "profile", "model")
        if not js_eq(model.get("provider", UNDEFINED), prop(profile_model, "provider")) or not js_eq(
            model.get("id", UNDEFINED), prop(profile_model, "id")
        ):
            diagnostics.append(error("preflight.model-mismatch", "Preflight model does not match the profile snapshot.", "model"))
        if not js_eq(value.get("thinkingLevel", UNDEFINED), get(snapshot, "profile", "thinkingLevel")):
            diagnostics.append(
                error("preflight.thinking-mismatch", "Preflight thinkingLevel does not match the profile snapshot.", "thinkingLevel")
            )
        runtime = value.get("promptRuntime")
        runtime_model = runtime.get("model") if is_record(runtime) else None
        if is_record(runtime_model) and (
            not js_eq(runtime_model.get("provider", UNDEFINED), model.get("provider", UNDEFINED))
            or not js_eq(runtime_model.get("id", UNDEFINED), model.get("id", UNDEFINED))
        ):
            diagnostics.append(
                error("preflight.runtime-model", "Prompt runtime model does not match the resolved backend model.", "promptRuntime.model")
            )
    return diagnostics


def validate_access_enforcement(request: Any, receipt: Any) -> list[ContractDiagnostic]:
    """The runtime's ``validateAccessEnforcement(request.access, receipt)``; reads values as
    JavaScript does (and throws where it would)."""
    diagnostics: list[ContractDiagnostic] = []
    if not js_eq(prop(receipt, "level"), prop(request, "level")):
        diagnostics.append(error("preflight.access-level", "Access receipt level does not match the request.", "access.level"))
    if not js_eq(prop(receipt, "network"), prop(request, "network")):
        diagnostics.append(error("preflight.network", "Access receipt network policy does not match the request.", "access.network"))
    if not js_eq(prop(receipt, "executionBoundary"), prop(request, "executionBoundary")):
        diagnostics.append(
            error("preflight.execution-boundary", "Access receipt execution boundary does not match the request.", "access.executionBoundary")
        )
    if not js_eq(prop(receipt, "process"), prop(request, "allowProcess") is True):
        diagnostics.append(error("preflight.process", "Access receipt process policy does not match the request.", "access.process"))

    def claims(key: str) -> bool:
        return js_truthy(get(receipt, "enforcement", key))

    if (
        prop(receipt, "executionBoundary") == "isolated"
        and prop(request, "level") == "read-only"
        and (not claims("readOnlyMountIsolation") or not claims("symlinkSafeContainment"))
    ):
        diagnostics.append(
            error(
                "preflight.read-isolation",
                "Isolated read-only access requires mount isolation and symlink-safe containment.",
                "access.enforcement",
            )
        )
    if prop(request, "level") == "workspace-write" and (not claims("readWriteMountIsolation") or not claims("symlinkSafeContainment")):
        diagnostics.append(
            error("preflight.write-isolation", "workspace-write requires write isolation and symlink-safe containment.", "access.enforcement")
        )
    if js_truthy(prop(request, "allowProcess")) and not claims("processIsolation"):
        diagnostics.append(
            error("preflight.process-isolation", "Process access requires process isolation.", "access.enforcement.processIsolation")
        )
    if prop(request, "network") == "deny" and not claims("agentNetworkIsolation"):
        diagnostics.append(
            error("preflight.network-isolation", "Denied agent network requires network isolation.", "access.enforcement.agentNetworkIsolation")
        )
    mounts = prop(receipt, "mounts")
    if not isinstance(mounts, list):
        raise JSTypeError("receipt.mounts.map is not a function") if mounts is not None and mounts is not UNDEFINED else JSTypeError(
            f"Cannot read properties of {'null' if mounts is None else 'undefined'} (reading 'map')"
        )
    mapped: list[tuple[Any, Any]] = [(prop(mount, "workspaceHandle"), mount) for mount in mounts]

    def lookup(handle: Any) -> Any:
        found = UNDEFINED
        for key, mount in mapped:  # a Map keeps the last value set for a key
            if js_eq(key, handle) or (key != key and handle != handle):
                found = mount
        return found

    workspaces = prop(request, "workspaces")
    for workspace in iterate(workspaces, "request.workspaces"):
        handle = prop(workspace, "handle")
        mount = lookup(handle)
        if mount is UNDEFINED:
            diagnostics.append(error("preflight.mount-missing", f"Missing mount mapping for {js_string(handle)}.", "access.mounts"))
        elif not js_eq(prop(mount, "mode"), prop(workspace, "mode")):
            diagnostics.append(error("preflight.mount-mode", f"Mount mode mismatch for {js_string(handle)}.", "access.mounts"))
    for mount in mounts:
        handle = prop(mount, "workspaceHandle")
        if not isinstance(workspaces, list):
            raise JSTypeError("request.workspaces.some is not a function")
        if not any(js_eq(prop(w, "handle"), handle) for w in workspaces):
            diagnostics.append(error("preflight.mount-extra", f"Unexpected mount mapping for {js_string(handle)}.", "access.mounts"))
    wanted = prop(request, "workingDirectory")
    produced = prop(receipt, "workingDirectory")
    if js_truthy(wanted):
        requested = lookup(prop(wanted, "workspaceHandle"))
        requested_id = UNDEFINED if requested is None or requested is UNDEFINED else prop(requested, "mountId")
        if (
            not js_truthy(produced)
            or not js_eq(prop(produced, "mountId"), requested_id)
            or not js_eq(prop(produced, "path"), prop(wanted, "path"))
        ):
            diagnostics.append(error("preflight.cwd", "Working-directory receipt does not match the request.", "access.workingDirectory"))
    elif js_truthy(produced):
        diagnostics.append(error("preflight.cwd-extra", "Backend produced an unrequested working directory.", "access.workingDirectory"))
    return diagnostics


def validate_preflight_against_request(preflight: Any, request: Any) -> list[ContractDiagnostic]:
    """pi-forge's ``validatePreflightAgainstRequest`` (§4.4 step 9): egress consent, media types,
    access enforcement, advertised access capabilities, and the limit receipts (a missing
    best-effort limit is only a warning; a smaller enforced value is fine).

    Not a validator: it reads the preflight and request as well-formed and raises
    :class:`JSTypeError` where the reference throws on malformed ones.
    """
    diagnostics: list[ContractDiagnostic] = []
    capabilities = get(preflight, "backend", "capabilities")
    if js_truthy(prop(capabilities, "remoteTransport")) and not js_truthy(prop(request, "remoteEgressConsent")):
        diagnostics.append(error("preflight.egress", "Remote backend transport requires explicit remoteEgressConsent.", "remoteEgressConsent"))
    media = get(request, "input", "media")
    for item in iterate([] if media is None or media is UNDEFINED else media, "request.input.media ?? []"):
        mime = prop(item, "mimeType")
        if not js_includes(prop(capabilities, "mediaMimeTypes"), mime, "capabilities.mediaMimeTypes"):
            diagnostics.append(
                error("preflight.media", f"Backend does not support media type {js_string(mime)}.", f"input.media.{js_string(prop(item, 'id'))}")
            )
    diagnostics.extend(validate_access_enforcement(prop(request, "access"), prop(preflight, "access")))
    enforcement = get(preflight, "access", "enforcement")
    advertised = prop(capabilities, "access")
    for key in ACCESS_CAPABILITY_KEYS:
        if js_truthy(prop(enforcement, key)) and not js_truthy(prop(advertised, key)):
            diagnostics.append(
                error("preflight.access-capability", f"Access receipt claims unsupported capability {key}.", f"access.enforcement.{key}")
            )
    requested_limits = prop(request, "limits")
    receipt_limits = prop(preflight, "limits")
    for name in LIMIT_NAMES:
        requirement = prop(requested_limits, name)
        if not js_truthy(requirement):
            continue
        accepted = prop(receipt_limits, name)
        if not js_truthy(accepted):
            level = "error" if prop(requirement, "enforcement") == "required" else "warning"
            diagnostics.append(ContractDiagnostic(level, "preflight.limit-missing", f"Backend did not accept {name}.", f"limits.{name}"))
            continue
        if js_gt(prop(accepted, "value"), prop(requirement, "value")):
            diagnostics.append(error("preflight.limit-value", f"Enforced {name} must not exceed the requested maximum.", f"limits.{name}"))
        enforced = prop(accepted, "enforcement")
        if prop(requirement, "enforcement") == "required" and enforced != "backend-hard":
            diagnostics.append(error("preflight.limit-enforcement", f"{name} requires backend-hard enforcement.", f"limits.{name}"))
        if not js_includes(get(capabilities, "limits", name), enforced, "capabilities.limits[name]"):
            diagnostics.append(
                error("preflight.limit-capability", f"{name} receipt claims unsupported enforcement {js_string(enforced)}.", f"limits.{name}")
            )
        if name == "timeoutMs" and enforced == "host-abort" and not js_truthy(prop(capabilities, "cancellation")):
            diagnostics.append(
                error("preflight.timeout-cancellation", "host-abort timeout enforcement requires backend cancellation support.", f"limits.{name}")
            )
    for name in LIMIT_NAMES:
        if js_truthy(prop(receipt_limits, name)) and not js_truthy(prop(requested_limits, name)):
            diagnostics.append(error("preflight.limit-extra", f"Backend produced an unrequested {name} limit receipt.", f"limits.{name}"))
    return diagnostics


# --- forgec's own backends (§6.5) ----------------------------------------------------------------------------


def forgec_http_descriptor(backend_id: str, version: str, *, media_mime_types: list[str] | None = None) -> BackendDescriptor:
    """The descriptor of forgec's HTTP backends (``http-openai-chat``, ``http-anthropic-messages``):
    one isolated boundary; no mount or symlink claims, process and agent-network isolation true (the
    model can only return text); ``timeoutMs`` by host abort, one turn and an output-token cap
    enforced by construction, ``maxOutputBytes`` unsupported; cancellable; remote; exact-preflight
    (forgec builds the prompt runtime itself); no traces or retained artifacts."""
    return {
        "id": backend_id,
        "version": version,
        "capabilities": {
            "access": {
                "readOnlyMountIsolation": False,
                "readWriteMountIsolation": False,
                "symlinkSafeContainment": False,
                "processIsolation": True,
                "agentNetworkIsolation": True,
            },
            "executionBoundaries": ["isolated"],
            "limits": {
                "timeoutMs": ["host-abort"],
                "maxTurns": ["backend-hard"],
                "tokenBudget": ["backend-hard"],
                "maxOutputBytes": ["unsupported"],
            },
            "cancellation": True,
            "mediaMimeTypes": list(media_mime_types or []),
            "remoteTransport": True,
            "promptRuntimeFidelity": "exact-preflight",
            "traceInspection": False,
            "artifactRetention": False,
        },
    }


def self_issued_preflight(
    *,
    preflight_id: str,
    descriptor: BackendDescriptor,
    request: Any,
    model: dict[str, str],
    thinking_level: str,
    prompt_runtime: PromptRuntime,
    tool_catalog: list[BackendTool] | None = None,
) -> dict[str, Any]:
    """The accepted preflight forgec issues for its own backend: the receipts grant exactly what an
    access-``none`` request asks (no mounts, network denied, no process) and claim exactly the
    descriptor's isolation; each requested limit is accepted at its requested value with the
    descriptor's first enforcement (a limit the backend cannot enforce is left out, which
    :func:`validate_preflight_against_request` then reports).  ``prompt_runtime`` must carry its
    ``promptRuntimeFingerprint`` (exact-preflight fidelity).  The catalog is empty: forgec's backends
    run no tools (§6.4)."""
    capabilities = descriptor["capabilities"]
    access = request.get("access") if isinstance(request, dict) else None
    access = access if isinstance(access, dict) else {}
    receipt: dict[str, Any] = {
        "level": access.get("level", "none"),
        "mounts": [],
        "network": access.get("network", "deny"),
        "process": access.get("allowProcess") is True,
        "executionBoundary": access.get("executionBoundary", "isolated"),
        "enforcement": dict(capabilities["access"]),
    }
    limits: dict[str, Any] = {}
    requested = request.get("limits") if isinstance(request, dict) else None
    for name in LIMIT_NAMES:
        requirement = requested.get(name) if isinstance(requested, dict) else None
        supported = [e for e in capabilities["limits"].get(name, []) if e != "unsupported"]
        if isinstance(requirement, dict) and supported:
            limits[name] = {"value": requirement.get("value"), "enforcement": supported[0]}
    problems = [d for d in validate_prompt_runtime(prompt_runtime, "exact-preflight") if d.level == "error"]
    if problems:
        from forgec.errors import InputError

        details = "; ".join(f"{d.path}: {d.message}" for d in problems)
        raise InputError(f"The prompt runtime of an exact-preflight backend must validate: {details}")
    return {
        "status": "accepted",
        "preflightId": preflight_id,
        "backend": descriptor,
        "model": {"provider": model["provider"], "id": model["id"]},
        "thinkingLevel": thinking_level,
        "toolCatalog": list(tool_catalog or []),
        "access": receipt,
        "limits": limits,
        "promptRuntime": prompt_runtime,
        "diagnostics": [],
    }
