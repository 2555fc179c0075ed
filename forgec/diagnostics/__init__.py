"""One diagnostic type for every stage, and the pi-forge view of it.

A :class:`Diagnostic` carries what pi-forge reports (``level``, ``message``, optional ``item_id``)
plus what forgec adds: a stable rule ``code`` (``FG`` + number, grouped by pipeline stage, see
:mod:`forgec.rules`) and a source location.  Stages never compute line and column themselves: they
attach a *pointer* (the path of keys and indexes to the offending value in the source document,
optionally with a character offset inside a string value) and :mod:`forgec.source` resolves it once,
centrally, when a front end needs positions.

The records themselves live in :mod:`forgec.diagnostics.core` and are loaded on first use (PEP 562,
as the ``forgec`` package face loads its API): :mod:`forgec.diagnostics.findings` and the cache of
``forgec validate`` import this package on every run, and a clean file needs no diagnostic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from forgec.diagnostics.core import Diagnostic, Fix, Span

Level = Literal["error", "warning", "info"]
Pointer = tuple[str | int, ...]

LEVELS: tuple[Level, ...] = ("error", "warning", "info")
_RANK = {"info": 0, "warning": 1, "error": 2}

__all__ = ["LEVELS", "Diagnostic", "Fix", "Level", "Pointer", "Span", "level_rank", "to_pi_list"]

#: the names :func:`__getattr__` loads from :mod:`forgec.diagnostics.core`
_RECORDS = ("Diagnostic", "Fix", "Span")


def level_rank(level: str) -> int:
    """Order of severities, for ``--strict`` and re-levelling."""
    return _RANK.get(level, 0)


def to_pi_list(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """pi-forge's view of a list: forgec-only findings left out, order kept."""
    if not diagnostics:  # most lists of a report are empty: no comprehension set up (3 lists a report)
        return []
    from forgec.diagnostics.core import pi_list  # loaded already: the list holds diagnostics

    return pi_list(diagnostics)


def __getattr__(name: str) -> Any:
    """``Diagnostic``, ``Fix`` and ``Span``, imported from :mod:`forgec.diagnostics.core` when first asked for."""
    if name not in _RECORDS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from forgec.diagnostics import core

    value = getattr(core, name)
    globals()[name] = value
    return value
