"""The compile of an imported stack equals the reference (validation/system/messages/variables).

Uses the compiler's :func:`forgec.report.compile_report` on the stack the importer produced, loaded
from ``.pi/forge/prompt-stacks/<id>.json`` as the conformance runner does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.importers.sillytavern import import_preset
from forgec.js.values import dumps_report, json_stringify
from forgec.report import compile_report

from .conftest import import_cases, now_ms_of

CASES = [
    c for c in import_cases() if "error" not in json.loads((c / "expected.json").read_text("utf-8"))["import"]
]
SECTIONS = ("validation", "system", "messages", "variables")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_compile_of_imported_stack(case: Path, tmp_path: Path) -> None:
    spec = json.loads((case / "import.json").read_text("utf-8")) if (case / "import.json").exists() else {}
    target = tmp_path / spec.get("fileName", "preset.json")
    target.write_bytes((case / "preset.json").read_bytes())
    context = json.loads((case / "context.json").read_text("utf-8"))
    result = import_preset(target, spec.get("characterId"), now_ms=now_ms_of(context["now"]))
    assert result.stack is not None
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    stack_file = folder / f"{result.stack['id']}.json"
    stack_file.write_text(json_stringify(result.stack, 2) or "", encoding="utf-8")
    report = compile_report(stack_file, case / "context.json").to_report()
    expected = json.loads((case / "expected.json").read_text("utf-8"))
    for section in SECTIONS:
        if section in expected:
            assert dumps_report(report.get(section)) == dumps_report(expected[section]), section
