"""Names of pi-forge's twelve built-in slots (compile-core.md §6).

Kept apart from the renderers so the loader can check slot names without importing them.
"""

from __future__ import annotations

BUILTIN_SLOT_NAMES: tuple[str, ...] = (
    "chat-history",
    "tools",
    "tool-guidelines",
    "skills",
    "project-context",
    "append-system-prompt",
    "date",
    "cwd",
    "date-cwd",
    "active-model",
    "pi-docs",
    "variables",
)
