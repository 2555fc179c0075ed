"""compile_report accepts an already loaded context (a host validates its snapshot once)."""

from __future__ import annotations

from pathlib import Path


def test_a_loaded_context_can_be_reused_across_reports() -> None:
    from forgec.codecs.context import load_context
    from forgec.report import compile_report

    case = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "macro-cross-compile"
    context = load_context(case / "context.json")
    first = compile_report(case / "stack.json", context).to_report()
    second = compile_report(case / "stack.json", context).to_report()
    assert first == second == compile_report(case / "stack.json", case / "context.json").to_report()
