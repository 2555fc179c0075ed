"""The human format: each mistake with a source excerpt and a caret under the span (ruff style),
sorted by position, the findings it caused as ``= also:`` notes.

::

    error[FG135]: Duplicate item id: duplicate-id
      --> stacks/a.json:18:13
       |
    18 |       "id": "duplicate-id",
       |             ^^^^^^^^^^^^^^ duplicate-item-id
       |
       = item: duplicate-id

Colour is plain ANSI escapes (no rich import: ``forgec validate`` must start fast), only when the
caller asks for it (a TTY, or ``--color``).  Carets line up under tabs and East Asian wide
characters because the gutter copies tabs and counts display width: wide characters and emoji
twice, combining marks and joined emoji sequences not at all (:func:`_width`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from forgec.output.textsafe import escape_controls

if TYPE_CHECKING:
    from forgec.diagnostics.findings import Finding, LintReport

__all__ = ["render"]

_STYLE = {
    "error": "\x1b[1;31m",
    "warning": "\x1b[1;33m",
    "info": "\x1b[1;36m",
    "bold": "\x1b[1m",
    "gutter": "\x1b[1;34m",
    "dim": "\x1b[2m",
}
_RESET = "\x1b[0m"
#: longest source line shown whole; longer lines are cut to a window around the column
_MAX_WIDTH = 120


def _paint(text: str, style: str, color: bool) -> str:
    return f"{_STYLE[style]}{text}{_RESET}" if color and text else text


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal (what ``wcwidth`` computes, for the cases that matter).

    East Asian Wide/Fullwidth characters (CJK, most emoji) take 2; combining marks, format
    characters and variation selectors 0; a character made an emoji by VS16 (U+FE0F, ``❤️``) 2; an
    emoji joined by ZWJ (``👨‍👩‍👧``) or a skin-tone modifier renders into the previous one, so 0.
    """
    import unicodedata  # here: a run without findings shows no excerpt (a C module, still ~0.2 ms to load)

    total = 0
    previous = ""
    joined = False
    for ch in text:
        code = ord(ch)
        if ch == "\u200d":  # ZERO WIDTH JOINER: the next character merges into this glyph
            joined = bool(previous)
            continue
        if joined:
            joined = False
            continue
        if code == 0xFE0F:  # emoji presentation of the previous character
            if previous and unicodedata.east_asian_width(previous) not in "WF":
                total += 1
                previous = "\U0001f600"  # now as wide as an emoji
            continue
        if 0x1F3FB <= code <= 0x1F3FF and previous and unicodedata.east_asian_width(previous) in "WF":
            continue  # skin tone modifier after an emoji
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0xFE00 <= code <= 0xFE0E:
            continue
        total += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        previous = ch
    return total


def _pad(prefix: str) -> str:
    """Blank space as wide as ``prefix`` on screen (tabs kept so they expand the same way)."""
    return "\t".join(" " * _width(part) for part in prefix.split("\t"))


def _lines(text: str) -> list[str]:
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _excerpt(finding: Finding, lines: list[str], color: bool) -> list[str]:
    """The span's first line with carets under it.

    A span over several lines (a whole item, the items array) is shown by its first line only,
    carets to the end of that line: the position is what matters, and repeating a long object
    would bury the message.
    """
    line, column, end_line, end_column = finding.position
    if finding.diagnostic.span is None or not 1 <= line <= len(lines):
        return []
    source = lines[line - 1]
    start = min(max(column - 1, 0), len(source))
    stop = end_column - 1 if end_line == line else len(source)
    stop = min(max(stop, start), len(source))
    if len(source) > _MAX_WIDTH:  # a minified file: show a window around the column
        left = max(0, start - _MAX_WIDTH // 3)
        right = min(len(source), left + _MAX_WIDTH)
        lead, tail = ("…" if left else ""), ("…" if right < len(source) else "")
        source, start, stop = lead + source[left:right] + tail, start - left + len(lead), min(stop, right) - left + len(lead)
    # the source line is untrusted: control characters are shown escaped (``\x1b``), and the caret
    # position is computed on the escaped text so it still points at the span
    before, inside, after = (escape_controls(part) for part in (source[:start], source[start:stop], source[stop:]))
    source, start, stop = before + inside + after, len(before), len(before) + len(inside)
    carets = "^" * max(1, _width(source[start:stop]))
    label = f" {finding.name}" if finding.name else ""
    level = finding.severity if finding.severity in _STYLE else "info"
    gutter = len(str(line))
    bar = _paint(" " * gutter + " |", "gutter", color)
    return [
        bar,
        f"{_paint(str(line) + ' |', 'gutter', color)} {source}",
        f"{bar} {_pad(source[:start])}{_paint(carets + label, level, color)}",
        bar,
    ]


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    if not quiet:
        for reported in report.files:
            lines = _lines(reported.result.text) if reported.result.text is not None else []
            for finding, caused in reported.grouped():
                line, column, _, _ = finding.position
                level = finding.severity
                head = f"{_paint(f'{level}[{finding.code}]', level if level in _STYLE else 'info', color)}"
                message = escape_controls(finding.message)
                out.write(f"{head}: {_paint(message, 'bold', color)}\n")
                location = escape_controls(reported.result.path)
                if finding.diagnostic.span is not None:
                    location += f":{line}:{column}"
                out.write(f"  {_paint('-->', 'gutter', color)} {location}\n")
                for row in _excerpt(finding, lines, color):
                    out.write(row + "\n")
                notes: list[str] = []
                if finding.diagnostic.item_id is not None:
                    notes.append(f"item: {escape_controls(str(finding.diagnostic.item_id))}")
                if finding.severity != finding.diagnostic.level:
                    notes.append(f"reported as {finding.severity} by configuration "
                                 f"(pi-forge level: {finding.diagnostic.level})")
                if finding.diagnostic.extra:
                    notes.append("forgec rule (not reported by pi-forge)")
                for other in caused:
                    where = f" (line {other.position[0]})" if other.diagnostic.span is not None and other.position[0] != line else ""
                    level = other.severity if other.severity in _STYLE else "info"
                    notes.append(f"also: {_paint(f'{other.severity}[{other.code}]', level, color)} "
                                 f"{escape_controls(other.message)}{where}")
                for note in notes:
                    out.write(f"  {_paint('=', 'gutter', color)} {note}\n")
                out.write("\n")
    out.write(_paint(report.summary_line(), "bold", color) + "\n")
