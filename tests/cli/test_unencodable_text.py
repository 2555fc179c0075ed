"""Text that cannot be written as UTF-8 never breaks a command.

File names that are not UTF-8 (``validate`` in every format, ``fingerprint``, ``snapshot``, printing
through the console entry point) and stacks holding lone surrogates (golden files, ``preview``) are
shown with visible escapes; a SARIF URI percent-encodes the name's raw bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, write_json, write_text

#: a file name that is not valid UTF-8: Python sees its byte 0xff as the lone surrogate U+DCFF
_BAD_NAME = os.fsdecode(b"bad\xffname.json")


#: JSON text holding a lone surrogate, which JavaScript strings (and so stacks) may contain
_LONE_SURROGATE_STACK = (
    '{"schemaVersion": 1, "id": "s", "items": ['
    '{"kind": "block", "id": "a", "role": "system", "content": "x\\ud800y"},'
    '{"kind": "slot", "id": "history", "slot": "chat-history"}]}'
)


def _forgec(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m forgec`` as a user runs it: through ``main()``, with real standard streams."""
    return subprocess.run(
        [sys.executable, "-m", "forgec", *args],
        cwd=cwd, capture_output=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", **(env or {})},
    )


@pytest.fixture
def bad_name_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "stacks"
    folder.mkdir()
    try:
        write_json(folder / _BAD_NAME, CLEAN_STACK)
    except (OSError, UnicodeEncodeError):  # pragma: no cover - a file system that refuses the name
        pytest.skip("the file system does not accept non-UTF-8 file names")
    other = dict(CLEAN_STACK, id="other")
    write_json(folder / "a.json", other)
    return folder


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "github", "sarif"])
def test_validate_folder_with_a_non_utf8_file_name(run, bad_name_folder: Path, fmt: str) -> None:
    """``forgec validate stacks/`` used to end in ``internal error: UnicodeEncodeError`` (sorting the
    names as UTF-16), and ``--format sarif`` failed again building the artifact URI."""
    result = run("validate", "stacks", "--format", fmt, cwd=bad_name_folder.parent)
    assert "internal error" not in result.output
    assert result.exit_code == 0, result.output
    if fmt == "sarif":
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in json.loads(result.stdout)["runs"][0]["results"]]
        assert uris == []  # clean stacks; the document itself was built
    if fmt == "json":
        assert len(json.loads(result.stdout)["files"]) == 2


def test_sarif_uri_of_a_non_utf8_file_name_is_percent_encoded_bytes(run, bad_name_folder: Path) -> None:
    write_text(bad_name_folder / _BAD_NAME, '{"schemaVersion": 1, "id": "x", "items": [')
    result = run("validate", "stacks", "--format", "sarif", cwd=bad_name_folder.parent)
    assert result.exit_code == 1, result.output
    (finding,) = json.loads(result.stdout)["runs"][0]["results"]
    assert finding["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "stacks/bad%FFname.json"


def test_printing_a_non_utf8_file_name_never_fails(bad_name_folder: Path) -> None:
    """Through the console entry point: the name is printed with a visible escape, not a crash."""
    write_text(bad_name_folder / _BAD_NAME, '{"schemaVersion": 1, "id": "x", "items": [')
    done = _forgec("validate", "stacks", "--format", "concise", cwd=bad_name_folder.parent)
    out = done.stdout.decode("utf-8")
    assert done.returncode == 1, done.stderr
    assert out.startswith("stacks/bad\\udcffname.json:1:")
    assert b"Traceback" not in done.stderr


def test_fingerprint_folder_with_a_non_utf8_file_name(run, bad_name_folder: Path) -> None:
    result = run("fingerprint", "stacks", cwd=bad_name_folder.parent)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


def test_snapshot_of_a_stack_with_a_non_utf8_file_name(run, bad_name_folder: Path) -> None:
    """``forgec snapshot update`` used to print a raw traceback: the golden file's title holds the name."""
    cwd = bad_name_folder.parent
    written = run("snapshot", "update", "stacks", cwd=cwd)
    assert written.exit_code == 0, written.output
    golden = bad_name_folder / "__golden__" / (_BAD_NAME + ".prompt.md")
    assert golden.read_text(encoding="utf-8").startswith("# bad\\udcffname.json with the built-in sample context\n")
    assert run("snapshot", "check", "stacks", cwd=cwd).exit_code == 0


def test_golden_file_of_a_stack_with_a_lone_surrogate(run, tmp_path: Path) -> None:
    """A lone surrogate cannot be written as UTF-8: the golden file shows its escape, as JSON does."""
    write_text(tmp_path / "s.json", _LONE_SURROGATE_STACK)
    written = run("snapshot", "update", "s.json")
    assert written.exit_code == 0, written.output
    text = (tmp_path / "__golden__" / "s.json.prompt.md").read_text(encoding="utf-8")
    assert "\nx\\ud800y\n" in text
    assert run("snapshot", "check", "s.json").exit_code == 0


def test_preview_of_a_stack_with_a_lone_surrogate(tmp_path: Path) -> None:
    """``forgec preview`` used to stop with ``internal error: UnicodeEncodeError`` while printing."""
    write_text(tmp_path / "s.json", _LONE_SURROGATE_STACK)
    for fmt in ("text", "markdown"):
        done = _forgec("preview", "s.json", "--format", fmt, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert b"x\\ud800y" in done.stdout and done.stderr == b""


def test_output_files_hold_lone_surrogates_as_node_writes_them(tmp_path: Path) -> None:
    """``-o FILE`` and the imported stack and report: U+FFFD where the text has a lone surrogate,
    as Node's ``writeFile`` writes it, never ``UnicodeEncodeError``."""
    write_text(tmp_path / "s.json", _LONE_SURROGATE_STACK.replace('"role": "system"', '"role": "bogus\\udc80"'))
    result = _forgec("validate", "s.json", "-o", "report.txt", cwd=tmp_path)
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert "bogus\ufffd" in (tmp_path / "report.txt").read_text(encoding="utf-8")
    preset = ('{"prompts": [{"identifier": "main", "name": "Ma\\udc80in", "role": "system", "content": "hi"}],'
              ' "prompt_order": [{"character_id": 100001, "order": [{"identifier": "main", "enabled": true}]}]}')  # fmt: skip
    write_text(tmp_path / "p.json", preset)
    result = _forgec("import-silly", "p.json", "100001", "--out-dir", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = (tmp_path / "out" / ".pi" / "forge" / "import-reports" / "p.md").read_text(encoding="utf-8")
    assert "Ma\ufffdin" in report
