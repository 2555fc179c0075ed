"""Both config files layered, trust, and the effective policy per selector (profiles-exec.md §2.3, §2.5, §2.8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.agents.config import (
    ForgeConfigPaths,
    SubagentSettings,
    configured_profile,
    load_forge_config,
    load_subagent_settings,
    load_web_editor,
    resolve_backend,
    resolve_policy,
    resolve_timeout,
)


@pytest.fixture
def paths(tmp_path: Path) -> ForgeConfigPaths:
    (tmp_path / "project").mkdir()
    return ForgeConfigPaths.for_project(tmp_path / "project", global_config=tmp_path / "global" / "config.json")


def write(path: Path, doc: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")


def settings_of(paths: ForgeConfigPaths, trusted: bool = True) -> SubagentSettings:
    return load_subagent_settings(paths, trusted=trusted)


def test_the_files_pi_forge_reads(tmp_path: Path) -> None:
    found = ForgeConfigPaths.for_project(tmp_path, environ={})
    assert found.project == tmp_path / ".pi" / "forge" / "config.json"
    assert found.global_ == Path.home() / ".pi" / "forge" / "config.json"
    moved = ForgeConfigPaths.for_project(tmp_path, environ={"PI_FORGE_GLOBAL_DIR": str(tmp_path / "g")})
    assert moved.global_ == tmp_path / "g" / "config.json"
    override = ForgeConfigPaths.for_project(
        tmp_path, global_dir=tmp_path / "g", environ={"PI_FORGE_GLOBAL_CONFIG_PATH": str(tmp_path / "x.json")}
    )
    assert override.global_ == tmp_path / "x.json" and override.for_scope("global") == tmp_path / "x.json"


def test_no_files_means_built_in_values(paths: ForgeConfigPaths) -> None:
    settings = settings_of(paths)
    assert settings.to_json() == {
        "allowAgentInvocationWithoutApproval": False,
        "timeoutMs": 60000,
        "timeoutSource": "built-in",
        "summaryInToolDescription": False,
        "profiles": {},
        "configPath": str(paths.project),
        "globalConfigPath": str(paths.global_),
        "warnings": [],
    }
    assert resolve_backend(settings).to_json() == {"id": "pi-subprocess-readonly", "source": "built-in"}
    assert resolve_timeout(settings).to_json() == {"milliseconds": 60000, "source": "built-in"}


def test_a_trusted_project_overrides_the_global_file(paths: ForgeConfigPaths) -> None:
    write(paths.global_, {"subagents": {"backend": "g", "timeoutMs": 90000, "summaryInToolDescription": True}})
    write(paths.project, {"subagents": {"backend": "p", "timeoutMs": 120000}})
    settings = settings_of(paths)
    assert (settings.backend, settings.backend_source) == ("p", "project")
    assert (settings.timeout_ms, settings.timeout_source) == (120000, "project")
    assert (settings.summary_in_tool_description, settings.summary_in_tool_description_source) == (True, "global")


def test_a_bad_project_value_leaves_the_global_one_in_force(paths: ForgeConfigPaths) -> None:
    write(paths.global_, {"subagents": {"backend": "g", "timeoutMs": 90000}})
    write(paths.project, {"subagents": {"backend": " ", "timeoutMs": 1, "summaryInToolDescription": "x"}})
    settings = settings_of(paths)
    assert (settings.backend, settings.backend_source, settings.timeout_ms) == ("g", "global", 90000)
    assert len(settings.warnings) == 3 and all(str(paths.project) in w for w in settings.warnings)


def test_an_untrusted_projects_file_is_not_read_at_all(paths: ForgeConfigPaths) -> None:
    write(paths.global_, {"subagents": {"timeoutMs": 90000, "profiles": {"r": {"enabled": True}}}})
    write(paths.project, {"subagents": {"backend": 42, "allowAgentInvocationWithoutApproval": True,
                                        "profiles": {"r": {"enabled": True}}}, "webEditor": {"port": 5000}})
    settings = settings_of(paths, trusted=False)
    assert settings.warnings == [] and settings.allow_agent_invocation_without_approval is False
    assert list(settings.profiles) == ["global:r"] and settings.timeout_ms == 90000
    assert settings.config_path == str(paths.project)  # named even when not read
    assert load_web_editor(paths, trusted=False).to_json() == {"configPath": str(paths.project), "warnings": []}
    assert load_web_editor(paths, trusted=True).preferred_port == 5000
    assert not resolve_policy(settings, "r").enabled and resolve_policy(settings, "global:r").enabled


def test_the_unattended_flag_comes_from_the_trusted_project_only(paths: ForgeConfigPaths) -> None:
    write(paths.global_, {"subagents": {"allowAgentInvocationWithoutApproval": True}})
    assert settings_of(paths).allow_agent_invocation_without_approval is False
    write(paths.project, {"subagents": {"allowAgentInvocationWithoutApproval": "yes"}})
    settings = settings_of(paths)
    assert settings.allow_agent_invocation_without_approval is False  # malformed never grants
    assert settings.warnings[0].endswith("per-run subagent approval remains required.")
    write(paths.project, {"subagents": {"allowAgentInvocationWithoutApproval": True}})
    assert settings_of(paths).allow_agent_invocation_without_approval is True
    assert settings_of(paths, trusted=False).allow_agent_invocation_without_approval is False


def test_warnings_are_in_reading_order_global_first(paths: ForgeConfigPaths) -> None:
    write(paths.global_, "not json")
    write(paths.project, {"subagents": {"backend": 1}})
    warnings = settings_of(paths).warnings
    assert warnings[0].startswith(f"pi-forge: failed to read {paths.global_}; its subagent settings are ignored.")
    assert warnings[1].startswith(f"pi-forge: {paths.project} subagents.backend")
    assert [d.code for d in settings_of(paths).diagnostics] == ["FG570", "FG573"]


def test_settings_keep_pi_forges_key_order(paths: ForgeConfigPaths) -> None:
    write(paths.global_, {"subagents": {"summaryInToolDescription": False}})
    write(paths.project, {"subagents": {"backend": "p"}})
    keys = list(settings_of(paths).to_json())
    assert keys[-3:] == ["summaryInToolDescriptionSource", "backend", "backendSource"]
    write(paths.global_, {"subagents": {"backend": "g", "summaryInToolDescription": True}})
    assert list(settings_of(paths).to_json())[-3:] == ["backend", "backendSource", "summaryInToolDescriptionSource"]


# --- effective policy ------------------------------------------------------------------------------


@pytest.fixture
def layered(paths: ForgeConfigPaths) -> SubagentSettings:
    write(paths.global_, {"subagents": {"backend": "global-default", "timeoutMs": 90000, "profiles": {
        "reviewer": {"enabled": True, "backend": "global-reviewer", "timeoutMs": 300000},
        "viewer": {"enabled": True, "timeoutMs": 180000},
        "only-global": {"enabled": True}}}})
    write(paths.project, {"subagents": {"backend": "project-default", "timeoutMs": 120000, "profiles": {
        "reviewer": {"enabled": True, "backend": "project-reviewer"},
        "viewer": {"enabled": False},
        "odd": {"enabled": "yes", "timeoutMs": 5000}}}})
    return settings_of(paths)


def test_same_id_entries_of_the_two_files_never_share_policy(layered: SubagentSettings) -> None:
    assert list(layered.profiles) == ["global:reviewer", "global:viewer", "global:only-global",
                                      "project:reviewer", "project:viewer", "project:odd"]
    project = resolve_policy(layered, "project:reviewer")
    assert (project.backend.id, project.backend.source) == ("project-reviewer", "project-profile")
    assert (project.timeout.milliseconds, project.timeout.source) == (120000, "project")  # not the global 300000
    glob = resolve_policy(layered, "global:reviewer")
    assert (glob.backend.id, glob.backend.source, glob.timeout.milliseconds) == ("global-reviewer", "global-profile", 300000)


def test_a_bare_selector_looks_up_the_project_entry_only(layered: SubagentSettings) -> None:
    assert resolve_policy(layered, "reviewer").to_json() == resolve_policy(layered, "project:reviewer").to_json() | {
        "profileId": "reviewer"
    }
    only_global = resolve_policy(layered, "only-global")
    assert (only_global.enabled, only_global.enabled_source) == (False, "built-in")
    assert configured_profile(layered, "only-global") is None
    assert configured_profile(layered, "global:only-global") is not None


def test_enabled_means_exactly_true(layered: SubagentSettings) -> None:
    viewer = resolve_policy(layered, "viewer")
    assert (viewer.enabled, viewer.enabled_source) == (False, "project-profile")
    odd = resolve_policy(layered, "odd")  # "yes" was ignored with a warning
    assert (odd.enabled, odd.enabled_source, odd.timeout.milliseconds) == (False, "built-in", 5000)
    unknown = resolve_policy(layered, "unknown")
    assert (unknown.enabled, unknown.enabled_source) == (False, "built-in")


def test_a_global_profile_in_a_trusted_project_uses_the_projects_default_backend(layered: SubagentSettings) -> None:
    viewer = resolve_policy(layered, "global:viewer")
    assert viewer.backend.to_json() == {"id": "project-default", "source": "project"}
    assert viewer.timeout.to_json() == {"milliseconds": 180000, "source": "global-profile"}


def test_an_explicit_backend_beats_every_layer(layered: SubagentSettings) -> None:
    assert resolve_policy(layered, "reviewer", "one-run").backend.to_json() == {"id": "one-run", "source": "explicit"}
    assert resolve_policy(layered, "reviewer", "").backend.source == "project-profile"  # empty: no override
    assert resolve_backend(layered, "x").source == "explicit"


@pytest.mark.parametrize("selector", ["bad:selector", "  ", "", "a b", "project:"])
def test_a_malformed_selector_finds_nothing_but_keeps_its_text(layered: SubagentSettings, selector: str) -> None:
    policy = resolve_policy(layered, selector)
    assert policy.profile_id == selector and not policy.enabled
    assert policy.backend.to_json() == {"id": "project-default", "source": "project"}
    assert policy.timeout.to_json() == {"milliseconds": 120000, "source": "project"}


def test_the_selector_is_trimmed_for_lookup_but_echoed_as_given(layered: SubagentSettings) -> None:
    policy = resolve_policy(layered, "  reviewer ")
    assert policy.profile_id == "  reviewer " and policy.enabled and policy.backend.id == "project-reviewer"
    assert list(policy.to_json()) == ["profileId", "enabled", "enabledSource", "backend", "timeout"]


def test_load_forge_config_reads_both_readers(paths: ForgeConfigPaths) -> None:
    write(paths.project, '{"webEditor": {"port": 41738}, "subagents": {"profiles": {"r": {"enabled": true}}}}')
    config = load_forge_config(paths, trusted=True)
    assert config.web_editor.preferred_port == 41738 and config.policy("r").enabled
