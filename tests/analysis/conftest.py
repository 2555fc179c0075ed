"""The analysis tests run the command line too: the same in-process ``run`` fixture as ``tests/cli``."""

from tests.cli.conftest import run

__all__ = ["run"]
