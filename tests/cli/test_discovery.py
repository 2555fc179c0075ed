"""Project discovery (compile-core §10.1): primary and legacy folders, shadowing, folder groups."""

from __future__ import annotations

import json
from pathlib import Path

from forgec.workspace import expand_paths, project_root_of

from .helpers import CLEAN_STACK, write_json

PRIMARY = Path(".pi/forge/prompt-stacks")
LEGACY = Path(".pi/prompt-stacks")


def _stack(stack_id: str) -> dict:
    return {**CLEAN_STACK, "id": stack_id}


def _paths(run, *args: str, cwd: Path | None = None) -> list[tuple[str, str]]:
    result = run("validate", "--format", "json", *args, cwd=cwd)
    return [(f["path"], f["stackId"]) for f in json.loads(result.stdout)["files"]]


def test_default_discovery_with_legacy_shadowing(run, tmp_path: Path) -> None:
    write_json(tmp_path / PRIMARY / "a.json", _stack("a-new"))
    write_json(tmp_path / LEGACY / "a.json", _stack("a-legacy"))  # shadowed
    write_json(tmp_path / LEGACY / "b.json", _stack("b"))
    write_json(tmp_path / "elsewhere.json", _stack("not-discovered"))
    assert _paths(run) == [
        (str(PRIMARY / "a.json"), "a-new"),
        (str(LEGACY / "b.json"), "b"),
    ]
    assert run("validate").exit_code == 0


def test_discovery_from_project_root_argument(run, tmp_path: Path) -> None:
    write_json(tmp_path / "proj" / PRIMARY / "a.json", _stack("a"))
    assert _paths(run, "proj") == [(str("proj" / PRIMARY / "a.json"), "a")]


def test_no_stacks_outside_a_project_is_a_usage_error(run, tmp_path: Path) -> None:
    result = run("validate")
    assert result.exit_code == 2
    assert result.stdout == ""  # no "All checks passed (0 files checked)"
    assert "forgec validate: error: no prompt stacks found:" in result.stderr
    assert "not a Pi project (looked for .pi/forge/prompt-stacks and .pi/prompt-stacks)" in result.stderr
    assert str(tmp_path.resolve()) in result.stderr


def test_project_without_stack_files_is_a_usage_error(run, tmp_path: Path) -> None:
    (tmp_path / PRIMARY).mkdir(parents=True)
    (tmp_path / PRIMARY / "notes.txt").write_text("x")
    result = run("validate")
    assert result.exit_code == 2
    assert "no stack files (*.json, *.yaml, *.yml) found in" in result.stderr


def test_folder_without_stack_files_is_a_usage_error(run, tmp_path: Path) -> None:
    (tmp_path / "typo").mkdir()
    result = run("validate", "typo")
    assert result.exit_code == 2
    assert result.stderr == "forgec validate: error: typo: no stack files (*.json, *.yaml, *.yml) found\n"
    assert result.stdout == ""


def test_file_in_stack_folder_gets_cross_file_duplicate_ids(run, tmp_path: Path) -> None:
    write_json(tmp_path / PRIMARY / "one.json", _stack("same"))
    write_json(tmp_path / LEGACY / "two.json", _stack("same"))
    result = run("validate", "--format", "json", str(PRIMARY / "one.json"))
    assert result.exit_code == 1
    (entry,) = json.loads(result.stdout)["files"]  # only the file asked for is reported
    assert entry["path"] == str(PRIMARY / "one.json")
    messages = [d["message"] for d in entry["diagnostics"]]
    assert messages == ["Duplicate project stack id: same appears in multiple files (one.json, two.json)."]
    assert entry["usable"] is False


def test_shadowed_legacy_file_is_checked_on_its_own(run, tmp_path: Path) -> None:
    write_json(tmp_path / PRIMARY / "a.json", _stack("same"))
    write_json(tmp_path / LEGACY / "a.json", _stack("same"))
    result = run("validate", "--format", "json", str(LEGACY / "a.json"))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"][0]["diagnostics"] == []


def test_plain_folder_is_scanned_for_json_and_yaml_not_recursively(run, tmp_path: Path) -> None:
    write_json(tmp_path / "stacks" / "b.json", _stack("b"))
    (tmp_path / "stacks" / "a.yaml").write_text(
        "schemaVersion: 1\nid: a\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n"
    )
    (tmp_path / "stacks" / "notes.txt").write_text("not a stack")
    write_json(tmp_path / "stacks" / "nested" / "c.json", _stack("c"))
    assert _paths(run, "stacks") == [("stacks/a.yaml", "a"), ("stacks/b.json", "b")]
    assert _paths(run, "stacks/") == [("stacks/a.yaml", "a"), ("stacks/b.json", "b")]


def test_expand_paths_reports_missing(tmp_path: Path) -> None:
    found = expand_paths(["nope", str(tmp_path)], cwd=tmp_path)
    assert found.errors == [
        "nope: no such file or directory",
        f"{tmp_path}: no stack files (*.json, *.yaml, *.yml) found",  # an empty folder is a usage error
    ]
    assert len(found.targets) == 0


def test_project_root_of(tmp_path: Path) -> None:
    assert project_root_of(tmp_path / PRIMARY) == tmp_path.resolve()
    assert project_root_of(tmp_path / LEGACY) == tmp_path.resolve()
    assert project_root_of(tmp_path / "prompt-stacks") is None


def test_the_project_is_found_upward_but_never_in_the_global_folder(tmp_path: Path) -> None:
    """``Environment.discover`` (hence the catalog and the profiles) finds the Pi project from a
    file or a subfolder, as git finds its repository; ``~/.pi/forge`` does not make ``~`` a project."""
    from forgec.environment import Environment
    from forgec.workspace import find_project_root

    project = tmp_path / "home" / "code"
    stack = project / ".pi" / "forge" / "prompt-stacks" / "a.json"
    stack.parent.mkdir(parents=True)
    stack.write_text("{}", encoding="utf-8")
    (project / "src" / "deep").mkdir(parents=True)
    assert find_project_root(stack) == project.resolve()
    assert find_project_root(project / "src" / "deep") == project.resolve()
    assert Environment.discover(project / "src").root == project.resolve()
    elsewhere = tmp_path / "home" / "notes"
    elsewhere.mkdir()
    (tmp_path / "home" / ".pi" / "forge" / "agent-profiles").mkdir(parents=True)
    assert find_project_root(elsewhere, tmp_path / "home" / ".pi" / "forge") is None
    assert find_project_root(elsewhere, tmp_path / "other") == (tmp_path / "home").resolve()


def test_a_stack_named_twice_is_reported_once(run, tmp_path: Path) -> None:
    stacks = tmp_path / ".pi" / "forge" / "prompt-stacks"
    write_json(stacks / "a.json", {"schemaVersion": 1, "id": "a", "items": []})
    result = run("validate", "--format", "concise", ".pi/forge/prompt-stacks/a.json", ".", ".pi/forge/prompt-stacks")
    assert result.stdout.count("FG142") == 1
    assert "in 1 file." in result.stdout
