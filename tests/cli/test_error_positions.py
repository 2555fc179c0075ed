"""Diagnostics point at their place.

``snapshot`` and ``preview`` print loader errors as ``file:line:col`` (pi-forge's own sections have
no positions), a broken model catalog is reported at its line and column, and the ``full`` format's
caret stays under the right column after wide characters and emoji.
"""

from __future__ import annotations

from pathlib import Path

from .helpers import CLEAN_STACK, position_of, write_json, write_text

_BAD_ROLE = '{"schemaVersion": 1, "id": "b", "items": [\n  {"kind": "block", "id": "a", "role": "developer", "content": "x"}]}'


def test_snapshot_shows_loader_errors_with_their_position(run, tmp_path: Path) -> None:
    write_text(tmp_path / "bad.json", _BAD_ROLE)
    line, col = position_of(_BAD_ROLE, '"developer"')
    result = run("snapshot", "check", "bad.json")
    assert result.exit_code == 1
    assert f"           bad.json:{line}:{col}: FG118 [error] Invalid role: developer\n" in result.stdout


def test_preview_prints_loader_errors_with_their_position(run, tmp_path: Path) -> None:
    """pi-forge's Diagnostics section has no positions; stderr gives file:line:col, as compile does."""
    write_text(tmp_path / "bad.json", _BAD_ROLE)
    line, col = position_of(_BAD_ROLE, '"developer"')
    result = run("preview", "bad.json")
    assert result.exit_code == 1
    assert result.stderr == f"bad.json:{line}:{col}: FG118 [error] Invalid role: developer\n"
    assert "ERROR [a]: Invalid role: developer" in result.stdout


def test_a_broken_models_catalog_is_reported_at_its_position(run, tmp_path: Path) -> None:
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "cat.json", '{"models": [\n  ,]}')
    result = run("compile", "a.json", "--target", "all", "--models", "cat.json")
    assert result.exit_code == 2
    # read like every other JSON input: V8's JSON.parse message, at the character that broke it
    assert result.stderr.startswith("forgec compile: error: cat.json:2:3: invalid model catalog: Failed to parse JSON: Unexpected token ','")


def test_full_format_caret_under_emoji(run, tmp_path: Path) -> None:
    name = "❤️👨\u200d👩\u200d👧日e\u0301"
    text = (
        '{"schemaVersion": 1, "id": "s", "items": [\n'
        '{"kind": "slot", "id": "h", "slot": "chat-history"},\n'
        '{"kind": "block", "id": "d", "role": "user", "content": "a"},\n'
        f'{{"kind": "block", "name": "{name}", "id": "d", "role": "user", "content": "b"}}\n'
        "]}\n"
    )
    write_text(tmp_path / "a.json", text)
    result = run("validate", "--no-color", "a.json")
    lines = result.stdout.splitlines()
    index = next(i for i, ln in enumerate(lines) if "^" in ln)
    source = lines[index - 1].split(" | ", 1)[1]
    carets = lines[index].split(" | ", 1)[1]
    prefix = '{"kind": "block", "name": "'
    # prefix, then ❤️ (2), the ZWJ family (2), 日 (2), é (1), then '", "id": '
    assert carets.index("^") == len(prefix) + 2 + 2 + 2 + 1 + len('", "id": ')
    assert source.startswith(prefix + name)
