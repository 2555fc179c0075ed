"""Regression tests from the newcomer pass: what a new user tripped over, one test per fix.

Each test names the command line that failed before the fix (an internal error, a traceback, a
silent change of meaning or an unhelpful message) and asserts the clean behaviour: a one-line
diagnostic, ``file:line:col`` where there is a position, and exit code 1 or 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK, position_of, write_json, write_text

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


# --- file names that are not UTF-8 ---------------------------------------------------------------


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


# --- lone surrogates in a stack ----------------------------------------------------------------------


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


# --- empty PATH arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [("validate", ""), ("validate", "a.json", ""), ("snapshot", "check", ""),
                                  ("snapshot", "update", ""), ("fingerprint", "")])
def test_an_empty_path_is_a_usage_error(run, tmp_path: Path, args: tuple[str, ...]) -> None:
    """``forgec validate "$STACK"`` with STACK unset used to check the current folder instead
    (``snapshot`` even wrote golden files there)."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    result = run(*args)
    assert result.exit_code == 2
    assert "an empty PATH ('') was given" in result.stderr
    assert not (tmp_path / "__golden__").exists()


# --- forgec snapshot ----------------------------------------------------------------------------------


def test_snapshot_errors_name_the_command(run, tmp_path: Path) -> None:
    missing = run("snapshot", "check", "missing.json")
    assert missing.exit_code == 2
    assert missing.stderr == "forgec snapshot check: error: missing.json: no such file or directory\n"
    stdin = run("snapshot", "update", "-")
    assert stdin.exit_code == 2
    assert stdin.stderr.startswith("forgec snapshot update: error: golden files belong to stack files")
    outside = run("snapshot", "check")
    assert outside.exit_code == 2
    assert outside.stderr.startswith("forgec snapshot check: error: no prompt stacks found:")


def test_snapshot_unexpected_failure_is_an_internal_error_not_a_traceback(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import forgec.snapshots

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(forgec.snapshots, "check", boom)
    write_json(tmp_path / "a.json", CLEAN_STACK)
    result = run("snapshot", "check", "a.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("forgec snapshot check: internal error: RuntimeError: boom\n")


_BAD_ROLE = '{"schemaVersion": 1, "id": "b", "items": [\n  {"kind": "block", "id": "a", "role": "developer", "content": "x"}]}'


def test_snapshot_shows_loader_errors_with_their_position(run, tmp_path: Path) -> None:
    write_text(tmp_path / "bad.json", _BAD_ROLE)
    line, col = position_of(_BAD_ROLE, '"developer"')
    result = run("snapshot", "check", "bad.json")
    assert result.exit_code == 1
    assert f"           bad.json:{line}:{col}: FG118 [error] Invalid role: developer\n" in result.stdout


# --- preview ------------------------------------------------------------------------------------------


def test_preview_prints_loader_errors_with_their_position(run, tmp_path: Path) -> None:
    """pi-forge's Diagnostics section has no positions; stderr gives file:line:col, as compile does."""
    write_text(tmp_path / "bad.json", _BAD_ROLE)
    line, col = position_of(_BAD_ROLE, '"developer"')
    result = run("preview", "bad.json")
    assert result.exit_code == 1
    assert result.stderr == f"bad.json:{line}:{col}: FG118 [error] Invalid role: developer\n"
    assert "ERROR [a]: Invalid role: developer" in result.stdout


def test_preview_honours_no_color(tmp_path: Path) -> None:
    """NO_COLOR used to be ignored by preview (only --no-color switched the rich view off)."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    coloured = CliRunnerEnv.invoke(tmp_path, "preview", "a.json", env={"FORCE_COLOR": "1"})
    assert "\x1b[" in coloured
    plain = CliRunnerEnv.invoke(tmp_path, "preview", "a.json", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain and plain.startswith("# Prompt stack preview: clean\n")


class CliRunnerEnv:
    """click's runner with an environment (the ``run`` fixture clears NO_COLOR and FORCE_COLOR)."""

    @staticmethod
    def invoke(cwd: Path, *args: str, env: dict[str, str]) -> str:
        from click.testing import CliRunner

        from forgec.cli import cli

        old = Path.cwd()
        os.chdir(cwd)
        try:
            return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False).stdout
        finally:
            os.chdir(old)


# --- validate -----------------------------------------------------------------------------------------


def test_isolated_and_config_conflict(run, tmp_path: Path) -> None:
    """``--isolated --config FILE`` used to ignore FILE silently."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "pyproject.toml", "[tool.forgec]\nstrict = true\n")
    result = run("validate", "a.json", "--isolated", "--config", "pyproject.toml")
    assert result.exit_code == 2
    assert "--isolated ignores every configuration file" in result.stderr


# --- compile --------------------------------------------------------------------------------------------


def test_out_never_replaces_the_models_catalog(run, tmp_path: Path) -> None:
    """``--models cat.json --out cat.json --overwrite`` used to replace the catalog with the body."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "cat.json", '{"models": []}')
    result = run("compile", "a.json", "--target", "all", "--models", "cat.json", "--out", "./cat.json", "--overwrite")
    assert result.exit_code == 2
    assert "./cat.json is an input of this command (cat.json)" in result.stderr
    assert (tmp_path / "cat.json").read_text(encoding="utf-8") == '{"models": []}'


def test_a_broken_models_catalog_is_reported_at_its_position(run, tmp_path: Path) -> None:
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "cat.json", '{"models": [\n  ,]}')
    result = run("compile", "a.json", "--target", "all", "--models", "cat.json")
    assert result.exit_code == 2
    assert result.stderr == "forgec compile: error: cat.json:2:3: invalid JSON in model catalog: Expecting value\n"


# --- paths that are symbolic links ----------------------------------------------------------------------


def test_a_symbolic_link_loop_is_named_as_such(run, tmp_path: Path) -> None:
    """``forgec validate loop`` used to say "no such file or directory" for a link that exists."""
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for args in (("validate", "loop1"), ("snapshot", "check", "loop1")):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.endswith(
            "error: loop1: a symbolic link that cannot be followed (a loop, or its target is missing)\n")


# --- a folder without search (x) permission --------------------------------------------------------------


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``locked/`` behaves like a folder with mode 0600 for a non-root user: the folder itself can be
    looked at, nothing inside it can (every ``stat`` fails with EACCES).  Simulated, because the
    tests may run as root, for whom permissions do not apply."""
    import pathlib

    folder = tmp_path / "locked"
    write_json(folder / "a.json", CLEAN_STACK)
    real_stat = pathlib.Path.stat

    def stat(self: pathlib.Path, *, follow_symlinks: bool = True) -> os.stat_result:
        if Path(os.path.abspath(self)).parent == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(pathlib.Path, "stat", stat)
    return folder


@pytest.mark.parametrize("command", [("validate",), ("validate", "--format", "json"), ("snapshot", "check")])
def test_a_file_in_a_folder_without_search_permission(run, locked: Path, command: tuple[str, ...]) -> None:
    """``forgec validate locked/a.json`` used to end in ``internal error: PermissionError`` (looking for
    pyproject.toml next to it, then checking that the file exists)."""
    result = run(*command, "locked/a.json")
    assert result.exit_code == 2
    assert "internal error" not in result.stderr
    assert result.stderr.endswith("error: locked/a.json: cannot be read (permission denied)\n")


# --- '-' with standard input on a terminal -----------------------------------------------------------------


@pytest.mark.parametrize("args", [("validate", "-"), ("preview", "-"), ("fingerprint", "-")])
def test_reading_a_terminal_says_so(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``forgec validate -`` typed without a pipe used to wait in silence, like a hang."""
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "forgec", *args], cwd=tmp_path, stdin=follower,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.write(leader, json.dumps(CLEAN_STACK).encode() + b"\n\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 0, err
    assert err.decode().startswith(f"forgec {args[0]}: reading standard input; end it with Ctrl-D")
    assert out


# --- --help teaches -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [(), ("validate",), ("schema",), ("rule",), ("preview",), ("compile",),
                                     ("fingerprint",), ("import-silly",), ("snapshot",), ("snapshot", "check"),
                                     ("snapshot", "update")])
def test_every_help_has_examples_and_exit_codes(run, command: tuple[str, ...]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert "Examples:" in text and "forgec " in text.split("Examples:", 1)[1]
    assert "Exit codes:" in text


def test_snapshot_help_says_what_paths_are(run) -> None:
    text = run("snapshot", "check", "--help").stdout
    assert "PATHS are stack files or folders" in text and "without PATHS, the current project's" in text
