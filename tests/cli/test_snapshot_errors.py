"""``forgec snapshot`` errors name the command (``forgec snapshot check: error: …``) for a missing path,
``-`` and a folder without stacks; an unexpected failure is an internal error with exit 2, not a
traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, write_json


def test_snapshot_errors_name_the_command(run, tmp_path: Path) -> None:
    missing = run("snapshot", "check", "missing.json")
    assert missing.exit_code == 2
    assert missing.stderr == "forgec snapshot check: error: missing.json: no such file or directory\n"
    stdin = run("snapshot", "update", "-")
    assert stdin.exit_code == 2
    assert stdin.stderr.startswith("forgec snapshot update: error: golden files belong to stack files")
    outside = run("snapshot", "check")
    assert outside.exit_code == 2
    assert outside.stderr.startswith("forgec snapshot check: error: no prompt stacks found:")


def test_snapshot_unexpected_failure_is_an_internal_error_not_a_traceback(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import forgec.snapshots

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(forgec.snapshots, "check", boom)
    write_json(tmp_path / "a.json", CLEAN_STACK)
    result = run("snapshot", "check", "a.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("forgec snapshot check: internal error: RuntimeError: boom\n")
