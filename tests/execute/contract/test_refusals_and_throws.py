"""Where the reference *refuses* (diagnostics, no plan) and where it *throws* (the functions that are
not validators), with V8's texts (profiles-exec.md §4.5, §4.6, §4.8)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forgec.execute import contract as c
from forgec.js.values import UNDEFINED

ACCESS_NONE = {"level": "none", "workspaces": [], "network": "deny", "executionBoundary": "isolated"}
REQUEST: dict[str, Any] = {
    "schemaVersion": 1, "requestId": "req-1", "profileId": "project:worker", "input": {"text": "Do the task."},
    "access": ACCESS_NONE, "limits": {"timeoutMs": {"value": 1000, "enforcement": "best-effort"}},
    "resultProjection": {"maxChars": 4000}, "parent": {"depth": 0, "maxDepth": 2}, "remoteEgressConsent": False,
}  # fmt: skip
CAPABILITIES = {
    "access": dict.fromkeys(("readOnlyMountIsolation", "readWriteMountIsolation", "symlinkSafeContainment", "processIsolation", "agentNetworkIsolation"), True),
    "executionBoundaries": ["isolated"], "limits": {"timeoutMs": ["host-abort"], "maxTurns": ["backend-hard"],
    "tokenBudget": ["backend-hard"], "maxOutputBytes": ["backend-hard"]}, "cancellation": True, "mediaMimeTypes": [],
    "traceInspection": False, "artifactRetention": False, "remoteTransport": False, "promptRuntimeFidelity": "backend-assisted",
}  # fmt: skip
PREFLIGHT: dict[str, Any] = {
    "status": "accepted", "preflightId": "preflight-1", "backend": {"id": "fake", "version": "1", "capabilities": CAPABILITIES},
    "model": {"provider": "test", "id": "model"}, "thinkingLevel": "high", "toolCatalog": [],
    "access": {"level": "none", "mounts": [], "network": "deny", "process": False, "executionBoundary": "isolated",
               "enforcement": dict(CAPABILITIES["access"])},  # type: ignore[call-overload]
    "limits": {"timeoutMs": {"value": 1000, "enforcement": "host-abort"}}, "diagnostics": [],
}  # fmt: skip


def _runtime() -> dict[str, Any]:
    runtime: dict[str, Any] = {
        "baseSystemPrompt": "base",
        "options": {"selectedTools": [], "toolSnippets": {}, "promptGuidelines": [], "cwd": ".", "contextFiles": [], "skills": []},
        "model": {"provider": "test", "id": "model"}, "preparedAt": "2026-07-14T00:00:00.000Z", "fidelity": "backend-assisted",
    }  # fmt: skip
    runtime["promptRuntimeFingerprint"] = c.prompt_runtime_fingerprint(runtime)
    return runtime


def _snapshot() -> dict[str, Any]:
    profile = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "worker", "model": {"provider": "test", "id": "model"},
               "thinkingLevel": "high", "promptStack": None}  # fmt: skip
    return {"schemaVersion": 1, "profileId": "project:worker", "profile": profile, "promptStackId": None, "promptStack": None,
            "dependencies": [], "profileFingerprint": c.source_profile_fingerprint(profile), "promptStackFingerprint": None}  # fmt: skip


def _plan_input(**changes: Any) -> dict[str, Any]:
    preparation = c.prepare_subagent_host_plan(REQUEST, _snapshot(), PREFLIGHT, _runtime()).to_json()
    given = {"run_id": "run-1", "request": copy.deepcopy(REQUEST), "snapshot": _snapshot(), "preflight": copy.deepcopy(PREFLIGHT),
             "preparation": preparation, "runtime": _runtime(),
             "conversation_fingerprint": c.subagent_fingerprint("fixture-conversation"),
             "execution_fingerprint": c.subagent_fingerprint("fixture-execution")}  # fmt: skip
    given.update(changes)
    return given


def test_a_sound_input_gives_a_plan() -> None:
    result = c.create_agent_execution_plan(**_plan_input())
    assert result.ok and result.diagnostics == []
    assert "contextBudget" not in result.to_json()["plan"]  # absent without selected context


def test_a_preflight_without_capabilities_makes_plan_creation_throw() -> None:
    preflight = copy.deepcopy(PREFLIGHT)
    del preflight["backend"]["capabilities"]
    with pytest.raises(c.JSTypeError) as raised:
        c.create_agent_execution_plan(**_plan_input(preflight=preflight))
    assert c.thrown_as_js(raised.value) == ("TypeError", "Cannot read properties of undefined (reading 'promptRuntimeFidelity')")
    # the validator itself only reports it; the comparison with the request is guarded
    codes = [d.code for d in c.validate_backend_preflight(preflight, REQUEST)]
    assert codes == ["backend.capabilities", "preflight.malformed"]
    malformed = c.validate_backend_preflight(preflight, REQUEST)[-1]
    assert malformed.message == (
        "Cannot compare malformed preflight with request: Cannot read properties of undefined (reading 'remoteTransport')"
    )


def test_a_runtime_without_model_makes_plan_creation_throw() -> None:
    runtime = _runtime()
    del runtime["model"]
    with pytest.raises(c.JSTypeError, match=r"^Cannot read properties of undefined \(reading 'provider'\)$"):
        c.create_agent_execution_plan(**_plan_input(runtime=runtime))


def test_a_context_without_an_items_array_makes_budgeting_throw() -> None:
    with pytest.raises(c.JSTypeError, match=r"^Cannot read properties of undefined \(reading 'map'\)$"):
        c.budget_subagent_context({"maxBytes": 10})
    with pytest.raises(c.JSTypeError, match=r"^context\.items\.map is not a function$"):
        c.budget_subagent_context({"maxBytes": 10, "items": "x"})


def test_a_null_catalog_entry_makes_negotiation_throw() -> None:
    with pytest.raises(c.JSTypeError, match=r"^Cannot read properties of null \(reading 'name'\)$"):
        c.negotiate_subagent_tools([None], UNDEFINED, ACCESS_NONE)


def test_a_string_effects_value_passes_the_access_filter_character_by_character() -> None:
    result = c.negotiate_subagent_tools([{"id": "t", "name": "t", "effects": "network"}], None, ACCESS_NONE)
    assert result.effective_tool_ids == ["t"]
    assert [d.code for d in result.diagnostics] == ["tools.effects"]


def test_an_invalid_prepared_at_is_javascripts_invalid_date() -> None:
    runtime = {**_runtime(), "preparedAt": "yesterday"}
    with pytest.raises(c.JSRangeError) as raised:
        c.prepare_subagent_host_plan(REQUEST, {**_snapshot(), "promptStack": {"id": "s", "items": []}}, PREFLIGHT, runtime)
    assert c.thrown_as_js(raised.value) == ("RangeError", "Invalid time value")


@pytest.mark.parametrize(
    ("change", "codes"),
    [
        ({"request": {**REQUEST, "profileId": "global:worker"}}, ["plan.profile-id"]),
        ({"request": {**REQUEST, "expectedProfileFingerprint": c.subagent_fingerprint("other")}}, ["plan.profile-drift"]),
        ({"run_id": "run id"}, ["id.invalid"]),
        ({"execution_fingerprint": "sha256:v1:nope"}, ["fingerprint.invalid"]),
    ],
)
def test_refusals_give_diagnostics_and_no_plan(change: dict[str, Any], codes: list[str]) -> None:
    result = c.create_agent_execution_plan(**_plan_input(**change))
    assert result.plan is None
    assert [d.code for d in result.diagnostics] == codes


def test_a_changed_task_is_refused_and_a_tampered_plan_is_reported() -> None:
    given = _plan_input()
    given["preparation"]["messages"][-1]["content"][0]["text"] = "Do something else."
    assert [d.code for d in c.create_agent_execution_plan(**given).diagnostics] == ["plan.protected-task"]
    plan = c.create_agent_execution_plan(**_plan_input()).plan
    assert plan is not None
    plan["messages"].append({"role": "user", "content": [{"type": "text", "text": "extra"}]})
    assert [d.code for d in c.validate_agent_execution_plan(plan, REQUEST)] == ["plan.protected-task"]
    # the host does not recompute the sealing fingerprints: a changed system prompt is not its finding
    plan["messages"].pop()
    plan["systemPrompt"] = "changed"
    assert c.validate_agent_execution_plan(plan, REQUEST) == []
