"""``# forgec: ignore[FG118]`` comments in YAML files, as ruff users know ``# noqa``.

A suppression comment names rules (codes, names or prefixes, comma-separated; ``# forgec: ignore``
alone means every rule) and covers findings that start on its line -- or, when the comment is on a
line of its own, on the next line.  A suppression that covers nothing is itself reported
(FG153 ``unused-suppression``), so stale ones do not pile up and hide the next real finding.
JSON has no comments: use ``per-file-ignores`` in ``[tool.forgec]`` there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forgec.diagnostics import Diagnostic, Span
from forgec.rules import hints as codes
from forgec.settings import selects

__all__ = ["Suppression", "find_suppressions", "unused_findings"]

_COMMENT = re.compile(r"#\s*forgec:\s*ignore(?:\[(?P<rules>[^\]]*)\])?", re.IGNORECASE)


@dataclass(slots=True)
class Suppression:
    """One comment: where it is, the line it covers, the selectors it names (``None``: all)."""

    line: int
    column: int
    end_column: int
    covers: int
    selectors: tuple[str, ...] | None
    used: set[str] = field(default_factory=set)

    def matches(self, code: str) -> bool:
        return self.selectors is None or selects(self.selectors, code)


def _in_quotes(line: str, index: int) -> bool:
    """Whether ``line[index]`` sits inside a quoted YAML scalar (an odd count of quotes before it)."""
    before = line[:index]
    return before.count('"') - before.count('\\"') & 1 == 1 or before.count("'") & 1 == 1


def find_suppressions(text: str) -> list[Suppression]:
    """Every suppression comment of a YAML text, in order."""
    found: list[Suppression] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "forgec" not in line:
            continue
        for match in _COMMENT.finditer(line):
            start = match.start()
            if (start > 0 and not line[start - 1].isspace()) or _in_quotes(line, start):
                continue  # a "#" inside a value, not a comment
            rules = match["rules"]
            selectors = None if rules is None else tuple(p.strip() for p in rules.split(",") if p.strip())
            own_line = not line[:start].strip()
            found.append(Suppression(number, start + 1, match.end() + 1, number + 1 if own_line else number, selectors))
    return found


def unused_findings(suppressions: list[Suppression], path: str) -> list[Diagnostic]:
    """FG153 for each suppression (or named rule of one) that covered nothing."""
    out = []
    for s in suppressions:
        if s.selectors is None:
            unused = [] if s.used else ["every rule"]
        else:
            unused = [sel for sel in s.selectors if not any(selects((sel,), code) for code in s.used)]
        if unused:
            what = ", ".join(unused)
            out.append(Diagnostic(
                "warning", f"Unused suppression: no finding of {what} on line {s.covers}.", codes.UNUSED_SUPPRESSION,
                span=Span(path, s.line, s.column, s.line, s.end_column), extra=True,
            ))  # fmt: skip
    return out

