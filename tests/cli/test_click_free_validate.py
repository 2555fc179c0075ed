"""The console script's click-free ``forgec validate`` (``forgec.cli._fast``) is the click command's twin.

Each command line runs twice as a real process: through ``forgec.cli.main`` as the console script
calls it (the plain forms then run without click) and through the same ``main`` with the fast path
switched off (click parses, as before).  stdout, stderr, exit code and the cache files written must
be equal byte for byte; the fast runs must not have imported click when the command line is one the
fast path claims.  In-process checks pin the parts: the parsed options against click's own parse,
the defaults against the click parameters, and the small ``click.echo`` twin against click.echo.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from forgec.cli import _echo, _fast
from forgec.cli._validate_options import DEFAULTS, ValidateOptions
from forgec.cli.validate import validate

ROOT = Path(__file__).resolve().parents[2]

CLEAN = {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "clean",
         "items": [{"kind": "block", "id": "a", "role": "system", "content": "Answer briefly."}]}  # fmt: skip
FINDINGS = {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "bad",
            "items": [{"kind": "block", "id": "a", "role": "sistem", "content": "x {{nope}}"},
                      {"kind": "block", "id": "a", "role": "user", "content": "\x1b[31mred\x1b[0m"}]}  # fmt: skip

#: runs main() as the console script does, and records (in $MODULES_OUT) whether click was imported
FAST = """
import atexit, os, sys
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write(str("click" in sys.modules)))
{patch}
from forgec.cli import main
main()
"""
#: the same main() with the click-free path switched off: click parses every command line
SLOW = """
import forgec.cli._fast as fast
fast.run_plain_validate = lambda words: None
{patch}
from forgec.cli import main
main()
"""
#: a run interrupted or failing inside the linter (after the command line was parsed)
PATCHES = {
    "": "",
    "interrupt": "import forgec.lint\ndef lint(*a, **k): raise KeyboardInterrupt\nforgec.lint.lint = lint",
    "bug": "import forgec.lint\ndef lint(*a, **k): raise ValueError('boom')\nforgec.lint.lint = lint",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "stacks").mkdir(parents=True)
    (root / "clean.json").write_text(json.dumps(CLEAN), encoding="utf-8")
    (root / "findings.json").write_text(json.dumps(FINDINGS), encoding="utf-8")
    (root / "bad.json").write_text('{"schemaVersion": 1, "items": [', encoding="utf-8")
    (root / "stacks" / "one.json").write_text(json.dumps(CLEAN), encoding="utf-8")
    (root / "stacks" / "two.yaml").write_text("schemaVersion: 1\ntype: pi-forge.prompt-stack\nid: two\nitems: []\n",
                                              encoding="utf-8")  # fmt: skip
    (root / "odd name ü \u202e.json").write_text(json.dumps(CLEAN), encoding="utf-8")
    (root / "dir.json").mkdir()
    (root / "broken-link.json").symlink_to(root / "nowhere.json")
    (root / "a-file").write_text("", encoding="utf-8")
    (root / "badcfg").mkdir()
    (root / "badcfg" / "pyproject.toml").write_text("[tool.forgec\n", encoding="utf-8")
    (root / "badcfg" / "s.json").write_text(json.dumps(CLEAN), encoding="utf-8")
    return root


def _run(script: str, args: list[str], cwd: Path, env: dict[str, str], patch: str) -> tuple[int, bytes, bytes, bool]:
    out = cwd.parent / "modules.out"
    out.unlink(missing_ok=True)
    full_env = {"PYTHONPATH": str(ROOT), "MODULES_OUT": str(out), "PATH": os.environ.get("PATH", ""),
                "HOME": str(cwd.parent), **env}
    done = subprocess.run([sys.executable, "-c", script.format(patch=PATCHES[patch]), *args], cwd=cwd,
                          env=full_env, capture_output=True, check=False, timeout=120)  # fmt: skip
    click_loaded = out.read_text() == "True" if out.exists() else True
    return done.returncode, done.stdout, done.stderr, click_loaded


def _cache(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            and ".forgec_cache" in p.parts}  # fmt: skip


#: (args, environment, patch, whether the click-free path claims it)
CASES = [
    (["validate", "clean.json"], {}, "", True),
    (["validate", "findings.json"], {}, "", True),
    (["validate", "clean.json", "findings.json", "stacks"], {}, "", True),
    (["validate", "stacks"], {}, "", True),
    (["validate"], {}, "", True),  # no PATH outside a Pi project: a usage error, exit 2
    (["validate", "missing.json"], {}, "", True),
    (["validate", "bad.json"], {}, "", True),
    (["validate", "dir.json"], {}, "", True),
    (["validate", "broken-link.json"], {}, "", True),
    (["validate", "odd name ü \u202e.json", "findings.json"], {}, "", True),
    (["validate", "badcfg/s.json"], {}, "", True),  # invalid pyproject.toml: the guard's ForgecError
    (["validate", "findings.json", "--format", "concise"], {}, "", True),
    (["validate", "--format=json", "findings.json"], {}, "", True),
    *[(["validate", "findings.json", "--format", f], {}, "", True) for f in ("github", "sarif", "junit", "gitlab")],
    (["validate", "findings.json", "--format", "full", "--no-cache"], {}, "", True),
    (["validate", "--no-cache", "--no-cache", "clean.json"], {}, "", True),
    (["validate", "findings.json", "--strict"], {}, "", True),
    (["validate", "--strict", "clean.json", "--no-strict", "findings.json"], {}, "", True),
    (["validate", "-q", "findings.json", "--format", "json"], {}, "", True),
    (["validate", "--quiet", "--strict", "findings.json", "--format", "concise"], {}, "", True),
    (["validate", "findings.json"], {"NO_COLOR": "1"}, "", True),
    (["validate", "findings.json"], {"FORCE_COLOR": "1"}, "", True),
    (["validate", "findings.json", "--format", "concise"], {"FORCE_COLOR": "1"}, "", True),
    *[(["validate", "clean.json"], {"FORGEC_NO_CACHE": v}, "", True) for v in ("1", "0", "true", "false", "")],
    *[(["validate", "clean.json"], {"FORGEC_NO_CACHE": v}, "", False) for v in ("yes", "TRUE", "bogus")],
    (["validate", "clean.json"], {"FORGEC_CACHE_DIR": "elsewhere"}, "", True),
    (["validate", "clean.json"], {"FORGEC_CACHE_DIR": "stacks"}, "", True),
    (["validate", "clean.json"], {"FORGEC_CACHE_DIR": "a-file"}, "", False),
    (["validate", "clean.json"], {"PYTHONIOENCODING": "ascii"}, "", False),  # click re-wraps such a stream
    (["validate", "odd name ü \u202e.json"], {"PYTHONIOENCODING": "latin-1"}, "", True),
    (["validate", "findings.json"], {}, "interrupt", True),
    (["validate", "findings.json"], {}, "bug", True),
    # left to click: the fast path must hand these over untouched
    (["validate", "--format", "JSON", "clean.json"], {}, "", False),
    (["validate", "--format", "json", "--format", "concise", "clean.json"], {}, "", False),
    (["validate", "--format"], {}, "", False),
    (["validate", "--statistics", "findings.json"], {}, "", False),
    (["validate", "-qq", "findings.json"], {}, "", False),
    (["validate", "--help"], {}, "", False),
    (["validate", "--", "clean.json"], {}, "", False),
    (["validate", "", "clean.json"], {}, "", False),
    (["validate", "--bogus"], {}, "", False),
    (["validate", "clean.json"], {"_FORGEC_COMPLETE": "bash_source"}, "", False),
]


@pytest.mark.parametrize(("args", "env", "patch", "claimed"), CASES)
def test_both_paths_print_exit_and_cache_alike(project: Path, args: list[str], env: dict[str, str], patch: str,
                                               claimed: bool) -> None:  # fmt: skip
    results = []
    for script in (FAST, SLOW):
        *seen, click_loaded = _run(script, args, project, env, patch)
        results.append((*seen, _cache(project)))
        for cache in project.rglob(".forgec_cache"):
            import shutil

            shutil.rmtree(cache)
        if script is FAST:
            assert click_loaded is not claimed, "the click-free path claims exactly the plain forms"
    assert results[0] == results[1]
    if patch == "interrupt":
        assert results[0][:3] == (130, b"", b"\nforgec: interrupted\n")
    if args == ["validate", "clean.json"] and not env:
        assert results[0][0] == 0 and results[0][3]  # the cache was written, by both


def test_a_second_run_answers_from_the_same_cache(project: Path) -> None:
    """Cache written by one path, read by the other: same output, both ways."""
    args = ["validate", "findings.json", "clean.json"]
    first = _run(FAST, args, project, {}, "")
    assert _run(SLOW, args, project, {"FORGEC_DEBUG_CACHE": "1"}, "")[2].count(b"2 target(s) from the cache") == 1
    assert _run(SLOW, args, project, {}, "")[:3] == first[:3] == _run(FAST, args, project, {}, "")[:3]


def test_a_closed_pipe_ends_both_paths_alike(project: Path) -> None:
    results = []
    for script in (FAST, SLOW):
        read, write = os.pipe()
        os.close(read)
        done = subprocess.run([sys.executable, "-c", script.format(patch=""), "validate", "findings.json"],
                              cwd=project, stdout=write, stderr=subprocess.PIPE, check=False, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "MODULES_OUT": os.devnull})  # fmt: skip
        os.close(write)
        results.append((done.returncode, done.stderr))
    assert results[0] == results[1] and results[0][0] == 1


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file_is_reported_alike(project: Path) -> None:
    target = project / "clean.json"
    target.chmod(0)
    try:
        fast, slow = (_run(s, ["validate", "clean.json"], project, {}, "") for s in (FAST, SLOW))
    finally:
        target.chmod(0o644)
    assert fast[:3] == slow[:3] and fast[0] == 2


# --- the parts, in process --------------------------------------------------------------------


def test_the_defaults_are_the_click_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every click parameter is a ValidateOptions field with the same default, and nothing else is."""
    for name in ("FORGEC_NO_CACHE", "FORGEC_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    assert {p.name for p in validate.params} == set(DEFAULTS)
    assert ValidateOptions(**validate.make_context("validate", []).params) == ValidateOptions()


@pytest.mark.parametrize("words", [
    [], ["a.json"], ["a.json", "b dir", "c.yaml"], ["--format", "json", "a.json"], ["a.json", "--format=sarif"],
    ["--no-cache"], ["--no-cache", "a", "--no-cache", "--format", "concise"], ["ü.json", "x=y"],
    ["--strict", "a"], ["--no-strict"], ["--strict", "--no-strict", "-q"], ["--no-strict", "--quiet", "--strict", "-q"],
])  # fmt: skip
@pytest.mark.parametrize("env", [{}, {"FORGEC_NO_CACHE": "1"}, {"FORGEC_NO_CACHE": "false"},
                                 {"FORGEC_CACHE_DIR": "nowhere"}, {"FORGEC_CACHE_DIR": "."}])  # fmt: skip
def test_the_fast_parse_is_clicks(monkeypatch: pytest.MonkeyPatch, words: list[str], env: dict[str, str]) -> None:
    monkeypatch.setattr(_echo, "plain_streams", lambda: True)  # pytest's capture streams are not plain
    for name in ("FORGEC_NO_CACHE", "FORGEC_CACHE_DIR", "_FORGEC_COMPLETE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert _fast.parse_plain_validate(words) == ValidateOptions(**validate.make_context("validate", words).params)


@pytest.mark.parametrize("words", [["-"], ["--"], [""], ["-qq"], ["--format", "Json"], ["--format"], ["--strict=1"],
                                   ["--format=json", "--format=json"], ["-h"], ["--no-cach"]])  # fmt: skip
def test_the_fast_parse_leaves_the_rest_to_click(monkeypatch: pytest.MonkeyPatch, words: list[str]) -> None:
    monkeypatch.setattr(_echo, "plain_streams", lambda: True)
    assert _fast.parse_plain_validate(words) is None


def test_the_ansi_pattern_is_clicks() -> None:
    assert click._compat._ansi_re.pattern == _echo.ANSI_ESCAPE  # type: ignore[attr-defined]


class _Terminal(io.TextIOWrapper):
    tty: bool | None = None

    def isatty(self) -> bool:
        if self.tty is None:
            raise ValueError("I/O operation on closed file")
        return self.tty


@pytest.mark.parametrize("message", ["", "plain", "\x1b[1;31mred\x1b[0m and \x1b[38:2:1:2:3m", "\x1b[", "ü\n"])
@pytest.mark.parametrize("tty", [True, False, None])
@pytest.mark.parametrize("color", [None, True, False])
@pytest.mark.parametrize("nl", [True, False])
@pytest.mark.parametrize("err", [True, False])
def test_echo_is_click_echo(monkeypatch: pytest.MonkeyPatch, message: str, tty: bool | None, color: bool | None,
                            nl: bool, err: bool) -> None:  # fmt: skip
    written = []
    for click_free in (False, True):
        out, errs = (_Terminal(io.BytesIO(), encoding="utf-8", errors="backslashreplace") for _ in range(2))
        out.tty = errs.tty = tty
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", errs)
        if click_free:
            with _echo.click_free_command("forgec validate"):
                _echo.echo(message, err=err, nl=nl, color=color)
        else:
            _echo.echo(message, err=err, nl=nl, color=color)  # click.echo itself while click drives
        written.append((out.buffer.getvalue(), errs.buffer.getvalue()))  # type: ignore[attr-defined]
    assert written[0] == written[1]
    assert _echo.running_click_free() is None


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", "ascii", "cp1252", "US-ASCII"])
def test_plain_streams_are_the_ones_click_writes_to_unchanged(encoding: str) -> None:
    code = ("import sys, click.utils as u; from forgec.cli import _printable_streams; from forgec.cli._echo import "
            "plain_streams; _printable_streams(); print(plain_streams(), "
            "u._default_text_stdout() is sys.stdout and u._default_text_stderr() is sys.stderr, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": encoding})  # fmt: skip
    mine, clicks = done.stderr.split()
    assert mine == clicks and (mine == "True") is ("ascii" not in encoding.lower())
