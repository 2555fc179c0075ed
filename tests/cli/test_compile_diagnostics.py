"""``forgec compile`` and the diagnostics of the compile.

A compile error (an unresolved macro under ``unresolvedMacroPolicy: error``) makes ``compile`` exit 1,
for one target and for ``--target all``; the body is still printed and each error is printed once, at
the macro's ``file:line:col``.  Without errors stderr stays empty (warnings need ``--verbose``).
"""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import CLEAN_STACK, write_json


def _macro_error_stack(tmp_path: Path) -> Path:
    return write_json(
        tmp_path / "m.json",
        {
            "schemaVersion": 1,
            "id": "m",
            "defaults": {"unresolvedMacroPolicy": "error"},
            "items": [
                {"kind": "block", "id": "sys", "role": "system", "content": "x {{getvar::}} y"},
                {"kind": "slot", "id": "h", "slot": "chat-history"},
            ],
        },
    )


def test_compile_prints_compile_errors_and_exits_1(run, tmp_path: Path) -> None:
    _macro_error_stack(tmp_path)
    preview = run("preview", "m.json")
    assert preview.exit_code == 1
    result = run("compile", "m.json", "--target", "anthropic-messages")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["model"]  # the body is still printed
    # reported by both the system and the messages compile: printed once, at the macro
    errors = [ln for ln in result.stderr.splitlines() if "[error]" in ln]
    text = (tmp_path / "m.json").read_text()
    line = text[: text.index("{{getvar")].count("\n") + 1
    column = text.index("{{getvar") - text.rfind("\n", 0, text.index("{{getvar"))
    assert errors == [f"m.json:{line}:{column}: FG202 [error] Unresolved macro: {{{{getvar::}}}}"]
    all_targets = run("compile", "m.json", "--target", "all")
    assert all_targets.exit_code == 1 and "FG202 [error]" in all_targets.stderr


def test_compile_warnings_only_with_verbose(run, tmp_path: Path) -> None:
    write_json(tmp_path / "c.json", CLEAN_STACK)
    quiet = run("compile", "c.json", "--target", "anthropic-messages")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert "--verbose" in run("compile", "--help").stdout
