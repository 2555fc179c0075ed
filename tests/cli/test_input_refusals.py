"""Inputs forgec refuses with a one-line message and exit code 2, never a traceback or a silent guess.

An empty PATH (``forgec validate "$STACK"`` with STACK unset), missing files (also reported inside the
SARIF and JSON documents), symbolic-link loops, a file in a folder without search permission, and
``--isolated`` together with ``--config``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, write_json, write_text


@pytest.mark.parametrize("args", [("validate", ""), ("validate", "a.json", ""), ("snapshot", "check", ""),
                                  ("snapshot", "update", ""), ("fingerprint", "")])
def test_an_empty_path_is_a_usage_error(run, tmp_path: Path, args: tuple[str, ...]) -> None:
    """``forgec validate "$STACK"`` with STACK unset used to check the current folder instead
    (``snapshot`` even wrote golden files there)."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    result = run(*args)
    assert result.exit_code == 2
    assert "an empty PATH ('') was given" in result.stderr
    assert not (tmp_path / "__golden__").exists()


def test_sarif_and_json_report_missing_paths(run, tmp_path: Path) -> None:
    write_json(tmp_path / "good.json", CLEAN_STACK)
    sarif = run("validate", "--format", "sarif", "good.json", "missing.json")
    assert sarif.exit_code == 2
    (invocation,) = json.loads(sarif.stdout)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert note["message"]["text"] == "missing.json: no such file or directory"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "missing.json"

    doc = json.loads(run("validate", "--format", "json", "good.json", "missing.json").stdout)
    assert doc["errors"] == [{"path": "missing.json", "message": "no such file or directory"}]
    assert doc["summary"]["exitCode"] == 2
    clean = json.loads(run("validate", "--format", "json", "good.json").stdout)
    assert clean["errors"] == []
    ok = json.loads(run("validate", "--format", "sarif", "good.json").stdout)["runs"][0]["invocations"][0]
    assert ok["executionSuccessful"] is True and "toolExecutionNotifications" not in ok


def test_a_symbolic_link_loop_is_named_as_such(run, tmp_path: Path) -> None:
    """``forgec validate loop`` used to say "no such file or directory" for a link that exists."""
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for args in (("validate", "loop1"), ("snapshot", "check", "loop1")):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.endswith(
            "error: loop1: a symbolic link that cannot be followed (a loop, or its target is missing)\n")


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``locked/`` behaves like a folder with mode 0600 for a non-root user: the folder itself can be
    looked at, nothing inside it can (every ``stat`` fails with EACCES).  Simulated, because the
    tests may run as root, for whom permissions do not apply."""
    import pathlib

    folder = tmp_path / "locked"
    write_json(folder / "a.json", CLEAN_STACK)
    real_stat = pathlib.Path.stat

    def stat(self: pathlib.Path, *, follow_symlinks: bool = True) -> os.stat_result:
        if Path(os.path.abspath(self)).parent == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(pathlib.Path, "stat", stat)
    return folder


@pytest.mark.parametrize("command", [("validate",), ("validate", "--format", "json"), ("snapshot", "check")])
def test_a_file_in_a_folder_without_search_permission(run, locked: Path, command: tuple[str, ...]) -> None:
    """``forgec validate locked/a.json`` used to end in ``internal error: PermissionError`` (looking for
    pyproject.toml next to it, then checking that the file exists)."""
    result = run(*command, "locked/a.json")
    assert result.exit_code == 2
    assert "internal error" not in result.stderr
    assert result.stderr.endswith("error: locked/a.json: cannot be read (permission denied)\n")


def test_isolated_and_config_conflict(run, tmp_path: Path) -> None:
    """``--isolated --config FILE`` used to ignore FILE silently."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "pyproject.toml", "[tool.forgec]\nstrict = true\n")
    result = run("validate", "a.json", "--isolated", "--config", "pyproject.toml")
    assert result.exit_code == 2
    assert "--isolated ignores every configuration file" in result.stderr
