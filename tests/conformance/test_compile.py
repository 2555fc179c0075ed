"""Conformance of the compiler: every stack case's ``system``, ``messages``, ``variables`` and
``finalize`` sections, compared as text with ``expected.json`` (conformance.md *Output*).

Each case is laid out the way the reference runner lays it out (the stack file in
``<project>/.pi/forge/prompt-stacks/`` with its ``extra-stacks/``), then compiled with
:func:`forgec.compile_report`.  The tail of ``Regex rule <id> failed to compile: …`` is V8 text
(conformance.md *Engine-specific text*) and is compared masked; docs/compatibility.md lists it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conformance_helpers import lay_out_case, load_expected, mask_engine_text, stack_cases

from forgec.js.values import dumps_report

SECTIONS = ("system", "messages", "variables", "finalize")

_REPORTS: dict[str, dict[str, Any]] = {}


def _report(case: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One compile per case, shared by its four section tests."""
    cached = _REPORTS.get(case.name)
    if cached is None:
        from forgec import compile_report

        stack_path = lay_out_case(case, tmp_path_factory.mktemp(case.name))
        cached = compile_report(stack_path, case / "context.json").to_report()
        _REPORTS[case.name] = cached
    return cached


@pytest.mark.parametrize(
    ("case", "section"),
    [pytest.param(case, section, id=f"{case.name}-{section}") for case in stack_cases() for section in SECTIONS],
)
def test_compile_section(case: Path, section: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    expected = load_expected(case)
    report = _report(case, tmp_path_factory)
    if section not in expected:
        assert section not in report
        return
    assert section in report
    assert dumps_report(mask_engine_text(report[section])) == dumps_report(mask_engine_text(expected[section]))
