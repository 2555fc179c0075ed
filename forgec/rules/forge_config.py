"""FG570-FG599: pi-forge's forge config (``.pi/forge/config.json``, profiles-exec.md §2): the
subagent settings of each file, the web editor's port, the config updater.  pi-forge's warning texts
are kept exactly; the code and the position are forgec's.
"""

from __future__ import annotations

from forgec.rules import Rule, register

__all__: list[str] = []

_RULES: tuple[Rule, ...] = ()

register(*_RULES)
