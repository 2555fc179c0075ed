"""The diagnostic records: :class:`Diagnostic`, its :class:`Span` and its :class:`Fix`.

Imported through :mod:`forgec.diagnostics` (``from forgec.diagnostics import Diagnostic``), which loads
this module on first use: three frozen dataclasses cost ~3 ms to define, and a cold ``forgec
validate`` of a clean file answered from the cache never makes a diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from forgec.diagnostics import Level, Pointer

__all__ = ["Diagnostic", "Fix", "Span"]


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, columns count characters."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class Fix:
    """The one safe repair of a finding: the key at the finding's pointer renamed to
    ``replacement`` (``target="key"``), or the string value there replaced by it (``"value"``).

    Only mistakes with exactly one plausible repair get one (a key typo with a single close
    candidate, a role or slot in the wrong case, a repeated regex flag); ``forgec validate --fix``
    applies them as minimal text edits, so comments and formatting stay as they were.
    """

    target: Literal["key", "value"]
    replacement: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding.  ``level``/``message``/``item_id`` are pi-forge's exact values where pi-forge has one.

    Immutable: a stage that learns more about a finding (its position) makes a new one
    (:func:`dataclasses.replace`), so a diagnostic held by a loaded stack never changes under it.
    """

    level: Level
    message: str
    code: str
    #: the item's id as the stack holds it: a string once normalised, but the compile functions also
    #: take raw stacks through the Python API, where it can be any JSON value (reported as is)
    item_id: Any = None
    #: path to the value the finding is about, in the document it was read from
    pointer: Pointer | None = None
    #: character offset (and length) inside the string value at ``pointer`` (macro findings)
    offset: int | None = None
    length: int | None = None
    #: resolved location (see :func:`forgec.source.resolve_spans`)
    span: Span | None = None
    #: forgec-only findings never appear in pi-forge-compatible output
    extra: bool = field(default=False)
    #: pi-forge's ``field`` of an agent-profile or forge-config diagnostic (``model.provider``)
    field: str | None = None
    #: the finding is about the member's *key* (an unknown or misspelt field), not its value
    at_key: bool = False
    #: the safe repair, when there is exactly one (see :class:`Fix`)
    fix: Fix | None = None
    #: ``(code, pointer)`` of the finding that caused this one (``role: System`` makes the block
    #: role-less, so "block ignored" is caused by "invalid role"): human output folds it under it
    caused_by: tuple[str, Pointer | None] | None = None

    @property
    def name(self) -> str:
        from forgec.rules import rule_for

        return rule_for(self.code).name

    def to_pi(self) -> dict[str, Any]:
        """The diagnostic as pi-forge prints it: ``{level, message, itemId?}`` for a stack,
        ``{level, message, field?}`` for a profile or a config file."""
        out: dict[str, Any] = {"level": self.level, "message": self.message}
        if self.item_id is not None:
            out["itemId"] = self.item_id
        if self.field is not None:
            out["field"] = self.field
        return out


def pi_list(diagnostics: Iterable[Diagnostic]) -> list[dict[str, Any]]:
    """:func:`forgec.diagnostics.to_pi_list` of a non-empty list, here so that the build compiles it: the
    flag and the method are then read natively (a report of 1,000 new blocks holds 2,000 findings,
    ~1,300 instructions each through the interpreter's loop and the method's wrapper)."""
    return [d.to_pi() for d in diagnostics if not d.extra]

