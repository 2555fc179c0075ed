"""JUnit XML: one test suite per file, one failing test case per mistake (CI test reports).

GitLab, Jenkins and Azure show JUnit reports as test results: a file with no finding at the
reported level is a passing case, so the report also says what was checked.  Mistakes are sorted
by position; the findings a mistake caused are lines of its failure text.  ``info`` findings are
not failures (a test report has no "note" state); they are counted in the suite's properties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO
from xml.sax.saxutils import escape, quoteattr

from forgec.output.textsafe import escape_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport

__all__ = ["render"]


def _xml(text: str) -> str:
    """Text safe for XML 1.0: control characters made visible first (XML cannot hold most of them)."""
    return escape(escape_controls(text, keep_newlines=True))


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    from forgec.diagnostics.findings import group_severity

    suites = [(r, [(f, notes) for f, notes in r.grouped() if group_severity(f, notes) != "info"]) for r in report.files]
    failures = sum(len(grouped) for _, grouped in suites)
    tests = sum(max(len(grouped), 1) for _, grouped in suites) or 1
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(f'<testsuites name="forgec validate" tests="{tests}" failures="{failures}">\n')
    for reported, grouped in suites:
        path = escape_controls(reported.result.path)
        out.write(f"  <testsuite name={quoteattr(path)} tests=\"{max(len(grouped), 1)}\" failures=\"{len(grouped)}\">\n")
        if not grouped:
            out.write(f"    <testcase classname={quoteattr(path)} name=\"all checks passed\"/>\n")
        for finding, notes in grouped:
            line, column, _, _ = finding.position
            name = quoteattr(f"{finding.code} {finding.name} at {line}:{column}".replace("  ", " "))
            body = "\n".join([f"{path}:{line}:{column}: {finding.message}",
                              *(f"also: {n.code} [{n.severity}] {n.message}" for n in notes)])  # fmt: skip
            message = quoteattr(escape_controls(finding.message))
            out.write(f"    <testcase classname={quoteattr(path)} name={name} file={quoteattr(path)} line=\"{line}\">\n")
            out.write(f"      <failure type={quoteattr(group_severity(finding, notes))} message={message}>{_xml(body)}</failure>\n")
            out.write("    </testcase>\n")
        out.write("  </testsuite>\n")
    if not report.files:
        out.write('  <testsuite name="forgec validate" tests="1" failures="0">\n')
        out.write('    <testcase classname="forgec" name="no files checked"/>\n  </testsuite>\n')
    out.write("</testsuites>\n")
