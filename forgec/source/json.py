"""JSON documents: parsing exactly as pi-forge's ``JSON.parse`` does, and positions in the text.

Parsing is :func:`forgec.js.json.loads` (C ``json`` first, a V8 transliteration only when that
fails), so a failure is V8's message at its UTF-16 position.  Positions come from
:func:`forgec.js.json.scan_spans`, run once per document on first use; above
:data:`_FULL_INDEX_CHARS` only the pointers asked for are indexed.
"""

from __future__ import annotations

import re
from typing import Any

from forgec.diagnostics import Diagnostic, Span
from forgec.js.json import MAX_DEPTH, JSONDepthError, JSONParseError, loads, loads_decoded
from forgec.rules import loader as codes
from forgec.source.document import SourceDocument

__all__ = ["JsonLocator", "parse_json"]

_UNSEEN: Any = object()

#: Above this size the JSON position index is built only for the pointers asked for.
_FULL_INDEX_CHARS = 2_000_000


def parse_json(doc: SourceDocument, data: bytes | None = None) -> None:
    """Parse ``doc.text`` into ``doc.data`` (or a diagnostic); never raises.

    ``data``: the bytes the text was decoded from, for a document with few integer literals: then
    :func:`~forgec.js.json.loads_decoded` reads it (the same value, see there)."""
    assert doc.text is not None
    try:
        doc.data = loads(doc.text) if data is None else loads_decoded(doc.text, data)
        doc.parsed = True
        doc.locator = JsonLocator()
    except JSONDepthError as error:
        doc.diagnostics.append(
            Diagnostic(
                "error",
                f"JSON is nested deeper than forgec's limit of {MAX_DEPTH} levels.",
                codes.NESTING_TOO_DEEP,
                span=doc.span(error.offset or 0),
            )
        )
    except JSONParseError as parse_error:
        span = doc.span(parse_error.offset) if parse_error.offset is not None else None
        doc.diagnostics.append(
            Diagnostic("error", f"Failed to parse JSON: {parse_error.reason}", codes.JSON_PARSE_ERROR, span=span)
        )
    except (RecursionError, MemoryError) as exhausted:  # pragma: no cover - defensive
        doc.diagnostics.append(
            Diagnostic("error", f"Failed to parse JSON: {type(exhausted).__name__}", codes.JSON_PARSE_ERROR)
        )




class JsonLocator:
    """Positions in a JSON text, from the span index of :func:`forgec.js.json.scan_spans`."""

    def __init__(self) -> None:
        self._spans: dict[tuple[Any, ...], Any] | None = None
        self._partial: dict[tuple[Any, ...], Any] = {}
        #: string literal start -> the text offset of each of its characters (escaped strings only)
        self._offsets: dict[int, list[int] | None] = {}

    def _index(self, doc: SourceDocument, wanted: set[tuple[Any, ...]]) -> dict[tuple[Any, ...], Any]:
        from forgec.js.json import scan_spans

        assert doc.text is not None
        if self._spans is not None:
            return self._spans
        try:
            if len(doc.text) <= _FULL_INDEX_CHARS:
                self._spans = scan_spans(doc.text)
                return self._spans
            missing = {p for p in wanted if p not in self._partial}
            if missing:
                found = scan_spans(doc.text, missing)
                for p in missing:
                    self._partial[p] = found.get(p)
        except JSONParseError:  # text that only the deep-reading path accepted: no positions
            self._spans = {}
            return self._spans
        return self._partial

    def prepare(self, doc: SourceDocument, pointers: set[tuple[Any, ...]]) -> None:
        if doc.text is not None and len(doc.text) > _FULL_INDEX_CHARS:
            self._index(doc, pointers)

    def locate(self, doc: SourceDocument, pointer: tuple[Any, ...], key: bool) -> Span | None:
        entry = self._index(doc, {pointer}).get(pointer)
        if entry is None:
            return None
        key_start, key_end, start, end = entry
        if key and key_start >= 0:
            return doc.span(key_start, key_end)
        return doc.span(start, end)

    def locate_in_string(self, doc: SourceDocument, pointer: tuple[Any, ...], offset: int, length: int) -> Span | None:
        assert doc.text is not None
        entry = self._index(doc, {pointer}).get(pointer)
        if entry is None or doc.text[entry[2]] != '"':
            return None
        start, stop = entry[2], entry[3]
        offsets = self._offsets.get(start, _UNSEEN)
        if offsets is _UNSEEN:  # once per string: a block with thousands of findings stays linear
            escaped = doc.text.find("\\", start, stop) >= 0
            offsets = self._offsets[start] = _json_string_offsets(doc.text, start) if escaped else None
        if offsets is None:  # no escapes: character i sits at start + 1 + i
            last = stop - 1
            return doc.span(min(start + 1 + offset, last), min(start + 1 + offset + length, last))
        last = len(offsets) - 1
        return doc.span(offsets[min(offset, last)], offsets[min(offset + length, last)])


_JSON_ESCAPE_U = re.compile(r"\\u([0-9a-fA-F]{4})")


def _json_string_offsets(text: str, start: int) -> list[int]:
    """The text offset of every character of the JSON string literal starting (``"``) at ``start``,
    and last the offset of its closing quote (an escaped surrogate pair is one character)."""
    offsets: list[int] = []
    pos = start + 1
    end = len(text)
    while pos < end:
        char = text[pos]
        offsets.append(pos)
        if char == '"':
            break
        if char == "\\":
            match = _JSON_ESCAPE_U.match(text, pos)
            if match:
                code = int(match.group(1), 16)
                pos += 6
                if 0xD800 <= code <= 0xDBFF:
                    low = _JSON_ESCAPE_U.match(text, pos)
                    if low and 0xDC00 <= int(low.group(1), 16) <= 0xDFFF:
                        pos += 6
            else:
                pos += 2
        else:
            pos += 1
    else:
        offsets.append(pos)
    return offsets
