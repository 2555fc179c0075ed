"""Regression tests of the second CLI QA pass: escaped terminal controls in every format, compile
errors that fail ``forgec compile``, empty rule selectors, unreadable paths in machine formats,
Ctrl-C during start-up, ``-`` for preview/compile, fingerprint folders and kinds, key order of
``compile --target all``, ``--out`` over an input, import-silly JSON, ``dir(forgec)``, caret width.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, write_json, write_text

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "conformance" / "cases"


def _dup_stack(item_id: str, name: str | None = None) -> dict[str, object]:
    block: dict[str, object] = {"kind": "block", "id": item_id, "role": "user", "content": "b"}
    if name is not None:
        block["name"] = name
    return {
        "schemaVersion": 1,
        "id": "s",
        "items": [
            {"kind": "slot", "id": "h", "slot": "chat-history"},
            {"kind": "block", "id": item_id, "role": "user", "content": "a"},
            block,
        ],
    }


# --- 1. terminal escapes ------------------------------------------------------------------------


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


def test_github_format_keeps_its_own_encoding() -> None:
    from forgec.output.github import escape_data, escape_property

    assert escape_data("50%\r\n\x1b") == "50%25%0D%0A\\x1b"
    assert escape_property("a:b,c\n") == "a%3Ab%2Cc%0A"


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


# --- 2. compile errors fail compile -------------------------------------------------------------


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


# --- 3. empty selectors -------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
@pytest.mark.parametrize("value", ["", ",", " , "])
def test_empty_selector_option_is_a_usage_error(run, tmp_path: Path, option: str, value: str) -> None:
    write_json(tmp_path / "a.json", _dup_stack("d"))
    result = run("validate", option, value, "a.json")
    assert result.exit_code == 2
    assert f"Invalid value for '{option}': empty rule selector list" in result.stderr


@pytest.mark.parametrize("key", ["select", "extend-select", "ignore"])
def test_empty_selector_list_in_pyproject_is_a_usage_error(run, tmp_path: Path, key: str) -> None:
    write_json(tmp_path / "a.json", _dup_stack("d"))
    write_text(tmp_path / "pyproject.toml", f'[tool.forgec]\n{key} = [""]\n')
    result = run("validate", "a.json")
    assert result.exit_code == 2
    assert f"{key} is empty" in result.stderr
    write_text(tmp_path / "pyproject.toml", f"[tool.forgec]\n{key} = []\n")
    assert run("validate", "a.json").exit_code == 2


def test_extend_select_adds_to_the_file_selection(run, tmp_path: Path) -> None:
    write_json(tmp_path / "a.json", _dup_stack("d"))
    write_text(tmp_path / "pyproject.toml", '[tool.forgec]\nselect = ["FG126"]\n')
    assert "FG135" not in run("validate", "--format", "concise", "a.json").stdout
    result = run("validate", "--format", "concise", "--extend-select", "FG135", "a.json")
    assert "FG135" in result.stdout and result.exit_code == 1


# --- 4. unreadable paths in machine formats -----------------------------------------------------


def test_sarif_and_json_report_missing_paths(run, tmp_path: Path) -> None:
    write_json(tmp_path / "good.json", CLEAN_STACK)
    sarif = run("validate", "--format", "sarif", "good.json", "missing.json")
    assert sarif.exit_code == 2
    (invocation,) = json.loads(sarif.stdout)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert note["message"]["text"] == "missing.json: no such file or directory"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "missing.json"

    doc = json.loads(run("validate", "--format", "json", "good.json", "missing.json").stdout)
    assert doc["errors"] == [{"path": "missing.json", "message": "no such file or directory"}]
    assert doc["summary"]["exitCode"] == 2
    clean = json.loads(run("validate", "--format", "json", "good.json").stdout)
    assert clean["errors"] == []
    ok = json.loads(run("validate", "--format", "sarif", "good.json").stdout)["runs"][0]["invocations"][0]
    assert ok["executionSuccessful"] is True and "toolExecutionNotifications" not in ok


# --- 5. Ctrl-C during start-up ------------------------------------------------------------------

_INTERRUPT_IMPORT = """
import sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
        return None
sys.meta_path.insert(0, Interrupt())
{statement}
"""


@pytest.mark.parametrize(
    ("module", "statement"),
    [
        ("click", "from forgec.cli import main"),  # the console script's import
        ("click", "import runpy; runpy.run_module('forgec', run_name='__main__')"),  # python -m forgec
        ("forgec.cli.rule", "from forgec.cli import main; main(['rule', 'FG101'])"),  # a lazy command import
    ],
)
def test_interrupt_while_importing_exits_130(module: str, statement: str) -> None:
    code = _INTERRUPT_IMPORT.format(module=module, statement=statement)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 130, done.stderr
    # click ends the "^C" line with a newline before giving up; then only forgec's message
    assert done.stderr.strip() == "forgec: interrupted" and "Traceback" not in done.stderr


# --- 6. '-' for preview and compile -------------------------------------------------------------


def test_preview_and_compile_read_stdin(run, tmp_path: Path) -> None:
    yaml_stack = "schemaVersion: 1\nid: piped\nitems:\n  - {kind: block, id: r, role: system, content: Hi}\n" \
                 "  - {kind: slot, id: h, slot: chat-history}\n"
    result = run("preview", "-", "--stdin-filename", "piped.yaml", "--format", "json", input=yaml_stack)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["validation"]["file"] == "piped.yaml" and report["system"]["prompt"] == "Hi"
    json_stack = json.dumps(CLEAN_STACK)
    result = run("compile", "-", "--target", "anthropic-messages", input=json_stack)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["system"][0]["text"] == "You are terse."
    # a YAML stack without the name is read as JSON (stdin.json) and fails to parse
    bad = run("compile", "-", "--target", "anthropic-messages", input=yaml_stack)
    assert bad.exit_code == 1 and bad.stderr.startswith("-:1:1: FG")
    assert run("preview", "s.json", "--stdin-filename", "x.json").exit_code == 2


# --- 7. fingerprint folders and kinds -----------------------------------------------------------


def test_fingerprint_folder_arguments(run, tmp_path: Path) -> None:
    write_json(tmp_path / "d" / "a.json", CLEAN_STACK)
    write_text(tmp_path / "d" / "__golden__" / "a.json.prompt.md", "# golden\n")
    result = run("fingerprint", "d/a.json", "d/__golden__")
    assert result.exit_code == 0
    assert "skipping folder d/__golden__" in result.stderr and "EISDIR" not in result.stderr
    folder = run("fingerprint", "d")
    assert folder.exit_code == 0
    assert folder.stdout.split() == [result.stdout.split()[0], str(Path("d") / "a.json")]


def test_fingerprint_as_profile_or_runtime_checks_the_kind(run, tmp_path: Path) -> None:
    write_json(tmp_path / "stack.json", CLEAN_STACK)
    result = run("fingerprint", "--as", "profile", "stack.json")
    assert result.exit_code == 1 and result.stdout == ""
    assert "FG811 [error] not an agent profile" in result.stderr and "prompt stack" in result.stderr
    assert run("fingerprint", "--as", "runtime", "stack.json").exit_code == 1
    runtime = {
        "baseSystemPrompt": "base",
        "options": {"selectedTools": [], "toolSnippets": {}, "promptGuidelines": [], "cwd": ".",
                    "contextFiles": [], "skills": []},
        "model": {"provider": "test", "id": "model"},
        "preparedAt": "2026-07-14T00:00:00.000Z",
        "fidelity": "backend-assisted",
    }
    write_json(tmp_path / "rt.json", runtime)
    ok = run("fingerprint", "--as", "runtime", "rt.json")
    # profiles-exec.md §3.6 worked example
    assert ok.stdout.split()[0] == "sha256:v1:296fc580aef0f9ce18bc33f182a75cd9a7f9e25a9684f20181e39363019f95b4"


# --- 8. key order of --target all ---------------------------------------------------------------


def test_compile_all_keeps_each_body_key_order(run) -> None:
    case = CASES / "payload-thinking-medium"
    args = ("compile", str(case / "stack.json"), "--context", str(case / "context.json"))
    everything = json.loads(run(*args, "--target", "all").stdout, object_pairs_hook=list)
    outer = [key for key, _ in everything]
    assert outer == sorted(outer)
    for api, entry in everything:
        body = dict(entry).get("body")
        if body is None:
            continue
        single = json.loads(run(*args, "--target", api).stdout, object_pairs_hook=list)
        assert [k for k, _ in body] == [k for k, _ in single]


# --- 9. --out over an input ---------------------------------------------------------------------


def test_compile_out_refuses_the_input_stack_and_context(run, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "stack.json", CLEAN_STACK)
    before = stack.read_text()
    for target in ("stack.json", "./stack.json"):
        result = run("compile", "stack.json", "--target", "anthropic-messages", "--out", target, "--overwrite")
        assert result.exit_code == 2
        assert "is an input of this command" in result.stderr
    assert stack.read_text() == before
    (tmp_path / "link.json").symlink_to(stack)
    assert run("compile", "stack.json", "--target", "anthropic-messages", "--out", "link.json",
               "--overwrite").exit_code == 2
    context = write_json(tmp_path / "ctx.json", {})
    result = run("compile", "stack.json", "--context", "ctx.json", "--target", "anthropic-messages",
                 "--out", "ctx.json", "--overwrite")
    assert result.exit_code == 2 and context.read_text() == "{}\n"


def test_compile_out_replaces_a_symlink_not_its_target(run, tmp_path: Path) -> None:
    write_json(tmp_path / "stack.json", CLEAN_STACK)
    other = write_text(tmp_path / "other.txt", "keep me")
    (tmp_path / "body.json").symlink_to(other)
    result = run("compile", "stack.json", "--target", "anthropic-messages", "--out", "body.json", "--overwrite")
    assert result.exit_code == 0
    assert other.read_text() == "keep me"
    assert not (tmp_path / "body.json").is_symlink()
    assert json.loads((tmp_path / "body.json").read_text())["model"]


# --- 10. import-silly JSON ----------------------------------------------------------------------


def test_import_silly_json_lists_written_files(run, tmp_path: Path) -> None:
    preset = CASES / "import-storyteller-preset" / "preset.json"
    dry = json.loads(run("import-silly", str(preset), "--dry-run", "--format", "json",
                         "--report-format", "json").stdout)
    assert set(dry) == {"import", "fidelity"} and dry["fidelity"]["entries"]
    done = run("import-silly", str(preset), "--format", "json", "--report-format", "json")
    assert done.exit_code == 0
    doc = json.loads(done.stdout)
    assert set(doc) == {"import", "fidelity", "written"}
    assert set(doc["import"]) == {"stack", "report"}
    assert all(Path(p).is_file() and Path(p).is_absolute() for p in doc["written"])
    assert [Path(p).name for p in doc["written"]] == ["preset.json", "preset.md", "preset.fidelity.json"]


# --- 11. dir(forgec) ----------------------------------------------------------------------------


def test_forgec_namespace_is_clean() -> None:
    import forgec

    names = dir(forgec)
    assert "Any" not in names and "annotations" not in names
    assert set(forgec.__all__) <= set(names)
    assert callable(forgec.compile_report)


# --- 12. caret width ----------------------------------------------------------------------------


def test_display_width() -> None:
    from forgec.output.full import _width

    assert _width("日本") == 4
    assert _width("❤️") == 2  # VS16 emoji presentation
    assert _width("👨\u200d👩\u200d👧") == 2  # ZWJ family
    assert _width("👍🏽") == 2  # skin tone
    assert _width("e\u0301") == 1  # combining accent
    assert _width("🇯🇵") == 2


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


def test_validate_output_file_refuses_a_checked_stack(run, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "d" / "a.json", CLEAN_STACK)
    before = stack.read_text()
    result = run("validate", "d", "--format", "json", "-o", "d/a.json", "--overwrite")
    assert result.exit_code == 2 and "is an input of this command" in result.stderr
    assert stack.read_text() == before
