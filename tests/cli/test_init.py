"""``forgec init`` (issue 15, point 10): in an empty folder, ``forgec init && pytest && pre-commit
run --all-files`` is green at once -- run for real: pytest and pre-commit in subprocesses, a real
git repository, the hook a ``repo: local`` one so nothing reaches the network."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forgec.scaffold import FILES, GOLDEN, STACK


def _env(tmp_path: Path) -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)  # the forgec console script the hook calls
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GIT_"))}
    env.update(
        PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        HOME=str(tmp_path / "home"),
        PI_FORGE_GLOBAL_DIR=str(tmp_path / "home" / "pi-forge"),
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    return env


def _sh(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_init_lists_what_it_wrote(run, tmp_path: Path) -> None:
    result = run("init", "proj")
    assert result.exit_code == 0, result.output
    for name in FILES:
        assert (tmp_path / "proj" / name).is_file()
        assert f"created {Path('proj') / name}" in result.output
    assert "cd proj && forgec validate . contexts/" in result.output


def test_init_refuses_to_replace_files(run, tmp_path: Path) -> None:
    assert run("init").exit_code == 0
    stack = tmp_path / STACK
    stack.write_text("# mine\n", encoding="utf-8")
    result = run("init")
    assert result.exit_code == 2
    assert "already there:" in result.output and "--overwrite replaces them" in result.output
    assert stack.read_text(encoding="utf-8") == "# mine\n"
    assert run("init", "--overwrite").exit_code == 0
    assert stack.read_text(encoding="utf-8").startswith("# A prompt stack")


def test_init_keeps_an_existing_pyproject(run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mine'\n", encoding="utf-8")
    result = run("init")
    assert result.exit_code == 0
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == "[project]\nname = 'mine'\n"
    assert "kept pyproject.toml" in result.output and "[tool.forgec]" in result.output


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_init_then_validate_pytest_and_pre_commit_are_green(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit")
    project = tmp_path / "proj"
    project.mkdir()
    env = _env(tmp_path)
    forgec = [sys.executable, "-m", "forgec"]
    init = _sh([*forgec, "init"], project, env)
    assert init.returncode == 0, init.stderr
    validate = _sh([*forgec, "validate", ".", "contexts/"], project, env)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert "All checks passed (2 files checked)." in validate.stdout

    tests = _sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], project, env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "1 passed" in tests.stdout and "1 snapshot passed" in tests.stdout

    assert _sh(["git", "init", "-q"], project, env).returncode == 0
    assert _sh(["git", "add", "-A"], project, env).returncode == 0
    hooks = _sh([sys.executable, "-m", "pre_commit", "run", "--all-files"], project, env)
    assert hooks.returncode == 0, hooks.stdout + hooks.stderr
    assert "forgec validate" in hooks.stdout and "Passed" in hooks.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_scaffold_catches_a_mistake(tmp_path: Path) -> None:
    """Green at once, red for a real mistake: the golden test and the hook are not decorations."""
    pytest.importorskip("pre_commit")
    project = tmp_path / "proj"
    project.mkdir()
    env = _env(tmp_path)
    assert _sh([sys.executable, "-m", "forgec", "init"], project, env).returncode == 0
    stack = project / STACK
    stack.write_text(stack.read_text(encoding="utf-8").replace("role: system\n    content", "role: System\n    content"), encoding="utf-8")
    tests = _sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], project, env)
    assert tests.returncode != 0
    assert _sh(["git", "init", "-q"], project, env).returncode == 0
    assert _sh(["git", "add", "-A"], project, env).returncode == 0
    hooks = _sh([sys.executable, "-m", "pre_commit", "run", "--all-files"], project, env)
    assert hooks.returncode == 1
    assert ".pi/forge/prompt-stacks/assistant.yaml:14:11: FG118 [error] Invalid role: System" in hooks.stdout
    assert (project / GOLDEN).is_file()
