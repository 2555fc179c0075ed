"""Provenance records and drift status (§1.11)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forgec.codecs.profile import is_profile_provenance, load_profile_data, profile_runtime_status

DOC = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer", "name": "Reviewer",
       "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "high", "promptStack": "local"}  # fmt: skip
LOADED = load_profile_data(DOC, "reviewer.json", path="/p/.pi/forge/agent-profiles/reviewer.json")
RECORD: dict[str, Any] = {
    "profileId": "reviewer",
    "scope": "project",
    "sourcePath": "/p/.pi/forge/agent-profiles/reviewer.json",
    "sourceFingerprint": LOADED.legacy_fingerprint,
    "appliedAt": "2026-01-01T00:00:00.000Z",
    "snapshot": {
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
        "thinkingLevel": "high",
        "promptStack": "project:local",
    },
}
CURRENT = {"model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "high",
           "promptStack": "project:local", "effectiveTools": ["read"]}  # fmt: skip


def with_(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    target = out
    *parents, last = path.split(".")
    for part in parents:
        target = target[part]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return out


def test_a_good_record_and_a_legacy_one() -> None:
    assert is_profile_provenance(RECORD)
    assert is_profile_provenance(with_(RECORD, "scope", ...))  # legacy records have no scope
    assert is_profile_provenance(with_(RECORD, "snapshot.promptStack", None))
    assert is_profile_provenance(with_(RECORD, "appliedAt", ""))  # any string, not parsed


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("profileId", "bad id"),
        ("scope", "team"),
        ("sourcePath", 1),
        ("sourceFingerprint", None),
        ("appliedAt", ...),
        ("snapshot.model.provider", " "),
        ("snapshot.model.id", 3),
        ("snapshot.thinkingLevel", "turbo"),
        ("snapshot.promptStack", ""),
        ("snapshot.model", "anthropic/claude"),
        ("snapshot", None),
    ],
)
def test_records_that_are_refused(path: str, value: Any) -> None:
    assert not is_profile_provenance(with_(RECORD, path, value))


def test_not_an_object() -> None:
    assert not is_profile_provenance(None) and not is_profile_provenance([RECORD])


def test_status_without_a_record_is_a_copy_of_the_current_runtime() -> None:
    status = profile_runtime_status([LOADED], None, CURRENT)
    assert status == {"current": CURRENT} and status["current"] is not CURRENT


def test_unchanged_source_and_no_drift() -> None:
    last = profile_runtime_status([LOADED], RECORD, CURRENT)["lastApplied"]
    assert last["sourceState"] == "unchanged" and last["provenance"] == RECORD
    assert {name: field["changed"] for name, field in last["drift"].items()} == {
        "model": False, "thinkingLevel": False, "promptStack": False,
    }  # fmt: skip


def test_changed_source_and_drift_on_every_field() -> None:
    record = with_(RECORD, "sourceFingerprint", '{"schemaVersion":1}')
    record["snapshot"]["promptStack"] = None
    current = {"model": None, "thinkingLevel": "low", "promptStack": "project:local", "effectiveTools": []}
    last = profile_runtime_status([LOADED], record, current)["lastApplied"]
    assert last["sourceState"] == "changed"
    assert last["drift"] == {
        "model": {"expected": RECORD["snapshot"]["model"], "actual": None, "changed": True},
        "thinkingLevel": {"expected": "high", "actual": "low", "changed": True},
        "promptStack": {"expected": None, "actual": "project:local", "changed": True},
    }


def test_missing_source() -> None:
    record = with_(RECORD, "sourcePath", "/elsewhere/reviewer.json")
    assert profile_runtime_status([LOADED], record, CURRENT)["lastApplied"]["sourceState"] == "missing"


def test_model_drift_compares_provider_and_id_only() -> None:
    current = {**CURRENT, "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "name": "x"}}
    drift = profile_runtime_status([LOADED], RECORD, current)["lastApplied"]["drift"]["model"]
    assert drift["changed"] is False
    both_null = profile_runtime_status([], with_(RECORD, "snapshot.model", None), {**CURRENT, "model": None})
    assert both_null["lastApplied"]["drift"]["model"]["changed"] is False
