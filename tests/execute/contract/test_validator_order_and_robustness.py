"""The validators' findings come in the reference's check order, and a validator reports malformed
input instead of raising (profiles-exec.md §4.2, §4.9: "All public validators must report problems
for malformed input instead of throwing")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forgec.execute import contract as c
from forgec.js.values import UNDEFINED

JUNK: list[Any] = [None, UNDEFINED, [], "x", 0, -1, 1.5, True, {}, {"a": 1}, [None], float("nan")]

REQUEST: dict[str, Any] = {
    "schemaVersion": 1, "requestId": "req-1", "profileId": "project:worker", "input": {"text": "Do it."},
    "access": {"level": "none", "workspaces": [], "network": "deny", "executionBoundary": "isolated"},
    "limits": {"timeoutMs": {"value": 1000, "enforcement": "best-effort"}}, "resultProjection": {"maxChars": 4000},
    "parent": {"depth": 0, "maxDepth": 2}, "remoteEgressConsent": False,
}  # fmt: skip
RESPONSE: dict[str, Any] = {
    "schemaVersion": 1, "status": "completed", "requestId": "req-1", "runId": "run-1", "backendId": "b",
    "profileFingerprint": "sha256:v1:" + "a" * 64, "executionFingerprint": "sha256:v1:" + "b" * 64,
    "model": {"provider": "p", "id": "m"}, "effectiveToolIds": [], "durationMs": 1, "artifacts": [],
    "enforcement": {"access": {"level": "none", "mounts": [], "network": "allow", "process": False,
                    "enforcement": dict.fromkeys(("readOnlyMountIsolation", "readWriteMountIsolation",
                    "symlinkSafeContainment", "processIsolation", "agentNetworkIsolation"), True)}, "limits": {}},
}  # fmt: skip


def test_every_request_problem_is_reported_in_check_order() -> None:
    request = {
        "schemaVersion": "1", "requestId": "", "profileId": "a b", "expectedProfileFingerprint": "sha256:v1:",
        "input": {"text": " "}, "selectedContext": [], "access": "none", "limits": {"wallClock": 1},
        "resultProjection": {"maxChars": 0}, "parent": {"depth": 2, "maxDepth": 2, "runId": "x y"},
        "remoteEgressConsent": "yes",
    }  # fmt: skip
    assert [(d.code, d.path) for d in c.validate_agent_request(request)] == [
        ("request.schema-version", "schemaVersion"),
        ("id.invalid", "requestId"),
        ("id.invalid", "profileId"),
        ("fingerprint.invalid", "expectedProfileFingerprint"),
        ("request.empty-task", "input"),
        ("context.type", "selectedContext"),
        ("access.type", "access"),
        ("limits.unknown", "limits.wallClock"),
        ("request.result-projection", "resultProjection.maxChars"),
        ("request.depth-limit", "parent.depth"),
        ("id.invalid", "parent.runId"),
        ("request.egress-consent", "remoteEgressConsent"),
    ]


def test_limits_are_checked_in_javascript_key_order() -> None:
    request = {**REQUEST, "limits": {"b": 1, "2": 1, "timeoutMs": {"value": 0, "enforcement": "required"}, "1": 1}}
    assert [d.path for d in c.validate_agent_request(request)] == ["limits.1", "limits.2", "limits.b", "limits.timeoutMs"]


def test_a_status_matrix_reports_the_output_first_then_required_then_forbidden_fields() -> None:
    response = {**RESPONSE, "status": "limit-reached", "reachedLimit": "wallClock", "error": {}, "reason": "r",
                "enforcedTimeoutMs": 5, "output": {"text": "t", "partial": False}}  # fmt: skip
    assert [(d.code, d.message) for d in c.validate_agent_response(response)] == [
        ("response.partial", "Non-completed output must be marked partial."),
        ("response.reached-limit", "limit-reached responses require a valid reachedLimit."),
        ("response.forbidden-field", "limit-reached response cannot contain error."),
        ("response.forbidden-field", "limit-reached response cannot contain reason."),
        ("response.forbidden-field", "limit-reached response cannot contain enforcedTimeoutMs."),
    ]


def test_an_unknown_status_gets_only_the_status_finding_and_the_partial_one() -> None:
    response = {**RESPONSE, "status": "aborted", "error": {"code": "x", "message": "y"}, "output": {"text": "t", "partial": False}}
    assert [d.code for d in c.validate_agent_response(response)] == ["response.status", "response.partial"]


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_validators_report_junk_instead_of_raising(junk: Any) -> None:
    for validator in (
        c.validate_agent_request,
        c.validate_backend_preflight,
        c.validate_agent_execution_plan,
        c.validate_agent_response,
        c.validate_prompt_runtime,
        c.validate_subagent_artifact_reference,
        c.validate_subagent_trace_reference,
    ):
        found = validator(junk)
        assert isinstance(found, list) and all(d.level == "error" for d in found)


@pytest.mark.parametrize("key", sorted(REQUEST))
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_a_junk_member_of_a_request_is_a_finding(key: str, junk: Any) -> None:
    request = copy.deepcopy(REQUEST)
    request[key] = junk
    found = c.validate_agent_request(request)
    assert isinstance(found, list) and all(d.level == "error" for d in found)
    # "x" is a fine id, True a fine consent and {} fine limits; anything else here is a finding
    fits = (key in ("requestId", "profileId") and junk == "x") or (key == "remoteEgressConsent" and junk is True) or (
        key == "limits" and junk == {}
    )
    assert bool(found) != fits


@pytest.mark.parametrize("key", sorted(RESPONSE))
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_a_junk_member_of_a_response_is_a_finding(key: str, junk: Any) -> None:
    response = copy.deepcopy(RESPONSE)
    response[key] = junk
    assert isinstance(c.validate_agent_response(response, REQUEST), list)


def test_a_plan_whose_snapshot_has_no_profile_throws_like_the_reference() -> None:
    """The one unguarded read of ``validateBackendPreflight``: ``snapshot.profile.model``."""
    preflight = {"status": "accepted", "preflightId": "p", "backend": {}, "model": {"provider": "p", "id": "m"}, "diagnostics": []}
    with pytest.raises(c.JSTypeError, match=r"^Cannot read properties of undefined \(reading 'model'\)$"):
        c.validate_agent_execution_plan({"preflight": preflight, "profile": {}})
