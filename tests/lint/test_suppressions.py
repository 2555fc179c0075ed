"""``# forgec: ignore[...]`` in YAML, ``per-file-ignores`` for JSON, and unused suppressions."""

from __future__ import annotations

from pathlib import Path

_STACK = """schemaVersion: 1
id: sup
items:
  - {kind: block, id: a, role: System, content: hi}  # forgec: ignore[FG118, FG141, likely-typo]
  # forgec: ignore[FG150]
  - {kind: block, id: b, role: user, content: x, note: "# forgec: ignore"}
  - {kind: slot, id: h, slot: chat-history}  # forgec: ignore[FG136]
"""


def test_comments_suppress_on_their_line_or_the_next(run, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(_STACK, encoding="utf-8")
    result = run("validate", "s.yaml", "--format", "concise")
    assert result.stdout.splitlines() == [
        "s.yaml:7:46: FG153 [warning] Unused suppression: no finding of FG136 on line 7.",
        "Found 0 errors, 1 warning, 0 info in 1 file.",
    ]


def test_a_hash_inside_a_value_is_not_a_suppression(run, tmp_path: Path) -> None:
    text = _STACK.replace("  # forgec: ignore[FG150]\n", "")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    assert 'Unknown item field "note"' in run("validate", "s.yaml", "--format", "concise").stdout


def test_a_bare_ignore_covers_every_rule(run, tmp_path: Path) -> None:
    text = ("schemaVersion: 1\nid: s\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n"
            "  - {kind: block, id: a, role: Sys, content: hi, x: 1}  # forgec: ignore\n  - {kind: block, id: b, x: 1}\n")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    result = run("validate", "s.yaml", "--format", "concise")
    assert "s.yaml:5:" not in result.stdout and "s.yaml:6:" in result.stdout  # the line after is not covered


def test_per_file_ignores_from_pyproject(run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.forgec.per-file-ignores]\n"prompts/legacy/*.json" = ["unknown-field"]\n', encoding="utf-8"
    )
    stack = '{"schemaVersion": 1, "id": "a", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}], "tool": 1}'
    for folder in ("prompts/legacy", "prompts"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "a.json").write_text(stack, encoding="utf-8")
    assert "FG150" not in run("validate", "prompts/legacy/a.json").stdout
    assert "FG150" in run("validate", "prompts/a.json").stdout


def test_a_bad_per_file_ignores_entry_is_a_usage_error(run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.forgec.per-file-ignores]\n"*.json" = ["FG99X"]\n', encoding="utf-8")
    (tmp_path / "a.json").write_text('{"schemaVersion": 1, "id": "a", "items": []}', encoding="utf-8")
    result = run("validate", "a.json")
    assert result.exit_code == 2 and "unknown rule selector 'FG99X'" in result.stderr


def test_unknown_selectors_get_a_did_you_mean(run, tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"schemaVersion": 1, "id": "a", "items": []}', encoding="utf-8")
    result = run("validate", "a.json", "--ignore", "item-role-invalud")
    assert result.exit_code == 2 and "(did you mean 'item-role-invalid'?)" in result.stderr
