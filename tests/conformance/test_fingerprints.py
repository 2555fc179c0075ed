"""Conformance of ``fingerprints.promptStack``: pi-forge's ``subagentPromptStackFingerprint`` of the
normalised stack (``validation.stack``), for every case that has one (conformance.md *Fingerprints*).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from forgec.fingerprint import is_fingerprint, stack_fingerprint

CASES = Path(__file__).parent / "cases"


def _cases() -> list[Path]:
    dirs = sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file())
    default = Path(__file__).resolve().parents[2] / ".." / "shared" / "oracle" / "cases" / "public"
    shared = Path(os.environ.get("FORGEC_SHARED_CASES", default))
    if shared.is_dir():
        dirs += sorted(p for p in shared.iterdir() if p.name.startswith("fixture-"))
    return [d for d in dirs if (d / "expected.json").is_file() and "fingerprints" in _load(d / "expected.json")]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.name)
def test_prompt_stack_fingerprint(case: Path) -> None:
    expected = _load(case / "expected.json")
    digest = stack_fingerprint(expected["validation"]["stack"])
    assert is_fingerprint(digest)
    assert digest == expected["fingerprints"]["promptStack"]
