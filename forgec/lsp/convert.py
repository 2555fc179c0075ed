"""Findings as LSP diagnostics: the same codes, severities and ranges ``validate`` prints.

A mistake with notes (findings it caused: ``role: System`` makes the block role-less, which makes
it ignored) is one diagnostic whose ``relatedInformation`` lists the notes, as the human formats
fold them; each note's message starts with its code, so nothing ``--format json`` reports is lost.
``codeDescription`` links to the rule's entry in docs/rules.md; the data of a diagnostic with a
safe fix carries it, for the quick fix (:mod:`forgec.lsp.actions`).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from forgec.diagnostics import Diagnostic
from forgec.lsp.positions import LineIndex
from forgec.lsp.project import CheckedFile

__all__ = ["lsp_diagnostics", "lsp_range"]

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def lsp_range(d: Diagnostic, lines: LineIndex) -> types.Range:
    """The finding's span as an LSP range (the file's start when it has none)."""
    span = d.span
    if span is None:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    start = lines.utf16(span.line, span.column)
    end = lines.utf16(span.end_line, span.end_column)
    return types.Range(types.Position(*start), types.Position(*end))


def _url(code: str) -> str | None:
    from forgec.rules import rule_for

    try:
        return rule_for(code).url
    except KeyError:  # a plugin's code whose rule is gone
        return None


def _one(
    d: Diagnostic, severity: str, lines: LineIndex, uri: str, notes: list[Diagnostic]
) -> types.Diagnostic:
    url = _url(d.code)
    data: dict[str, object] = {}
    if d.fix is not None:
        data["fix"] = {"target": d.fix.target, "replacement": d.fix.replacement}
    related = [
        types.DiagnosticRelatedInformation(types.Location(uri, lsp_range(n, lines)), f"{n.code} {n.message}")
        for n in notes
    ]
    return types.Diagnostic(
        range=lsp_range(d, lines),
        message=d.message,
        severity=_SEVERITY.get(severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source="forgec",
        related_information=related or None,
        data=data or None,
    )


def lsp_diagnostics(checked: CheckedFile, uri: str, encoding: str = "utf-16") -> list[types.Diagnostic]:
    """Every finding of one checked file, folded as a person reads them."""
    lines = LineIndex(checked.text, encoding)
    if checked.reported is None:
        return [_one(d, d.level, lines, uri, []) for d in checked.diagnostics]
    out = []
    for head, notes in checked.reported.grouped():
        out.append(_one(head.diagnostic, head.severity, lines, uri, [n.diagnostic for n in notes]))
    return out


def uri_path(uri: str) -> Path:
    """The file system path of a ``file:`` URI (Windows drive letters included); another scheme
    (``untitled:``, ``git:``) gives a path under no folder, which no check reads."""
    from pygls.uris import to_fs_path

    path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(path) if path else Path("/nonexistent-forgec-uri") / uri.replace(":", "_").replace("/", "_")
