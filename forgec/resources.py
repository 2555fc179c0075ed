"""What this installation ships: its version and where the bundled data files live.

``schemas/`` and ``grammar/`` sit at the top of the repository (the single source for editors and
for the code) and are copied into the wheel as ``forgec/_data/``.  This module finds them in either
layout, so an editable checkout and an installed wheel behave the same.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

#: forgec's version (the one place it is written besides pyproject.toml; a test holds them equal)
VERSION = "0.1.0"

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The folder ``schemas`` or ``grammar``, from the wheel or from the source checkout."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"forgec data folder {name!r} is missing from this installation")


def schema_path(name: str) -> Path:
    """Path of a bundled JSON Schema, e.g. ``schema_path("prompt-stack")``."""
    return data_dir("schemas") / f"{name}.schema.json"


def grammar_path(name: str) -> Path:
    """Path of a bundled lark grammar, e.g. ``grammar_path("macros")``."""
    return data_dir("grammar") / f"{name}.lark"
