"""``forgec profile list|validate|show|resolve`` over a real project and global folder on disk.

The texts are pi-forge's (profiles-exec.md §1.3-§1.9); what the command adds is positions, the
scope it found a profile in, and -- for ``resolve`` -- what the resolution looked at and why a
profile cannot be used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import position_of, write_json, write_text

_CATALOG = """models:
  - provider: acme
    id: fast-1
    api: openai-completions
    reasoning: true
    contextWindow: 128000
    maxTokens: 8192
    auth: {env: FORGEC_TEST_ACME_KEY}
  - provider: acme
    id: plain
    api: openai-completions
    reasoning: false
    contextWindow: 32000
    maxTokens: 4096
"""


def _profile(profile_id: str, **extra: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "schemaVersion": 1,
        "type": "pi-forge.agent-profile",
        "id": profile_id,
        "model": {"provider": "acme", "id": "fast-1"},
        "thinkingLevel": "high",
        "promptStack": None,
    }
    doc.update(extra)
    return doc


def _stack(stack_id: str, **extra: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "schemaVersion": 1,
        "id": stack_id,
        "items": [{"kind": "slot", "id": "history", "slot": "chat-history"}],
    }
    doc.update(extra)
    return doc


@pytest.fixture
def project(tmp_path: Path) -> Path:
    forge = tmp_path / ".pi" / "forge"
    write_json(forge / "agent-profiles" / "reviewer.json", _profile("reviewer", promptStack="review"))
    write_json(forge / "prompt-stacks" / "review.json", _stack("review"))
    write_text(forge / "models.yaml", _CATALOG)
    return tmp_path


def test_list_shows_both_scopes_and_shadowing(run, project: Path, tmp_path: Path) -> None:
    global_dir = tmp_path / "g"
    write_json(global_dir / "agent-profiles" / "reviewer.json", _profile("reviewer"))
    write_json(global_dir / "agent-profiles" / "writer.json", _profile("writer", autoActivate=True))
    result = run("profile", "list", "--global-dir", str(global_dir), "--format", "json")
    assert result.exit_code == 0, result.output
    rows = {row["key"]: row for row in json.loads(result.stdout)["profiles"]}
    assert set(rows) == {"project:reviewer", "global:reviewer", "global:writer"}
    assert rows["global:reviewer"]["shadowed"] is True
    assert rows["project:reviewer"]["shadowed"] is False
    assert rows["global:writer"]["autoActivated"] is True
    text = run("profile", "list", "--global-dir", str(global_dir)).stdout
    assert "global:reviewer" in text and "shadowed" in text and "auto-activates" in text


def test_resolve_explains_a_usable_profile(run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORGEC_TEST_ACME_KEY", "secret-value-never-printed")
    result = run("profile", "resolve", "reviewer")
    assert result.exit_code == 0, result.output
    assert "acme/fast-1  (from .pi/forge/models.yaml)" in result.stdout
    assert "FORGEC_TEST_ACME_KEY is set" in result.stdout
    assert "project:review  (.pi/forge/prompt-stacks/review.json, usable)" in result.stdout
    assert "verdict         usable" in result.stdout
    assert "secret-value-never-printed" not in result.output


def test_resolve_says_why_a_profile_cannot_be_used(run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORGEC_TEST_ACME_KEY", raising=False)
    forge = project / ".pi" / "forge"
    write_json(forge / "agent-profiles" / "clamped.json", _profile("clamped", model={"provider": "acme", "id": "plain"}))
    write_json(forge / "agent-profiles" / "ghost.json", _profile("ghost", model={"provider": "acme", "id": "nope"}))
    result = run("profile", "resolve", "clamped", "ghost", "reviewer")
    assert result.exit_code == 1
    out = result.stdout
    # §1.9: a clamp is an error, with Pi's own words; the model not in the catalog says where it looked
    assert "ERROR: thinkingLevel: Model acme/plain does not support thinking level high; Pi would clamp it to off." in out
    assert "thinking level  high  (Pi would clamp it to off)" in out
    assert "acme/nope  (not in the bundled catalog, .pi/forge/models.yaml)" in out
    assert "ERROR: model: Unknown model: acme/nope" in out
    assert "FORGEC_TEST_ACME_KEY is NOT set" in out
    assert "ERROR: model: Model acme/fast-1 has no configured authentication." in out
    assert out.count("cannot be used") == 3


def test_resolve_reports_an_unusable_stack_and_unmatched_tool_patterns(run, project: Path, tmp_path: Path) -> None:
    forge = project / ".pi" / "forge"
    write_json(forge / "prompt-stacks" / "review.json", _stack("review", tools={"allow": ["read", "paint_*"]}))
    write_json(tmp_path / "ctx.json", {"tools": [{"name": "read", "description": "Read a file."}]})
    result = run("profile", "resolve", "reviewer", "--context", "ctx.json", "--format", "json")
    resolution = json.loads(result.stdout)["resolutions"][0]
    messages = [d["message"] for d in resolution["diagnostics"]]
    assert 'Prompt stack review allows tool pattern "paint_*", but it matches no registered tools.' in messages
    text = run("profile", "resolve", "reviewer", "--context", "ctx.json").stdout
    assert "context tools   read" in text


def test_resolve_without_selector_takes_the_auto_activated_profile(run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORGEC_TEST_ACME_KEY", "x")
    forge = project / ".pi" / "forge"
    write_json(forge / "agent-profiles" / "auto.json", _profile("auto", autoActivate=True))
    result = run("profile", "resolve")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("project:auto  (.pi/forge/agent-profiles/auto.json)")
    assert "project:reviewer" not in result.stdout


def test_unknown_selector_is_a_usage_error_naming_the_known_ones(run, project: Path) -> None:
    result = run("profile", "resolve", "nobody")
    assert result.exit_code == 2
    assert "no agent profile 'nobody' (known: project:reviewer)" in result.stderr
    assert "Traceback" not in result.output


def test_validate_points_at_the_field(run, project: Path) -> None:
    text = json.dumps(_profile("bad", thinkingLevel="loud", promptStack="missing"), indent=2)
    write_text(project / ".pi" / "forge" / "agent-profiles" / "bad.json", text)
    result = run("profile", "validate", "bad")
    assert result.exit_code == 1
    line, col = position_of(text, '"missing"')
    assert f".pi/forge/agent-profiles/bad.json:{line}:{col}" in result.stdout
    assert "Unknown prompt stack: missing." in result.stdout
    data = json.loads(run("profile", "validate", "bad", "--format", "json").stdout)
    fields = [d["field"] for d in data["profiles"][0]["diagnostics"]]
    assert "thinkingLevel" in fields and "promptStack" in fields


def test_validate_of_clean_profiles_passes(run, project: Path) -> None:
    result = run("profile", "validate")
    assert result.exit_code == 0, result.output
    assert "All checks passed (1 profile)." in result.stderr


def test_show_prints_the_normalised_profile_and_its_fingerprint(run, project: Path) -> None:
    result = run("profile", "show", "project:reviewer", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["file"] == ".pi/forge/agent-profiles/reviewer.json"
    assert doc["fingerprints"]["profile"].startswith("sha256:v1:")
    from forgec.fingerprint import sha256_v1

    assert doc["fingerprints"]["profile"] == sha256_v1(doc["profile"])


def test_untrusted_reads_global_profiles_only(run, project: Path, tmp_path: Path) -> None:
    global_dir = tmp_path / "g"
    write_json(global_dir / "agent-profiles" / "solo.json", _profile("solo"))
    result = run("profile", "list", "--global-dir", str(global_dir), "--untrusted", "--format", "json")
    assert [row["key"] for row in json.loads(result.stdout)["profiles"]] == ["global:solo"]


def test_a_broken_context_file_is_a_clean_usage_error(run, project: Path, tmp_path: Path) -> None:
    write_text(tmp_path / "ctx.json", "{not json")
    result = run("profile", "resolve", "reviewer", "--context", "ctx.json")
    assert result.exit_code == 2
    assert "ctx.json" in result.stderr
    assert "Traceback" not in result.output


def test_control_characters_from_a_profile_never_reach_the_terminal_raw(run, project: Path) -> None:
    forge = project / ".pi" / "forge"
    write_json(forge / "agent-profiles" / "odd.json", _profile("odd", promptStack="\x1b[2Jgone\u009b"))
    for args in (("list",), ("show", "odd"), ("resolve", "odd"), ("resolve", "odd", "--format", "json")):
        result = run("profile", *args)
        assert "\x1b" not in result.output and "\u009b" not in result.output, args
    assert "\\x1b[2Jgone" in run("profile", "list").stdout


def test_resolve_names_an_unusable_stack_and_its_errors(run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORGEC_TEST_ACME_KEY", "x")
    bad = _stack("review", items=[{"kind": "block", "id": "r", "role": "developer", "content": "x"}])
    write_json(project / ".pi" / "forge" / "prompt-stacks" / "review.json", bad)
    result = run("profile", "resolve", "reviewer")
    assert result.exit_code == 1
    assert "project:review  (.pi/forge/prompt-stacks/review.json, has errors)" in result.stdout
    assert "ERROR: promptStack: Prompt stack review: Invalid role: developer" in result.stdout
