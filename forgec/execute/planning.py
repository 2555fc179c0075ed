"""``forgec plan``: from a profile selector and a task to a sealed, self-contained plan (profiles-exec.md §6.6).

The steps are the runtime's, with forgec in the backend's role (§6.5): resolve the profile against
the model catalog (credentials included: a plan is for running), resolve it into a path-free
snapshot (§4.3), build the request (access none, network denied, an isolated boundary, the
configured timeout), issue the preflight of forgec's own HTTP backend for the model's API, compile
the stack over the prompt runtime (§4.7; ``cwd`` is ``.`` and ``preparedAt`` is ``--now``, so a
plan is the same on every machine), build the exact provider request body with
:mod:`forgec.emit` -- the body ``forgec compile`` builds for the same prompt, target and model --
and seal: the conversation fingerprint over the system prompt and messages, the execution
fingerprint over everything else, the HTTP body's digest and endpoint included (§6.5), so any
change between approval and run is detected.  The host plan (§4.8) is created and validated from
the same pieces.

The plan document holds no credential and no absolute path.  Nothing here touches the network.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from forgec.errors import ForgecError, UsageError
from forgec.execute.host import ContractDiagnostic

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace
    from forgec.codecs.catalog import Model
    from forgec.diagnostics import Diagnostic
    from forgec.environment import Environment

__all__ = ["PLAN_TYPE", "DelegationPlan", "PlanRefused", "endpoint_for", "plan_delegation", "provider_prompt"]

PLAN_TYPE: Final = "forgec.delegation-plan"
#: the bounded result a run prints (pi-forge's ``resultProjection.maxChars``)
RESULT_MAX_CHARS: Final = 12_000


class PlanRefused(ForgecError):
    """The profile cannot be planned: its resolution, its snapshot or the contract refused it.

    ``profile_diagnostics`` are pi-forge's profile findings (``LEVEL: field: message``),
    ``contract`` the contract's (``{level, code, message, path}``); exit code 1.
    """

    exit_code = 1

    def __init__(self, message: str, *, profile: list[Diagnostic] | None = None,
                 contract: list[ContractDiagnostic] | None = None) -> None:  # fmt: skip
        super().__init__(message)
        self.profile_diagnostics = profile or []
        self.contract = contract or []


@dataclass(slots=True)
class DelegationPlan:
    """A sealed plan: the document written to ``plan.json`` and what was learnt making it."""

    document: dict[str, Any]
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    @property
    def execution_fingerprint(self) -> str:
        return str(self.document["sealed"]["executionFingerprint"])


def endpoint_for(api: str, base_url: str, model_id: str) -> str:
    """The URL the API's SDK posts to (recorded in the plan; the execution fingerprint covers it)."""
    base = base_url.rstrip("/")
    if api == "openai-completions":
        return f"{base}/chat/completions"
    if api == "openai-responses":
        return f"{base}/responses"
    if api == "anthropic-messages":
        return f"{base}/v1/messages"
    return f"{base}/models/{model_id}:streamGenerateContent?alt=sse"


def provider_prompt(system_prompt: str, messages: list[dict[str, Any]], thinking_level: str, now_ms: int) -> Any:
    """The :class:`~forgec.emit.Prompt` of a prepared conversation: Pi messages as the host would
    hold them (a ``custom`` message goes as a ``user`` one, §6.5; an assistant message carries the
    runtime's model with ``api: "unknown"``, as §4.7 exposes it), no tools (forgec's backends run
    none, §6.4)."""
    from forgec.emit import Prompt

    pi_messages: list[dict[str, Any]] = []
    for message in messages:
        content = [{"type": "text", "text": part.get("text", "")} for part in message.get("content", [])
                   if isinstance(part, dict) and part.get("type") == "text"]  # fmt: skip
        if message.get("role") == "assistant":
            pi_messages.append({
                "role": "assistant", "content": content, "api": "unknown", "provider": "unknown", "model": "unknown",
                "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                "stopReason": "stop", "timestamp": now_ms,
            })  # fmt: skip
        else:
            pi_messages.append({"role": "user", "content": content, "timestamp": now_ms})
    return Prompt(system_prompt, pi_messages, tools=None, thinking_level=thinking_level)


def _digest(value: Any) -> str:
    from forgec.execute.contract import subagent_fingerprint

    return str(subagent_fingerprint(value))


def _stable_id(prefix: str, *parts: str) -> str:
    """A deterministic opaque id (golden-testable plans): ``prefix:<16 hex>`` of the inputs."""
    digest = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{prefix}:{digest[:16]}"


def _errors(diagnostics: list[ContractDiagnostic]) -> list[ContractDiagnostic]:
    return [d for d in diagnostics if d.level == "error"]


def _refuse_request(request: Any) -> None:
    """The request's own validation (a bad ``--context`` shows here, with its contract codes)."""
    from forgec.execute import contract as c

    problems = _errors(list(c.validate_agent_request(request)))
    if problems:
        raise PlanRefused("the delegation request is invalid", contract=problems)


def _workspace(env: Environment) -> ProfileWorkspace:
    from forgec.agents.profiles import load_workspace

    return load_workspace(env.root, global_dir=env.global_forge_dir, trusted=True, supported_slots=env.supported_slots)


def _catalog_model(env: Environment, provider: str, model_id: str) -> Model:
    return env.catalog.get(f"{provider}/{model_id}")


def plan_delegation(
    selector: str,
    task: str,
    *,
    env: Environment,
    now_ms: int,
    base_system_prompt: str = "",
    timeout_ms: int | None = None,
    selected_context: dict[str, Any] | None = None,
    check_auth: bool = True,
    workspace: ProfileWorkspace | None = None,
) -> DelegationPlan:
    """Plan one delegation of ``task`` to the profile ``selector`` (see the module docstring).

    ``selected_context`` is the request's ``selectedContext`` (``{maxBytes, items}``, budgeted
    by §4.6).  ``check_auth`` off leaves the credentials check to ``forgec run`` (which refuses
    with exit 3, a safety gate) when planning and running in one go; a plan itself never holds
    the credential, only the name of its variable through the catalog.

    Raises :class:`~forgec.errors.UsageError` for an unknown selector and :class:`PlanRefused`
    when the profile cannot be used or the contract refuses the plan.
    """
    from forgec.agents.config import ForgeConfigPaths, load_subagent_settings, resolve_timeout
    from forgec.agents.profiles import resolve_profile
    from forgec.emit import build_request
    from forgec.execute import contract as c
    from forgec.execute.host import Registrations, resolve_host_profile
    from forgec.js.clock import iso_timestamp
    from forgec.resources import VERSION

    if not task.strip():
        raise UsageError("the task is empty: say what the subagent should do")
    workspace = workspace if workspace is not None else _workspace(env)
    loaded = workspace.find_profile(selector)
    if loaded is None:
        known = ", ".join(str(p.key) for p in workspace.effective_profiles) or "none"
        raise UsageError(f"no agent profile {selector!r} (known: {known})")
    resolved = resolve_profile(loaded, stacks=workspace.stacks, models=env.catalog, available=env.catalog.authenticated() if check_auth else None)
    if not resolved.usable or resolved.model is None:
        raise PlanRefused(f"agent profile {loaded.key} cannot be used", profile=list(resolved.diagnostics))
    model = resolved.model
    level = resolved.effective_thinking_level
    host = resolve_host_profile(loaded, workspace.stacks, Registrations.from_registry(env.registry))
    if host.snapshot is None:
        raise PlanRefused(f"agent profile {loaded.key} has no usable snapshot", contract=list(host.diagnostics))
    snapshot = host.snapshot
    if timeout_ms is None:
        settings = load_subagent_settings(ForgeConfigPaths.for_project(env.root, global_dir=env.global_forge_dir), trusted=True)
        timeout_ms = resolve_timeout(settings, str(loaded.key)).milliseconds
    prepared_at = iso_timestamp(now_ms)
    request = c.build_agent_request(
        profile_id=snapshot["profileId"], task=task,
        request_id=_stable_id("request", snapshot["profileFingerprint"], task, prepared_at),
        expected_profile_fingerprint=snapshot["profileFingerprint"], timeout_ms=timeout_ms,
        max_chars=RESULT_MAX_CHARS, remote_egress_consent=True, selected_context=selected_context,
    )  # fmt: skip
    _refuse_request(request)
    model_ref = {"provider": model.provider, "id": model.id}
    runtime: dict[str, Any] = {
        "baseSystemPrompt": base_system_prompt,
        "options": {"selectedTools": [], "toolSnippets": {}, "promptGuidelines": [], "cwd": ".", "contextFiles": [], "skills": []},
        "model": dict(model_ref), "preparedAt": prepared_at, "fidelity": "exact-preflight",
    }  # fmt: skip
    runtime["promptRuntimeFingerprint"] = c.prompt_runtime_fingerprint(runtime)
    backend_id = f"http-{model.api}"
    descriptor = c.forgec_http_descriptor(backend_id, VERSION)
    provenance = {"profile": str(loaded.key), "profileId": snapshot["profileId"]}
    if snapshot.get("promptStackId"):
        provenance["promptStackId"] = snapshot["promptStackId"]
    pre_intent = c.build_execution_intent(request, model=model_ref, thinking_level=level, requested_tools=[], provenance=provenance)
    preflight = c.self_issued_preflight(
        preflight_id=c.preflight_id_for(pre_intent), descriptor=descriptor, request=request,
        model=model_ref, thinking_level=level, prompt_runtime=runtime,  # type: ignore[arg-type]
    )  # fmt: skip
    preparation = c.prepare_subagent_host_plan(request, snapshot, preflight, runtime, registry=env.registry)
    found = [*preparation.diagnostics, *preparation.tool_negotiation.diagnostics]
    if _errors(preparation.diagnostics):
        raise PlanRefused("the prompt could not be prepared", contract=found)
    prompt = provider_prompt(preparation.system_prompt, preparation.messages, level, now_ms)
    payload = build_request(model.api, prompt, model)
    if payload.error is not None or payload.body is None:
        raise PlanRefused(f"the {model.api} request body cannot be built: {payload.error}")
    endpoint = endpoint_for(model.api, model.base_url or "", model.id)
    intent = c.build_execution_intent(
        request, model=model_ref, thinking_level=level, requested_tools=[],
        provenance={**provenance, "api": model.api, "endpoint": endpoint, "httpBody": _digest(payload.body)},
    )  # fmt: skip
    run_id = _stable_id("run", preflight["preflightId"], request["requestId"])
    conversation = c.portable_conversation(preparation.system_prompt, preparation.messages)
    sealed = c.seal_execution(prepared_run_id=run_id, intent=intent, preflight=preflight, prompt_runtime=runtime,
                              conversation=conversation, effective_tools=[])  # fmt: skip
    created = c.create_agent_execution_plan(
        run_id=run_id, request=request, snapshot=snapshot, preflight=preflight, preparation=preparation,
        runtime=runtime, conversation_fingerprint=sealed.conversation_fingerprint,
        execution_fingerprint=sealed.execution_fingerprint,
    )  # fmt: skip
    if created.plan is None:
        raise PlanRefused("the contract refused the plan", contract=list(created.diagnostics))
    document = {
        "schemaVersion": 1, "type": PLAN_TYPE, "forgecVersion": VERSION, "selector": selector,
        "profileFile": loaded.file_name, "request": request, "plan": created.plan, "sealed": sealed.snapshot,
        "transport": {"api": model.api, "endpoint": endpoint, "model": model.key, "body": payload.body},
    }  # fmt: skip
    return DelegationPlan(document, [*found, *(d for d in created.diagnostics if d not in found)])
