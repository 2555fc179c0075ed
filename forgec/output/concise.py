"""One line per mistake, ``path:line:col: FG101 [error] message`` (the ``grep``/editor format).

Lines are sorted by position within each file; the findings a mistake caused follow its message
as ``(also: FG141 [warning] …)`` rather than as lines of their own.  A finding without a span is
printed at ``1:1``.  The summary line (which counts every finding) ends the output; ``--quiet``
prints only that line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from forgec.output.textsafe import escape_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import Finding, LintReport

__all__ = ["format_finding", "render"]


def format_finding(path: str, finding: Finding, notes: Sequence[Finding] = ()) -> str:
    """One finding as ``path:line:col: CODE [severity] message`` (no newline), the findings it
    caused appended as ``(also: CODE [severity] message; …)``.

    Path and message are untrusted (a file name, text from a stack file): control characters are
    escaped so the line is exactly one terminal line and cannot carry escape sequences.
    """
    line, column, _, _ = finding.position
    message = escape_controls(finding.message)
    if notes:
        also = "; ".join(f"{n.code} [{n.severity}] {escape_controls(n.message)}" for n in notes)
        message = f"{message} (also: {also})"
    return f"{escape_controls(path)}:{line}:{column}: {finding.code} [{finding.severity}] {message}"


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    if not quiet:
        for reported in report.files:
            for finding, notes in reported.grouped():
                out.write(format_finding(reported.result.path, finding, notes) + "\n")
    out.write(report.summary_line() + "\n")
