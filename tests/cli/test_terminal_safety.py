"""Control characters never reach the terminal raw.

``validate --format github``, ``json`` and ``sarif`` and ``preview --format markdown`` show escape
sequences, BEL, C1 controls and bidi marks as visible escapes (shown, not stripped: stripping would
change the facts), and escaped ``|`` and newlines keep a Markdown table row in one piece.
"""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import dup_stack as _dup_stack
from .helpers import write_json


def test_github_format_escapes_controls_visibly(run, tmp_path: Path) -> None:
    """CSI is shown, not stripped (stripping changes facts); OSC, BEL and raw C1 CSI are shown too."""
    write_json(tmp_path / "n\x1b[31mame.json", _dup_stack("dev\x1b[2Jeloper\x07\x9b2J\x1b]0;t\x07"))
    result = run("validate", "--format", "github", "n\x1b[31mame.json")
    assert result.exit_code == 1
    (line,) = [ln for ln in result.stdout.splitlines() if "Duplicate item id" in ln]
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in result.stdout
    assert "file=n\\x1b[31mame.json" in line
    assert line.endswith("::Duplicate item id: dev\\x1b[2Jeloper\\x07\\x9b2J\\x1b]0;t\\x07")


def test_json_and_sarif_escape_c1_controls(run, tmp_path: Path) -> None:
    write_json(tmp_path / "a.json", _dup_stack("x\x9by\u202e"))
    for fmt in ("json", "sarif"):
        result = run("validate", "--format", fmt, "a.json")
        assert "\x9b" not in result.stdout and "\u202e" not in result.stdout
        assert "x\\u009by\\u202e" in result.stdout
        assert "x\x9by\u202e" in json.dumps(json.loads(result.stdout), ensure_ascii=False)


def test_preview_markdown_escapes_ids_and_keeps_table_cells(run, tmp_path: Path) -> None:
    stack = {
        "schemaVersion": 1,
        "id": "s\x1b[2J",
        "items": [
            {"kind": "block", "id": "sys", "role": "system", "content": "hi \x1b]0;title\x07"},
            {"kind": "block", "id": "a|b\x1b[31m", "name": "t|1\nx\x07", "role": "user", "content": "yo"},
        ],
    }
    write_json(tmp_path / "s.json", stack)
    result = run("preview", "s.json", "--format", "markdown")
    out = result.stdout
    assert "\x1b" not in out and "\x07" not in out
    assert "hi \\x1b]0;title\\x07" in out
    (row,) = [ln for ln in out.splitlines() if ln.startswith("| 1 |")]
    assert row == "| 1 | user | t\\|1\\nx\\x07 | stack item a\\|b\\x1b[31m |"
    assert row.count(" | ") == 3  # four cells: the escaped pipes and the newline do not split the row
    assert "### 1. t|1\\nx\\x07 (user)" in out
