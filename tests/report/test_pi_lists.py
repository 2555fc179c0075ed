"""The pi-forge-shaped diagnostic lists of a report (``to_pi_list``): a new list every time, even empty."""

from __future__ import annotations

from forgec.diagnostics import Diagnostic, to_pi_list


def test_an_empty_list_is_a_new_list_each_time() -> None:
    first, second = to_pi_list([]), to_pi_list(())  # type: ignore[arg-type]  # a loaded stack keeps a tuple
    assert first == [] and second == [] and first is not second
    first.append({"level": "info", "message": "changed by the caller"})
    assert to_pi_list([]) == []


def test_forgec_only_findings_are_left_out_in_order() -> None:
    findings = [
        Diagnostic("warning", "a", "FG1", item_id="x"),
        Diagnostic("warning", "forgec only", "FG2", extra=True),
        Diagnostic("error", "b", "FG3"),
    ]
    assert to_pi_list(findings) == [{"level": "warning", "message": "a", "itemId": "x"}, {"level": "error", "message": "b"}]
    assert to_pi_list([findings[1]]) == []
