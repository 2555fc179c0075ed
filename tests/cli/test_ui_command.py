"""``forgec ui``'s command line: the help, and the refusals before any server starts (the server
itself is tested in tests/web/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def test_help_teaches(run) -> None:
    result = run("ui", "--help")
    assert result.exit_code == 0
    for words in ("127.0.0.1", "token", "--read-only", "--global", "--port", "webEditor.port", "Examples:", "conflict"):
        assert words in result.stdout, words


def test_listed_in_the_command_table(run) -> None:
    assert "ui " in run("--help").stdout


def test_without_the_extra_it_says_what_to_install(run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if the [ui] extra were not installed
    result = run("ui", ".")
    assert result.exit_code == 2
    assert 'pip install "forgec[ui]"' in result.stderr
    assert "Traceback" not in result.output


def test_a_file_is_not_a_project(run, tmp_path: Path) -> None:
    (tmp_path / "stack.json").write_text("{}")
    result = run("ui", "stack.json")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
