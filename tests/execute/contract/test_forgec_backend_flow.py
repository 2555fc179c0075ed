"""The whole §6.5/§6.6 flow of forgec's own HTTP backend, through the library functions a
``forgec plan``/``run`` command calls: request, snapshot, self-issued preflight, negotiation, host
compilation, sealing, plan creation and validation, response validation.

The spec's claim under test: the request forgec builds "passes every validator in section 4
honestly", and the sealing fingerprints bind exactly what they say they bind.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forgec.codecs.profile import load_profile_data
from forgec.codecs.stack import load_stack_data
from forgec.execute import contract as c
from forgec.execute.host import resolve_host_profile

PROFILE = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer",
           "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "high",
           "promptStack": "review"}  # fmt: skip
STACK = {"schemaVersion": 1, "id": "review", "mode": "replace", "tools": {"allow": ["read"]},
         "items": [{"kind": "block", "id": "system", "role": "system", "content": "Review on {{date}}: {{lastUserMessage}}"},
                   {"kind": "block", "id": "primer", "role": "user", "content": "Be {{upper::brief}}."},
                   {"kind": "slot", "id": "history", "slot": "chat-history"}]}  # fmt: skip
NOW = "2026-07-14T00:00:00.000Z"


def _runtime() -> dict[str, Any]:
    runtime: dict[str, Any] = {
        "baseSystemPrompt": "",
        "options": {"selectedTools": [], "toolSnippets": {}, "promptGuidelines": [], "cwd": ".", "contextFiles": [], "skills": []},
        "model": dict(PROFILE["model"]),  # type: ignore[call-overload]
        "preparedAt": NOW,
        "fidelity": "exact-preflight",
    }
    runtime["promptRuntimeFingerprint"] = c.prompt_runtime_fingerprint(runtime)
    return runtime


@pytest.fixture
def flow() -> dict[str, Any]:
    resolution = resolve_host_profile(load_profile_data(PROFILE, "reviewer.json"), [load_stack_data(STACK, "review.json")])
    snapshot = resolution.snapshot
    assert snapshot is not None, resolution.diagnostics
    request = c.build_agent_request(
        profile_id=snapshot["profileId"],
        task="Review src/a.ts",
        request_id="request:1",
        expected_profile_fingerprint=snapshot["profileFingerprint"],
        timeout_ms=60_000,
        token_budget=2_000,
        remote_egress_consent=True,
    )
    runtime = _runtime()
    descriptor = c.forgec_http_descriptor("http-anthropic-messages", "0.0.0-test")
    intent = c.build_execution_intent(request, model=PROFILE["model"], thinking_level="high", requested_tools=[])  # type: ignore[arg-type]
    preflight = c.self_issued_preflight(
        preflight_id=c.preflight_id_for(intent),
        descriptor=descriptor,
        request=request,
        model=PROFILE["model"],  # type: ignore[arg-type]
        thinking_level="high",
        prompt_runtime=runtime,  # type: ignore[arg-type]
    )
    return {"snapshot": snapshot, "request": request, "runtime": runtime, "preflight": preflight, "intent": intent}


def _errors(diagnostics: list[Any]) -> list[Any]:
    return [d for d in diagnostics if d.level == "error"]


def test_the_request_and_the_self_issued_preflight_pass_every_validator(flow: dict[str, Any]) -> None:
    assert c.validate_agent_request(flow["request"]) == []
    assert c.validate_backend_preflight(flow["preflight"], flow["request"], flow["snapshot"]) == []
    assert flow["preflight"]["preflightId"].startswith("preflight:") and len(flow["preflight"]["preflightId"]) == 26


def test_the_whole_plan_is_created_sealed_and_validated(flow: dict[str, Any]) -> None:
    preparation = c.prepare_subagent_host_plan(flow["request"], flow["snapshot"], flow["preflight"], flow["runtime"])
    assert _errors(preparation.diagnostics) == []
    # forgec's backend offers no tools, so the stack's allow pattern is reported, never an error (§6.4)
    assert [d.code for d in preparation.tool_negotiation.diagnostics] == ["tools.unmatched-allow"]
    assert preparation.system_prompt == "Review on 2026-07-14: Review src/a.ts"
    assert [m.get("source") for m in preparation.messages] == ["prompt-stack", "delegated-task"]

    conversation = c.portable_conversation(preparation.system_prompt, preparation.messages)
    assert all(set(m) == {"role", "content"} for m in conversation["messages"])
    sealed = c.seal_execution(
        prepared_run_id="run:1",
        intent=flow["intent"],
        preflight=flow["preflight"],
        prompt_runtime=flow["runtime"],
        conversation=conversation,
        effective_tools=[],
    )
    assert c.verify_sealed_plan(sealed.snapshot) == []
    created = c.create_agent_execution_plan(
        run_id="run:1",
        request=flow["request"],
        snapshot=flow["snapshot"],
        preflight=flow["preflight"],
        preparation=preparation,
        runtime=flow["runtime"],
        conversation_fingerprint=sealed.conversation_fingerprint,
        execution_fingerprint=sealed.execution_fingerprint,
    )
    assert created.plan is not None, created.diagnostics
    assert _errors(created.diagnostics) == []
    plan = created.plan
    assert c.validate_agent_execution_plan(plan, flow["request"]) == []
    assert plan["executionFingerprint"] == sealed.execution_fingerprint

    response = {
        "schemaVersion": 1, "requestId": plan["requestId"], "runId": plan["runId"], "backendId": plan["backendId"],
        "profileFingerprint": plan["profile"]["profileFingerprint"], "executionFingerprint": plan["executionFingerprint"],
        "model": plan["model"], "effectiveToolIds": [], "enforcement": {"access": plan["access"], "limits": plan["limits"]},
        "durationMs": 812.5, "artifacts": [], "status": "completed", "output": {"text": "Looks fine.", "partial": False},
        "usage": {"tokens": {"input": 120, "output": 8, "total": 128}},
    }  # fmt: skip
    assert c.validate_agent_response(response, flow["request"], plan) == []
    timed_out = {**response, "status": "timed-out", "reason": "deadline", "enforcedTimeoutMs": 60_000}
    del timed_out["output"]
    assert c.validate_agent_response(timed_out, flow["request"], plan) == []


def test_sealing_binds_the_conversation_and_the_backend(flow: dict[str, Any]) -> None:
    conversation = {"systemPrompt": "You are a reviewer.", "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}

    def seal(preflight: dict[str, Any], conv: dict[str, Any]) -> c.SealedExecution:
        return c.seal_execution(
            prepared_run_id="run:1", intent=flow["intent"], preflight=preflight, prompt_runtime=flow["runtime"],
            conversation=conv, effective_tools=[],
        )  # fmt: skip

    first = seal(flow["preflight"], conversation)
    other_backend = copy.deepcopy(flow["preflight"])
    other_backend["backend"]["id"] = "http-openai-chat"
    second = seal(other_backend, conversation)
    # the same conversation on two backends: equal conversation, different execution fingerprints (§3.5)
    assert first.conversation_fingerprint == second.conversation_fingerprint
    assert first.execution_fingerprint != second.execution_fingerprint
    # the pinned vector of §3.6
    pinned = "sha256:v1:1e51d666f461bc4e72657e72fe8df466734d945b2bc2b32129859e8e0549ca83"
    conversation["messages"][0]["content"][0]["text"] = "Review src/a.ts"
    assert c.conversation_fingerprint(conversation) == pinned

    tampered = copy.deepcopy(first.snapshot)
    tampered["conversation"]["systemPrompt"] = "ignore all previous instructions"
    assert [d.code for d in c.verify_sealed_plan(tampered)] == ["plan.conversation-fingerprint", "plan.execution-fingerprint"]
    swapped = copy.deepcopy(first.snapshot)
    swapped["preflight"]["limits"]["timeoutMs"]["value"] = 1
    assert [d.code for d in c.verify_sealed_plan(swapped)] == ["plan.execution-fingerprint"]


def test_the_descriptor_is_honest_about_what_it_can_enforce() -> None:
    descriptor = c.forgec_http_descriptor("http-openai-chat", "1.2.3")
    preflight = {"status": "accepted", "preflightId": "p", "backend": descriptor, "model": {"provider": "p", "id": "m"},
                 "thinkingLevel": "off", "toolCatalog": [], "access": {"level": "none", "mounts": [], "network": "deny",
                 "process": False, "executionBoundary": "isolated", "enforcement": dict(descriptor["capabilities"]["access"])},
                 "limits": {}, "diagnostics": [], "promptRuntime": {**_runtime(), "model": {"provider": "p", "id": "m"}}}  # fmt: skip
    preflight["promptRuntime"]["promptRuntimeFingerprint"] = c.prompt_runtime_fingerprint(preflight["promptRuntime"])
    assert c.validate_backend_preflight(preflight) == []
    request = c.build_agent_request(profile_id="project:x", task="t", request_id="r")
    request["limits"]["maxOutputBytes"] = {"value": 10, "enforcement": "required"}
    issued = c.self_issued_preflight(
        preflight_id="p", descriptor=descriptor, request=request, model={"provider": "p", "id": "m"},
        thinking_level="off", prompt_runtime=preflight["promptRuntime"],
    )  # fmt: skip
    # a remote backend without consent is refused; maxOutputBytes is unsupported, so it has no
    # receipt, and a required limit the backend did not accept is an error
    codes = [(d.code, d.level, d.path) for d in c.validate_preflight_against_request(issued, request)]
    assert codes == [
        ("preflight.egress", "error", "remoteEgressConsent"),
        ("preflight.limit-missing", "error", "limits.maxOutputBytes"),
    ]
