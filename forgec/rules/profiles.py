"""FG500-FG569: agent profiles (profiles-exec.md §1): loading, cross-file checks, stack references,
resolution against a model catalog, writes.  Each pi-forge check keeps pi-forge's exact text; the code
and the position are forgec's.
"""

from __future__ import annotations

from forgec.rules import Rule, register

__all__: list[str] = []

_RULES: tuple[Rule, ...] = ()

register(*_RULES)
