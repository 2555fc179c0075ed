"""``forgec validate --watch``: a real process that checks again when a file changes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def _wait_for(path: Path, text: str, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        content = path.read_text(encoding="utf-8", errors="replace")
        if text in content:
            return content
        time.sleep(0.1)
    raise AssertionError(f"{text!r} did not appear in {path}:\n{path.read_text(encoding='utf-8')}")


def test_watch_checks_again_after_a_change_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    stack = tmp_path / "s.yaml"
    stack.write_text("schemaVersion: 1\nid: s\nitems:\n  - {kind: block, id: a, role: System, content: x}\n", encoding="utf-8")
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "forgec", "validate", "s.yaml", "--watch", "--format", "concise"],
            cwd=tmp_path, stdout=stdout, stderr=stderr, env={**os.environ, "NO_COLOR": "1"},
        )  # fmt: skip
        try:
            _wait_for(err, "Watching 1 file(s)")
            assert "FG118" in out.read_text(encoding="utf-8")
            time.sleep(0.05)
            stack.write_text("schemaVersion: 1\nid: s\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n", encoding="utf-8")
            _wait_for(out, "All checks passed")
            assert "a file changed; checking again" in err.read_text(encoding="utf-8")
        finally:
            process.send_signal(signal.SIGINT)
            code = process.wait(timeout=20)
    assert code == 130
    assert "Traceback" not in err.read_text(encoding="utf-8")
