"""The config updater on disk (profiles-exec.md §2.6): the scope's file, parents created, refusals that
leave the file alone, atomic replacement, Node's error texts."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from forgec.agents.config import (
    ForgeConfigPaths,
    load_subagent_settings,
    resolve_policy,
    update_profile_config,
)
from forgec.codecs.forge_config import ProfileConfigUpdate


@pytest.fixture
def paths(tmp_path: Path) -> ForgeConfigPaths:
    (tmp_path / "project").mkdir()
    return ForgeConfigPaths.for_project(tmp_path / "project", global_config=tmp_path / "home" / "forge" / "config.json")


def test_a_project_update_creates_the_file_and_its_folders(paths: ForgeConfigPaths) -> None:
    result = update_profile_config(paths, "reviewer", ProfileConfigUpdate(enabled=True, timeout_ms=120000))
    assert result.ok and result.to_json() == {"ok": True, "configPath": str(paths.project)}
    assert paths.project.read_text(encoding="utf-8") == (
        '{\n  "subagents": {\n    "profiles": {\n      "reviewer": {\n        "enabled": true,\n'
        '        "timeoutMs": 120000\n      }\n    }\n  }\n}\n'
    )
    policy = resolve_policy(load_subagent_settings(paths, trusted=True), "reviewer")
    assert (policy.enabled, policy.timeout.milliseconds, policy.timeout.source) == (True, 120000, "project-profile")


def test_a_global_update_goes_to_the_users_file(paths: ForgeConfigPaths) -> None:
    result = update_profile_config(paths, "assistant", ProfileConfigUpdate(enabled=True), scope="global")
    assert result.to_json() == {"ok": True, "configPath": str(paths.global_)}
    assert not paths.project.exists()
    settings = load_subagent_settings(paths, trusted=False)
    assert resolve_policy(settings, "global:assistant").enabled and not resolve_policy(settings, "assistant").enabled


def test_a_sequence_of_updates_keeps_unknown_fields(paths: ForgeConfigPaths) -> None:
    paths.project.parent.mkdir(parents=True)
    paths.project.write_text(json.dumps({"x": 1, "subagents": {"profiles": {"r": {"enabled": True, "n": 1}}}}))
    for update in (ProfileConfigUpdate(backend="b"), ProfileConfigUpdate(enabled=False), ProfileConfigUpdate(backend=None)):
        assert update_profile_config(paths, "r", update).ok
    assert json.loads(paths.project.read_text()) == {"x": 1, "subagents": {"profiles": {"r": {"n": 1}}}}
    assert update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True)).ok
    assert list(json.loads(paths.project.read_text())["subagents"]["profiles"]["r"]) == ["n", "enabled"]


@pytest.mark.parametrize(
    ("profile_id", "update", "error"),
    [
        ("bad id", ProfileConfigUpdate(enabled=True), "Invalid agent profile id: bad id"),
        ("r", ProfileConfigUpdate(backend=""), "subagent backend must be a non-empty string or null to clear the override."),
        ("r", ProfileConfigUpdate(timeout_ms=500),
         "subagent timeoutMs must be an integer from 1000 to 3600000 or null to clear the override."),
    ],
)
def test_invalid_input_is_refused_before_anything_is_touched(
    paths: ForgeConfigPaths, profile_id: str, update: ProfileConfigUpdate, error: str
) -> None:
    result = update_profile_config(paths, profile_id, update)
    assert result.to_json() == {"ok": False, "error": error}
    assert not paths.project.parent.exists()  # not even the folders


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{", "Refusing to update unreadable {path}: Expected property name or '}}' in JSON at position 1"),
        ("[]", "Refusing to update {path}: the config root must be a JSON object."),
        ('{"subagents": "x"}', "Refusing to update {path}: subagents must be a JSON object."),
        ('{"subagents": {"profiles": 1}}', "Refusing to update {path}: subagents.profiles must be a JSON object."),
        ('{"subagents": {"profiles": {"r": 42}}}', "Refusing to update {path}: subagents.profiles.r must be a JSON object."),
    ],
)
def test_a_file_of_the_wrong_shape_is_left_untouched(paths: ForgeConfigPaths, text: str, error: str) -> None:
    paths.project.parent.mkdir(parents=True)
    paths.project.write_text(text)
    before = paths.project.stat().st_mtime_ns
    result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    assert result.error == error.format(path=paths.project)
    assert paths.project.read_text() == text and paths.project.stat().st_mtime_ns == before
    assert sorted(p.name for p in paths.project.parent.iterdir()) == ["config.json"]


def test_a_folder_in_the_files_place_is_unreadable(paths: ForgeConfigPaths) -> None:
    paths.project.mkdir(parents=True)
    result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    assert result.error == f"Refusing to update unreadable {paths.project}: EISDIR: illegal operation on a directory, read"


def test_a_failed_write_leaves_the_old_file_whole_and_no_stray_file(
    paths: ForgeConfigPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths.project.parent.mkdir(parents=True)
    old = '{"subagents": {"profiles": {"r": {"enabled": true}}}}'
    paths.project.write_text(old)

    def no_space(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    result = update_profile_config(paths, "r", ProfileConfigUpdate(backend="b"))
    assert result.to_json() == {"ok": False, "error": f"Failed to write {paths.project}: ENOSPC: no space left on device, write"}
    assert paths.project.read_text() == old
    assert sorted(p.name for p in paths.project.parent.iterdir()) == ["config.json"]


def test_a_file_where_a_folder_must_be_fails_with_nodes_mkdir_text(paths: ForgeConfigPaths) -> None:
    (paths.root / ".pi").write_text("not a folder")
    result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    assert result.error == (
        f"Failed to write {paths.project}: ENOTDIR: not a directory, mkdir '{paths.project.parent}'"
    )
    (paths.root / ".pi").unlink()
    (paths.root / ".pi").mkdir()
    (paths.root / ".pi" / "forge").write_text("not a folder")
    result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    assert result.error == f"Failed to write {paths.project}: EEXIST: file already exists, mkdir '{paths.project.parent}'"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_fails_with_nodes_open_text(paths: ForgeConfigPaths) -> None:
    paths.project.parent.mkdir(parents=True)
    paths.project.parent.chmod(0o500)
    try:
        result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    finally:
        paths.project.parent.chmod(0o700)
    assert result.error == f"Failed to write {paths.project}: EACCES: permission denied, open '{paths.project}'"


def test_a_linked_config_is_written_through_the_link(paths: ForgeConfigPaths, tmp_path: Path) -> None:
    shared = tmp_path / "shared.json"
    shared.write_text('{"keep": true}')
    paths.project.parent.mkdir(parents=True)
    paths.project.symlink_to(shared)
    assert update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True)).ok
    assert paths.project.is_symlink()
    assert json.loads(shared.read_text()) == {"keep": True, "subagents": {"profiles": {"r": {"enabled": True}}}}


def test_a_replaced_file_keeps_its_mode(paths: ForgeConfigPaths) -> None:
    paths.project.parent.mkdir(parents=True)
    paths.project.write_text("{}")
    paths.project.chmod(0o600)
    assert update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True)).ok
    assert paths.project.stat().st_mode & 0o777 == 0o600


def test_a_refused_temporary_file_reports_nodes_open_text(
    paths: ForgeConfigPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    result = update_profile_config(paths, "r", ProfileConfigUpdate(enabled=True))
    assert result.error == f"Failed to write {paths.project}: EACCES: permission denied, open '{paths.project}'"
    assert not paths.project.exists()
