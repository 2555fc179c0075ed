"""Issue 13 family 13: concurrent writers of one new file, as real processes.

Each writer is its own Python process that imports forgec, waits for a shared start signal and then
runs the command, so the writes meet at the same moment; without ``--overwrite`` a new file must be
created exclusively (link semantics), so exactly one writer wins and the others are told the file
exists. Without exclusivity up to 4 of 4 "succeeded", each replacing the last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

WRITERS = 4
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_WORKER = """
import os, sys, time
from forgec.cli import main
go = sys.argv[1]
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.001)
main(sys.argv[2:])
"""


def _race(tmp_path: Path, args: list[str]) -> list[subprocess.CompletedProcess[str]]:
    go = tmp_path / "go"
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-c", _WORKER, str(go), *args]
    procs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        for _ in range(WRITERS)
    ]
    time.sleep(1.5)  # let every writer import forgec and reach the wait
    go.write_text("")
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


def test_racing_compile_out_has_exactly_one_winner(tmp_path: Path) -> None:
    stack = EXAMPLES / ".pi" / "forge" / "prompt-stacks" / "storyteller.json"
    out = tmp_path / "body.json"
    results = _race(tmp_path, ["compile", str(stack), "--target", "openai-completions", "--out", str(out)])
    codes = sorted(r.returncode for r in results)
    assert codes == [0] + [2] * (WRITERS - 1), [(r.returncode, r.stderr[-300:]) for r in results]
    for loser in (r for r in results if r.returncode == 2):
        assert "exists" in loser.stderr and "Traceback" not in loser.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["model"]  # one complete body
    assert sorted(p.name for p in tmp_path.iterdir()) == ["body.json", "go"]  # no temporary files


def test_racing_imports_into_one_project_have_exactly_one_winner(tmp_path: Path) -> None:
    preset = EXAMPLES / "presets" / "my-preset.json"
    project = tmp_path / "project"
    project.mkdir()
    results = _race(tmp_path, ["import-silly", str(preset), "100001", "--out-dir", str(project)])
    codes = sorted(r.returncode for r in results)
    assert codes[0] == 0 and codes.count(0) == 1, [(r.returncode, r.stderr[-300:]) for r in results]
    for loser in (r for r in results if r.returncode != 0):  # exit 1: "an output file exists" (--help)
        assert loser.returncode == 1 and "--overwrite" in loser.stdout + loser.stderr, (loser.stdout, loser.stderr)
        assert "Traceback" not in loser.stderr
    written = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    assert written == [".pi/forge/import-reports/my-preset.md", ".pi/forge/prompt-stacks/my-preset.json"]
