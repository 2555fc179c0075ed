"""Output files (``compile --out``, ``validate -o``) never destroy an input.

Writing over the stack, the context or the model catalog the command reads is refused, even with
``--overwrite`` and through another spelling of the path or a symbolic link; an output path that is a
symbolic link is replaced, its target is left alone.
"""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import CLEAN_STACK, write_json, write_text


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


def test_validate_output_file_refuses_a_checked_stack(run, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "d" / "a.json", CLEAN_STACK)
    before = stack.read_text()
    result = run("validate", "d", "--format", "json", "-o", "d/a.json", "--overwrite")
    assert result.exit_code == 2 and "is an input of this command" in result.stderr
    assert stack.read_text() == before


def test_out_never_replaces_the_models_catalog(run, tmp_path: Path) -> None:
    """``--models cat.json --out cat.json --overwrite`` used to replace the catalog with the body."""
    write_json(tmp_path / "a.json", CLEAN_STACK)
    write_text(tmp_path / "cat.json", '{"models": []}')
    result = run("compile", "a.json", "--target", "all", "--models", "cat.json", "--out", "./cat.json", "--overwrite")
    assert result.exit_code == 2
    assert "./cat.json is an input of this command (cat.json)" in result.stderr
    assert (tmp_path / "cat.json").read_text(encoding="utf-8") == '{"models": []}'
