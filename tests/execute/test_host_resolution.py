"""Host resolution into an AgentProfileSnapshot and the dependency scan (profiles-exec.md §4.3)."""

from __future__ import annotations

import pytest

from forgec.codecs.profile import load_profile_data
from forgec.codecs.stack import load_stack_data
from forgec.execute.host import (
    ContractDiagnostic,
    Registration,
    Registrations,
    collect_macro_command_names,
    collect_prompt_dependencies,
    resolve_host_profile,
)
from forgec.plugins import Registry

WORKER_PROFILE = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "worker",
                  "model": {"provider": "test", "id": "model"}, "thinkingLevel": "high", "promptStack": "worker"}  # fmt: skip
WORKER_STACK = {"schemaVersion": 1, "id": "worker", "mode": "replace", "tools": {"allow": ["read", "paint_*"]},
                "items": [{"kind": "block", "id": "system", "role": "system",
                           "content": "Built in {{date}} and custom {{ extensions.customMacro }}."}]}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("{{outer::{{inner::x}}}} {{date}}", ["date", "inner", "outer"]),
        ("{{ extensions.customMacro }}", ["extensions.customMacro"]),
        ("{{1bad}} {{ok_name-2.x::a::{{b}}}}", ["b", "ok_name-2.x"]),
        ("{{a}} {{unterminated {{c}}", ["a"]),  # an unterminated macro ends the scan
        ("{{B}}{{a}}{{B}}", ["B", "a"]),  # de-duplicated, code-unit order
        ("no macros", []),
    ],
)
def test_macro_command_scan(text: str, names: list[str]) -> None:
    assert collect_macro_command_names(text) == names


def test_dependencies_skip_built_ins_and_static_variables() -> None:
    stack = {"variables": {"local": "v"}, "items": [
        {"kind": "block", "id": "one", "enabled": False, "content": "{{local}} {{anon}} {{date}} {{missing}}"},
        {"kind": "slot", "id": "s", "slot": "custom-slot"},
        {"kind": "slot", "id": "h", "slot": "chat-history"},
    ]}  # fmt: skip
    registrations = Registrations((Registration("anon"),), (Registration("custom-slot", "ext"),))
    dependencies, missing, diagnostics = collect_prompt_dependencies(stack, registrations)
    assert dependencies == [
        {"kind": "macro", "name": "anon", "identity": "macro:anonymous:anon"},
        {"kind": "slot", "name": "custom-slot", "identity": "slot:ext:custom-slot", "source": "ext"},
    ]
    assert missing == [{"kind": "macro", "name": "missing"}]
    assert [d.to_json() for d in diagnostics] == [
        {"level": "warning", "code": "profile.dependency-anonymous",
         "message": "Custom macro anon has no stable source identity.", "path": "promptStack.items.one"},
        {"level": "error", "code": "profile.dependency-missing",
         "message": "Missing required custom macro: missing", "path": "promptStack.items.one"},
    ]  # fmt: skip


def test_a_snapshot_with_the_pinned_fingerprints() -> None:
    profile = load_profile_data(WORKER_PROFILE, "worker.json")
    stack = load_stack_data(WORKER_STACK, "worker.json")
    registrations = Registrations.from_json({"macros": [{"name": "extensions.customMacro", "source": "ext"}]})
    resolution = resolve_host_profile(profile, [stack], registrations)
    assert resolution.ok and resolution.stack is stack
    snapshot = resolution.snapshot
    assert snapshot is not None
    assert snapshot["profileId"] == "project:worker" and snapshot["promptStackId"] == "project:worker"
    assert (
        snapshot["profileFingerprint"]
        == "sha256:v1:f209ac6b0ec3e1c7decc3cea8807856931596509dcdbce1a4c7d3eaeb1ccb8df"
    )
    assert (
        snapshot["promptStackFingerprint"]
        == "sha256:v1:1bb1aa5f470fc57bf136f63026ee63acfff6e46f97eadbea49029781391742c5"
    )
    assert snapshot["promptStack"] == stack.stack and snapshot["promptStack"] is not stack.stack
    assert [d.code for d in resolution.diagnostics] == ["profile.stack-validation"]  # the stack's own warning
    assert resolution.to_json()["diagnostics"][0]["path"] == "promptStack"


def test_without_the_registration_the_dependency_is_missing_and_there_is_no_snapshot() -> None:
    resolution = resolve_host_profile(
        load_profile_data(WORKER_PROFILE, "w.json"), [load_stack_data(WORKER_STACK, "w.json")]
    )
    assert resolution.snapshot is None
    assert resolution.missing_dependencies == [{"kind": "macro", "name": "extensions.customMacro"}]
    assert "snapshot" not in resolution.to_json()


def test_no_stack_means_null_stack_fields() -> None:
    resolution = resolve_host_profile(
        load_profile_data({**WORKER_PROFILE, "promptStack": None}, "w.json"), []
    )
    assert resolution.snapshot is not None
    assert (
        resolution.snapshot["promptStack"],
        resolution.snapshot["promptStackId"],
        resolution.snapshot["promptStackFingerprint"],
    ) == (None, None, None)


@pytest.mark.parametrize(
    ("reference", "scope", "code", "message"),
    [
        (
            "shared",
            "project",
            "profile.stack-missing",
            "Unknown prompt stack: shared",
        ),  # no suggestion in the host text
        (
            "team:x",
            "project",
            "profile.stack-reference",
            'Unknown scope prefix: team. Expected "project" or "global".',
        ),
        (
            "project:worker",
            "global",
            "profile.stack-reference",
            "Global profile worker cannot reference project prompt stack worker.",
        ),
        ("twin", "project", "profile.stack-ambiguous", "Prompt stack id is ambiguous: twin"),
    ],
)
def test_stack_reference_failures(reference: str, scope: str, code: str, message: str) -> None:
    stacks = [load_stack_data({"id": "shared", "items": []}, "shared.json", scope="global"),
              load_stack_data({"id": "twin", "items": []}, "a.json"), load_stack_data({"id": "twin", "items": []}, "b.json"),
              load_stack_data(WORKER_STACK, "worker.json")]  # fmt: skip
    profile = load_profile_data({**WORKER_PROFILE, "promptStack": reference}, "w.json", scope=scope)
    resolution = resolve_host_profile(profile, stacks)
    assert [d.to_json() for d in resolution.diagnostics] == [
        {"level": "error", "code": code, "message": message, "path": "profile.promptStack"}
    ]
    assert resolution.profile_id == f"{scope}:worker"


def test_load_diagnostics_become_profile_validation() -> None:
    profile = load_profile_data({**WORKER_PROFILE, "extra": 1, "promptStack": None}, "w.json")
    (only,) = resolve_host_profile(profile, []).diagnostics
    assert only == ContractDiagnostic(
        "error", "profile.validation", "Unsupported profile field: extra", "profile.extra"
    )


def test_registrations_from_a_plugin_registry() -> None:
    registry = Registry()
    registry.register_macro("weather", lambda ctx: "sunny", source="pkg")
    registry.register_slot("notes", lambda ctx: "", source="")
    found = Registrations.from_registry(registry)
    assert found == Registrations((Registration("weather", "pkg"),), (Registration("notes", None),))
