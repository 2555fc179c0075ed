"""``validateAgentProfileSnapshot`` (profiles-exec.md §4.3): a resolved snapshot is sound, and each
kind of tampering is reported with the contract's code and path, in pi-forge's order."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forgec.codecs.profile import load_profile_data
from forgec.codecs.stack import load_stack_data
from forgec.execute.host import Registrations, resolve_host_profile, validate_agent_profile_snapshot

PROFILE = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "worker",
           "model": {"provider": "test", "id": "model"}, "thinkingLevel": "high", "promptStack": "worker"}  # fmt: skip
STACK = {"schemaVersion": 1, "id": "worker", "mode": "replace",
         "items": [{"kind": "block", "id": "system", "role": "system", "content": "{{customMacro}}"},
                   {"kind": "slot", "id": "history", "slot": "chat-history"}]}  # fmt: skip


@pytest.fixture(scope="module")
def snapshot() -> dict[str, Any]:
    registrations = Registrations.from_json({"macros": [{"name": "customMacro", "source": "fixture"}]})
    resolution = resolve_host_profile(
        load_profile_data(PROFILE, "worker.json"), [load_stack_data(STACK, "worker.json")], registrations
    )
    assert resolution.snapshot is not None
    return resolution.snapshot


def codes(value: Any) -> list[tuple[str, str | None]]:
    return [(d.code, d.path) for d in validate_agent_profile_snapshot(value)]


def tampered(snapshot: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(snapshot)
    for path, value in changes.items():
        target = out
        *parents, last = path.split("__")
        for part in parents:
            target = target[part]
        target[last] = value
    return out


def test_a_resolved_snapshot_is_sound(snapshot: dict[str, Any]) -> None:
    assert validate_agent_profile_snapshot(snapshot) == []


def test_not_an_object() -> None:
    assert [d.to_json() for d in validate_agent_profile_snapshot(None)] == [
        {
            "level": "error",
            "code": "snapshot.type",
            "message": "AgentProfileSnapshot must be an object.",
            "path": "$",
        }
    ]


def test_a_changed_profile_no_longer_matches_its_fingerprint(snapshot: dict[str, Any]) -> None:
    assert codes(tampered(snapshot, profile__thinkingLevel="low")) == [
        ("snapshot.profile-fingerprint", "profileFingerprint")
    ]


def test_a_changed_stack_no_longer_matches_its_fingerprint(snapshot: dict[str, Any]) -> None:
    assert codes(tampered(snapshot, promptStack__mode="append")) == [
        ("snapshot.stack-fingerprint", "promptStackFingerprint")
    ]


def test_a_null_stack_with_a_fingerprint(snapshot: dict[str, Any]) -> None:
    assert codes(tampered(snapshot, promptStack=None)) == [
        ("snapshot.null-stack-fingerprint", "promptStackFingerprint"),
        ("snapshot.stack-reference", "promptStack"),
    ]


def test_a_stack_the_profile_does_not_reference(snapshot: dict[str, Any]) -> None:
    assert codes(tampered(snapshot, profile__promptStack=None)) == [
        ("snapshot.profile-fingerprint", "profileFingerprint"),
        ("snapshot.unexpected-stack", "promptStack"),
        ("snapshot.null-stack-id", "promptStackId"),
    ]


def test_scope_rules_of_the_reference(snapshot: dict[str, Any]) -> None:
    found = validate_agent_profile_snapshot(
        tampered(snapshot, profileId="global:worker", profile__promptStack="project:worker")
    )
    assert [d.message for d in found][-1] == "Global profile cannot reference project prompt stack worker."
    assert codes(tampered(snapshot, promptStackId="global:worker")) == [
        ("snapshot.stack-reference-scope", "promptStackId")
    ]


def test_profile_validation_and_shapes(snapshot: dict[str, Any]) -> None:
    broken = tampered(snapshot, dependencies={}, promptStack=[])
    broken["profile"]["model"]["id"] = " "
    assert codes(broken) == [
        ("snapshot.profile-validation", "profile.model.id"),
        ("snapshot.stack", "promptStack"),
        ("snapshot.dependencies", "dependencies"),
        ("snapshot.profile-fingerprint", "profileFingerprint"),
        ("snapshot.stack-reference", "promptStack"),
    ]
    malformed = tampered(snapshot, profile={"schemaVersion": 1})
    assert next(d.message for d in validate_agent_profile_snapshot(malformed)) == (
        "Malformed profile: Cannot read properties of undefined (reading 'provider')"
    )


def test_dependencies_ids_and_fingerprint_shapes(snapshot: dict[str, Any]) -> None:
    broken = copy.deepcopy(snapshot)
    broken["dependencies"] += [
        copy.deepcopy(snapshot["dependencies"][0]),
        {"kind": "tool", "name": "x", "identity": "x"},
    ]
    broken["promptStackFingerprint"] = "sha256:v1:xyz"
    broken["promptStackId"] = 5
    assert codes(broken) == [
        ("snapshot.duplicate-dependency", "dependencies[1].identity"),
        ("snapshot.dependency", "dependencies[2]"),
        ("snapshot.stack-id", "promptStackId"),
        ("fingerprint.invalid", "promptStackFingerprint"),
        ("snapshot.stack-reference-scope", "promptStackId"),
    ]
    assert codes(tampered(snapshot, schemaVersion=2, profileId="team:worker"))[:2] == [
        ("snapshot.schema-version", "schemaVersion"),
        ("snapshot.profile-id", "profileId"),
    ]
