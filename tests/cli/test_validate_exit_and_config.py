"""Exit codes, --strict, rule selection and re-levelling from the command line and pyproject.toml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import BROKEN_JSON, CLEAN_STACK, WARNING_ONLY, write_json, write_text

DUP = "Duplicate item id: dup"


def _codes(run, *args: str) -> dict[str, str]:
    """message -> code for the broken stack."""
    doc = json.loads(run("validate", "--format", "json", *args).stdout)
    return {d["message"]: d["code"] for d in doc["files"][0]["diagnostics"]}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    write_json(tmp_path / "clean.json", CLEAN_STACK)
    write_json(tmp_path / "warn.json", WARNING_ONLY)
    write_text(tmp_path / "broken.json", BROKEN_JSON)
    return tmp_path


def test_exit_0_when_clean(run, files: Path) -> None:
    result = run("validate", "clean.json")
    assert result.exit_code == 0
    assert result.stdout.strip() == "All checks passed (1 file checked)."


def test_warnings_exit_0_unless_strict(run, files: Path) -> None:
    assert run("validate", "warn.json").exit_code == 0
    assert run("validate", "--strict", "warn.json").exit_code == 1
    assert run("validate", "--strict", "clean.json").exit_code == 0


def test_exit_1_on_error(run, files: Path) -> None:
    assert run("validate", "clean.json", "broken.json").exit_code == 1


def test_exit_2_for_missing_path_other_files_still_checked(run, files: Path) -> None:
    result = run("validate", "--format", "concise", "missing.json", "broken.json")
    assert result.exit_code == 2
    assert "forgec validate: error: missing.json: no such file or directory" in result.stderr
    assert DUP in result.stdout
    assert "Traceback" not in result.output


def test_exit_2_for_unknown_option_value(run, files: Path) -> None:
    assert run("validate", "--format", "xml", "clean.json").exit_code == 2


def test_unknown_select_code_is_usage_error(run, files: Path) -> None:
    result = run("validate", "--select", "FG9999", "broken.json")
    assert result.exit_code == 2
    assert "unknown rule selector 'FG9999'" in result.stderr
    assert run("validate", "--ignore", "no-such-rule", "broken.json").exit_code == 2


def test_select_and_ignore_on_command_line(run, files: Path) -> None:
    codes = _codes(run, "broken.json")
    dup_code = codes[DUP]
    slot_code = codes["Unsupported slot: not-a-slot"]
    # ignore the only error -> exit 0
    result = run("validate", "--ignore", dup_code, "broken.json", "--format", "concise")
    assert result.exit_code == 0
    assert DUP not in result.stdout and slot_code in result.stdout
    # select by name
    name = json.loads(run("validate", "--format", "json", "broken.json").stdout)["files"][0]["diagnostics"][0]["name"]
    result = run("validate", "--select", name, "broken.json", "--format", "concise")
    assert result.exit_code == 1
    assert slot_code not in result.stdout
    # select by prefix, comma-separated and repeated options
    result = run("validate", "--select", f"{slot_code[:3]},{dup_code}", "--select", "ALL",
                 "--ignore", slot_code, "broken.json", "--format", "concise")
    assert slot_code not in result.stdout and dup_code in result.stdout


def test_pyproject_ignore_severity_and_strict(run, files: Path) -> None:
    codes = _codes(run, "broken.json")
    dup_code = codes[DUP]
    slot_code = codes["Unsupported slot: not-a-slot"]
    write_text(files / "pyproject.toml", f'[tool.forgec]\nignore = ["{dup_code}"]\n')
    assert run("validate", "broken.json").exit_code == 0
    # the command line adds to the file's ignores, --select replaces its selection
    write_text(files / "pyproject.toml", f'[tool.forgec]\nselect = ["{slot_code}"]\n')
    assert run("validate", "broken.json").exit_code == 0
    assert run("validate", "--select", dup_code, "broken.json").exit_code == 1
    # re-levelling: output and exit code change, pi-forge's level and usable do not
    write_text(
        files / "pyproject.toml",
        f'[tool.forgec]\nseverity = {{ {dup_code} = "info", {slot_code} = "error" }}\n',
    )
    result = run("validate", "--format", "json", "broken.json")
    assert result.exit_code == 1
    entry = json.loads(result.stdout)["files"][0]
    assert entry["usable"] is False
    by_code = {d["code"]: d for d in entry["diagnostics"]}
    assert (by_code[dup_code]["level"], by_code[dup_code]["severity"]) == ("error", "info")
    assert (by_code[slot_code]["level"], by_code[slot_code]["severity"]) == ("warning", "error")
    # strict in the file, --no-strict on the command line
    write_text(files / "pyproject.toml", "[tool.forgec]\nstrict = true\n")
    assert run("validate", "warn.json").exit_code == 1
    assert run("validate", "--no-strict", "warn.json").exit_code == 0
    assert run("validate", "--isolated", "warn.json").exit_code == 0


def test_pyproject_found_upward_from_the_first_path(run, files: Path, tmp_path: Path) -> None:
    dup_code = _codes(run, "broken.json")[DUP]
    project = tmp_path / "project"
    write_text(project / "pyproject.toml", f'[tool.forgec]\nignore = ["{dup_code}"]\n')
    write_text(project / "stacks" / "broken.json", BROKEN_JSON)
    # a pyproject.toml without [tool.forgec] on the way is passed over
    write_text(project / "stacks" / "pyproject.toml", "[project]\nname = 'x'\n")
    assert run("validate", "project/stacks/broken.json").exit_code == 0
    assert run("validate", "broken.json", cwd=project / "stacks").exit_code == 0


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('select = ["FG9999"]', "unknown rule selector 'FG9999'"),
        ("select = 'FG1'", "select must be a list of strings"),
        ('severity = { FG1 = "fatal" }', "severity for FG1 must be one of error, warning, info"),
        ("strict = 'yes'", "strict must be true or false"),
        ("colour = true", "unknown key 'colour'"),
    ],
)
def test_bad_configuration_is_exit_2(run, files: Path, table: str, message: str) -> None:
    write_text(files / "pyproject.toml", f"[tool.forgec]\n{table}\n")
    result = run("validate", "clean.json")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "pyproject.toml" in result.stderr


def test_broken_pyproject_is_exit_2(run, files: Path) -> None:
    write_text(files / "pyproject.toml", "[tool.forgec\n")
    result = run("validate", "clean.json")
    assert result.exit_code == 2 and "pyproject.toml: invalid pyproject.toml: Expected ']'" in result.stderr


def test_internal_error_is_reported_without_traceback(run, files: Path, monkeypatch) -> None:
    import forgec.lint

    def boom(*args, **kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr(forgec.lint, "lint_targets", boom)
    monkeypatch.delenv("FORGEC_DEBUG", raising=False)
    result = run("validate", "clean.json")
    assert result.exit_code == 2
    assert "forgec validate: internal error: RuntimeError: kaput" in result.stderr
    assert "please report it" in result.stderr
    assert "Traceback" not in result.output


def test_ignored_error_keeps_pi_forge_usable_flag(run, files: Path) -> None:
    dup_code = _codes(run, "broken.json")[DUP]
    result = run("validate", "--format", "json", "--ignore", dup_code, "broken.json")
    assert result.exit_code == 0
    entry = json.loads(result.stdout)["files"][0]
    assert entry["usable"] is False  # pi-forge would still refuse this stack
    assert all(d["code"] != dup_code for d in entry["diagnostics"])


def test_explicit_config_file(run, files: Path, tmp_path: Path) -> None:
    dup_code = _codes(run, "broken.json")[DUP]
    write_text(tmp_path / "cfg" / "pyproject.toml", f'[tool.forgec]\nignore = ["{dup_code}"]\n')
    assert run("validate", "--config", "cfg/pyproject.toml", "broken.json").exit_code == 0
    result = run("validate", "--config", "cfg/missing.toml", "broken.json")
    assert result.exit_code == 2 and "no such configuration file" in result.stderr


def test_same_file_twice_is_checked_once(run, files: Path) -> None:
    doc = json.loads(run("validate", "--format", "json", "broken.json", "./broken.json").stdout)
    assert [f["path"] for f in doc["files"]] == ["broken.json"]


def test_stdin_without_filename(run, files: Path) -> None:
    result = run("validate", "-", "--format", "json", input=json.dumps(CLEAN_STACK))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"][0]["path"] == "-"
    # an unparsable stdin is an ordinary pi-forge parse error (exit 1), not a crash
    result = run("validate", "-", "--format", "concise", input="{")
    assert result.exit_code == 1
    assert "Failed to parse JSON" in result.stdout
