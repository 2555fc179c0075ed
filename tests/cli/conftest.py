"""Fixtures for the command-line tests: run ``forgec`` in-process with click's CliRunner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from forgec.cli import cli


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[..., Result]:
    """``run(*args, cwd=tmp_path, input=None)``: invoke ``forgec`` in-process from ``cwd``."""

    def invoke(*args: str, cwd: Path | None = None, input: str | None = None) -> Result:
        monkeypatch.chdir(cwd or tmp_path)
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke
