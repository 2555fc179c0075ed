"""Document symbols: a stack's items by id (with kind, role or slot), a profile by its id.

The outline an editor shows beside the file, and the target of "go to symbol": positions come from
the library's parse, so an item is where ``validate`` would point at it.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from forgec.diagnostics import Span
from forgec.lsp.facts import parse_text
from forgec.lsp.positions import LineIndex

__all__ = ["document_symbols"]


def _range(span: Span, lines: LineIndex) -> types.Range:
    return types.Range(
        types.Position(*lines.utf16(span.line, span.column)),
        types.Position(*lines.utf16(span.end_line, span.end_column)),
    )


def document_symbols(
    path: Path, kind: str, text: str, encoding: str = "utf-16"
) -> list[types.DocumentSymbol]:
    document = parse_text(text, path)
    if not document.parsed or not isinstance(document.data, dict):
        return []
    lines = LineIndex(text, encoding)
    data = document.data
    out: list[types.DocumentSymbol] = []
    whole = document.locate(())
    ident = document.locate(("id",))
    if kind not in ("stack", "profile") or whole is None:
        return out
    children: list[types.DocumentSymbol] = []
    items = data.get("items")
    if kind == "stack" and isinstance(items, list):
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            span = document.locate(("items", index))
            name_span = document.locate(("items", index, "id")) or span
            if span is None or name_span is None:
                continue
            detail = str(
                item.get("slot") if item.get("kind") == "slot" else item.get("role") or item.get("kind") or ""
            )
            children.append(types.DocumentSymbol(
                name=str(item.get("id") or f"item {index}"), kind=types.SymbolKind.Field, detail=detail or None,
                range=_range(span, lines), selection_range=_range(name_span, lines),
            ))  # fmt: skip
    name = str(data.get("id") or path.stem)
    symbol_kind = types.SymbolKind.Module if kind == "stack" else types.SymbolKind.Object
    out.append(types.DocumentSymbol(
        name=name, kind=symbol_kind, detail=kind, range=_range(whole, lines),
        selection_range=_range(ident or whole, lines), children=children or None,
    ))  # fmt: skip
    return out
