"""``forgec completion bash|zsh|fish`` prints a script that really completes forgec (issue 15)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def test_each_shell_gets_its_script(run) -> None:
    for shell, marker in (("bash", "complete -o nosort -F _forgec_completion forgec"), ("zsh", "#compdef forgec"),
                          ("fish", "complete --no-files --command forgec")):
        result = run("completion", shell)
        assert result.exit_code == 0
        assert marker in result.stdout
        assert "_FORGEC_COMPLETE=" in result.stdout


def test_unknown_shell_is_a_usage_error(run) -> None:
    result = run("completion", "tcsh")
    assert result.exit_code == 2
    assert "'tcsh' is not one of 'bash', 'zsh', 'fish'" in result.output


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_and_choices(tmp_path: Path) -> None:
    """The printed script, sourced in a real bash, asks the installed forgec for candidates."""
    bindir = Path(sys.executable).parent
    if not (bindir / "forgec").exists():
        pytest.skip("forgec console script not installed next to this Python")
    script = (
        'source <(forgec completion bash)\n'
        'COMP_WORDS=(forgec val); COMP_CWORD=1; COMPREPLY=(); _forgec_completion forgec; echo "${COMPREPLY[*]}"\n'
        'COMP_WORDS=(forgec validate --format j); COMP_CWORD=3; COMPREPLY=(); _forgec_completion forgec; echo "${COMPREPLY[*]}"\n'
    )
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["validate", "json junit"]
