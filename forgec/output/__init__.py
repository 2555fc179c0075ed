"""Diagnostic output formats: one module per format, all fed by one :class:`forgec.lint.Report`.

Each module has ``render(report, out, *, color=False, quiet=False) -> None``.  Formatters are imported
by name only when used, so the JSON format never pays for colour support and vice versa.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:
    from forgec.lint import Report

__all__ = ["FORMATS", "escape_controls", "render"]

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


def _escape_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)):
        table[code] = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}.get(code, f"\\x{code:02x}")
    # bidirectional overrides and isolates can reorder what a terminal shows ("trojan source")
    for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)):
        table[code] = f"\\u{code:04x}"
    return table


_ESCAPES = _escape_table()
_KEEP_TAB = {k: v for k, v in _ESCAPES.items() if k != 0x09}
_KEEP_NEWLINE = {k: v for k, v in _KEEP_TAB.items() if k != 0x0A}


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with terminal control characters made visible (ESC -> ``\\x1b``, CR -> ``\\r``).

    Messages and values come from untrusted stack files; printed raw, an ESC sequence could recolour
    the terminal, rewrite its title or hide lines, a CR could overwrite what was printed before.
    C0 and C1 controls, DEL and the bidi overrides are escaped except tab; newline is escaped too
    (a message must stay one line) unless ``keep_newlines`` (multi-line text such as a prompt,
    where newlines are the layout).
    """
    return text.translate(_KEEP_NEWLINE if keep_newlines else _KEEP_TAB)
