"""Commands that read a context print every problem of an invalid one as
``path:line:col: FG011 [error] message`` lines on stderr and exit with code 2; YAML reading
errors show their real position and no ruamel internals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK

BAD_CONTEXT = '{\n  "now": "tomorrow",\n  "timezone": "Mars/Olympus"\n}\n'
EXPECTED = [
    'ctx.json:2:10: FG011 [error] now must be a date-time ending in Z or ±HH:MM (e.g. 2026-03-14T09:26:53+01:00), '
    'got "tomorrow"',
    'ctx.json:3:15: FG011 [error] timezone names no known time zone: "Mars/Olympus" (use an IANA name such as '
    '"Europe/Berlin")',
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    stacks = tmp_path / ".pi" / "forge" / "prompt-stacks"
    stacks.mkdir(parents=True)
    (stacks / "clean.json").write_text(json.dumps(CLEAN_STACK), encoding="utf-8")
    (tmp_path / "ctx.json").write_text(BAD_CONTEXT, encoding="utf-8")
    return tmp_path


STACK = ".pi/forge/prompt-stacks/clean.json"


@pytest.mark.parametrize(
    "args",
    [
        ("preview", STACK, "--context", "ctx.json"),
        ("preview", STACK, "--context", "ctx.json", "--format", "json"),
        ("compile", STACK, "--context", "ctx.json", "--target", "anthropic-messages"),
    ],
)
def test_commands_print_every_context_problem(run, project: Path, args: tuple[str, ...]) -> None:
    result = run(*args, cwd=project)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[:2] == EXPECTED
    assert lines[2] == f"forgec {args[0]}: error: the context file ctx.json cannot be used (2 problems)"
    assert result.stdout == "" and "Traceback" not in result.output


def test_snapshot_prints_every_context_problem_once(run, project: Path) -> None:
    stacks = project / ".pi" / "forge" / "prompt-stacks"
    (stacks / "other.json").write_text(json.dumps({**CLEAN_STACK, "id": "other"}), encoding="utf-8")
    result = run("snapshot", "check", "--context", "ctx.json", cwd=project)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[:2] == EXPECTED
    assert [line for line in lines if "FG011" in line] == EXPECTED  # once, not once per stack
    assert sum("the context file ctx.json cannot be used" in line for line in lines) == 2
    assert not (stacks / "__golden__").exists()


def test_unparsable_context_is_one_positioned_line(run, project: Path) -> None:
    (project / "ctx.yaml").write_bytes(b"now: 2026-01-01T00:00:00Z\ncwd: /x\x00\n")
    result = run("preview", STACK, "--context", "ctx.yaml", cwd=project)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "ctx.yaml:2:8: FG003 [error] Failed to parse YAML: unacceptable character #x0000: "
        "special characters are not allowed"
    )


def test_validate_concise_gives_a_nul_byte_its_position(run, tmp_path: Path) -> None:
    (tmp_path / "n.yaml").write_bytes(b"schemaVersion: 1\nid: n\x00\nitems: []\n")
    result = run("validate", "n.yaml", "--format", "concise")
    assert result.stdout.splitlines()[0] == (
        "n.yaml:2:6: FG003 [error] Failed to parse YAML: unacceptable character #x0000: "
        "special characters are not allowed"
    )


def test_pytest_fixture_lists_every_context_problem(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", clean=json.dumps(CLEAN_STACK))
    pytester.makefile(".json", ctx=BAD_CONTEXT)
    pytester.makepyfile(
        test_ctx="""
def test_bad_context(forgec_compile):
    forgec_compile("clean.json", context="ctx.json")
"""
    )
    # ``-rN``: no short summary, whose length depends on the terminal width (CI has none).
    result = pytester.runpytest("-p", "no:cacheprovider", "-rN", "test_ctx.py")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "forgec_compile: the context file cannot be used:" in output
    for line in EXPECTED:
        assert line.replace("ctx.json:", "") in output
    assert output.count("FG011 [error]") == 2
    assert "During handling of the above exception" not in output
