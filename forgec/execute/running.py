"""``forgec run``: re-verify a plan, check its approval, send it once, validate the answer (§6.6 step 3).

Every check runs *before* anything is sent, and each failure is a :class:`RunRefused` (exit code
3) that leaves the provider with zero requests:

* the plan is a forgec plan whose request and host plan pass every §4 validator, whose sealed
  fingerprints recompute (forgec owns the runtime's role for its backends), whose host plan and
  sealed conversation agree, and whose provider body is exactly what :mod:`forgec.emit` builds
  again now from the sealed prompt and the catalog model -- with the digest and endpoint the
  execution fingerprint covers;
* the profile and its stack on disk still fingerprint as the plan's snapshot (``allow_drift`` off);
* the credentials variable of the model is set (its value is read here and only here, and never
  written anywhere);
* the run is approved for exactly this execution fingerprint -- by a person, by ``--approve``, by
  an approval file, or (unattended) by a trusted project config that allows it, pinned to this
  backend, with egress consent given explicitly.

Then one request through :func:`forgec.execute.transport.send` -- no retry, no fallback -- and the
outcome normalised into an ``AgentResponse`` that is validated against the request and the plan.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forgec.errors import ForgecError

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from forgec.codecs.catalog import Model
    from forgec.environment import Environment
    from forgec.execute.transport import ProviderOutcome

__all__ = [
    "RunRefused",
    "RunResult",
    "VerifiedPlan",
    "approve_run",
    "check_approval",
    "run_plan",
    "unattended_allowed",
    "verify_plan",
]


class RunRefused(ForgecError):
    """A safety gate refused the run; nothing was sent (exit code 3)."""

    exit_code = 3


@dataclass(frozen=True, slots=True)
class VerifiedPlan:
    """A plan that passed every check but approval: what to send, where, with which credentials."""

    document: dict[str, Any]
    model: Model
    body: dict[str, Any]
    credential_variable: str | None

    @property
    def execution_fingerprint(self) -> str:
        return str(self.document["plan"]["executionFingerprint"])


@dataclass(frozen=True, slots=True)
class RunResult:
    """What came back: the validated ``AgentResponse``, the outcome, and its validation findings."""

    response: dict[str, Any]
    outcome: ProviderOutcome
    problems: list[Any]


def _refuse_on(diagnostics: list[Any], what: str) -> None:
    errors = [d for d in diagnostics if getattr(d, "level", None) == "error"]
    if errors:
        details = "; ".join(f"{d.code} {d.path or '$'}: {d.message}" for d in errors[:5])
        raise RunRefused(f"{what}: {details}")


def _structure(document: Any) -> None:
    from forgec.execute.planning import PLAN_TYPE

    if not isinstance(document, dict) or document.get("type") != PLAN_TYPE or document.get("schemaVersion") != 1:
        raise RunRefused(f"not a forgec plan (a {PLAN_TYPE} document, schemaVersion 1, as `forgec plan --out` writes)")
    for key in ("request", "plan", "sealed", "transport"):
        if not isinstance(document.get(key), dict):
            raise RunRefused(f"the plan has no {key!r} object; make it again with `forgec plan`")


def _drift(document: dict[str, Any], env: Environment) -> None:
    from forgec.execute.host import Registrations, resolve_host_profile
    from forgec.execute.planning import _workspace

    snapshot = document["plan"]["profile"]
    workspace = _workspace(env)
    loaded = workspace.find_profile(str(snapshot.get("profileId")))
    if loaded is None:
        raise RunRefused(f"plan.profile-drift: the agent profile {snapshot.get('profileId')} is gone from disk")
    now = resolve_host_profile(loaded, workspace.stacks, Registrations.from_registry(env.registry)).snapshot
    for key, what in (("profileFingerprint", "agent profile"), ("promptStackFingerprint", "prompt stack")):
        if now is None or now.get(key) != snapshot.get(key):
            raise RunRefused(
                f"plan.profile-drift: the {what} of {snapshot.get('profileId')} changed on disk since the plan was "
                "made (plan again, or pass --allow-drift to run what was approved)"
            )


def verify_plan(document: Any, *, env: Environment, allow_drift: bool = False) -> VerifiedPlan:
    """Every check of the module docstring but approval; :class:`RunRefused` names the first failure."""
    from forgec.codecs.catalog import CatalogError
    from forgec.emit import build_request
    from forgec.execute import contract as c
    from forgec.execute.contract.common import iso_to_ms
    from forgec.execute.planning import endpoint_for, provider_prompt

    _structure(document)
    request, plan, sealed, transport = (document[k] for k in ("request", "plan", "sealed", "transport"))
    if request.get("remoteEgressConsent") is not True:
        raise RunRefused("egress consent is absent: the plan's request has no remoteEgressConsent, so its prompt "
                         "may not leave this machine (make the plan again with `forgec plan`)")  # fmt: skip
    _refuse_on(c.validate_agent_request(request), "the plan's request is invalid")
    _refuse_on(c.validate_agent_execution_plan(plan, request), "the host plan is invalid")
    _refuse_on(c.verify_sealed_plan(sealed), "the sealed plan was changed")
    if (sealed.get("executionFingerprint"), sealed.get("conversationFingerprint")) != (
        plan.get("executionFingerprint"), plan.get("conversationFingerprint")
    ):
        raise RunRefused("the host plan and the sealed plan carry different fingerprints")
    if sealed.get("conversation") != c.portable_conversation(plan["systemPrompt"], plan["messages"]):
        raise RunRefused("the host plan's prompt differs from the sealed conversation")
    runtime = dict(sealed.get("promptRuntime") or {})
    stated = runtime.pop("promptRuntimeFingerprint", None)
    if stated != c.prompt_runtime_fingerprint(runtime) or stated != plan.get("promptRuntimeFingerprint"):
        raise RunRefused("the prompt runtime does not match its fingerprint")
    try:
        model = env.catalog.get(f"{plan['model']['provider']}/{plan['model']['id']}")
    except CatalogError as error:
        raise RunRefused(f"the plan's model is not in the model catalog now: {error}") from None
    provenance = (sealed.get("intent") or {}).get("provenance") or {}
    endpoint = endpoint_for(model.api, model.base_url, model.id)
    if not (transport.get("api") == model.api == provenance.get("api")) or not (
        transport.get("endpoint") == endpoint == provenance.get("endpoint")
    ):
        raise RunRefused(f"the model's API or endpoint changed since the plan was made (now {model.api} at {endpoint})")
    prepared_at = iso_to_ms(runtime.get("preparedAt"))
    prompt = provider_prompt(plan["systemPrompt"], plan["messages"], str(plan["thinkingLevel"]), prepared_at or 0)
    rebuilt = build_request(model.api, prompt, model)
    if rebuilt.body is None or rebuilt.body != transport.get("body") or c.subagent_fingerprint(rebuilt.body) != provenance.get("httpBody"):
        raise RunRefused("the provider request body differs from the sealed one (the plan or the model catalog changed)")
    if not allow_drift:
        _drift(document, env)
    if model.auth is None:
        raise RunRefused(f"Model {model.key} has no configured authentication (auth in the model catalog).")
    variable = model.auth.env
    if variable is not None and not os.environ.get(variable):
        raise RunRefused(f"Model {model.key} has no configured authentication: {variable} is not set.")
    return VerifiedPlan(document, model, rebuilt.body, variable)


def check_approval(verified: VerifiedPlan, *, approve: str | None = None, approval: Any = None) -> str:
    """The approval's source when ``approve`` (a full fingerprint) or ``approval`` (a record) is
    for exactly this plan; :class:`RunRefused` when one was given for another (a stale approval)."""
    expected = verified.execution_fingerprint
    if approve is not None:
        if approve.strip() != expected:
            raise RunRefused(f"stale approval: --approve {approve.strip()[:24]}... is not this plan's execution "
                             f"fingerprint ({expected})")  # fmt: skip
        return "human"
    if approval is not None:
        if not isinstance(approval, dict) or approval.get("approved") is not True or approval.get("executionFingerprint") != expected:
            raise RunRefused(f"stale approval: the approval file is not for this plan (execution fingerprint {expected})")
        return str(approval.get("source") or "human")
    raise RunRefused("approval required: run on a terminal to approve, or pass --approve <execution fingerprint> "
                     "(`forgec plan` prints it)")  # fmt: skip


def unattended_allowed(verified: VerifiedPlan, *, env: Environment, trusted: bool, allow_egress: bool) -> None:
    """§6.6 step 4: unattended runs need a project config the user trusts (``--trust``) that sets
    ``allowAgentInvocationWithoutApproval``, the profile enabled and pinned to this backend, and
    egress consent given explicitly (``--allow-egress``): no person sees the prompt leave."""
    from forgec.agents.config import ForgeConfigPaths, load_subagent_settings, resolve_policy

    if not trusted:
        raise RunRefused("unattended runs need --trust: the project's config decides them, so you must trust it")
    settings = load_subagent_settings(ForgeConfigPaths.for_project(env.root, global_dir=env.global_forge_dir), trusted=True)
    if not settings.allow_agent_invocation_without_approval:
        raise RunRefused("unattended runs need subagents.allowAgentInvocationWithoutApproval: true in the project's .pi/forge/config.json")
    plan = verified.document["plan"]
    policy = resolve_policy(settings, str(plan["profile"]["profileId"]))
    if not policy.enabled:
        raise RunRefused(f"Agent profile \"{plan['profile']['profileId']}\" is not enabled for subagent delegation in subagents.profiles.")
    if policy.backend.id != plan["backendId"]:
        raise RunRefused(f"unattended runs are pinned to the configured backend {policy.backend.id!r}; "
                         f"this plan uses {plan['backendId']!r}")  # fmt: skip
    if not allow_egress:
        raise RunRefused("egress consent is absent: an unattended run sends the prompt without a person approving it; "
                         "pass --allow-egress to consent")  # fmt: skip


def approve_run(
    verified: VerifiedPlan,
    *,
    env: Environment,
    approved_at: str,
    approve: str | None = None,
    unattended: bool = False,
    trusted: bool = False,
    allow_egress: bool = False,
    ask: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """The approval record of this run (§4.10), or :class:`RunRefused`.

    In order: ``unattended`` (the trusted project config approves, :func:`unattended_allowed`),
    ``approve`` (a full execution fingerprint, :func:`check_approval`), then ``ask`` -- a person,
    shown the plan, returns whether they viewed the full prompt or raises :class:`RunRefused` to
    reject; without ``ask`` (not on a terminal) the run is refused.
    """
    from forgec.execute.approval import approval_record

    if unattended:
        unattended_allowed(verified, env=env, trusted=trusted, allow_egress=allow_egress)
        source, viewed = "trusted-project-config", False
    elif approve is not None:
        source, viewed = check_approval(verified, approve=approve), False
    elif ask is not None:
        viewed, source = ask(verified.document), "human"
    else:
        raise RunRefused("approval required: not on a terminal, so pass --approve <execution fingerprint> "
                         "(`forgec plan` prints it), or --unattended with a trusted config")  # fmt: skip
    return approval_record(verified.execution_fingerprint, approved_at=approved_at, source=source, viewed_full_prompt=viewed)


def _response(plan: dict[str, Any], outcome: ProviderOutcome) -> dict[str, Any]:
    """The §4.9 ``AgentResponse`` of an outcome (§6.5 normalisation)."""
    response: dict[str, Any] = {
        "schemaVersion": 1, "requestId": plan["requestId"], "runId": plan["runId"], "backendId": plan["backendId"],
        "profileFingerprint": plan["profile"]["profileFingerprint"], "executionFingerprint": plan["executionFingerprint"],
        "model": dict(plan["model"]), "effectiveToolIds": list(plan.get("effectiveToolIds") or []),
        "enforcement": {"access": plan["access"], "limits": plan["limits"]}, "durationMs": outcome.duration_ms,
        "artifacts": [], "status": outcome.status,
    }  # fmt: skip
    if outcome.usage is not None:
        response["usage"] = {"tokens": outcome.usage.to_json()}
    if outcome.status == "completed":
        response["output"] = {"text": outcome.text, "partial": False}
    elif outcome.status == "failed":
        assert outcome.error is not None
        response["error"] = outcome.error.to_json()
        if outcome.text:
            response["output"] = {"text": outcome.text, "partial": True}
    elif outcome.status == "cancelled":
        response["reason"] = outcome.reason or "cancelled"
    elif outcome.status == "timed-out":
        response["reason"] = outcome.reason or "timeout"
        response["enforcedTimeoutMs"] = outcome.enforced_timeout_ms or plan["limits"].get("timeoutMs", {}).get("value")
    elif outcome.status == "limit-reached":
        response["reachedLimit"] = outcome.reached_limit or "tokenBudget"
    return response


def run_plan(
    verified: VerifiedPlan,
    *,
    on_text: Callable[[str], object] | None = None,
    cancel: threading.Event | None = None,
) -> RunResult:
    """Send the verified, approved plan once and validate what came back."""
    from forgec.execute import contract as c
    from forgec.execute.transport import ProviderCall, send

    plan = verified.document["plan"]
    timeout = (plan.get("limits") or {}).get("timeoutMs", {}).get("value") or 600_000
    key = os.environ.get(verified.credential_variable) if verified.credential_variable else None
    call = ProviderCall(
        api=verified.model.api, base_url=verified.model.base_url, model=verified.model.id, body=verified.body,
        api_key=key, auth_header=verified.model.auth.header if verified.model.auth else None, timeout_s=timeout / 1000,
        token_budget=((plan.get("limits") or {}).get("tokenBudget") or {}).get("value"),
    )  # fmt: skip
    outcome = send(call, on_text=on_text, cancel=cancel)
    response = _response(plan, outcome)
    problems = c.validate_agent_response(response, verified.document["request"], plan)
    return RunResult(response, outcome, problems)
