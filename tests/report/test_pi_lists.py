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


def test_a_tuple_and_a_long_list_give_each_finding_a_new_dict() -> None:
    """A loaded stack keeps its findings in a tuple; a report of 1,000 blocks has thousands (the list is
    made by compiled code, ``forgec.diagnostics.core.pi_list``)."""
    findings = tuple(Diagnostic("warning", f"m{i}", "FG1", item_id=f"i{i}" if i % 2 else None, extra=i % 5 == 0) for i in range(100))
    made = to_pi_list(findings)  # type: ignore[arg-type]
    assert made == [d.to_pi() for d in findings if not d.extra]
    assert len(made) == 80 and len({id(d) for d in made}) == 80
    assert made[0] == {"level": "warning", "message": "m1", "itemId": "i1"} and made[1] == {"level": "warning", "message": "m2"}
