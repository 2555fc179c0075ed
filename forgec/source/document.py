"""A file as read, and positions in it: pointers -> line and column, resolved lazily.

Stages never compute line and column themselves: a diagnostic carries a *pointer* (the path of
keys and indexes to the offending value) and, for macros, a character offset inside a string;
:func:`resolve_spans` turns them into spans once, when a front end needs positions.  The document
imports no parser: the reader that parsed it (:mod:`forgec.source.json`, :mod:`forgec.source.yaml`)
hands it a :class:`Locator` that knows that format's text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from forgec.diagnostics import Diagnostic, Pointer, Span

__all__ = ["Locator", "SourceDocument", "resolve_spans"]


class Locator(Protocol):
    """Finds values of a parsed document in its text (one implementation per format)."""

    def locate(self, doc: SourceDocument, pointer: tuple[Any, ...], key: bool) -> Span | None:
        """The span of the value (or its key) at exactly ``pointer``; None when it does not exist."""

    def locate_in_string(self, doc: SourceDocument, pointer: tuple[Any, ...], offset: int, length: int) -> Span | None:
        """The span of characters ``[offset, offset+length)`` of the string at ``pointer``; None
        when the value there is not a string."""

    def prepare(self, doc: SourceDocument, pointers: set[tuple[Any, ...]]) -> None:
        """A hint: these pointers (and their ancestors) are about to be located."""


@dataclass(eq=False)
class SourceDocument:
    """A file as read: its text, the parsed value, reading diagnostics, and lazy positions.

    ``parsed`` is False when the file could not be read or parsed; ``data`` is then ``None`` and
    ``diagnostics`` says why.  Offsets are indexes into ``text`` (code points).
    """

    path: str
    format: str  # "json" | "yaml"
    text: str | None = None
    data: Any = None
    parsed: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: finds positions in the parsed text; set by the parser that read the document
    locator: Locator | None = field(default=None, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)

    # -- offsets -> positions

    def _starts(self) -> list[int]:
        if self._line_starts is None:
            text = self.text or ""
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        return self._line_starts

    def position(self, offset: int) -> tuple[int, int]:
        """1-based ``(line, column)`` of a code-point offset; ``\\n`` ends a line."""
        starts = self._starts()
        index = bisect_right(starts, offset) - 1
        return index + 1, offset - starts[index] + 1

    def offset_of(self, line: int, column: int) -> int:
        """The code-point offset of a 1-based ``(line, column)`` (the inverse of :meth:`position`)."""
        starts = self._starts()
        return starts[min(max(line, 1), len(starts)) - 1] + column - 1

    def span(self, start: int, end: int | None = None) -> Span:
        """The span of ``text[start:end]``; ``end_line``/``end_column`` point just past it."""
        line, column = self.position(start)
        end_line, end_column = self.position(start if end is None else max(end, start))
        return Span(self.path, line, column, end_line, end_column)

    # -- pointers -> spans

    def locate(self, pointer: Pointer | None, key: bool = False) -> Span | None:
        """Where the value at ``pointer`` sits (or its key, with ``key=True``).

        A pointer that does not exist (a missing member) resolves to its nearest existing
        ancestor, so "item 3 has no kind" points at item 3.  ``None`` when the document was not
        parsed or the pointer is ``None``.
        """
        if pointer is None or not self.parsed or self.text is None or self.locator is None:
            return None
        pointer = tuple(pointer)
        for length in range(len(pointer), -1, -1):
            found = self.locator.locate(self, pointer[:length], key)
            if found is not None:
                return found
            key = False
        return None

    def locate_in_string(self, pointer: Pointer | None, offset: int, length: int = 0) -> Span | None:
        """Where characters ``[offset, offset+length)`` of the string value at ``pointer`` sit.

        ``offset`` counts characters of the decoded value (Python string indexes).  JSON escapes
        are mapped exactly; YAML block scalars map line by line, and folded or multi-line flow
        scalars approximately.  Falls back to :meth:`locate` when the value is not a string.
        """
        if pointer is None or not self.parsed or self.text is None or self.locator is None:
            return None
        pointer = tuple(pointer)
        found = self.locator.locate_in_string(self, pointer, offset, max(length, 0))
        return found if found is not None else self.locate(pointer)

    def prepare(self, pointers: Iterable[Pointer]) -> None:
        """Tell the locator which pointers are about to be located (a large JSON file indexes only those)."""
        if self.locator is not None and self.text is not None:
            self.locator.prepare(self, {tuple(p) for p in pointers})


def resolve_spans(diagnostics: Iterable[Diagnostic], document: SourceDocument | None) -> list[Diagnostic]:
    """The diagnostics with ``span`` filled in where a pointer gives one (copies; the inputs are
    not changed).  Diagnostics that already have a span, or no pointer, are returned as they are."""
    diagnostics = list(diagnostics)
    if document is None or not document.parsed:
        return diagnostics
    pending = [i for i, d in enumerate(diagnostics) if d.span is None and d.pointer is not None]
    if not pending:
        return diagnostics
    wanted: set[Pointer] = set()
    for i in pending:
        pointer = tuple(diagnostics[i].pointer or ())
        wanted.update(pointer[:n] for n in range(len(pointer) + 1))
    document.prepare(wanted)
    for i in pending:
        d = diagnostics[i]
        if d.offset is not None:
            span = document.locate_in_string(d.pointer, d.offset, d.length or 0)
        else:
            span = document.locate(d.pointer, key=d.at_key)
        if span is not None:
            diagnostics[i] = replace(d, span=span)
    return diagnostics
