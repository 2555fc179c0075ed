"""One line per finding, ``path:line:col: FG101 [error] message`` (the ``grep``/editor format).

A finding without a span is printed at ``1:1``.  The summary line ends the output; ``--quiet``
prints only that line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from forgec.lint import Report

__all__ = ["render"]


def render(report: Report, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    if not quiet:
        for reported in report.files:
            for finding in reported.findings:
                line, column, _, _ = finding.position
                message = finding.message.replace("\r", "\\r").replace("\n", "\\n")
                out.write(
                    f"{reported.result.path}:{line}:{column}: {finding.code} [{finding.severity}] {message}\n"
                )
    out.write(report.summary_line() + "\n")
