"""Which kind of forgec file a document is, from where it sits (the ``.pi/forge`` layout).

The server answers only for files forgec reads: a JSON file elsewhere in the workspace is not a
prompt stack, and linting it as one would bury a ``package.json`` in false findings.  Contexts have
no fixed place (they are ``--context`` files), so they are recognised by the patterns the client
may configure (``initializationOptions.contextFiles``, see docs/editors.md).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from pathlib import PurePath
from typing import Literal

__all__ = ["DEFAULT_CONTEXT_PATTERNS", "FileKind", "file_kind"]

FileKind = Literal["stack", "profile", "config", "catalog", "context", "settings"]

_DATA = (".json", ".yaml", ".yml")
#: where contexts are looked for when the client names no patterns
DEFAULT_CONTEXT_PATTERNS: tuple[str, ...] = (
    "*/contexts/*.json", "*/contexts/*.yaml", "*/contexts/*.yml",
    "*.context.json", "*.context.yaml", "*.context.yml",
)  # fmt: skip


def file_kind(path: PurePath, context_patterns: Sequence[str] = DEFAULT_CONTEXT_PATTERNS) -> FileKind | None:
    """The kind of the file at ``path`` (``None``: not a file forgec reads)."""
    name = path.name
    parts = path.parts
    if name == "pyproject.toml":
        return "settings"
    suffix = path.suffix.lower()
    if suffix not in _DATA:
        return None
    parent = parts[-2] if len(parts) >= 2 else ""
    grand = parts[-3] if len(parts) >= 3 else ""
    if parent == "prompt-stacks" and (grand in ("forge", ".pi")):
        return "stack"
    if parent == "agent-profiles" and grand == "forge":
        return "profile"
    if parent == "forge" and name == "config.json":
        return "config"
    if parent == "forge" and name in ("models.json", "models.yaml", "models.yml"):
        return "catalog"
    posix = path.as_posix()
    if any(fnmatch.fnmatch(posix, pattern) or fnmatch.fnmatch(name, pattern) for pattern in context_patterns):
        return "context"
    return None
