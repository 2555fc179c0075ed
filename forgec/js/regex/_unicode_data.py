"""The regular-expression engine's view of the reference's Unicode tables (:mod:`forgec.js.unicode`).

A module of its own so that importing it marks the moment the tables are needed: the V8 parser only
does when a pattern uses ``\\p{…}`` or a non-ASCII group name, and a cold ``forgec validate`` of ASCII
patterns never does (tests/cli/test_cold_imports.py watches this module's name).  Nothing here comes
from the ``regex`` module or PyICU, whose Unicode versions vary with the installed release.
"""

from __future__ import annotations

from forgec.js.unicode import (
    binary_names,
    fold_map,
    gc_names,
    is_id_part,
    is_id_start,
    property_ranges,
    script_names,
)

__all__ = ["BINARY_NAMES", "GC_NAMES", "SCRIPT_NAMES", "fold_map", "is_id_part", "is_id_start", "property_ranges"]

#: the ``\p{…}`` names V8 accepts with ``u``: general categories, binary properties, scripts
GC_NAMES: frozenset[str] = gc_names()
BINARY_NAMES: frozenset[str] = binary_names()
SCRIPT_NAMES: frozenset[str] = script_names()
