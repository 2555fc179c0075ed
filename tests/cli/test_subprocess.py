"""``python -m forgec`` for real: exit codes through the process boundary, and a cheap start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .helpers import BROKEN_JSON, CLEAN_STACK, write_json, write_text


def _forgec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "forgec", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )


def test_python_m_forgec_validate(tmp_path: Path) -> None:
    write_text(tmp_path / "broken.json", BROKEN_JSON)
    write_json(tmp_path / "clean.json", CLEAN_STACK)
    done = _forgec("validate", "--format", "json", "broken.json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["files"][0]["stackId"] == "broken"
    assert _forgec("validate", "clean.json", cwd=tmp_path).returncode == 0
    missing = _forgec("validate", "missing.json", cwd=tmp_path)
    assert missing.returncode == 2
    assert "Traceback" not in missing.stderr


_PROBE = """
import sys
from forgec.cli import main
try:
    main(["validate", "--format", "{fmt}", "clean.json"])
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in ("rich", "jsonschema", "ruamel", "lark", "icu", "regex") if m in sys.modules)
print(code, heavy, file=sys.stderr)
"""


def test_validate_json_file_avoids_heavy_imports(tmp_path: Path) -> None:
    """Cold start matters for pre-commit: the JSON path must not import the heavy libraries."""
    write_json(tmp_path / "clean.json", CLEAN_STACK)
    for fmt in ("full", "concise", "json", "github", "sarif"):
        done = subprocess.run(
            [sys.executable, "-c", _PROBE.format(fmt=fmt)],
            cwd=tmp_path, capture_output=True, text=True, timeout=60,
        )
        assert done.stderr.strip().splitlines()[-1] == "0 []", (fmt, done.stderr)
