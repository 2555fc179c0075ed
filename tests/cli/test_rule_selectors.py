"""Rule selectors on the command line and in ``[tool.forgec]``.

An empty ``--select``/``--ignore``/``--extend-select`` value, or an empty selector list in
``pyproject.toml``, is a usage error (exit 2) rather than "select nothing"; ``--extend-select`` adds to
the selection the configuration file makes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import dup_stack as _dup_stack
from .helpers import write_json, write_text


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


def test_rule_and_schema_names_get_a_did_you_mean(run) -> None:
    """Issue 15: every name a user types gets the hint a selector gets."""
    result = run("rule", "unkown-field")
    assert result.exit_code == 2
    assert "unknown rule 'unkown-field' (did you mean 'unknown-field'?)" in result.output
    result = run("schema", "prompt-stak")
    assert result.exit_code == 2
    assert "unknown schema 'prompt-stak' (did you mean 'prompt-stack'?)" in result.output
    assert "did you mean" not in run("rule", "zzz").output
