"""Ctrl-C while forgec is still starting up (the console script's import, ``python -m forgec``, a
command imported lazily) exits with code 130 and ``forgec: interrupted``, without a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


_INTERRUPT_IMPORT = """
import sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
        return None
sys.meta_path.insert(0, Interrupt())
{statement}
"""


@pytest.mark.parametrize(
    ("module", "statement"),
    [
        ("click", "from forgec.cli import main; main(['rule', 'FG101'])"),  # the console script loads click
        ("click", "import runpy; runpy.run_module('forgec', run_name='__main__')"),  # python -m forgec
        ("forgec.cli.rule", "from forgec.cli import main; main(['rule', 'FG101'])"),  # a lazy command import
        # the click-free `forgec validate FILE` (forgec.cli._fast) while it loads the linter
        ("forgec.lint", "from forgec.cli import main; main(['validate', '--no-cache', 'examples/broken/typos.yaml'])"),
    ],
)
def test_interrupt_while_importing_exits_130(module: str, statement: str) -> None:
    code = _INTERRUPT_IMPORT.format(module=module, statement=statement)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 130, done.stderr
    # click ends the "^C" line with a newline before giving up; then only forgec's message
    assert done.stderr.strip() == "forgec: interrupted" and "Traceback" not in done.stderr
