"""GitLab Code Quality: a JSON array of issues, shown in merge requests (``artifacts: reports:
codequality``).

Each mistake is one issue (its caused findings are in the description), with a stable
``fingerprint`` -- a digest of the file, the rule and the message, not the line -- so an issue
that only moves is not reported as fixed and new.  Severities: error ``major``, warning ``minor``,
info ``info``.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, TextIO

from forgec.output.textsafe import escape_json_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport

__all__ = ["document", "render"]

_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def document(report: LintReport) -> list[dict[str, Any]]:
    from forgec.diagnostics.findings import group_severity

    issues: list[dict[str, Any]] = []
    for reported in report.files:
        path = reported.result.path
        for finding, notes in reported.grouped():
            line, _, end_line, _ = finding.position
            description = " ".join([f"{finding.code} {finding.message}", *(f"Also: {n.code} {n.message}" for n in notes)])
            digest = hashlib.sha256("\0".join((path, finding.code, finding.message)).encode("utf-8", "surrogatepass"))
            issues.append({
                "description": description,
                "check_name": f"{finding.code} {finding.name}".strip(),
                "fingerprint": digest.hexdigest(),
                "severity": _SEVERITY.get(group_severity(finding, notes), "info"),
                "location": {"path": path, "lines": {"begin": line, "end": max(end_line, line)}},
            })  # fmt: skip
    return issues


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    out.write(escape_json_controls(json.dumps(document(report), indent=2, ensure_ascii=False)) + "\n")
