"""The compile report of a stack that sits in a project's stack folder, end to end on corpus cases:
pi-forge's checks of the folder's other files (and none without a folder), and ``forgec preview``,
which prints that report as JSON, text or Markdown."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from forgec.js.values import dumps_report

CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases"


def _project_copy(case: str, tmp_path: Path, name: str = "stack.json") -> Path:
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    extra = CASES / case / "extra-stacks"
    if extra.is_dir():
        for file in extra.iterdir():
            shutil.copyfile(file, folder / file.name)
    target = folder / name
    shutil.copyfile(CASES / case / "stack.json", target)
    return target


def test_report_validation_with_other_files(tmp_path: Path) -> None:
    from forgec import compile_report

    case = "loader-duplicate-stack-ids"
    expected = json.loads((CASES / case / "expected.json").read_text(encoding="utf-8"))
    report = compile_report(_project_copy(case, tmp_path, "main.json"), CASES / case / "context.json").to_report()
    assert dumps_report(report["validation"]) == dumps_report(expected["validation"])
    assert dumps_report(report["fingerprints"]) == dumps_report(expected["fingerprints"])


def test_report_without_folder_has_no_other_files() -> None:
    from forgec import compile_report

    report = compile_report(CASES / "history-basic-position" / "stack.json", {}).to_report()
    assert "otherFiles" not in report["validation"]
    assert "finalize" not in report
    assert set(report) >= {"validation", "system", "messages", "variables"}


def test_preview_json_is_the_report(tmp_path: Path) -> None:
    from forgec.cli import cli

    case = CASES / "synthetic-messages"
    stack = _project_copy("synthetic-messages", tmp_path)
    result = CliRunner().invoke(cli, ["preview", str(stack), "--context", str(case / "context.json"), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert result.output == (case / "expected.json").read_text(encoding="utf-8")


def test_preview_text_and_markdown(tmp_path: Path) -> None:
    from forgec.cli import cli

    case = CASES / "history-basic-position"
    stack = _project_copy("history-basic-position", tmp_path)
    runner = CliRunner()
    text = runner.invoke(cli, ["preview", str(stack), "--context", str(case / "context.json")])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("# Prompt stack preview: ")
    assert "## Message layout" in text.output and "## Diagnostics" in text.output
    md = runner.invoke(cli, ["preview", str(stack), "--context", str(case / "context.json"), "--format", "markdown"])
    assert md.exit_code == 0 and "| # | role | title | source |" in md.output


def test_preview_sample_context_and_bad_context(tmp_path: Path) -> None:
    from forgec.cli import cli

    stack = _project_copy("synthetic-messages", tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["preview", str(stack)]).exit_code == 0
    bad = tmp_path / "ctx.json"
    bad.write_text('{"now": 5}', encoding="utf-8")
    result = runner.invoke(cli, ["preview", str(stack), "--context", str(bad)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
