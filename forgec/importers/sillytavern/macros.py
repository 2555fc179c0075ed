"""Macro detection over conversion items (C7, E12, E16) and the tables the report prints.

Detection is purely textual: a ``{{`` immediately followed by a name.  It runs over every
conversion item (markers, disabled and role-less items included) because pi-forge does, and the
counts feed the report's *Handled macros* and *Macros needing manual migration* sections.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Final

from forgec.js.values import js_trim

from .patterns import (
    COMMENT_OR_TRIM_RE,
    COMMENT_RE,
    MACRO_OR_SPACED_RE,
    TRIM_RE,
    WS,
    collapse_newline_runs,
    join_trimmed,
)

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


class ScannedText:
    """What :meth:`MacroScan.scan` hands the conversion for one text, final once the scan is
    finished (:meth:`MacroScan.finish`): ``text`` is stripped of comments and ``{{trim}}``, trimmed,
    its newline runs collapsed (trimming commutes with collapsing: a run never reaches past the
    leading or trailing whitespace it lies in); ``trim_kept``, whether a ``{{trim}}`` was still there
    once comments were removed (the fidelity report's ``block-trim-removed``)."""

    __slots__ = ("text", "trim_kept")

    def __init__(self, text: str, trim_kept: bool) -> None:
        self.text = text
        self.trim_kept = trim_kept

_LAST_USER = "lastusermessage"


class MacroScan:
    """What macro detection found over all conversion items.

    ``detected`` keeps first-seen order (a dict used as an ordered set); ``migration`` counts the
    occurrences of names in :data:`MIGRATION_NOTES`, also in first-seen order.  Names are gathered
    per text and folded into both in C (``map``, ``Counter``, ``dict.fromkeys``) when either is
    read, instead of a Python step per occurrence (a large preset has thousands).
    """

    def __init__(self) -> None:
        self.comments_stripped = 0
        self.trim_stripped = 0
        self._detected: dict[str, None] = {}
        self._migration: dict[str, int] = {}
        #: whether some text has ``{{`` then a name spelled ``lastUserMessage`` (after whitespace,
        #: or followed by ``-``): only then can :data:`~.patterns.LAST_USER_RE` match a text that
        #: has no ``{{lastUserMessage`` macro
        self._last_user_possible = False
        #: the names found in each text since the last fold
        self._pending: list[list[str]] = []
        #: the texts with comments since the last fold: (index in ``_pending``, raw text, result)
        self._joined: list[tuple[int, str, ScannedText]] = []

    def finish(self) -> None:
        """Settle every text scanned so far; call it before reading their :class:`ScannedText`."""
        self._fold()

    @property
    def detected(self) -> dict[str, None]:
        self._fold()
        return self._detected

    @property
    def migration(self) -> dict[str, int]:
        self._fold()
        return self._migration

    @property
    def last_user_possible(self) -> bool:
        """Whether a scanned text can match ``/\\{\\{\\s*lastUserMessage\\b/i`` other than where a
        ``{{lastUserMessage`` macro (in :attr:`detected`, which decides the flag alone) stands."""
        self._fold()
        return self._last_user_possible

    def scan(self, content: str) -> ScannedText:
        """Count comments and ``{{trim}}`` on the raw text, then names in the cleaned text (E12).

        pi-forge strips comments, then ``{{trim}}`` in what is left, and counts both on the raw
        text.  One split by :data:`COMMENT_OR_TRIM_RE` finds the comments and the ``{{trim}}`` outside
        them (the raw count adds those that end a comment); removing both at once leaves pi-forge's
        text unless removing a comment joined a new ``{{trim}}`` across the gap -- that one would
        still be in the text, where the name pass sees it as a name ``trim``: when the names of all
        texts hold one (:meth:`_fold`, never on the real presets measured), the texts that had
        comments are stripped again in two steps.  The text comes back trimmed, its newline runs
        collapsed, ready for conversion.
        """
        if "{{" not in content:  # every pattern here starts with "{{"
            return ScannedText(collapse_newline_runs(js_trim(content)), False)
        parts = COMMENT_OR_TRIM_RE.split(content)
        if len(parts) == 1:
            self._pending.append(MACRO_OR_SPACED_RE.findall(content))
            return ScannedText(collapse_newline_runs(js_trim(content)), False)
        cleaned = join_trimmed(parts[::2])
        groups = parts[1::2]
        comments = list(filter(None, groups))  # a {{trim}} leaves its group None
        trims = len(groups) - len(comments)
        self.comments_stripped += len(comments)
        self.trim_stripped += trims
        if comments:
            # a {{trim}} inside a comment ends it (the comment stops at the first "}}"), so none spans
            # two (the groups hold the comments from their "//" on)
            joined = "".join(comments)
            if "{{" in joined:
                self.trim_stripped += len(TRIM_RE.findall(joined))
        scanned = ScannedText(collapse_newline_runs(cleaned), trims > 0)
        if comments:
            self._joined.append((len(self._pending), content, scanned))
        self._pending.append(MACRO_OR_SPACED_RE.findall(cleaned))
        return scanned

    def _strip_joined(self) -> None:
        """Strip the texts that had comments in two steps, as pi-forge does (see :meth:`scan`)."""
        for index, content, scanned in self._joined:
            cleaned, trims = TRIM_RE.subn("", COMMENT_RE.sub("", content))
            self._pending[index] = MACRO_OR_SPACED_RE.findall(cleaned)
            scanned.text, scanned.trim_kept = collapse_newline_runs(js_trim(cleaned)), trims > 0

    def _fold(self) -> None:
        """Fold the names gathered since the last fold into ``detected`` and ``migration``."""
        if not self._pending:
            return
        # ASCII names: str.lower is toLowerCase here
        lowered = list(map(str.lower, chain.from_iterable(self._pending)))
        distinct = dict.fromkeys(lowered)  # first-seen order
        if self._joined and any(name.lstrip(WS) == "trim" for name in distinct):
            self._strip_joined()  # a {{trim}} may have been joined across a removed comment
            lowered = list(map(str.lower, chain.from_iterable(self._pending)))
            distinct = dict.fromkeys(lowered)
        self._pending, self._joined = [], []
        counts = Counter(lowered)
        for name in distinct:
            if name[0] in WS:  # "{{ name": no macro, but lastUserMessage may stand there
                word = name.lstrip(WS)
                if word == _LAST_USER or word.startswith(_LAST_USER + "-"):
                    self._last_user_possible = True
                continue
            if name.startswith(_LAST_USER + "-"):
                self._last_user_possible = True
            self._detected.setdefault(name, None)
            # E16 deviation: `constructor`/`__proto__` are ordinary names in neither table.
            if name in MIGRATION_NOTES:
                self._migration[name] = self._migration.get(name, 0) + counts[name]

    def migration_sorted(self) -> list[tuple[str, int]]:
        """Count descending, ties in first-seen order (a stable sort, like V8's for numbers)."""
        return sorted(self.migration.items(), key=lambda kv: -kv[1])
