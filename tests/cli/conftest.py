"""Fixtures for the command-line tests: run ``forgec`` in-process with click's CliRunner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from forgec.cli import cli


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Result]:
    """``run(*args, cwd=tmp_path, input=None)``: invoke ``forgec`` in-process from ``cwd``.

    The user's own forge folder and model catalog (``~/.pi/forge``, ``~/.config/forgec``) are
    replaced by empty folders, so what a developer keeps at home never changes a result.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(home / "pi-forge"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))

    def invoke(*args: str, cwd: Path | None = None, input: str | None = None) -> Result:
        monkeypatch.chdir(cwd or tmp_path)
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke
