"""``forgec init``: a new project whose checks are green from the first run.

A new user's first half hour decides whether a tool is kept.  The scaffold is a working example of
every habit the docs recommend, not a template with holes: a stack (YAML, with comments), a fixed
context, a golden test with its golden file already written, a pre-commit hook and the
``[tool.forgec]`` table.  ``forgec validate``, ``pytest`` and ``pre-commit run --all-files`` pass at
once in the new folder (tests/cli/test_init.py runs all three), so the first red is the user's own
change.

The golden file is rendered here by the same code as the pytest plugin's
(:func:`forgec.snapshots.compile_for_snapshot` and :func:`forgec.output.golden.render_golden`), so
it is byte for byte what ``pytest --snapshot-update`` would write.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["FILES", "Scaffold", "scaffold_project"]

STACK = ".pi/forge/prompt-stacks/assistant.yaml"
CONTEXT = "contexts/session.yaml"
TEST = "tests/test_prompts.py"
GOLDEN = "tests/__snapshots__/test_prompts/test_assistant.prompt.md"
PRE_COMMIT = ".pre-commit-config.yaml"
PYPROJECT = "pyproject.toml"

_STACK_TEXT = """\
# A prompt stack: what Pi sends the model, block by block (docs: forgec rule, forgec preview).
# Check it with `forgec validate`; see what it compiles to with
#   forgec preview .pi/forge/prompt-stacks/assistant.yaml --context contexts/session.yaml
schemaVersion: 1
type: pi-forge.prompt-stack
id: assistant
name: Assistant
mode: replace
variables:
  tone: concise and friendly
items:
  - kind: block
    id: role
    role: system
    content: |-
      You are a helpful coding assistant. Keep answers {{tone}}.
  - kind: slot
    id: tools
    role: system
    slot: tools
    options:
      format: plain
  - kind: slot
    id: history
    slot: chat-history
    options:
      maxMessages: 40
"""

_CONTEXT_TEXT = """\
# A fixed host snapshot (what Pi hands pi-forge), so previews and golden files are the same on
# every machine. `forgec validate contexts/` checks it like a stack.
now: "2026-01-05T09:00:00+01:00"
timezone: Europe/Berlin
cwd: /home/dev/project
model: { provider: anthropic, id: claude-sonnet-4-5, api: anthropic-messages }
baseSystemPrompt: You are an expert coding assistant operating inside pi.
tools:
  - name: read
    description: Read the contents of a file.
    snippet: Read file contents
messages:
  - role: user
    content: What does this project do?
    timestamp: 1767600000000
  - role: assistant
    content:
      - { type: text, text: "It compiles prompt stacks. Shall I show you one?" }
    api: anthropic-messages
    provider: anthropic
    model: claude-sonnet-4-5
    usage: { input: 900, output: 14, cacheRead: 0, cacheWrite: 0, totalTokens: 914 }
    stopReason: stop
    timestamp: 1767600001000
  - role: user
    content: Yes, please.
    timestamp: 1767600002000
"""

_TEST_TEXT = f'''\
"""Golden-file test of the prompt stack (forgec's pytest plugin; docs/golden-tests.md).

`pytest` fails with a per-message diff when the stack, the context or forgec changes what the stack
compiles to; when the change is intended, `pytest --snapshot-update` rewrites the golden file under
__snapshots__/ and the diff shows up in review.
"""

STACK = "../{STACK}"
CONTEXT = "../{CONTEXT}"


def test_assistant(forgec_compile, prompt_snapshot):
    assert forgec_compile(STACK, context=CONTEXT) == prompt_snapshot
'''

# The hook runs the forgec of the environment pre-commit is started from (language: system), so it
# needs no network and always matches the forgec the tests use; docs/pre-commit.md shows the
# remote-repository form too.
_PRE_COMMIT_TEXT = r"""# pre-commit (https://pre-commit.com): `pre-commit install` once, then every commit is checked.
repos:
  - repo: local
    hooks:
      - id: forgec-validate
        name: forgec validate
        entry: forgec validate --format concise
        language: system
        files: (^|/)(\.pi/((forge/)?prompt-stacks/[^/]+|forge/agent-profiles/[^/]+|forge/config|forge/models)|contexts/[^/]+)\.(json|ya?ml)$
        types_or: [json, yaml]
"""

_PYPROJECT_TEXT = """\
# forgec's settings (docs/configuration.md); `forgec validate --help` lists the rule options.
[tool.forgec]
strict = false

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

#: every file ``forgec init`` writes, relative to the project folder, in the order it lists them
FILES: tuple[str, ...] = (STACK, CONTEXT, TEST, GOLDEN, PRE_COMMIT, PYPROJECT)


@dataclass(frozen=True, slots=True)
class Scaffold:
    """What :func:`scaffold_project` wrote (``written``) and left alone (``kept``: an existing
    ``pyproject.toml`` is never replaced, so the table to add is in ``pyproject_hint``)."""

    root: Path
    written: list[Path]
    kept: list[Path]
    pyproject_hint: str


def _golden(root: Path) -> str:
    from forgec.output.golden import render_golden
    from forgec.snapshots import compile_for_snapshot

    report = compile_for_snapshot(root / STACK, root / CONTEXT, require_usable=True)
    return render_golden(report)


def scaffold_project(root: Path, *, overwrite: bool = False) -> Scaffold:
    """Write the scaffold into ``root`` (created when missing).

    Raises :class:`~forgec.atomic.ExistingFilesError` before writing anything when a scaffold file
    exists and ``overwrite`` is false.  An existing ``pyproject.toml`` is kept either way.
    """
    from forgec.atomic import existing, write_files

    pyproject = root / PYPROJECT
    keep = [pyproject] if pyproject.exists() else []
    texts = {STACK: _STACK_TEXT, CONTEXT: _CONTEXT_TEXT, TEST: _TEST_TEXT, PRE_COMMIT: _PRE_COMMIT_TEXT}
    if not keep:
        texts[PYPROJECT] = _PYPROJECT_TEXT
    targets = [root / name for name in (*texts, GOLDEN)]
    if not overwrite:
        from forgec.atomic import ExistingFilesError

        found = existing(targets)
        if found:
            raise ExistingFilesError(found)
    # the stack and context first: the golden file is compiled from them as written
    write_files([(root / name, text) for name, text in texts.items()], overwrite=overwrite)
    write_files([(root / GOLDEN, _golden(root))], overwrite=overwrite)
    written = [root / name for name in FILES if (root / name) not in keep]
    return Scaffold(root, written, keep, _PYPROJECT_TEXT)
