"""Regression tests of the command-line contract (QA pass): exit codes 0/1/2/130, clean messages
``forgec <command>: error: …`` instead of tracebacks, safe ``--out`` files, visible control
characters, and the small usability fixes (typo suggestions, ``rule ALL``, known models)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import Result

from .helpers import BROKEN_JSON, CLEAN_STACK, position_of, write_json, write_text

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
IMPORT_DATA = Path(__file__).resolve().parents[1] / "importers" / "data"
TARGET = ("--target", "anthropic-messages")


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    return write_json(tmp_path / "clean.json", CLEAN_STACK)


# --- 1. a stack the loader rejects is never compiled silently ------------------------------------


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ('{"id": "x", "items": [', "1:23"),  # truncated
        ("", "1:1"),  # empty
        ("[" * 3000, None),  # too deep / unterminated
    ],
)
def test_compile_unparsable_stack_prints_error_and_no_body(run, tmp_path: Path, text: str, position: str | None) -> None:
    write_text(tmp_path / "bad.json", text)
    result = run("compile", "bad.json", *TARGET)
    assert result.exit_code == 1
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith("bad.json:") and " FG00" in first and "[error]" in first
    if position is not None:
        assert first.startswith(f"bad.json:{position}: FG001 [error] Failed to parse JSON:")
    assert "could not be parsed; no request body printed" in result.stderr


def test_compile_stack_with_loader_errors_prints_body_and_exits_1(run, tmp_path: Path) -> None:
    write_text(tmp_path / "broken.json", BROKEN_JSON)
    result = run("compile", "broken.json", *TARGET)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["model"]  # the stack parsed: the body is still shown
    line, column = position_of(BROKEN_JSON, '"dup"', 2)
    assert f"broken.json:{line}:{column}: FG135 [error] Duplicate item id: dup" in result.stderr


def test_compile_clean_stack_exits_0(run, clean: Path) -> None:
    result = run("compile", "clean.json", *TARGET)
    assert result.exit_code == 0 and result.stderr == ""


def test_preview_unparsable_stack_shows_parse_error_not_fallback(run, tmp_path: Path) -> None:
    write_text(tmp_path / "bad.json", '{"id": "x", "items": [')
    result = run("preview", "bad.json")
    assert result.exit_code == 1
    assert result.stdout == ""  # no preview of pi-forge's fallback stack
    lines = result.stderr.splitlines()
    assert lines[0] == "bad.json:1:23: FG001 [error] Failed to parse JSON: Unexpected end of JSON input"
    assert "could not be parsed; pi-forge would use its fallback stack" in lines[1]
    as_json = run("preview", "bad.json", "--format", "json")
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)  # the machine interface stays complete
    assert report["validation"]["diagnostics"][0]["message"].startswith("Failed to parse JSON")


# --- 2. --out / -o -----------------------------------------------------------------------------


def test_compile_out_refuses_to_replace_without_overwrite(run, clean: Path, tmp_path: Path) -> None:
    target = write_text(tmp_path / "body.json", "keep me")
    result = run("compile", "clean.json", *TARGET, "--out", "body.json")
    assert result.exit_code == 2
    assert result.stderr == "forgec compile: error: body.json already exists; pass --overwrite to replace it\n"
    assert target.read_text() == "keep me"
    result = run("compile", "clean.json", *TARGET, "--out", "body.json", "--overwrite")
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(target.read_text())["model"] == "claude-sonnet-4-5"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["body.json", "clean.json"]  # no temp file left


def test_compile_out_dash_is_stdout(run, clean: Path, tmp_path: Path) -> None:
    result = run("compile", "clean.json", *TARGET, "--out", "-")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["model"] == "claude-sonnet-4-5"
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(
    ("out", "reason"),
    [
        ("missing/body.json", "No such file or directory"),
        ("", "empty file name"),
        (".", "Is a directory"),
        ("/dev/full", "No space left on device"),
    ],
)
@pytest.mark.parametrize("command", ["compile", "validate"])
def test_unwritable_out_is_a_clean_exit_2(run, clean: Path, tmp_path: Path, out: str, reason: str, command: str) -> None:
    if out == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    args = ["compile", "clean.json", *TARGET, "--out", out] if command == "compile" else ["validate", "clean.json", "-o", out]
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"forgec {command}: error: cannot write ")
    assert reason in result.stderr
    assert "internal error" not in result.stderr
    assert not (tmp_path / "missing").exists()  # a typo does not create folders


def test_validate_output_file_needs_overwrite(run, clean: Path, tmp_path: Path) -> None:
    target = write_text(tmp_path / "report.json", "old")
    result = run("validate", "clean.json", "--format", "json", "-o", "report.json")
    assert result.exit_code == 2 and "--overwrite" in result.stderr
    assert target.read_text() == "old"
    result = run("validate", "clean.json", "--format", "json", "-o", "report.json", "--overwrite")
    assert result.exit_code == 0
    assert json.loads(target.read_text())["summary"]["files"] == 1


# --- 3. Ctrl-C and the console-script entry point ----------------------------------------------


def test_keyboard_interrupt_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import forgec.rules
    from forgec.cli import main

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(forgec.rules, "all_rules", interrupted)
    with pytest.raises(SystemExit) as exited:
        main(["rule"])
    assert exited.value.code == 130
    err = capsys.readouterr().err
    assert "forgec: interrupted" in err and "Aborted!" not in err and "Traceback" not in err


def test_main_keeps_click_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    from forgec.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["validate", "--format", "nope"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Usage: forgec validate [OPTIONS] [PATH]...\nTry 'forgec validate --help' for help.\n")
    assert "Error: Invalid value for '--format': 'nope' is not one of" in err
    with pytest.raises(SystemExit) as exited:
        main(["rule", "FG135"])
    assert exited.value.code == 0


def test_mistyped_command_suggests_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    from forgec.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["valdate"])
    assert exited.value.code == 2
    assert "Error: No such command 'valdate'. Did you mean 'validate'?" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["zzzz"])
    assert exited.value.code == 2
    assert "Error: No such command 'zzzz'.\n" in capsys.readouterr().err


# --- 5. a broken pyproject.toml --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"[tool.forgec\n", "invalid pyproject.toml: Expected ']'"),
        (b"[tool.forgec]\n# \xff\xfe\n", "invalid pyproject.toml: not UTF-8 (byte 0xff at offset 16)"),
    ],
)
@pytest.mark.parametrize(
    "args",
    [
        ("validate", "clean.json"),
        ("preview", "clean.json"),
        ("compile", "clean.json", *TARGET),
        ("snapshot", "check", "clean.json"),
    ],
)
def test_invalid_pyproject_is_exit_2_everywhere(
    run, clean: Path, tmp_path: Path, content: bytes, reason: str, args: tuple[str, ...]
) -> None:
    (tmp_path / "pyproject.toml").write_bytes(content)
    result = run(*args)
    assert result.exit_code == 2
    assert f"{tmp_path.resolve() / 'pyproject.toml'}: {reason}" in result.stderr
    assert result.stderr.startswith(f"forgec {' '.join(args[:2] if args[0] == 'snapshot' else args[:1])}: error: ")
    assert "internal error" not in result.stderr


# --- 6. import-silly ---------------------------------------------------------------------------


def test_import_silly_id_too_long_is_a_usage_error(run, tmp_path: Path) -> None:
    result = run("import-silly", str(IMPORT_DATA / "storyteller-mini.json"), "100001", "--id", "a" * 300)
    assert result.exit_code == 2
    assert "is 300 characters long (at most 200)" in result.stderr
    assert not (tmp_path / ".pi").exists()
    assert run("import-silly", str(IMPORT_DATA / "storyteller-mini.json"), "100001", "--id", "a" * 200).exit_code == 0


def test_import_silly_derived_id_is_capped(run, tmp_path: Path) -> None:
    preset = tmp_path / ("p" * 240 + ".json")
    preset.write_bytes((IMPORT_DATA / "storyteller-mini.json").read_bytes())
    result = run("import-silly", preset.name, "100001", "--report-format", "json")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / ".pi" / "forge" / "prompt-stacks" / ("p" * 200 + ".json")).is_file()


def test_import_silly_write_error_is_exit_2(run, tmp_path: Path) -> None:
    write_text(tmp_path / "proj" / ".pi", "a file where a folder should be")
    result = run("import-silly", str(IMPORT_DATA / "storyteller-mini.json"), "100001", "--out-dir", "proj")
    assert result.exit_code == 2
    assert result.stderr.startswith("forgec import-silly: error: cannot write ")
    assert "Traceback" not in result.stderr


def test_import_silly_unknown_character_lists_the_ids(run) -> None:
    preset = str(IMPORT_DATA / "storyteller-mini.json")
    result = run("import-silly", preset, "5", "--dry-run")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "forgec import-silly: error: Multiple character configs found: [100000, 100001]. "
        "Choose a character_id and retry. [FG705]",
        "forgec import-silly: hint: character id 5 is not in this preset; available character ids: 100000, 100001",
    ]
    as_json = run("import-silly", preset, "5", "--dry-run", "--format", "json")
    assert json.loads(as_json.stdout) == {
        "import": {"error": "Multiple character configs found: [100000, 100001]. Choose a character_id and retry."}
    }
    assert "available character ids: 100000, 100001" in as_json.stderr


def test_import_silly_help_lists_exit_codes(run) -> None:
    out = run("import-silly", "--help").stdout
    assert "Exit codes:" in out and "0  imported" in out and "2  usage error" in out


# --- 7. control characters from stack files -------------------------------------------------------

ESC_STACK = {
    "schemaVersion": 1,
    "id": "esc",
    "items": [
        {"kind": "block", "id": "r", "role": "system", "content": "hi\u001b[31mred\u0007"},
        {"kind": "slot", "id": "h\u001b[2J", "slot": "nope\u001b]0;pwn\u0007\r\nerror[FG000]: fake"},
    ],
}


@pytest.mark.parametrize("fmt", ["full", "concise"])
def test_validate_escapes_control_characters(run, tmp_path: Path, fmt: str) -> None:
    write_json(tmp_path / "esc.json", ESC_STACK)
    result = run("validate", "esc.json", "--format", fmt, "--no-color")
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\r" not in result.stdout
    assert "Unsupported slot: nope\\x1b]0;pwn\\x07\\r\\nerror[FG000]: fake" in result.stdout
    assert not any(line.startswith("error[FG000]") for line in result.stdout.splitlines())


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b", '\\x1bbad"'),  # JSON forbids a raw ESC: the parse error points at it
        ("\x9b", '"\\x9bbad"'),  # a raw C1 CSI is valid JSON: the unsupported slot's value
    ],
)
def test_full_excerpt_escapes_and_keeps_caret_aligned(run, tmp_path: Path, raw: str, shown: str) -> None:
    text = '{"schemaVersion": 1, "id": "x", "items": [{"kind": "slot", "id": "a", "slot": "' + raw + 'bad"}]}'
    write_text(tmp_path / "x.json", text)
    out = run("validate", "x.json", "--format", "full", "--no-color").stdout
    assert raw not in out
    rows = out.splitlines()
    # the finding about the slot's value (findings are sorted by position: not always the first)
    heading = next(i for i, r in enumerate(rows) if "Unsupported slot" in r or "Failed to parse" in r)
    source = next(r for r in rows[heading:] if r.startswith("1 | "))
    caret = rows[rows.index(source, heading) + 1]
    assert source[caret.index("^") :].startswith(shown)


def test_preview_text_escapes_control_characters(run, tmp_path: Path) -> None:
    write_json(tmp_path / "esc.json", ESC_STACK)
    out = run("preview", "esc.json", "--format", "text").stdout
    assert "\x1b" not in out and "\x07" not in out
    assert "hi\\x1b[31mred\\x07" in out


# --- 8/9. one error style, small fixes ---------------------------------------------------------


def test_rule_all_lists_every_rule(run) -> None:
    every = run("rule")
    assert run("rule", "ALL").stdout == every.stdout == run("rule", "all").stdout
    assert run("rule", "ALL").exit_code == 0


def test_unknown_rule_uses_the_command_error_style(run) -> None:
    result: Result = run("rule", "FG999x")
    assert result.exit_code == 2 and result.stderr.startswith("forgec rule: error: unknown rule 'FG999x'")


def test_unknown_model_lists_known_models(run, clean: Path) -> None:
    result = run("compile", "clean.json", "--model", "nope/nope")
    assert result.exit_code == 2
    assert "forgec compile: error: Unknown model: nope/nope; known models: " in result.stderr
    assert "openai/gpt-5.1" in result.stderr


def test_configured_plugin_not_installed_is_a_warning(run, clean: Path, tmp_path: Path) -> None:
    write_text(tmp_path / "pyproject.toml", '[tool.forgec]\nplugins = ["does-not-exist"]\n')
    result = run("preview", "clean.json")
    assert result.exit_code == 0
    assert "forgec preview: warning: Plugin does-not-exist" in result.stderr and "[FG952]" in result.stderr
    assert "(FG952)" in run("preview", "--help").stdout
