"""Shared helpers for the importer tests: where the corpus and the real presets live."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "conformance" / "cases"
SHARED_CASES = Path(
    os.environ.get("FORGEC_SHARED_CASES", REPO.parent / "shared" / "oracle" / "cases" / "public")
)
FIXTURES = Path(os.environ.get("FORGEC_FIXTURES", REPO.parent / "shared" / "fixtures" / "sillytavern"))
DATA = Path(__file__).resolve().parent / "data"


def now_ms_of(text: str) -> int:
    """``Date.parse`` of a context ``now``: extra fraction digits are truncated (E15c)."""
    match = re.fullmatch(r"(.*T\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?", text)
    assert match, text
    zone = match.group(3) or "Z"
    moment = datetime.fromisoformat(match.group(1) + ("+00:00" if zone == "Z" else zone))
    millis = int((match.group(2) or "0")[:3].ljust(3, "0"))
    return int(moment.timestamp()) * 1000 + millis


def import_cases() -> list[Path]:
    """Every preset case: ``import-*`` in the repo corpus, ``fixture-*`` from the shared corpus."""
    found = sorted(p for p in CASES.glob("*") if (p / "preset.json").exists())
    if SHARED_CASES.is_dir():
        found += sorted(p for p in SHARED_CASES.glob("fixture-*") if (p / "preset.json").exists())
    return found


def require_fixtures() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip(f"real SillyTavern presets not found at {FIXTURES} (set FORGEC_FIXTURES)")
    return FIXTURES
