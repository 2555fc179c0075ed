"""The machine-readable report::

    {"files": [{"path", "kind", "stackId", "usable",
                "diagnostics": [{"code", "name", "level", "severity", "message", "itemId",
                                 "line", "column", "endLine", "endColumn", "causedBy", "fix", "url"}]}],
     "errors": [{"path", "message"}],
     "summary": {"files", "errors", "warnings", "infos", "unusable", "strict", "exitCode"}}

``level``, ``message``, ``itemId``, ``stackId`` and ``usable`` are exactly pi-forge's (``itemId`` is
left out where pi-forge has none); ``severity`` is the level forgec reports after ``[tool.forgec]``
re-levelling (equal to ``level`` unless configured).  Positions are 1-based; a finding without a span
has ``null`` positions.  Every finding is listed, in pipeline order (sort by position if you need
to); ``causedBy`` names the code of the finding that explains it (human formats fold it under
that one), ``fix`` is the one safe repair ``--fix`` would make (``{"target": "key"|"value",
"replacement"}``), ``url`` the rule's entry in the rule reference.  ``errors`` lists the paths that could not be checked (missing, unreadable,
a folder without stack files; ``path`` is ``null`` for a problem with no PATH, such as no Pi
project); any entry there makes ``exitCode`` 2.  ``--quiet`` prints only ``{"summary": ...}``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TextIO

from forgec.output.textsafe import escape_json_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import Finding, LintReport

__all__ = ["document", "render"]


def _diagnostic(finding: Finding) -> dict[str, Any]:
    d = finding.diagnostic
    out: dict[str, Any] = {
        "code": d.code,
        "name": finding.name,
        "level": d.level,
        "severity": finding.severity,
        "message": d.message,
    }
    if d.item_id is not None:
        out["itemId"] = d.item_id
    span = d.span
    out["line"] = span.line if span else None
    out["column"] = span.column if span else None
    out["endLine"] = span.end_line if span else None
    out["endColumn"] = span.end_column if span else None
    if d.caused_by is not None:
        out["causedBy"] = d.caused_by[0]
    if d.fix is not None:
        out["fix"] = {"target": d.fix.target, "replacement": d.fix.replacement}
    url = _url(d.code)
    if url is not None:
        out["url"] = url
    return out


def _url(code: str) -> str | None:
    from forgec.rules import rule_for

    try:
        return rule_for(code).url
    except KeyError:  # a plugin's code whose rule is gone
        return None


def document(report: LintReport) -> dict[str, Any]:
    """The report as plain data (also used by tests and other front ends)."""
    return {
        "files": [
            {
                "path": r.result.path,
                "kind": r.result.kind,
                "stackId": r.result.stack_id,
                "usable": r.result.usable,
                "diagnostics": [_diagnostic(f) for f in r.findings],
            }
            for r in report.files
        ],
        "errors": report.error_entries(),
        "summary": report.summary(),
    }


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    doc = document(report)
    if quiet:
        doc = {"summary": doc["summary"]}
    out.write(escape_json_controls(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n")
