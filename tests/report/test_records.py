"""The report's two records made without their ``__init__`` (forgec/report.py, *making the two records*):
the fast makers on in both builds, the same objects the dataclass constructors make, for every corpus
case, and still frozen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from forgec import report
from forgec.diagnostics.records import ConstructorMaker
from forgec.report import CompileResult, ReportInputs, compile_report, load_inputs
from forgec.resources import compiled_modules

COMPILED = "report.py" in compiled_modules()

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
STACK_CASES = sorted(c.name for c in CASES.iterdir() if (c / "stack.json").is_file())


def test_the_field_lists_are_the_dataclasses_fields() -> None:
    assert tuple(f.name for f in dataclasses.fields(ReportInputs)) == report.INPUTS_FIELDS
    assert tuple(f.name for f in dataclasses.fields(CompileResult)) == report.RESULT_FIELDS


def test_the_fast_makers_are_on_in_both_builds() -> None:
    """Compiled, the storing functions (C stores into the native objects); as Python their first store
    raises and the plain-slots twin is handed out.  A changed record class switches them off: this notices."""
    for make, stored in ((report._MAKE_INPUTS, report._stored_inputs), (report._MAKE_RESULT, report._stored_result)):
        assert not isinstance(make, ConstructorMaker)
        assert (make is stored) is COMPILED
        if not COMPILED:
            assert make.__name__ == "make_by_twin"
    if not COMPILED:
        with pytest.raises(dataclasses.FrozenInstanceError):
            report._stored_inputs(*report._INPUTS_PROBE)
        with pytest.raises(dataclasses.FrozenInstanceError):
            report._stored_result(*report._RESULT_PROBE)


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
