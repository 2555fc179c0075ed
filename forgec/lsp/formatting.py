"""Formatting, off unless the client asks for it (``initializationOptions.formatting: true``).

A stack's formatting is the author's (comments, key order, quoting in YAML are kept by every other
feature here), so the server never reformats by default.  When asked, a JSON file that parses is
printed as ``JSON.stringify(value, null, 2)`` prints it (key order, numbers and escapes as
JavaScript writes them, through :func:`forgec.js.values.json_stringify`); YAML is left alone.
"""

from __future__ import annotations

from pathlib import Path

from forgec.lsp.facts import parse_text

__all__ = ["formatted"]


def formatted(path: Path, text: str) -> str | None:
    """The formatted text, or ``None`` (not JSON, does not parse, or already formatted)."""
    from forgec.js.values import json_stringify

    if path.suffix.lower() != ".json":
        return None
    document = parse_text(text, path)
    if not document.parsed or document.diagnostics:
        return None
    try:
        out = json_stringify(document.data, 2)
    except (TypeError, ValueError, RecursionError):
        return None
    if out is None:
        return None
    out += "\n"
    return None if out == text else out
