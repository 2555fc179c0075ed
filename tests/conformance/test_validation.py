"""Conformance of the loader: every stack case's ``validation`` section (conformance.md *Output*).

The case is laid out as the reference runner does (main file and ``extra-stacks/`` in the project's
stack folder), the folder is loaded with pi-forge's listing (JSON files only), and the main file's
entry plus ``otherFiles`` are compared with ``expected.json`` as ``dumps_report`` text.  Only the V8
text after ``Failed to parse JSON: `` may differ (and the RegExp text while forgec's JavaScript regex
engine is not importable).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conformance_helpers import lay_out_case, load_expected, mask_engine_text, stack_cases

from forgec.codecs.stack import load_stack_folder
from forgec.diagnostics import to_pi_list
from forgec.js.values import dumps_report


def validation_section(case: Path, project: Path) -> dict[str, Any]:
    """The ``validation`` section forgec produces for a stack case."""
    main = lay_out_case(case, project)
    loaded = load_stack_folder([main.parent], "project", include_yaml=False)
    entry = next(s for s in loaded if s.file_name == main.name)
    section = entry.validation()
    if (case / "extra-stacks").is_dir():
        section["otherFiles"] = [
            {"file": s.file_name, "stackId": s.stack_id, "diagnostics": to_pi_list(s.diagnostics)}
            for s in loaded
            if s is not entry
        ]
    return section


@pytest.mark.parametrize("case", stack_cases(), ids=lambda p: p.name)
def test_validation(case: Path, tmp_path: Path) -> None:
    expected = load_expected(case)["validation"]
    actual = validation_section(case, tmp_path)
    # forgec's own V8 regex parser gives the reference's text: only JSON.parse messages are masked
    assert dumps_report(mask_engine_text(actual, regex=False)) == dumps_report(mask_engine_text(expected, regex=False))
