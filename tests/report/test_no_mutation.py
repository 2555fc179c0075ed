"""The compiler never changes its inputs, so cached and batch-shared inputs stay what they were.

The stack cache hands out private copies, and :class:`forgec.batch.Batch` shares one loaded stack or
context between compiles; both rely on this.  For every corpus case: compile twice from the files,
mutate everything the first result holds, compile again -- same report -- and compile a loaded
stack and context whose serialised form is compared before and after.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.context import load_context
from forgec.js.values import dumps_report
from forgec.report import ReportInputs, compile_inputs, compile_report, load_stack

CASES = sorted(
    c for c in (Path(__file__).resolve().parents[1] / "conformance" / "cases").iterdir() if (c / "stack.json").is_file()
)


def _trash(value: Any) -> None:
    """Mutate every container reachable from ``value``."""
    if isinstance(value, dict):
        for child in list(value.values()):
            _trash(child)
        value["__mutated__"] = True
    elif isinstance(value, list):
        for child in list(value):
            _trash(child)
        value.append("__mutated__")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_compiling_twice_and_mutating_the_results_changes_nothing(case: Path) -> None:
    stack, context = case / "stack.json", case / "context.json"
    first = compile_report(stack, context, finalize=True, payloads=True)
    expected = dumps_report(first.to_report())
    second = compile_report(stack, context, finalize=True, payloads=True)
    assert dumps_report(second.to_report()) == expected
    for mutable in (first.loaded.stack, first.loaded.raw, first.context.data, first.to_report(), first.messages):
        _trash(mutable)
    first.loaded.diagnostics.clear()
    assert dumps_report(compile_report(stack, context, finalize=True, payloads=True).to_report()) == expected


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_compile_leaves_the_loaded_stack_and_context_as_they_were(case: Path) -> None:
    loaded = load_stack(case / "stack.json")
    context = load_context(case / "context.json")
    before = repr((loaded.stack, loaded.raw, context.data))  # (marshal's bytes follow reference counts)
    compile_inputs(ReportInputs(loaded, (), context), finalize=True, payloads=True)
    assert repr((loaded.stack, loaded.raw, context.data)) == before
