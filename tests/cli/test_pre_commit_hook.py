"""The pre-commit hook definition: it parses, runs ``forgec validate`` and matches the files it checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


@pytest.fixture(scope="module")
def hook() -> dict:
    if not HOOKS.is_file():
        pytest.skip("not running from a source checkout")
    from ruamel.yaml import YAML

    hooks = YAML(typ="safe").load(HOOKS.read_text(encoding="utf-8"))
    (found,) = [h for h in hooks if h["id"] == "forgec-validate"]
    return found


def test_hook_runs_forgec_validate(hook: dict) -> None:
    assert hook["entry"] == "forgec validate"
    assert hook["language"] == "python"
    assert {"id", "name", "entry", "language"} <= set(hook)


@pytest.mark.parametrize(
    ("path", "matched"),
    [
        (".pi/forge/prompt-stacks/writer.json", True),
        (".pi/forge/prompt-stacks/writer.yaml", True),
        (".pi/prompt-stacks/old.yml", True),
        ("sub/project/.pi/forge/prompt-stacks/a.json", True),
        ("package.json", False),
        (".pi/forge/config.json", True),
        (".pi/forge/agent-profiles/reviewer.json", True),
        (".pi/forge/models.yaml", True),
        (".pi/forge/agent-profiles/reviewer.yaml", False),  # pi-forge reads JSON profiles only
        (".pi/config.json", False),
        (".pi/forge/import-reports/a.json", False),
        (".pi/forge/prompt-stacks/nested/a.json", False),
    ],
)
def test_hook_files_pattern(hook: dict, path: str, matched: bool) -> None:
    assert bool(re.search(hook["files"], path)) is matched
