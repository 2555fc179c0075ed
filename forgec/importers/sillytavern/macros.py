"""Macro detection over conversion items (C7, E12, E16) and the tables the report prints.

Detection is purely textual: a ``{{`` immediately followed by a name.  It runs over every
conversion item (markers, disabled and role-less items included) because pi-forge does, and the
counts feed the report's *Handled macros* and *Macros needing manual migration* sections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .patterns import COMMENT_RE, MACRO_NAME_RE, TRIM_RE

NATIVE_MACROS: Final = frozenset(
    {
        "char", "user", "lastusermessage", "cwd", "date", "time", "selectedtools", "tools",
        "activemodel", "setvar", "setturnvar", "setsessionvar", "getvar", "var", "getturnvar",
        "getsessionvar", "clearvar", "clearturnvar", "clearsessionvar", "trim", "upper", "lower",
        "json", "xml", "ifvar", "ifeq", "iftools", "ifslot",
    }
)  # fmt: skip

DISPLAY_NAMES: Final = {
    "lastusermessage": "lastUserMessage",
    "selectedtools": "selectedTools",
    "activemodel": "activeModel",
    "groupnotmuted": "groupNotMuted",
    "notchar": "notChar",
    "charifnotgroup": "charIfNotGroup",
    "mesexamples": "mesExamples",
    "mesexamplesraw": "mesExamplesRaw",
    "charprompt": "charPrompt",
    "charinstruction": "charInstruction",
    "charversion": "charVersion",
    "charfirstmessage": "charFirstMessage",
    "wibefore": "wiBefore",
    "wiafter": "wiAfter",
    "lorebefore": "loreBefore",
    "loreafter": "loreAfter",
    "anchorbefore": "anchorBefore",
    "anchorafter": "anchorAfter",
}

_RANDOM = "precompute or rewrite manually with simple pi-forge conditionals when applicable"
_GROUP = "SillyTavern group chat — no pi-forge equivalent"
_CARD = "ST character card field — set as session variable or static variable if needed"
_EXAMPLES = "ST character dialogue examples — add inline or as context file if needed"
_WI = "ST world info — no pi-forge equivalent; merge relevant lore into static blocks"
_ANCHOR = "ST extension injection point — no pi-forge equivalent"

MIGRATION_NOTES: Final = {
    "addvar": "use pi-forge {{getvar::name}} + math, or setvar with computed value",
    "getglobalvar": "use pi-forge session variables via {{getsessionvar::name}}",
    "setglobalvar": "use pi-forge {{setsessionvar::name::value}}",
    "random": _RANDOM,
    "pick": _RANDOM,
    "roll": _RANDOM,
    "if": "rewrite as {{ifvar::...}}, {{ifeq::...}}, {{iftools::...}}, or {{ifslot::...}} when applicable",
    "original": "SillyTavern-specific — no direct equivalent; set as session variable if needed",
    "outlet": "SillyTavern extension outlet — no pi-forge equivalent",
    "group": _GROUP,
    "groupnotmuted": _GROUP,
    "notchar": _GROUP,
    "charifnotgroup": _GROUP,
    "description": _CARD,
    "personality": _CARD,
    "scenario": _CARD,
    "persona": "ST persona field — set as session variable or static variable if needed",
    "mesexamples": _EXAMPLES,
    "mesexamplesraw": _EXAMPLES,
    "charprompt": "ST character prompt override — merge into system prompt blocks if needed",
    "charinstruction": "ST character instruction override — merge into post-history blocks if needed",
    "charversion": "ST character version — set as static variable if needed",
    "charfirstmessage": "ST character first message — add as static variable if needed",
    "system": "ST context template system prompt — handled by pi-forge system prompt replacement",
    "wibefore": _WI,
    "wiafter": _WI,
    "lorebefore": _WI,
    "loreafter": _WI,
    "anchorbefore": _ANCHOR,
    "anchorafter": _ANCHOR,
}

NATIVE_NOTES: Final = {
    "setvar": "handled as a turn variable by default, with {{setvar::session::name::value}} for session scope",
    "setturnvar": "handled as a turn variable",
    "setsessionvar": "handled as a session variable",
    "getvar": "handled with turn -> session -> static lookup",
    "var": "handled as an alias of getvar",
    "getturnvar": "handled as a turn-only lookup",
    "getsessionvar": "handled as a session-only lookup",
    "clearvar": "handled as a turn variable clear by default, with {{clearvar::session::name}} for session scope",
    "clearturnvar": "handled as a turn variable clear",
    "clearsessionvar": "handled as a session variable clear",
    "selectedtools": "handled as comma-separated active tool names after stack tool policy",
    "tools": "handled as an alias of selectedTools",
    "activemodel": "handled as provider/model when available",
    "trim": "handled as an expanded-text trim filter",
    "upper": "handled as an expanded-text uppercase filter",
    "lower": "handled as an expanded-text lowercase filter",
    "json": "handled as JSON string escaping for expanded text",
    "xml": "handled as XML escaping for expanded text",
    "ifvar": "handled as a lazy variable-existence conditional",
    "ifeq": "handled as a lazy variable equality conditional",
    "iftools": "handled as a lazy active-tool conditional",
    "ifslot": "handled as a lazy enabled-slot conditional",
}


def display_name(name: str) -> str:
    """The report spelling of a lower-cased macro name."""
    return DISPLAY_NAMES.get(name, name)


@dataclass
class MacroScan:
    """What macro detection found over all conversion items.

    ``detected`` keeps first-seen order (a dict used as an ordered set); ``migration`` counts the
    occurrences of names in :data:`MIGRATION_NOTES`, also in first-seen order.
    """

    comments_stripped: int = 0
    trim_stripped: int = 0
    detected: dict[str, None] = field(default_factory=dict)
    migration: dict[str, int] = field(default_factory=dict)
    #: raw text -> the text stripped of comments and ``{{trim}}``, for the conversion that follows
    cleaned: dict[str, str] = field(default_factory=dict, repr=False)
    #: raw texts that still held a ``{{trim}}`` once comments were removed (the fidelity report's
    #: ``block-trim-removed``, :func:`~.patterns.trim_left_after_comments` without a second pass)
    trim_after_comments: set[str] = field(default_factory=set, repr=False)

    def scan(self, content: str) -> None:
        """Count comments and ``{{trim}}`` on the raw text, then names in the cleaned text (E12).

        Each pattern passes over the text once where it can: the comment count is the number of
        substitutions that strip them (``findall`` and ``sub`` find the same matches), and without
        comments the ``{{trim}}`` count on the raw text is that of the substitution too.
        """
        if "{{" not in content:  # every pattern here starts with "{{"
            self.cleaned[content] = content
            return
        # a comment holds "//" (a C-level check; many prompts have macros but no comment)
        stripped, comments = COMMENT_RE.subn("", content) if "//" in content else (content, 0)
        if comments:
            self.comments_stripped += comments
            self.trim_stripped += len(TRIM_RE.findall(content))
            cleaned, trims = TRIM_RE.subn("", stripped) if "{{" in stripped else (stripped, 0)
        else:
            cleaned, trims = TRIM_RE.subn("", content)
            self.trim_stripped += trims
        self.cleaned[content] = cleaned
        if trims:
            self.trim_after_comments.add(content)
        for found in MACRO_NAME_RE.findall(cleaned):
            # The name is ASCII by construction, so str.lower() is JavaScript's toLowerCase here.
            name = found.lower()
            self.detected.setdefault(name, None)
            # E16 deviation: `constructor`/`__proto__` are ordinary names in neither table.
            if name in MIGRATION_NOTES:
                self.migration[name] = self.migration.get(name, 0) + 1

    def migration_sorted(self) -> list[tuple[str, int]]:
        """Count descending, ties in first-seen order (a stable sort, like V8's for numbers)."""
        return sorted(self.migration.items(), key=lambda kv: -kv[1])
