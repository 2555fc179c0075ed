"""``forgec validate`` checks a project's agent side too: profiles, the forge config, model catalogs.

One run, one report: each problem once, at its file:line:col, in every output format; the model
checks wait for a configured catalog (one info note otherwise, §6.2); credentials only with
``--check-auth`` (§6.3).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import position_of, write_json, write_text

_PROFILE = """{
  "schemaVersion": 1,
  "type": "pi-forge.agent-profile",
  "id": "reviewer",
  "model": {"provider": "acme", "id": "fast-1"},
  "thinkingLevel": "xhigh",
  "promptStack": "missing"
}
"""

_CONFIG = '{"subagents": {"timeoutMs": 5}}\n'

_CATALOG = """models:
  - provider: acme
    id: fast-1
    api: openai-completions
    reasoning: true
    contextWindow: 128000
    maxTokens: 8192
    auth: {env: FORGEC_TEST_ACME_KEY}
"""

_STACK = {"schemaVersion": 1, "id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    forge = tmp_path / ".pi" / "forge"
    write_json(forge / "prompt-stacks" / "s.json", _STACK)
    write_text(forge / "agent-profiles" / "reviewer.json", _PROFILE)
    write_text(forge / "config.json", _CONFIG)
    return tmp_path


def _concise(run, *args: str) -> tuple[int, list[str]]:
    result = run("validate", "--format", "concise", *args)
    return result.exit_code, [line for line in result.stdout.splitlines() if line and not line.startswith("Found")]


def test_profiles_and_config_are_checked_in_the_project_run(run, project: Path) -> None:
    code, lines = _concise(run)
    assert code == 1
    line, col = position_of(_PROFILE, '"missing"')
    assert f".pi/forge/agent-profiles/reviewer.json:{line}:{col}: FG529 [error] Unknown prompt stack: missing." in lines
    line, col = position_of(_CONFIG, "5")
    assert any(entry.startswith(f".pi/forge/config.json:{line}:{col}: FG574 [warning]") for entry in lines)
    assert len(lines) == len(set(lines)) == 2  # each problem once; no model check without a catalog


def test_without_a_catalog_one_note_says_models_were_not_checked(run, project: Path) -> None:
    result = run("validate")
    assert result.stderr.count("No model catalog is configured") == 1
    assert "FG552" in result.stderr
    assert "FG542" not in result.stdout


def test_a_project_catalog_brings_the_model_checks(run, project: Path) -> None:
    write_text(project / ".pi" / "forge" / "models.yaml", _CATALOG)
    _, lines = _concise(run)
    line, col = position_of(_PROFILE, '"xhigh"')
    expected = (
        f".pi/forge/agent-profiles/reviewer.json:{line}:{col}: FG542 [error] "
        "Model acme/fast-1 does not support thinking level xhigh; Pi would clamp it to high."
    )
    assert expected in lines
    assert not any("FG541" in entry for entry in lines)  # credentials only with --check-auth
    assert "No model catalog" not in run("validate").stderr


def test_check_auth_requires_the_credentials_variable(run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_text(project / ".pi" / "forge" / "models.yaml", _CATALOG)
    monkeypatch.delenv("FORGEC_TEST_ACME_KEY", raising=False)
    _, lines = _concise(run, "--check-auth")
    assert any("FG541 [error] Model acme/fast-1 has no configured authentication." in entry for entry in lines)
    monkeypatch.setenv("FORGEC_TEST_ACME_KEY", "set")
    _, lines = _concise(run, "--check-auth")
    assert not any("FG541" in entry for entry in lines)


def test_a_broken_catalog_is_reported_at_its_place_and_the_run_goes_on(run, project: Path, tmp_path: Path) -> None:
    text = '{"models": [{"provider": "acme", "id": "fast-1", "api": "openai-completions", "maxTokens": 1}]}'
    write_text(tmp_path / "extra.json", text)
    result = run("validate", "--format", "concise", "--models", "extra.json")
    assert result.exit_code == 1
    assert "extra.json:1:13: FG812 [error] models/0: 'contextWindow' is a required property" in result.stdout
    assert "FG529" in result.stdout  # the profile was still checked
    assert "Traceback" not in result.output


def test_global_dir_adds_the_user_global_folder(run, project: Path, tmp_path: Path) -> None:
    global_dir = tmp_path / "g"
    write_text(global_dir / "agent-profiles" / "solo.json", _PROFILE.replace('"reviewer"', '"solo"'))
    result = run("validate", "--format", "concise", "--global-dir", str(global_dir))
    assert f"{global_dir}/agent-profiles/solo.json:" in result.stdout
    assert result.stdout.count("Unknown prompt stack: missing.") == 2


def test_every_format_carries_the_positions(run, project: Path) -> None:
    line, col = position_of(_PROFILE, '"missing"')
    data = json.loads(run("validate", "--format", "json").stdout)
    by_kind = {entry["kind"]: entry for entry in data["files"]}
    assert set(by_kind) == {"stack", "profile", "config"}
    diagnostic = by_kind["profile"]["diagnostics"][0]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("FG529", line, col)
    github = run("validate", "--format", "github").stdout
    assert f"file=.pi/forge/agent-profiles/reviewer.json,line={line},col={col}" in github
    sarif = json.loads(run("validate", "--format", "sarif").stdout)
    regions = [
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in sarif["runs"][0]["results"]
    ]
    assert (".pi/forge/agent-profiles/reviewer.json", line) in regions
    full = run("validate", "--no-color").stdout
    assert f"--> .pi/forge/agent-profiles/reviewer.json:{line}:{col}" in full


def test_a_profile_file_named_directly_is_recognised(run, tmp_path: Path) -> None:
    write_text(tmp_path / "loose.json", _PROFILE)
    result = run("validate", "--format", "concise", "loose.json")
    assert result.exit_code == 0, result.output  # a loose profile has no stacks to resolve against
    assert "FG1" not in result.stdout  # not read as a prompt stack


def test_without_path_the_user_global_folder_is_checked_too(
    run, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    global_dir = tmp_path / "home-forge"
    write_text(global_dir / "agent-profiles" / "solo.json", _PROFILE.replace('"reviewer"', '"solo"'))
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(global_dir))
    shown = f"{global_dir}/agent-profiles/solo.json:"
    assert shown in run("validate", "--format", "concise").stdout
    assert shown not in run("validate", "--format", "concise", "--no-global").stdout
    assert shown not in run("validate", "--format", "concise", ".").stdout  # a PATH names only itself
    assert run("validate", "--no-global", "--global-dir", str(global_dir)).exit_code == 2


def test_a_file_named_twice_is_reported_once(run, project: Path, tmp_path: Path) -> None:
    global_dir = tmp_path / "g"
    solo = write_text(global_dir / "agent-profiles" / "solo.json", _PROFILE.replace('"reviewer"', '"solo"'))
    profile = ".pi/forge/agent-profiles/reviewer.json"
    _, lines = _concise(run, "--global-dir", str(global_dir), str(solo), profile, ".", ".pi/forge/config.json")
    assert len(lines) == len(set(lines)) == 3  # two FG529 and one FG574, each once
    assert sum("Unknown prompt stack: missing." in entry for entry in lines) == 2
