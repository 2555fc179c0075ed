"""STACK ``-`` reads standard input.

``preview`` and ``compile`` read a piped stack (``--stdin-filename`` gives its name and so its format,
and needs ``-``); typed on a terminal, ``validate``, ``preview`` and ``fingerprint`` say how to end the
input instead of waiting in silence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import CLEAN_STACK


def test_preview_and_compile_read_stdin(run, tmp_path: Path) -> None:
    yaml_stack = "schemaVersion: 1\nid: piped\nitems:\n  - {kind: block, id: r, role: system, content: Hi}\n" \
                 "  - {kind: slot, id: h, slot: chat-history}\n"
    result = run("preview", "-", "--stdin-filename", "piped.yaml", "--format", "json", input=yaml_stack)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["validation"]["file"] == "piped.yaml" and report["system"]["prompt"] == "Hi"
    json_stack = json.dumps(CLEAN_STACK)
    result = run("compile", "-", "--target", "anthropic-messages", input=json_stack)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["system"][0]["text"] == "You are terse."
    # a YAML stack without the name is read as JSON (stdin.json) and fails to parse
    bad = run("compile", "-", "--target", "anthropic-messages", input=yaml_stack)
    assert bad.exit_code == 1 and bad.stderr.startswith("-:1:1: FG")
    assert run("preview", "s.json", "--stdin-filename", "x.json").exit_code == 2


@pytest.mark.parametrize("args", [("validate", "-"), ("preview", "-"), ("fingerprint", "-")])
def test_reading_a_terminal_says_so(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``forgec validate -`` typed without a pipe used to wait in silence, like a hang."""
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "forgec", *args], cwd=tmp_path, stdin=follower,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.write(leader, json.dumps(CLEAN_STACK).encode() + b"\n\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 0, err
    assert err.decode().startswith(f"forgec {args[0]}: reading standard input; end it with Ctrl-D")
    assert out
