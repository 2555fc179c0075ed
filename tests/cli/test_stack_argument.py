"""``preview`` and ``compile`` read STACK, ``--stdin-filename`` and ``--context`` the same way.

Both go through :func:`forgec.cli._common.compile_stack_argument`; these tests pin the shared
contract from the outside, for both commands, so neither can drift from the other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, write_json

#: the extra arguments each command needs to produce its JSON output
COMMANDS = {
    "preview": ("--format", "json"),
    "compile": ("--target", "anthropic-messages"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_stdin_filename_without_dash_is_a_usage_error(run, tmp_path: Path, command: str) -> None:
    write_json(tmp_path / "s.json", CLEAN_STACK)
    result = run(command, "s.json", "--stdin-filename", "x.json", *COMMANDS[command])
    assert result.exit_code == 2
    assert "--stdin-filename needs STACK '-' (the stack is read from standard input)" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_stdin_yaml_is_named_by_stdin_filename(run, command: str) -> None:
    yaml_stack = "schemaVersion: 1\nid: piped\nitems:\n  - {kind: block, id: r, role: system, content: Hi}\n"
    result = run(command, "-", "--stdin-filename", "piped.yaml", *COMMANDS[command], input=yaml_stack)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    if command == "preview":
        assert doc["validation"]["file"] == "piped.yaml" and doc["system"]["prompt"] == "Hi"
    else:
        assert doc["system"][0]["text"] == "Hi"
