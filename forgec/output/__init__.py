"""Diagnostic output formats: one module per format, all fed by one :class:`forgec.lint.Report`.

Each module has ``render(report, out, *, color=False, quiet=False) -> None``.  Formatters are imported
by name only when used, so the JSON format never pays for colour support and vice versa.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, TextIO

from forgec.output.textsafe import escape_controls, escape_json_controls

if TYPE_CHECKING:
    from forgec.lint import Report

__all__ = ["FORMATS", "escape_controls", "escape_json_controls", "render"]

#: format name -> module
FORMATS: dict[str, str] = {
    "full": "forgec.output.full",
    "concise": "forgec.output.concise",
    "json": "forgec.output.json_format",
    "github": "forgec.output.github",
    "sarif": "forgec.output.sarif",
}


class Renderer(Protocol):
    def __call__(self, report: Report, out: TextIO, *, color: bool = False, quiet: bool = False) -> None: ...


def render(fmt: str, report: Report, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    """Print ``report`` to ``out`` in format ``fmt`` (a key of :data:`FORMATS`)."""
    module = importlib.import_module(FORMATS[fmt])
    renderer: Renderer = module.render
    renderer(report, out, color=color, quiet=quiet)
