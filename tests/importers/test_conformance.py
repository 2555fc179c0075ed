"""Every public preset case: the ``import`` section must equal expected.json byte for byte.

The runner writes ``preset.json`` to ``<project>/<fileName>`` and imports that path, so the
report's *Source file* line holds the temp dir, which is replaced by ``<project>`` (conformance.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.importers.sillytavern import import_preset
from forgec.js.values import dumps_report

from .conftest import SHARED_CASES, import_cases, now_ms_of

CASES = import_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_import_section_matches(case: Path, tmp_path: Path) -> None:
    spec = json.loads((case / "import.json").read_text("utf-8")) if (case / "import.json").exists() else {}
    context = json.loads((case / "context.json").read_text("utf-8"))
    target = tmp_path / spec.get("fileName", "preset.json")
    target.write_bytes((case / "preset.json").read_bytes())
    result = import_preset(target, spec.get("characterId"), now_ms=now_ms_of(context["now"]))
    actual = dumps_report({"import": result.import_section()}).replace(str(tmp_path), "<project>")
    expected = json.loads((case / "expected.json").read_text("utf-8"))
    assert actual == dumps_report({"import": expected["import"]})


def test_shared_fixture_cases_present() -> None:
    if not SHARED_CASES.is_dir():
        pytest.skip(f"shared corpus not found at {SHARED_CASES} (set FORGEC_SHARED_CASES)")
    assert sum(1 for c in CASES if c.name.startswith("fixture-")) == 13
