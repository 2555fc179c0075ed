"""GitHub Actions workflow commands: one annotation per mistake, sorted by position.

The findings a mistake caused are lines of its annotation (``Also: FG141 …``), and the annotation
takes the most severe level among them, so a folded error still shows as an error.

``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=FG101 name::message``

Escaping follows GitHub's toolkit (``@actions/core`` ``issueCommand``): in the message ``%``, CR and LF
become ``%25``, ``%0D``, ``%0A``; in property values ``:`` and ``,`` are escaped as well (``%3A``,
``%2C``), since they delimit the properties.  ``info`` findings become ``::notice``.  A finding
without a span is anchored at line 1, column 1.

File names and messages come from untrusted stack files.  Before GitHub's encoding, every other
control character (ESC, BEL, C1 such as U+009B, DEL, bidi overrides) is made visible as ``\\x1b``
-- never dropped: ``dev\\x1b[2Jeloper`` must not read as ``developer`` in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from forgec.output.textsafe import escape_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport

__all__ = ["escape_data", "escape_property", "render"]

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    text = escape_controls(text, keep_newlines=True, keep_cr=True)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    if quiet:
        out.write(report.summary_line() + "\n")
        return
    from forgec.diagnostics.findings import group_severity

    for reported in report.files:
        for finding, notes in reported.grouped():
            line, column, end_line, end_column = finding.position
            title = f"{finding.code} {finding.name}".strip()
            props = ",".join(
                f"{key}={escape_property(str(value))}"
                for key, value in (
                    ("file", reported.result.path),
                    ("line", line),
                    ("col", column),
                    ("endLine", end_line),
                    ("endColumn", end_column),
                    ("title", title),
                )
            )
            severity = group_severity(finding, notes)
            message = "\n".join([finding.message, *(f"Also: {n.code} {n.message}" for n in notes)])
            out.write(f"::{_COMMAND.get(severity, 'notice')} {props}::{escape_data(message)}\n")
