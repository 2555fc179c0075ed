"""``--help`` teaches: every command's help has examples and the exit codes, and ``snapshot``'s help
says what PATHS are.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command", [(), ("validate",), ("schema",), ("rule",), ("preview",), ("compile",),
                                     ("fingerprint",), ("import-silly",), ("snapshot",), ("snapshot", "check"),
                                     ("snapshot", "update"), ("plan",), ("run",), ("cache-check",), ("diff",),
                                     ("tokens",)])
def test_every_help_has_examples_and_exit_codes(run, command: tuple[str, ...]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert "Examples:" in text and "forgec " in text.split("Examples:", 1)[1]
    assert "Exit codes:" in text


def test_snapshot_help_says_what_paths_are(run) -> None:
    text = run("snapshot", "check", "--help").stdout
    assert "PATHS are stack files or folders" in text and "without PATHS, the current project's" in text
