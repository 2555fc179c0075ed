"""``NO_COLOR`` turns colour off in ``forgec preview``, even when ``FORCE_COLOR`` asks for it.
"""

from __future__ import annotations

import os
from pathlib import Path

from .helpers import CLEAN_STACK, write_json


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
