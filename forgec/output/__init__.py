"""Everything forgec prints: the diagnostic formats, previews, golden files, safe text.

The diagnostic formats are one module each, all fed by one
:class:`~forgec.diagnostics.findings.LintReport` and none depending on the lint pipeline (ruff's
``render/*.rs`` habit): ``full`` (source excerpt and caret), ``concise`` (one line each), ``json``,
``github`` (workflow annotations) and ``sarif``.  :func:`render` imports only the format asked for,
so the JSON format never pays for colour support and vice versa.

Beside them: :mod:`forgec.output.preview` (a compile report for a person), :mod:`forgec.output.golden`
(the readable golden-file format) and :mod:`forgec.output.textsafe` (untrusted text made safe to print,
used by every renderer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from forgec.errors import UsageError
from forgec.output.textsafe import escape_controls, escape_json_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport

__all__ = ["FORMATS", "escape_controls", "escape_json_controls", "render"]

#: the diagnostic format names, as ``--format`` offers them
FORMATS: tuple[str, ...] = ("full", "concise", "json", "github", "sarif", "junit", "gitlab")


def render(fmt: str, report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    """Print ``report`` to ``out`` in format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "full":
        from forgec.output.full import render as renderer
    elif fmt == "concise":
        from forgec.output.concise import render as renderer
    elif fmt == "json":
        from forgec.output.json_format import render as renderer
    elif fmt == "github":
        from forgec.output.github import render as renderer
    elif fmt == "sarif":
        from forgec.output.sarif import render as renderer
    elif fmt == "junit":
        from forgec.output.junit import render as renderer
    elif fmt == "gitlab":
        from forgec.output.gitlab import render as renderer
    else:
        raise UsageError(f"unknown output format {fmt!r}; choose one of {', '.join(FORMATS)}")
    renderer(report, out, color=color, quiet=quiet)
