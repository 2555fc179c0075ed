"""``forgec import-silly``: output files, dry run, overwrite refusal, JSON output, exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from forgec.cli import cli
from forgec.js.values import json_stringify
from tests.importers.conftest import DATA


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


def test_relative_path_is_normalised_like_node(tmp_path: Path) -> None:
    # pi-forge joins a relative path to the working directory with Node's path module, which
    # normalises `.`, `..` and doubled slashes; the report's Source file line shows the result.
    (tmp_path / "in").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "in" / "p.json").write_bytes((DATA / "storyteller-mini.json").read_bytes())
    code, out, _ = invoke("./../in//p.json", "100001", "--dry-run", cwd=tmp_path / "work")
    assert code == 0
    assert f"- **Source file**: {tmp_path / 'in' / 'p.json'}\n" in out


def _big_preset(count: int) -> dict[str, object]:
    prompts: list[dict[str, object]] = [
        {"identifier": f"p{i}", "name": f"Part {i}", "role": "system", "content": f"Part {i} for {{{{char}}}}."}
        for i in range(count)
    ]
    prompts.append({"identifier": "chatHistory", "name": "Chat History", "marker": True})
    order = [{"identifier": p["identifier"], "enabled": True} for p in prompts]
    return {"prompts": prompts, "prompt_order": [{"character_id": 100001, "order": order}]}


def test_progress_callback_covers_every_phase() -> None:
    from forgec.importers.sillytavern import convert_preset

    calls: list[tuple[str, int, int]] = []
    result = convert_preset(_big_preset(120), "big.json", progress=lambda *call: calls.append(call))
    assert result.error is None
    phases = [phase for phase, _, _ in calls]
    assert phases[0] == "scanning macros" and phases[-1] == "writing report"
    converting = [(done, total) for phase, done, total in calls if phase == "converting prompts"]
    assert converting == [(0, 121), (50, 121), (100, 121)]
    assert calls[-1] == ("writing report", 121, 121)


def test_no_progress_output_without_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_text(json.dumps(_big_preset(300)), encoding="utf-8")
    code, out, err = invoke("big.json", "--dry-run", cwd=tmp_path)
    assert code == 0
    assert "\x1b" not in err and "\x1b" not in out
    assert "scanning macros" not in err


def _run_with_stderr_on_a_terminal(cwd: Path, *args: str) -> tuple[int, bytes, bytes]:
    """Run ``forgec import-silly`` with stderr on a pseudo-terminal: (exit code, stdout, terminal bytes)."""
    import select
    import subprocess
    import sys
    import time

    pty = pytest.importorskip("pty")
    try:
        leader, follower = pty.openpty()
    except OSError as exc:  # no /dev/ptmx in some sandboxes
        pytest.skip(f"no pseudo-terminal available: {exc}")
    out_file = cwd / "stdout.bin"  # a file, not a pipe: nothing here can block on a full pipe
    try:
        with out_file.open("wb") as sink:
            proc = subprocess.Popen(
                [sys.executable, "-m", "forgec", "import-silly", *args], cwd=cwd, stdout=sink,
                stderr=follower, stdin=subprocess.DEVNULL,
                env={**os.environ, "SOURCE_DATE_EPOCH": "0", "TERM": "xterm", "COLUMNS": "100"},
            )  # fmt: skip
        os.close(follower)
        follower = -1
        chunks: list[bytes] = []
        deadline = time.monotonic() + 120
        while True:  # drain the terminal while the command runs, so it never blocks on a full pty
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("forgec import-silly did not finish within 120 s")
            ready, _, _ = select.select([leader], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the command closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        code = proc.wait(timeout=120)
        stdout = out_file.read_bytes()
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    return code, stdout, b"".join(chunks)


def test_progress_on_a_terminal(tmp_path: Path) -> None:
    """With stderr on a terminal a transient progress line is drawn there; stdout is untouched."""
    (tmp_path / "big.json").write_text(json.dumps(_big_preset(3000)), encoding="utf-8")
    code, stdout, terminal = _run_with_stderr_on_a_terminal(tmp_path, "big.json", "--dry-run")
    assert code == 0
    assert b"reading preset" in terminal  # the first frame is drawn as soon as the import starts
    assert b"\x1b" not in stdout and stdout.startswith(b"pi-forge import dry run: big\n")
    # --format json keeps progress off: the document stays the only output
    code, stdout, terminal = _run_with_stderr_on_a_terminal(tmp_path, "big.json", "--dry-run", "--format", "json")
    assert code == 0
    assert json.loads(stdout)["import"]["stack"]["id"] == "big"
    assert b"reading preset" not in terminal and b"scanning macros" not in terminal


@pytest.mark.parametrize(
    ("raw", "code", "message"),
    [
        # shapes seen in (or derived from) real files, each with its E2/E3/C-section text
        (b'{"prompts": 5, "prompt_order": [{"character_id": 1, "order": []}]}', 1,
         "Preset prompts must be an array."),
        (b'{"prompts": [null], "prompt_order": [{"character_id": 1}]}', 1, "Preset prompts[0] is null."),
        (b'{"prompts": [{"identifier": "a", "content": "x", "role": 7}], '
         b'"prompt_order": [{"character_id": 1, "order": [{"identifier": "a"}]}]}', 1,
         "Preset prompts[0].role must be a string."),
        (b'{"prompts": [{"identifier": "a"}], "prompt_order": {"character_id": 1}}', 1,
         "Preset prompt_order must be an array."),
        (b'{"prompts": [{"identifier": "a"}], "prompt_order": [{"character_id": 1, "order": 5}]}', 1,
         "Preset prompt_order[0].order must be an array."),
        # a standalone regex-script export and an empty extension preset are not presets
        (b'{"scriptName": "Strip", "findRegex": "/x/g", "promptOnly": true}', 1, "Preset has no prompts array."),
        (b'\n{"preset_name": "Lore", "prompts": []}\n', 1, "Preset has no prompts array."),
        (b"[]", 1, "Preset root must be a JSON object."),
        # a raw control character left in a name by an editor (0x1A): V8's text and position
        (b'{"prompts": [{"name": "\x97\x1aGuide"}]}', 2,
         "Bad control character in string literal in JSON at position 24"),  # node 20
        (b"\xef\xbb\xbf{}", 2, "Unexpected token '\ufeff', \"\ufeff{}\" is not valid JSON"),
    ],
)  # fmt: skip
def test_malformed_shapes_exit_with_a_clear_error_and_write_nothing(
    tmp_path: Path, raw: bytes, code: int, message: str
) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "p.json").write_bytes(raw)
    result = invoke("in/p.json", "1", "--out-dir", "proj", cwd=tmp_path)
    assert result[0] == code
    assert message in result[2] and "Traceback" not in result[2]
    assert not (tmp_path / "proj").exists()


def test_windows_1252_bytes_decode_to_replacement_characters(tmp_path: Path) -> None:
    # Node reads the file as UTF-8 with U+FFFD for invalid bytes, so a cp1252 apostrophe imports
    (tmp_path / "p.json").write_bytes(
        b'{"prompts": [{"identifier": "main", "name": "Writer\x92s Guide", "role": "system", "content": "isn\x92t"}],'
        b' "prompt_order": [{"character_id": 1, "order": [{"identifier": "main", "enabled": true}]}]}'
    )
    code, out, _ = invoke("p.json", "--dry-run", "--format", "json", cwd=tmp_path)
    assert code == 0
    item = json.loads(out)["import"]["stack"]["items"][0]
    assert (item["name"], item["content"]) == ("Writer\ufffds Guide", "isn\ufffdt")


def _accented_preset(path: Path) -> None:
    content = "Ça va ? « Oui », dit-elle.\n\tNew \"line\" \\ " * 40  # long: the byte-wise escapes
    path.write_text(json.dumps({
        "prompts": [{"identifier": "main", "name": "Résumé", "role": "system", "content": content}],
        "prompt_order": [{"character_id": 1, "order": [{"identifier": "main", "enabled": True}]}],
    }), encoding="utf-8")  # fmt: skip


@pytest.mark.parametrize("charset", ["utf-8", "utf-16", "latin-1"])
def test_json_output_is_written_in_the_stream_encoding(tmp_path: Path, charset: str) -> None:
    # the document is written as UTF-8 bytes only where the text stream would have written those bytes
    # (docs/performance-log.md, "Stop 25"); any other encoding still gets the text
    from forgec.importers.sillytavern.project import import_into_project
    from forgec.js.values import dumps_report

    _accented_preset(tmp_path / "p.json")
    env = {"SOURCE_DATE_EPOCH": "1773476813"}
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner(charset=charset).invoke(cli, ["import-silly", "p.json", "--dry-run", "--format", "json"], env=env)
        os.environ["SOURCE_DATE_EPOCH"] = env["SOURCE_DATE_EPOCH"]
        try:
            done = import_into_project(Path("p.json"), dry_run=True, texts=False)
        finally:
            del os.environ["SOURCE_DATE_EPOCH"]
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    expected = dumps_report({"import": done.result.import_section()})
    assert result.stdout_bytes == expected.encode(charset, "backslashreplace")  # forgec.cli sets the handler
    assert "Ça va" in json.loads(result.stdout)["import"]["stack"]["items"][0]["content"]
