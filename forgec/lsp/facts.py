"""What an open file says, for completion, hover and navigation: its parse, its items, its variables.

Everything here reads the library's own parse (:func:`forgec.source.parse_source_text`, the reader
``validate`` uses) and its positions (:meth:`~forgec.source.SourceDocument.locate`), so a hover or a
jump lands where ``validate`` would point.  The vocabulary comes from the library too: roles, modes,
thinking levels (:mod:`forgec.model`), the built-in macros with their summaries and the slots with
their option schemas (:mod:`forgec.compile`), plus the trusted plugins' macros and slots.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Span

if TYPE_CHECKING:
    from forgec.plugins import Registry
    from forgec.source import SourceDocument

__all__ = [
    "MacroAt",
    "macro_at",
    "macro_summaries",
    "parse_text",
    "slot_descriptions",
    "slot_options",
    "variable_sites",
    "word_at",
]

_SETTER = re.compile(
    r"\{\{\s*(?P<cmd>setvar|setturnvar|setsessionvar)\s*::\s*(?:(?:turn|session)\s*::\s*)?(?P<name>[^:{}]+?)\s*(?:::|\}\})"
)
_WORD_CHARS = re.compile(r"[A-Za-z0-9_.\-:]")


def parse_text(text: str, path: Path) -> SourceDocument:
    from forgec.source import is_yaml_path, parse_source_text

    return parse_source_text(text, str(path), "yaml" if is_yaml_path(path) else "json")


def macro_summaries(registry: Registry | None) -> dict[str, str]:
    """Every macro name a stack may use -> what it renders (built-ins first, then plugins')."""
    from forgec.compile.macros.builtins import BUILTIN_MACROS

    out = {name: macro.summary for name, macro in BUILTIN_MACROS.items()}
    if registry is not None:
        for name, definition in registry.macros.items():
            out.setdefault(name, definition.description or f"custom macro ({definition.source or 'plugin'})")
    return out


def slot_descriptions(registry: Registry | None) -> dict[str, str]:
    from forgec.model.slot_schemas import SLOT_DESCRIPTIONS

    out = dict(SLOT_DESCRIPTIONS)
    if registry is not None:
        for name, definition in registry.slots.items():
            out.setdefault(name, definition.description or f"custom slot ({definition.source or 'plugin'})")
    return out


def slot_options(slot: str | None, registry: Registry | None) -> dict[str, dict[str, Any]]:
    """A slot's options -> schema (``type``, ``default``, ``values``); chat-history's are the
    history options the loader checks."""
    from forgec.lint.hints import CHAT_HISTORY_OPTIONS
    from forgec.model.slot_schemas import SLOT_OPTION_SCHEMAS

    if slot == "chat-history":
        return {name: {"type": "history option"} for name in CHAT_HISTORY_OPTIONS}
    if slot is not None and slot in SLOT_OPTION_SCHEMAS:
        return dict(SLOT_OPTION_SCHEMAS[slot])
    if registry is not None and slot is not None and slot in registry.slots:
        return {k: v if isinstance(v, dict) else {} for k, v in registry.slots[slot].options.items()}
    return {}


def _items(data: Any) -> list[tuple[int, dict[str, Any]]]:
    items = data.get("items") if isinstance(data, dict) else None
    return [(i, it) for i, it in enumerate(items) if isinstance(it, dict)] if isinstance(items, list) else []


def variable_sites(document: SourceDocument) -> dict[str, list[Span]]:
    """Where each variable is set: static ``variables`` keys, then ``setvar`` macros, in order."""
    out: dict[str, list[Span]] = {}
    if not document.parsed:
        return out
    data = document.data
    variables = data.get("variables") if isinstance(data, dict) else None
    if isinstance(variables, dict):
        for name in variables:
            span = document.locate(("variables", name), key=True)
            if span is not None:
                out.setdefault(str(name), []).append(span)
    for index, item in _items(data):
        content = item.get("content")
        if not isinstance(content, str) or "{{" not in content:
            continue
        for match in _SETTER.finditer(content):
            name = match.group("name").strip()
            start = match.start("name")
            span = document.locate_in_string(
                ("items", index, "content"), start, len(match.group("name").rstrip())
            )
            if name and span is not None:
                out.setdefault(name, []).append(span)
    return out


def word_at(text: str, offset: int) -> tuple[str, int, int]:
    """The word (letters, digits, ``_.-:``) around ``offset``: (word, start, end)."""
    start = offset
    while start > 0 and _WORD_CHARS.match(text[start - 1]):
        start -= 1
    end = offset
    while end < len(text) and _WORD_CHARS.match(text[end]):
        end += 1
    return text[start:end], start, end


@dataclass(frozen=True, slots=True)
class MacroAt:
    """The macro under the cursor: its command, its ``::`` arguments, and where it is in the text."""

    command: str
    args: tuple[str, ...]
    start: int
    end: int
    #: the argument index the cursor is in (-1: the command)
    part: int


def macro_at(text: str, offset: int) -> MacroAt | None:
    """The ``{{…}}`` around ``offset`` on its line (innermost), or ``None``."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    opened = text.rfind("{{", line_start, offset + 1 if text[offset : offset + 2] == "{{" else offset)
    if opened < 0:
        return None
    closed = text.find("}}", opened + 2, line_end)
    if closed < 0 or closed + 2 < offset:
        return None
    body = text[opened + 2 : closed]
    if "{{" in body:
        return None
    parts = body.split("::")
    cursor = offset - (opened + 2)
    position, part = 0, -1
    for index, piece in enumerate(parts):
        if cursor <= position + len(piece):
            part = index - 1
            break
        position += len(piece) + 2
    return MacroAt(parts[0].strip(), tuple(p.strip() for p in parts[1:]), opened, closed + 2, part)
