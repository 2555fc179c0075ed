"""The importer's own text patterns, written as the JavaScript patterns pi-forge applies (E13).

Python's ``re`` differs from JavaScript exactly where these patterns are sensitive: ``\\s`` (JS adds
U+FEFF and drops U+001C-U+001F/U+0085), ``\\d``/``\\w``/``\\b`` (Unicode in Python, ASCII in JS),
case-insensitive matching (Python maps U+017F and U+212A onto ASCII letters, JS without ``u`` does
not) and ``$`` (Python also matches before a final newline).  So every pattern here spells its
character classes out instead of using those shorthands.
"""

from __future__ import annotations

import re
from typing import Any, Final

from forgec.js.values import JS_WHITESPACE, UNDEFINED, js_string, js_trim

#: JavaScript's ``\\s`` as a character class body.
WS: Final = "".join(JS_WHITESPACE)
_WS_CLASS: Final = f"[{WS}]"


def _ci(word: str) -> str:
    """A case-insensitive ASCII word as explicit classes (``trim`` -> ``[tT][rR][iI][mM]``)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


#: ``/\\{\\{\\s*\\/\\/[\\s\\S]*?\\}\\}/g``: a ``{{// ...}}`` comment, cut at the first ``}}``.
#: ``[\\s\\S]`` is spelled ``.`` under ``re.S`` (the same characters: all of them): ``re`` then steps
#: through the comment without testing a class per character, twice as fast on a large preset
COMMENT_RE: Final = re.compile(r"\{\{" + _WS_CLASS + r"*//.*?\}\}", re.S)
#: ``/\\{\\{\\s*trim\\s*\\}\\}/gi``
TRIM_RE: Final = re.compile(r"\{\{" + _WS_CLASS + "*" + _ci("trim") + _WS_CLASS + r"*\}\}")
#: A comment (from its ``//`` on captured) or a ``{{trim}}``, in one pass: each is :data:`COMMENT_RE`'s or
#: :data:`TRIM_RE`'s match where they start, and neither can start inside the other, except a
#: ``{{trim}}`` that ends a comment (it is part of the comment here, as in the comment pass).  The
#: comment's body is spelled ``[^}]*+(?:\}[^}]+)*+`` instead of ``.*?``: both stop at the first ``}}``
#: (a ``}`` is taken only when no ``}`` follows it), but ``re`` runs this one in a tight loop per
#: character where the lazy form tries the rest of the pattern at each one (~2x on a large preset).
COMMENT_OR_TRIM_RE: Final = re.compile(
    r"\{\{" + _WS_CLASS + r"*(?:(//[^}]*+(?:\}[^}]+)*+\}\})|" + _ci("trim") + _WS_CLASS + r"*\}\})"
)
#: ``/\\{\\{\\s*lastUserMessage\\b/i`` with JavaScript's ASCII word boundary.
LAST_USER_RE: Final = re.compile(r"\{\{" + _WS_CLASS + "*" + _ci("lastUserMessage") + r"(?![A-Za-z0-9_])")
#: ``/\\{\\{(?!\\/\\/)([A-Za-z_][A-Za-z0-9_-]*)/g``: macro names (no space allowed after ``{{``).
MACRO_NAME_RE: Final = re.compile(r"\{\{(?!//)([A-Za-z_][A-Za-z0-9_-]*)")
#: :data:`MACRO_NAME_RE` that also matches ``{{``, whitespace and a name (captured with the
#: whitespace, so it is told apart from a macro name).  Such a match is no macro, but it is the only
#: other place :data:`LAST_USER_RE` can match: one pass over a text finds its macro names and tells
#: whether the ``lastUserMessage`` search can find anything (the spaced matches start at a ``{{`` no
#: macro name starts at, and cover no ``{{`` a macro name could start at, so the names are the same).
MACRO_OR_SPACED_RE: Final = re.compile(r"\{\{(?!//)(" + _WS_CLASS + r"*[A-Za-z_][A-Za-z0-9_-]*)")
#: ``/\\n{3,}/g``, spelled ``\n\n\n+`` (the same matches): ``re`` scans for a literal prefix in C, where
#: ``\n{3,}`` is tried position by position (the largest real preset spent most of its conversion here)
NEWLINE_RUN_RE: Final = re.compile(r"\n\n\n+")
#: ``/\\s+/g`` for report cells
WS_RUN_RE: Final = re.compile(_WS_CLASS + "+")
#: ``/\\r?\\n/`` for trimStrings given as one string
LINE_SPLIT_RE: Final = re.compile(r"\r?\n")
#: ``/\\{\\{\\s*match\\s*\\}\\}/gi``
MATCH_MACRO_RE: Final = re.compile(r"\{\{" + _WS_CLASS + "*" + _ci("match") + _WS_CLASS + r"*\}\}")
#: ``/\\$0(?!\\d)/g`` with JavaScript's ASCII ``\\d``
DOLLAR_ZERO_RE: Final = re.compile(r"\$0(?![0-9])")
_SLUG_BAD_RE: Final = re.compile(r"[^A-Za-z0-9_-]+")
_DASH_RUN_RE: Final = re.compile(r"-+")


def strip_comments_and_trims(content: str) -> str:
    """Comments first, then ``{{trim}}`` markers in the result (E12).

    Both start with ``{{``: a text without one (a C-level check) is returned as it is."""
    if "{{" not in content:
        return content
    content = COMMENT_RE.sub("", content)
    return TRIM_RE.sub("", content) if "{{" in content else content


def collapse_newline_runs(text: str) -> str:
    """``text.replace(/\\n{3,}/g, "\\n\\n")``; a text without three newlines in a row is returned as it is.

    The test is the pattern's own search: ``re`` finds its literal prefix about twice as fast as
    ``"\\n\\n\\n" in text`` on the four-byte-per-character texts an emoji makes (most of a large preset's
    texts hold no run, so the test reads them whole)."""
    return NEWLINE_RUN_RE.sub("\n\n", text) if NEWLINE_RUN_RE.search(text) is not None else text


def join_trimmed(pieces: list[str]) -> str:
    """``js_trim("".join(pieces))`` copying the text once: blank pieces at either end are left out
    and only the two end pieces are trimmed (``str.strip`` copies the whole text it trims).  A piece
    is blank when stripping leaves nothing: ``lstrip`` returns a piece with no leading whitespace
    as it is, and an empty one costs less than a pattern match (a converted preset has thousands)."""
    first, last = 0, len(pieces) - 1
    head = pieces[0].lstrip(JS_WHITESPACE)
    while not head and first < last:
        first += 1
        head = pieces[first].lstrip(JS_WHITESPACE)
    if first == last:  # one piece holds all the text (or every piece is blank)
        return head.rstrip(JS_WHITESPACE)
    tail = pieces[last].rstrip(JS_WHITESPACE)
    while not tail and last > first + 1:
        last -= 1
        tail = pieces[last].rstrip(JS_WHITESPACE)
    if not tail:  # every piece after the first with text is blank
        return head.rstrip(JS_WHITESPACE)
    return "".join([head, *pieces[first + 1 : last], tail])


def trim_left_after_comments(content: str) -> bool:
    """Whether a ``{{trim}}`` marker remains once comments are removed (the fidelity report's test)."""
    return "{{" in content and TRIM_RE.search(COMMENT_RE.sub("", content)) is not None


def slugify(text: str) -> str:
    """``[^A-Za-z0-9_-]`` -> ``-``, collapse ``-`` runs, drop one leading/trailing ``-``, lower-case.

    JavaScript replaces each UTF-16 unit, so an astral character becomes ``--``; the collapse makes
    that identical to replacing code points.
    """
    slug = _DASH_RUN_RE.sub("-", _SLUG_BAD_RE.sub("-", text))
    if slug.startswith("-"):
        slug = slug[1:]
    if slug.endswith("-"):
        slug = slug[:-1]
    return slug.lower()


def is_blank(value: object) -> bool:
    """True unless ``value`` is a string that is non-empty after JavaScript ``trim``."""
    return not isinstance(value, str) or js_trim(value) == ""


def template_text(value: Any) -> str:
    """``${value}`` / ``String(value)`` without recursion (E8).

    A preset can nest arrays thousands of levels deep (``"name": [[[...]]]``); JavaScript prints
    them by joining, which :func:`forgec.js.values.js_string` does recursively and would exceed
    Python's recursion limit.  Nested arrays flatten into one comma-joined text, ``null`` and absent
    elements print as empty text, every other value as :func:`js_string` prints it.
    """
    if not isinstance(value, list):
        return js_string(value)
    pieces: list[str] = []
    stack: list[tuple[list[Any], int]] = [(value, 0)]
    while stack:
        items, index = stack.pop()
        if index >= len(items):
            continue
        stack.append((items, index + 1))
        if index > 0:
            pieces.append(",")
        item = items[index]
        if isinstance(item, list):
            stack.append((item, 0))
        elif item is not None and item is not UNDEFINED:
            pieces.append(js_string(item))
    return "".join(pieces)
