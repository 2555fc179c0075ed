"""``forgec import-silly``: output files, dry run, overwrite refusal, JSON output, exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from forgec.cli import cli
from forgec.jscompat import json_stringify

from .conftest import DATA


def invoke(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(cli, ["import-silly", *args], env=env or {"SOURCE_DATE_EPOCH": "1773476813"})
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def stack_file(root: Path, stack_id: str) -> Path:
    return root / ".pi" / "forge" / "prompt-stacks" / f"{stack_id}.json"


def report_file(root: Path, stack_id: str) -> Path:
    return root / ".pi" / "forge" / "import-reports" / f"{stack_id}.md"


def all_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_writes_stack_and_report(tmp_path: Path) -> None:
    code, out, _ = invoke(str(DATA / "storyteller-mini.json"), "100001", cwd=tmp_path)
    assert code == 0, out
    stack_text = stack_file(tmp_path, "storyteller-mini").read_text("utf-8")
    stack = json.loads(stack_text)
    assert stack_text == json_stringify(stack, 2)  # JSON.stringify(stack, null, 2), no trailing newline
    assert list(stack)[:3] == ["schemaVersion", "type", "id"]
    assert stack["import"]["convertedAt"] == "2026-03-14T08:26:53.000Z"
    assert stack["items"][1]["options"] == {"includeLastUserMessage": False}
    assert [r["id"] for r in stack["regex"]["rules"]] == ["st-strip-ooc"]
    report = report_file(tmp_path, "storyteller-mini").read_text("utf-8")
    assert report.startswith("# SillyTavern Import Report: storyteller-mini\n")
    assert f"- **Source file**: {DATA / 'storyteller-mini.json'}" in report
    assert "imported storyteller-mini (3 items)" in out


def test_relative_path_and_out_dir(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "My Preset.json").write_bytes((DATA / "storyteller-mini.json").read_bytes())
    code, _, _ = invoke("in/My Preset.json", "100001", "--out-dir", "proj", cwd=tmp_path)
    assert code == 0
    report = report_file(tmp_path / "proj", "my-preset").read_text("utf-8")
    assert f"- **Source file**: {tmp_path / 'in' / 'My Preset.json'}" in report


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    code, out, _ = invoke(str(DATA / "storyteller-mini.json"), "100001", "--dry-run", cwd=tmp_path)
    assert code == 0
    assert all_files(tmp_path) == []
    assert f"Would write stack to: {stack_file(tmp_path, 'storyteller-mini')}" in out
    assert "## Generated stack JSON\n\n```json\n{" in out


def test_json_format_matches_the_case_shape(tmp_path: Path) -> None:
    code, out, _ = invoke(
        str(DATA / "storyteller-mini.json"), "100001", "--dry-run", "--format", "json", cwd=tmp_path
    )
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"import"} and set(doc["import"]) == {"stack", "report"}
    code, out, _ = invoke(str(DATA / "storyteller-mini.json"), "--dry-run", "--format", "json", cwd=tmp_path)
    assert code == 1
    assert json.loads(out) == {
        "import": {
            "error": "Multiple character configs found: [100000, 100001]. Choose a character_id and retry."
        }
    }


def test_existing_files_are_kept_without_overwrite(tmp_path: Path) -> None:
    args = (str(DATA / "storyteller-mini.json"), "100001")
    assert invoke(*args, cwd=tmp_path)[0] == 0
    target = stack_file(tmp_path, "storyteller-mini")
    target.write_text("sentinel", encoding="utf-8")
    code, _, err = invoke(*args, cwd=tmp_path)
    assert code == 1
    assert "import would overwrite existing file(s)" in err and "Re-run with --overwrite." in err
    assert target.read_text("utf-8") == "sentinel"
    assert invoke(*args, "--overwrite", cwd=tmp_path)[0] == 0
    assert json.loads(target.read_text("utf-8"))["id"] == "storyteller-mini"
    assert [p.name for p in all_files(tmp_path)] == ["storyteller-mini.md", "storyteller-mini.json"]


def test_refuses_symlinked_storage(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "proj" / ".pi").mkdir(parents=True)
    (tmp_path / "proj" / ".pi" / "forge").symlink_to(elsewhere)
    code, _, err = invoke(str(DATA / "storyteller-mini.json"), "100001", "--out-dir", "proj", cwd=tmp_path)
    assert code == 1 and "symbolic link" in err
    assert list(elsewhere.iterdir()) == []


def test_string_character_id_is_selectable(tmp_path: Path) -> None:
    code, out, _ = invoke(str(DATA / "string-character-id.json"), "100000", "--dry-run", "--format", "json",
                          cwd=tmp_path)  # fmt: skip
    assert code == 0
    assert json.loads(out)["import"]["stack"]["import"]["characterId"] == "100000"
    code, out, _ = invoke(str(DATA / "string-character-id.json"), "100001", "--dry-run", "--format", "json",
                          cwd=tmp_path)  # fmt: skip
    assert json.loads(out)["import"]["stack"]["import"]["characterId"] == 100001


def test_number_syntax_of_character_id(tmp_path: Path) -> None:
    code, out, _ = invoke(
        str(DATA / "storyteller-mini.json"), "0x186A1", "--dry-run", "--format", "json", cwd=tmp_path
    )
    assert code == 0 and json.loads(out)["import"]["stack"]["import"]["characterId"] == 100001
    code, _, err = invoke(str(DATA / "storyteller-mini.json"), "abc", cwd=tmp_path)
    assert code == 2 and "Invalid character_id: abc" in err


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        ("missing.json", 2, "ENOENT: no such file or directory"),
        ("truncated.json", 2, "Unexpected end of JSON input"),
        ("bad-content.json", 1, "Preset prompts[0].content must be a string."),
    ],
)
def test_malformed_presets(tmp_path: Path, name: str, code: int, message: str) -> None:
    result = invoke(str(DATA / name), "1", cwd=tmp_path)
    assert result[0] == code
    assert message in result[2]
    assert all_files(tmp_path) == []


def test_hostile_regex_scripts_are_reported_not_run(tmp_path: Path) -> None:
    code, out, _ = invoke(
        str(DATA / "hostile-regex.json"), "1", "--dry-run", "--format", "json", cwd=tmp_path
    )
    assert code == 0
    doc = json.loads(out)["import"]
    assert [r["id"] for r in doc["stack"]["regex"]["rules"]] == ["st-catastrophic"]
    assert (
        "| python only | yes | prompt-only | regex failed to compile: Invalid regular expression: /(?i)x/: "
        in doc["report"]
    )
    assert "| bad flag | yes | prompt-only | unsupported regex flag: y |" in doc["report"]


def test_fidelity_report(tmp_path: Path) -> None:
    code, out, _ = invoke(
        str(DATA / "storyteller-mini.json"), "100001", "--report-format", "json", cwd=tmp_path
    )
    assert code == 0
    fidelity = json.loads(
        (tmp_path / ".pi/forge/import-reports/storyteller-mini.fidelity.json").read_text("utf-8")
    )
    by_ref = {(e["kind"], e["ref"]): e for e in fidelity["entries"]}
    assert by_ref[("marker", "chatHistory")]["status"] == "converted"
    assert by_ref[("macro", "char")]["reason"] == "static-variable"
    assert by_ref[("regex-script", "Strip OOC")]["reason"] == "regex-rule"
    assert by_ref[("regex-script", "Display bold")] == {
        "kind": "regex-script", "ref": "Display bold", "status": "unsupported", "reason": "regex-not-prompt-only",
        "code": "FG723", "detail": "not prompt-only",
    }  # fmt: skip
    assert "Fidelity:" in out
    code, out, _ = invoke(str(DATA / "storyteller-mini.json"), "100001", "--dry-run", "--format", "json",
                          "--report-format", "json", cwd=tmp_path)  # fmt: skip
    assert set(json.loads(out)) == {"import", "fidelity"}
