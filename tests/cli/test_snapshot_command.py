"""``forgec snapshot check|update``: golden files for teams that do not use pytest."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from forgec.cli import cli

STACK = {
    "schemaVersion": 1,
    "id": "helper",
    "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "You help."},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
        {"kind": "block", "id": "nudge", "role": "user", "content": "Be concise."},
    ],
}


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    (folder / "helper.json").write_text(json.dumps(STACK), encoding="utf-8")
    return folder / "helper.json"


def test_update_then_check_then_edit(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    missing = runner.invoke(cli, ["snapshot", "check"])
    assert missing.exit_code == 1
    assert "missing" in missing.output

    written = runner.invoke(cli, ["snapshot", "update"])
    assert written.exit_code == 0, written.output
    golden = stack.parent / "__golden__" / "helper.json.prompt.md"
    assert golden.is_file()
    assert "Be concise." in golden.read_text(encoding="utf-8")

    assert runner.invoke(cli, ["snapshot", "check"]).exit_code == 0

    edited = json.loads(json.dumps(STACK))
    edited["items"][2]["content"] = "Be concise and kind."
    stack.write_text(json.dumps(edited), encoding="utf-8")
    changed = runner.invoke(cli, ["snapshot", "check"])
    assert changed.exit_code == 1
    assert "changed: message" in changed.output and "stack item nudge" in changed.output
    assert "+Be concise and kind." in changed.output


def test_golden_files_do_not_depend_on_the_machine_time_zone(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    assert runner.invoke(cli, ["snapshot", "update"]).exit_code == 0
    first = (stack.parent / "__golden__" / "helper.json.prompt.md").read_text(encoding="utf-8")
    monkeypatch.setenv("TZ", "America/Los_Angeles")
    result = runner.invoke(cli, ["snapshot", "check"])
    assert result.exit_code == 0, result.output
    assert first == (stack.parent / "__golden__" / "helper.json.prompt.md").read_text(encoding="utf-8")


def test_examples_golden_files_are_current() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["snapshot", "check", str(examples), "--context", str(examples / "contexts" / "coding-session.yaml")],
    )
    assert result.exit_code == 0, result.output


def test_nonexistent_path_is_a_usage_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["snapshot", "check", "nope.json"])
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_check_and_update_reuse_the_context_the_golden_file_records(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    context = tmp_path / "ctx.yaml"
    context.write_text('now: "2026-03-14T09:26:53Z"\ntimezone: Asia/Tokyo\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["snapshot", "update", "--context", "ctx.yaml"]).exit_code == 0
    golden = stack.parent / "__golden__" / "helper.json.prompt.md"
    assert "<!-- context: ../../../../ctx.yaml -->" in golden.read_text(encoding="utf-8")
    # without --context the recorded one is used, so nothing changed
    assert runner.invoke(cli, ["snapshot", "check"]).exit_code == 0
    assert "same" in runner.invoke(cli, ["snapshot", "update"]).output
    context.unlink()
    gone = runner.invoke(cli, ["snapshot", "check"])
    assert gone.exit_code == 2
    assert "which does not exist" in gone.output


def test_unusable_stacks_get_no_golden_file(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    stack.write_text('{"schemaVersion": 1, "id": "helper", "items": [', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["snapshot", "update"])
    assert result.exit_code == 1
    assert "loader errors" in result.output and "Failed to parse JSON" in result.output
    assert not (stack.parent / "__golden__").exists()


def test_unreadable_golden_files_are_reported_without_a_traceback(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    golden = stack.parent / "__golden__" / "helper.json.prompt.md"
    golden.parent.mkdir()
    golden.write_bytes(b"\xff\xfe not utf-8")
    result = CliRunner().invoke(cli, ["snapshot", "check"])
    assert result.exit_code == 2 and "not a UTF-8 text file" in result.output
    golden.unlink()
    golden.mkdir()
    result = CliRunner().invoke(cli, ["snapshot", "update"])
    assert result.exit_code == 2 and "is a folder" in result.output
    assert [p.name for p in golden.parent.iterdir()] == ["helper.json.prompt.md"]  # no temp file left


def test_diffs_do_not_pass_terminal_escapes_through(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["snapshot", "update"]).exit_code == 0
    hostile = json.loads(json.dumps(STACK))
    hostile["items"][2]["content"] = "hel\x1b]0;PWNED\x07lo"
    stack.write_text(json.dumps(hostile), encoding="utf-8")
    result = runner.invoke(cli, ["snapshot", "check"])
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "hel\\x1b]0;PWNED\\x07lo" in result.output


def test_update_never_writes_through_a_golden_folder_link(tmp_path: Path, monkeypatch) -> None:
    stack = _project(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (stack.parent / "__golden__").symlink_to(outside, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["snapshot", "update"])
    assert result.exit_code == 2
    assert "refusing to write through the symbolic link" in result.output
    assert list(outside.iterdir()) == []
