"""The profile's promptStack reference (§1.7) and capture of the runtime into a profile."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.profile import (
    capture_profile,
    find_profile_stack,
    load_profile_data,
    stack_reference_diagnostics,
)
from forgec.codecs.stack import LoadedStack, load_stack_data
from forgec.model.identity import ResourceKey


def stack(stack_id: str, scope: str, file_name: str | None = None) -> LoadedStack:
    doc = {"id": stack_id, "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}]}
    return load_stack_data(doc, file_name or f"{stack_id}.json", scope=scope)


STACKS = [stack("shared", "global"), stack("local", "project"), stack("twin", "project", "a.json"),
          stack("twin", "project", "b.json"), stack("gonly", "global")]  # fmt: skip


def resolve(reference: str | None, scope: str = "project") -> tuple[str, str | None, list[str]]:
    doc = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "me",
           "model": {"provider": "p", "id": "m"}, "thinkingLevel": "off", "promptStack": reference}  # fmt: skip
    loaded = load_profile_data(doc, "me.json", scope=scope)
    found = find_profile_stack(loaded.profile, loaded.scope, STACKS)
    assert found is not None
    key = str(found.stack_key) if found.stack_key else None
    return found.outcome, key, [d.message for d in stack_reference_diagnostics(found, loaded.profile_id)]


def test_null_reference_is_nothing_to_resolve() -> None:
    assert find_profile_stack({"promptStack": None}, "project", STACKS) is None


@pytest.mark.parametrize(
    ("reference", "scope", "outcome", "key", "messages"),
    [
        ("local", "project", "resolved", "project:local", []),
        ("project:local", "project", "resolved", "project:local", []),
        ("global:shared", "project", "resolved", "global:shared", []),
        ("shared", "global", "resolved", "global:shared", []),
        # bare references are scope-relative: a project profile's bare id never falls back to global
        (
            "gonly",
            "project",
            "missing",
            None,
            ["Unknown prompt stack: gonly. Use global:gonly to reference the global stack."],
        ),
        ("local", "global", "missing", None, ["Unknown prompt stack: local."]),
        ("global:nowhere", "project", "missing", None, ["Unknown prompt stack: global:nowhere."]),
        ("missing", "project", "missing", None, ["Unknown prompt stack: missing."]),
        ("twin", "project", "ambiguous", None, ["Prompt stack id is ambiguous: twin"]),
        (
            "project:local",
            "global",
            "global-project",
            None,
            ["Global profile me cannot reference project prompt stack local."],
        ),
        (
            "team:local",
            "project",
            "invalid",
            None,
            ['Unknown scope prefix: team. Expected "project" or "global".'],
        ),
    ],
)
def test_reference_outcomes(
    reference: str, scope: str, outcome: str, key: str | None, messages: list[str]
) -> None:
    assert resolve(reference, scope) == (outcome, key, messages)


def test_reference_diagnostics_point_at_prompt_stack() -> None:
    loaded = load_profile_data(
        '{"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "me", "model": {"provider": "p", "id": "m"},'
        ' "thinkingLevel": "off", "promptStack": "project:a:b"}',
        "me.json",
    )
    found = find_profile_stack(loaded.profile, "project", STACKS)
    assert found is not None
    (only,) = stack_reference_diagnostics(found, "me")
    assert only.field == "promptStack" and only.pointer == ("promptStack",) and only.code == "FG526"


RUNTIME: dict[str, Any] = {"model": {"provider": "openai", "id": "gpt-5.1"}, "thinking_level": "low"}


def test_capture_same_scope_writes_a_bare_id_and_keeps_metadata() -> None:
    existing = load_profile_data(
        {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer", "name": "Kept", "description": "D",
         "autoActivate": True, "model": {"provider": "a", "id": "b"}, "thinkingLevel": "high", "promptStack": None},
        "reviewer.json",
    )  # fmt: skip
    result = capture_profile(
        "reviewer", "project", prompt_stack=ResourceKey("project", "local"), existing=existing, **RUNTIME
    )
    assert result.ok and result.diagnostics == ()
    assert result.profile == {
        "schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer", "name": "Kept", "description": "D",
        "autoActivate": True, "model": {"provider": "openai", "id": "gpt-5.1"}, "thinkingLevel": "low",
        "promptStack": "local",
    }  # fmt: skip
    assert list(result.profile) == [
        "schemaVersion", "type", "id", "name", "description", "autoActivate", "model", "thinkingLevel", "promptStack",
    ]  # fmt: skip


def test_capture_project_profile_with_a_global_stack() -> None:
    result = capture_profile("fresh", "project", prompt_stack=ResourceKey("global", "shared"), **RUNTIME)
    assert result.ok and result.profile is not None
    assert result.profile["promptStack"] == "global:shared" and result.profile["name"] == "fresh"
    assert "description" not in result.profile and "autoActivate" not in result.profile


def test_capture_refusals() -> None:
    refused = capture_profile("g", "global", prompt_stack=ResourceKey("project", "local"), **RUNTIME)
    assert refused.to_json() == {"ok": False, "diagnostics": [{
        "level": "error", "field": "promptStack",
        "message": "Cannot capture a global profile referencing a project prompt stack local.",
    }]}  # fmt: skip
    no_model = capture_profile("x", "project", model=None, thinking_level="off", prompt_stack=None)
    assert no_model.to_json() == {"ok": False, "diagnostics": [{
        "level": "error", "field": "model", "message": "Cannot capture an agent profile without a selected model.",
    }]}  # fmt: skip
    bad_id = capture_profile("bad id", "project", prompt_stack=None, **RUNTIME)
    assert not bad_id.ok and bad_id.profile is None and [d.field for d in bad_id.diagnostics] == ["id"]


def test_capture_global_profile_with_global_stack_is_bare() -> None:
    result = capture_profile("g", "global", prompt_stack=ResourceKey("global", "shared"), **RUNTIME)
    assert result.ok and result.profile is not None and result.profile["promptStack"] == "shared"
