"""Every command the README's tour and the golden-test guide show runs as written, in a copy of
``examples/``, and exits 0.

The README promises "Everything below runs in the example project": a newcomer copies the lines
one by one.  Each ``sh`` block is run by bash exactly as printed (comments, ``\\`` continuations,
redirections and globs included), with ``forgec`` bound to this interpreter's ``python -m forgec``.
The blocks are read from the documents, so a command edited there is tested as edited.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_FENCE = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(document: str, start: str, end: str | None) -> list[str]:
    text = (ROOT / document).read_text(encoding="utf-8")
    section = text.split(start, 1)[1]
    if end is not None:
        section = section.split(end, 1)[0]
    return _FENCE.findall(section)


#: the README tour (after "cd examples"), in order: later blocks may use what earlier ones wrote
TOUR = _blocks("README.md", "## A short tour", "## A stack in brief")
#: docs/golden-tests.md's command-line workflow
SNAPSHOT = _blocks("docs/golden-tests.md", "## Without pytest", None)


def _commands(block: str) -> list[str]:
    """The commands of a block: one per line, ``\\``-continued lines joined."""
    return [c.strip() for c in re.split(r"(?<!\\)\n", block) if c.strip()]


def _expected_exit(command: str) -> int:
    """0, unless the command's comment announces another exit code (``# exit 1: …``)."""
    found = re.search(r"#\s*exit (\d):", command)
    return int(found.group(1)) if found else 0


def _bash(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    prelude = f"set -e\nforgec() {{ {shlex.quote(sys.executable)} -m forgec \"$@\"; }}\n"
    return subprocess.run(
        ["bash", "-c", prelude + script], cwd=cwd, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "SOURCE_DATE_EPOCH": "1773476813"},
    )


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    if shutil.which("bash") is None:  # pragma: no cover
        pytest.skip("bash is needed to run the documented shell lines")
    copy = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", copy, ignore=shutil.ignore_patterns("__pycache__", "imported"))
    for generated in ("body.json", "prompt-stack.schema.json"):
        (copy / generated).unlink(missing_ok=True)
    return copy


def test_the_documents_have_the_blocks_this_test_runs() -> None:
    assert len(TOUR) >= 4 and all("forgec " in block for block in TOUR)
    assert SNAPSHOT and "forgec snapshot check" in SNAPSHOT[0]


def test_readme_tour_runs_as_written(examples: Path) -> None:
    for block in TOUR:
        for command in _commands(block):
            done = _bash(command, examples)
            assert done.returncode == _expected_exit(command), (
                f"{command}\n--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr}")
            assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    # what the tour says the commands leave behind
    assert (examples / "prompt-stack.schema.json").read_text(encoding="utf-8").lstrip().startswith("{")
    assert (examples / "body.json").is_file()
    assert (examples / "imported" / ".pi" / "forge" / "prompt-stacks" / "my-preset.json").is_file()
    assert (examples / "imported" / ".pi" / "forge" / "import-reports" / "my-preset.fidelity.json").is_file()


def test_readme_tour_prints_what_the_text_says(examples: Path) -> None:
    validate = _bash("forgec validate", examples)
    assert validate.stdout == "All checks passed (6 files checked).\n"  # 3 stacks, 2 profiles, the catalog
    resolved = _bash("forgec profile resolve local-pair", examples)
    assert "credentials     needs no credentials" in resolved.stdout and "verdict         usable" in resolved.stdout
    reviewer = _bash("forgec profile resolve reviewer", examples)  # the tour's environment has no keys
    assert reviewer.returncode == 1
    assert "ERROR: model: Model anthropic/claude-sonnet-4-5 has no configured authentication." in reviewer.stdout
    # the excerpt the README shows is what the command prints first
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("its findings read like this:\n\n```\n", 1)[1].split("```", 1)[0]
    typos = _bash("forgec validate broken/typos.yaml", examples)
    assert typos.returncode == 1 and typos.stdout.startswith(shown)
    concise = _bash("forgec validate broken/typos.yaml --format concise", examples).stdout.splitlines()
    assert concise[0] == ("broken/typos.yaml:5:36: FG118 [error] Invalid role: developer "
                          "(also: FG141 [warning] Enabled block has no role and will be ignored.)")
    preview = _bash("forgec preview .pi/forge/prompt-stacks/code-reviewer.yaml --context contexts/coding-session.yaml",
                    examples)
    assert "## System prompt" in preview.stdout and "--- target (user) ---" in preview.stdout
    rule = _bash("forgec rule FG118", examples)
    assert "Bad:" in rule.stdout and "Good:" in rule.stdout
    fingerprints = _bash("forgec fingerprint .pi/forge/prompt-stacks/*.json", examples).stdout.splitlines()
    assert [line.split()[1] for line in fingerprints] == [
        ".pi/forge/prompt-stacks/pair-programmer.json", ".pi/forge/prompt-stacks/storyteller.json"]
    assert all(line.startswith("sha256:v1:") for line in fingerprints)


def test_readme_library_snippet_runs(examples: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("**Library.**", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert snippet is not None
    done = subprocess.run([sys.executable, "-c", snippet.group(1)], cwd=examples, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("You are the Archivist")


def test_readme_stack_in_brief_is_a_clean_stack(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("## A stack in brief", 1)[1]
    stack = re.search(r"```yaml\n(.*?)```", text, re.DOTALL)
    assert stack is not None
    (tmp_path / "code-reviewer.yaml").write_text(stack.group(1), encoding="utf-8")
    done = _bash("forgec validate code-reviewer.yaml", tmp_path)
    assert (done.returncode, done.stdout) == (0, "All checks passed (1 file checked).\n"), done.stderr


def test_golden_guide_command_line_workflow(examples: Path) -> None:
    """``update`` once with a context, then ``check`` without one: the golden files remember it."""
    shutil.rmtree(examples / ".pi" / "forge" / "prompt-stacks" / "__golden__")
    done = _bash(SNAPSHOT[0], examples)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("written  ") == 3 and done.stdout.count("ok       ") == 3
