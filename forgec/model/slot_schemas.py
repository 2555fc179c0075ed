"""Declarative option schemas of the built-in slots (compile-core.md §6.15).

pi-forge exposes these through its registry for editors and documentation; nothing is enforced at
render time (§12).  The shapes follow pi-forge's option-schema fields: ``type`` (``boolean``,
``string``, ``number``, ``enum``, ``stringArray``), ``default``, and ``values`` for enums.

Vocabulary, so it lives with the nouns rather than with the renderers (:mod:`forgec.compile.slots`
re-exports it): the typo hints of ``forgec validate`` read the option names of every stack, and
importing the renderers' package for them cost a cold run ~2 ms.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

_FORMAT: dict[str, Any] = {"type": "enum", "values": ["xml", "plain"], "default": "xml"}


def _bool(default: bool) -> dict[str, Any]:
    return {"type": "boolean", "default": default}


#: slot name -> option name -> schema, in registration order
SLOT_OPTION_SCHEMAS: MappingProxyType[str, dict[str, dict[str, Any]]] = MappingProxyType(
    {
        "chat-history": {},
        "tools": {"format": _FORMAT, "onlyWithSnippets": _bool(False)},
        "tool-guidelines": {
            "format": _FORMAT,
            "heading": {"type": "string", "default": "Tool guidelines:"},
            "includePiDefaultGuidelines": _bool(False),
            "piStyle": _bool(False),
        },
        "skills": {"format": _FORMAT, "requireReadTool": _bool(False)},
        "project-context": {"format": _FORMAT},
        "append-system-prompt": {},
        "date": {"includeTime": _bool(False)},
        "cwd": {},
        "date-cwd": {"includeTime": _bool(False)},
        "active-model": {},
        "pi-docs": {},
        "variables": {
            "format": _FORMAT,
            "includeStatic": _bool(True),
            "includeSession": _bool(True),
            "includeTurn": _bool(True),
        },
    }
)

#: one-line descriptions, for ``forgec`` listings
SLOT_DESCRIPTIONS: MappingProxyType[str, str] = MappingProxyType(
    {
        "chat-history": "Insertion point of the conversation (message stage only).",
        "tools": "The selected tools with their one-line snippets.",
        "tool-guidelines": "De-duplicated tool guidelines (bash hint, host guidelines, Pi defaults).",
        "skills": "Model-visible skills with their descriptions and SKILL.md locations.",
        "project-context": "Context files (AGENTS.md, CLAUDE.md) Pi loaded, verbatim.",
        "append-system-prompt": "Pi's APPEND_SYSTEM.md / --append-system-prompt text.",
        "date": "Current date (and optionally time) in the runtime's zone.",
        "cwd": "Pi's working directory, with backslashes normalised.",
        "date-cwd": "The date slot followed by the cwd slot.",
        "active-model": "The selected model as provider/id.",
        "pi-docs": "Where Pi's documentation and examples live.",
        "variables": "Static, session and turn variables, sorted by locale collation.",
    }
)
