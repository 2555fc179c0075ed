"""Replacement-template expansion: JavaScript ``GetSubstitution`` and pi-forge's trimStrings expander.

Templates are never handed to a Python template engine (import-regex B1 #30): ``re``/``regex`` would
process backslashes and ``\\g<…>``, JavaScript only knows ``$`` tokens.  All positions are indexes into
``subject`` in whatever representation the caller matched on (UTF-16 units without ``u``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Final

__all__ = [
    "AFTER",
    "BEFORE",
    "GROUP",
    "LITERAL",
    "MATCH",
    "TRIMMED_GROUP",
    "TRIMMED_MATCH",
    "Program",
    "expand_js_replacement",
    "expand_trim_replacement",
    "js_program",
    "prepass_dollar_zero",
    "trim_program",
]


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def prepass_dollar_zero(template: str) -> str:
    """A5.4 step 1: ``$0`` not followed by a digit becomes ``$&``; ``$$`` is skipped as a unit."""
    if "$0" not in template:
        return template
    return _prepassed(template)


#: from left to right, ``$$`` (kept whole, so its second ``$`` never starts a ``$0``) or a ``$0`` that
#: no ASCII digit follows: the matches of the character-by-character scan A5.4 describes
_DOLLAR_UNITS = re.compile(r"\$\$|\$0(?![0-9])")


def _unit(match: re.Match[str]) -> str:
    return "$$" if match.group() == "$$" else "$&"


@lru_cache(maxsize=1024)
def _prepassed(template: str) -> str:
    """:func:`prepass_dollar_zero` of a template holding ``$0``: one substitution in C instead of a
    scan with a call per character (7 µs for a 50-character template), remembered per template
    (a rule's template is prepared once per message it changes, every compile)."""
    return _DOLLAR_UNITS.sub(_unit, template)


def _expand(template: str, token: Callable[[str, int], tuple[str, int]]) -> str:
    """The scan both expanders share: literal text is copied in chunks, and each ``$`` that has a
    character after it is handed to ``token(template, i)``, which returns the text it stands for
    and where scanning resumes.  A ``$`` at the very end is literal."""
    out: list[str] = []
    i, n = 0, len(template)
    while True:
        j = template.find("$", i)
        if j < 0 or j + 1 >= n:
            out.append(template[i:])
            return "".join(out)
        out.append(template[i:j])
        text, i = token(template, j)
        out.append(text)


def _context_token(template: str, i: int, matched: str, position: int, subject: str) -> tuple[str, int] | None:
    """The tokens whose meaning the two expanders share: ``$$``, ``$``` and ``$'`` (None otherwise)."""
    d = template[i + 1]
    if d == "$":
        return "$", i + 2
    if d == "`":
        return subject[:position], i + 2
    if d == "'":
        return subject[position + len(matched) :], i + 2
    return None


def expand_js_replacement(
    template: str,
    matched: str,
    position: int,
    subject: str,
    groups: Sequence[str | None],
    named_groups: Mapping[str, str | None] | None = None,
) -> str:
    """ECMAScript ``GetSubstitution`` (A5.4 table).

    ``groups`` are captures 1..m (``None`` = did not participate); ``named_groups`` is ``None`` when the
    pattern has no named groups, which makes ``$<`` literal.
    """
    if "$" not in template:
        return template
    m = len(groups)

    def token(template: str, i: int) -> tuple[str, int]:
        shared = _context_token(template, i, matched, position, subject)
        if shared is not None:
            return shared
        d = template[i + 1]
        if d == "&":
            return matched, i + 2
        if _is_digit(d):
            if i + 2 < len(template) and _is_digit(template[i + 2]):
                nn = int(template[i + 1 : i + 3])
                if 1 <= nn <= m:
                    return groups[nn - 1] or "", i + 3
            k = int(d)
            return (groups[k - 1] or "") if 1 <= k <= m else "$" + d, i + 2
        if d == "<":
            close = template.find(">", i + 2) if named_groups is not None else -1
            if close == -1 or named_groups is None:
                return "$<", i + 2
            return named_groups.get(template[i + 2 : close]) or "", close + 1
        return "$", i + 1

    return _expand(template, token)


def _trim(value: str, trim_strings: Sequence[str]) -> str:
    for t in trim_strings:
        if t:
            value = value.replace(t, "")
    return value


def expand_trim_replacement(
    template: str,
    matched: str,
    position: int,
    subject: str,
    groups: Sequence[str | None],
    named_groups: Mapping[str, str | None] | None,
    trim_strings: Sequence[str],
) -> str:
    """pi-forge's expander for rules with ``trimStrings`` (A5.5); applied to the raw template.

    It differs from ``GetSubstitution`` in four places: ``$0`` (not followed by a digit) is the
    match, captures and the match are trimmed, ``$1``-``$99`` are read greedily whatever the group
    count, and a ``$<…>`` that names nothing is empty (a bare ``$<`` or ``$<>`` stays literal).
    """
    m = len(groups)

    def token(template: str, i: int) -> tuple[str, int]:
        shared = _context_token(template, i, matched, position, subject)
        if shared is not None:
            return shared
        n = len(template)
        d = template[i + 1]
        if d == "&" or (d == "0" and not (i + 2 < n and _is_digit(template[i + 2]))):
            return _trim(matched, trim_strings), i + 2
        if "1" <= d <= "9":
            j = i + 3 if i + 2 < n and _is_digit(template[i + 2]) else i + 2
            k = int(template[i + 1 : j])
            value = groups[k - 1] if k <= m else None
            return (_trim(value, trim_strings) if value is not None else ""), j
        if d == "<":
            close = template.find(">", i + 2)
            if close <= i + 2:
                return "$", i + 1
            value = named_groups.get(template[i + 2 : close]) if named_groups is not None else None
            return (_trim(value, trim_strings) if value is not None else ""), close + 1
        return "$", i + 1

    return _expand(template, token)


# --- templates read once ----------------------------------------------------------------------------
#
# A rule's template is expanded at every match of every compile, and each expansion above scans it again
# with a Python call per ``$`` token (~1 µs a token). A pattern's group count and group names fix what
# every token means, so the regex pass reads a template once per pattern (:func:`js_program`,
# :func:`trim_program`) into a *program*: steps of (kind, group, text), which
# ``forgec.js.regex.pattern`` runs per match with no scanning. ``tests/js/regex/test_replace_program.py``
# holds each program equal to its expander on random templates.

#: a step's kinds: literal ``text``; the match; the text before it; the text after it; capture ``group``
#: (``""`` when unset); and pi-forge's trimmed match and trimmed capture (A5.5)
LITERAL: Final = 0
MATCH: Final = 1
BEFORE: Final = 2
AFTER: Final = 3
GROUP: Final = 4
TRIMMED_MATCH: Final = 5
TRIMMED_GROUP: Final = 6

#: a template's steps, and whether one of them reads a capture (the groups of a match are then computed)
Program = tuple[tuple[tuple[int, int, str], ...], bool]


def _program(steps: list[tuple[int, int, str]]) -> Program:
    """``steps`` with adjacent literals joined, and whether any step reads a group."""
    joined: list[tuple[int, int, str]] = []
    for step in steps:
        if step[0] == LITERAL and joined and joined[-1][0] == LITERAL:
            joined[-1] = (LITERAL, 0, joined[-1][2] + step[2])
        elif step[0] != LITERAL or step[2]:
            joined.append(step)
    return tuple(joined), any(kind in (GROUP, TRIMMED_GROUP) for kind, _group, _text in joined)


def _shared_step(template: str, i: int) -> tuple[tuple[int, int, str], int] | None:
    """:func:`_context_token` as a step: ``$$``, ``$```` and ``$'`` (None otherwise)."""
    d = template[i + 1]
    if d == "$":
        return (LITERAL, 0, "$"), i + 2
    if d == "`":
        return (BEFORE, 0, ""), i + 2
    if d == "'":
        return (AFTER, 0, ""), i + 2
    return None


def js_program(template: str, group_count: int, group_names: Mapping[str, int] | None) -> Program:
    """:func:`expand_js_replacement`'s reading of ``template`` (after the ``$0`` pre-pass) for a pattern
    of ``group_count`` captures and these ``group_names`` (None or empty: ``$<`` is literal), as steps."""
    return _read_program(template, group_count, group_names, _js_step)


def _read_program(
    template: str,
    group_count: int,
    group_names: Mapping[str, int] | None,
    step_at: Callable[[str, int, int, Mapping[str, int] | None], tuple[tuple[int, int, str], int]],
) -> Program:
    """``template`` as steps: its literal runs between ``$`` tokens, each token read by ``step_at``
    (the JavaScript reading or the trimmed one), a lone ``$`` at the end kept literal."""
    named = group_names or None
    steps: list[tuple[int, int, str]] = []
    i, n = 0, len(template)
    while True:
        j = template.find("$", i)
        if j < 0 or j + 1 >= n:
            steps.append((LITERAL, 0, template[i:]))
            return _program(steps)
        steps.append((LITERAL, 0, template[i:j]))
        step, i = step_at(template, j, group_count, named)
        steps.append(step)


def _js_step(
    template: str, i: int, m: int, named: Mapping[str, int] | None
) -> tuple[tuple[int, int, str], int]:
    """The ``token`` of :func:`expand_js_replacement` at ``template[i] == "$"``, as a step."""
    shared = _shared_step(template, i)
    if shared is not None:
        return shared
    d = template[i + 1]
    if d == "&":
        return (MATCH, 0, ""), i + 2
    if _is_digit(d):
        if i + 2 < len(template) and _is_digit(template[i + 2]):
            nn = int(template[i + 1 : i + 3])
            if 1 <= nn <= m:
                return (GROUP, nn, ""), i + 3
        k = int(d)
        return ((GROUP, k, "") if 1 <= k <= m else (LITERAL, 0, "$" + d)), i + 2
    if d == "<":
        close = template.find(">", i + 2) if named is not None else -1
        if close == -1 or named is None:
            return (LITERAL, 0, "$<"), i + 2
        index = named.get(template[i + 2 : close])
        return ((LITERAL, 0, "") if index is None else (GROUP, index, "")), close + 1
    return (LITERAL, 0, "$"), i + 1


def trim_program(template: str, group_count: int, group_names: Mapping[str, int] | None) -> Program:
    """:func:`expand_trim_replacement`'s reading of the raw ``template`` for such a pattern, as steps
    (the trimmed kinds trim with the rule's ``trimStrings`` when run)."""
    return _read_program(template, group_count, group_names, _trim_step)


def _trim_step(
    template: str, i: int, m: int, named: Mapping[str, int] | None
) -> tuple[tuple[int, int, str], int]:
    """The ``token`` of :func:`expand_trim_replacement` at ``template[i] == "$"``, as a step."""
    shared = _shared_step(template, i)
    if shared is not None:
        return shared
    n = len(template)
    d = template[i + 1]
    if d == "&" or (d == "0" and not (i + 2 < n and _is_digit(template[i + 2]))):
        return (TRIMMED_MATCH, 0, ""), i + 2
    if "1" <= d <= "9":
        j = i + 3 if i + 2 < n and _is_digit(template[i + 2]) else i + 2
        k = int(template[i + 1 : j])
        return ((TRIMMED_GROUP, k, "") if k <= m else (LITERAL, 0, "")), j
    if d == "<":
        close = template.find(">", i + 2)
        if close <= i + 2:
            return (LITERAL, 0, "$"), i + 1
        index = named.get(template[i + 2 : close]) if named is not None else None
        return ((LITERAL, 0, "") if index is None else (TRIMMED_GROUP, index, "")), close + 1
    return (LITERAL, 0, "$"), i + 1
