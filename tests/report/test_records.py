"""The report's two records made by their fields' descriptors (forgec/report.py, *making the two records*):
the same objects the dataclass constructors make, for every corpus case, and still frozen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from forgec import report
from forgec.report import CompileResult, ReportInputs, compile_report, load_inputs

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
STACK_CASES = sorted(c.name for c in CASES.iterdir() if (c / "stack.json").is_file())


def test_the_field_lists_are_the_dataclasses_fields() -> None:
    assert tuple(f.name for f in dataclasses.fields(ReportInputs)) == report.INPUTS_FIELDS
    assert tuple(f.name for f in dataclasses.fields(CompileResult)) == report.RESULT_FIELDS


@pytest.mark.parametrize("case", STACK_CASES)
def test_records_equal_the_constructors(case: str) -> None:
    inputs = load_inputs(CASES / case / "stack.json", CASES / case / "context.json")
    made = ReportInputs(inputs.loaded, inputs.others, inputs.context)
    assert type(inputs) is ReportInputs
    assert [getattr(inputs, name) for name in report.INPUTS_FIELDS] == [getattr(made, name) for name in report.INPUTS_FIELDS]
    assert inputs == made
    for payloads in (False, True):
        result = compile_report(inputs, finalize=True, payloads=payloads)
        expected = CompileResult(
            result.inputs, result.prompt, result.variables, result.fingerprints, result.finalize, result.payloads
        )
        assert type(result) is CompileResult
        assert result == expected
        assert repr(result) == repr(expected)


def test_records_stay_frozen() -> None:
    result = compile_report(CASES / "example-default" / "stack.json", CASES / "example-default" / "context.json")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.variables = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.inputs.context = None  # type: ignore[misc]
