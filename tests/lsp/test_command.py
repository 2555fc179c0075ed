"""``forgec lsp`` as a command: its help, and a clear word (exit 2, no traceback) without the extra."""

from __future__ import annotations

import subprocess
import sys

# the server's module graph is imported only by the command, and a missing pygls is reported
# before anything imports it: the interpreter below behaves as if pygls were not installed
_WITHOUT_PYGLS = """
import sys
sys.modules["pygls"] = None  # importlib: "not installed"
from forgec.cli import main
main(["lsp"])
"""


def test_without_the_extra_it_says_how_to_install_it() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT_PYGLS],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("forgec lsp: error: pygls is not installed")
    assert "pip install 'forgec[lsp]'" in run.stderr
    assert run.stdout == ""


def test_help_names_the_files_the_features_and_the_options() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "forgec", "lsp", "--help"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0
    for words in ("docs/editors.md", "forgec.preview", "initializationOptions", "debounceMs", "forgec[lsp]"):
        assert words in run.stdout


def test_the_server_ends_when_its_input_closes() -> None:
    """An editor that dies closes the pipe: the server must exit, not spin or hang."""
    run = subprocess.run([sys.executable, "-m", "forgec", "lsp"], input=b"", capture_output=True, timeout=60)
    assert run.returncode == 0
    assert b"Traceback" not in run.stderr
