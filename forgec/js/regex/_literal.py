"""The literal text every match of a pattern must contain, read from the V8-port syntax tree.

Most regex rules of a prompt stack match few messages (a name, a word, a tag), and running the
``regex`` engine over a text that cannot match costs tens to hundreds of microseconds (patterns that
begin with ``\\b`` or a case class have no prefix the engine can scan for). A *required literal* is a
run of characters every match consumes contiguously; when the text does not contain it, no match
exists and the engine is not run at all (a C-level ``str.__contains__``). When the run also sits at a
fixed distance from the start of every match, the engine's search starts at the first place the run
can occur (``str.find``) instead of at ``lastIndex``: no match can start earlier.

Exactness rests on two facts:

- Only consuming items count, and only those that always consume: characters, groups and sequences
  of them, the first ``min`` iterations of a quantifier. Zero-width items (``^``, ``\\b``, lookarounds)
  do not break a run: the characters around them are adjacent in the subject. Anything else
  (classes, alternatives, backreferences, optional parts) ends the run.
- The run is searched in the text the caller holds, not in the pattern's view of it, so only
  characters that are identical in both are used: no surrogate halves, no astral characters (a
  UTF-16 view splits them, a ``u`` view joins pairs the text may hold as two halves).

Under the ``i`` flag a character is used only when every character it matches (its equivalence class,
:func:`._casefold.equivalents`, V8's canonicalisation with or without ``u``) lower-cases to the same
single character; the run is then searched in ``text.lower()``. That lowering works character by
character except for the final sigma, whose class (σ, ς, Σ) fails the test, so a window that matches
lower-cases exactly to the run. Characters without that property (``ſ``/``s`` with ``u``, the Kelvin
sign, sigma) end the run: the prefilter is weaker there, never wrong.

Two more facts of the same kind are read here: every match consumes a non-ASCII character
(:func:`needs_non_ascii`), and every match ends the text with a character of one class
(:func:`final_class`, for ``/\\s+$/`` and its kind).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _casefold as cf
from ._ast import Alt, Assertion, BackRef, Char, CharClass, ClassEscape, Empty, Group, Look, Node, Quant, Seq

__all__ = ["RequiredLiteral", "final_class", "line_end_needles", "literal_text", "needs_non_ascii", "required_literal"]

#: a consuming item that is not part of a run: its width in view characters, or None when it varies
_Break = tuple[int | None]
_Token = str | _Break
#: copies of a fixed-count quantifier's body written out (``a{3}`` is the run ``aaa``)
_MAX_COPIES = 16


#: alternatives a prefilter tries at most (``/a|b|c…/`` with more is searched by the engine alone)
_MAX_NEEDLES = 8


@dataclass(frozen=True, slots=True)
class RequiredLiteral:
    """Runs of which every match contains one (``needles``, lower-cased when ``folded``) and, for a single
    run at the same place in every match, ``offset``: the view characters between a match's start and it."""

    needles: tuple[str, ...]
    folded: bool
    offset: int | None


def _char(value: int, icase: bool, unicode: bool) -> str | None:
    """The character a run holds for ``value``, or None when it cannot be searched in the text."""
    if value > 0xFFFF or 0xD800 <= value <= 0xDFFF:
        return None
    ch = chr(value)
    if not icase:
        return ch
    low = ch.lower()
    if len(low) != 1:
        return None
    for other in cf.equivalents(value, unicode):
        if other > 0xFFFF or 0xD800 <= other <= 0xDFFF or chr(other).lower() != low:
            return None
    return low


def _tokens(node: Node, icase: bool, unicode: bool, depth: int = 0) -> list[_Token]:
    """The consuming items of ``node`` in order: run characters (str) and breaks (``(width,)``)."""
    if depth > 200:  # deeper nesting than realistic rules: give up on this part (a break is always safe)
        return [(None,)]
    if isinstance(node, Char):
        ch = _char(node.value, icase, unicode)
        return [ch] if ch is not None else [(1,)]
    if isinstance(node, (Assertion, Look, Empty)):
        return []
    if isinstance(node, Group):
        return _tokens(node.body, icase, unicode, depth + 1)
    if isinstance(node, Seq):
        out: list[_Token] = []
        for item in node.items:
            out.extend(_tokens(item, icase, unicode, depth + 1))
        return out
    if isinstance(node, Alt):
        widths = {_width(_tokens(a, icase, unicode, depth + 1)) for a in node.alternatives}
        return [(widths.pop(),)] if len(widths) == 1 else [(None,)]
    if isinstance(node, Quant):
        if node.max == 0:
            return []
        body = _tokens(node.body, icase, unicode, depth + 1)
        if node.min == 0:
            return [(None,)]
        if node.min * len(body) <= _MAX_COPIES:  # every required iteration, one after the other
            return body * node.min if node.min == node.max else [*(body * node.min), (None,)]
        return [*body, (None,)]
    if isinstance(node, BackRef):
        return [(None,)]
    return [(1,)]  # Dot, CharClass, ClassEscape: one view character


def _width(tokens: list[_Token]) -> int | None:
    total = 0
    for t in tokens:
        if isinstance(t, str):
            total += 1
        elif t[0] is None:
            return None
        else:
            total += t[0]
    return total


def _runs(tokens: list[_Token]) -> list[tuple[str, int | None]]:
    """The runs of consecutive characters in ``tokens``, each with its offset (None once a width varies)."""
    runs: list[tuple[str, int | None]] = []
    offset: int | None = 0
    run: list[str] = []
    start: int | None = 0
    for t in tokens:
        if isinstance(t, str):
            if not run:
                start = offset
            run.append(t)
            offset = None if offset is None else offset + 1
            continue
        if run:
            runs.append(("".join(run), start))
            run = []
        offset = None if offset is None or t[0] is None else offset + t[0]
    if run:
        runs.append(("".join(run), start))
    return runs


def _needles(node: Node, icase: bool, unicode: bool, depth: int = 0) -> tuple[str, ...] | None:
    """Strings of which every match of ``node`` contains at least one: its longest run, or, when that
    is better, the runs of a part every match goes through (a group, the first iteration of a
    quantifier, one run per alternative of an alternation: ``/\\b(very|really) /``)."""
    if depth > 50:
        return None
    options: list[tuple[str, ...]] = []
    runs = _runs(_tokens(node, icase, unicode))
    if runs:
        options.append((max(runs, key=lambda r: len(r[0]))[0],))
    parts: list[Node] = []
    if isinstance(node, Group) or (isinstance(node, Quant) and node.min >= 1):
        parts = [node.body]
    elif isinstance(node, Seq):
        parts = [item for item in node.items if isinstance(item, (Group, Quant, Alt, CharClass, ClassEscape))]
    elif isinstance(node, (CharClass, ClassEscape)):
        members = _small_class(node, icase, unicode)
        if members:
            options.append(members)
    elif isinstance(node, Alt):
        found = [_needles(a, icase, unicode, depth + 1) for a in node.alternatives]
        union = tuple(dict.fromkeys(n for f in found if f is not None for n in f))
        if all(f is not None for f in found) and len(union) <= _MAX_NEEDLES:
            options.append(union)
    for part in parts:
        inner = _needles(part, icase, unicode, depth + 1)
        if inner is not None:
            options.append(inner)
    if not options:
        return None
    return max(options, key=lambda o: (min(map(len, o)), -len(o)))


def _class_ranges(node: CharClass | ClassEscape, icase: bool, unicode: bool) -> cf.Ranges:
    """The characters a class matches, as the emitter computes them (``_emit.Emitter._class_text``)."""
    from ._emit import DIGIT, SPACE, TOP, WORD, WORD_IU
    from ._props import property_members

    negated = isinstance(node, CharClass) and node.negated
    ranges = list(node.ranges) if isinstance(node, CharClass) else []
    for esc in node.escapes if isinstance(node, CharClass) else [node]:
        if esc.kind in "pP":
            assert esc.prop is not None
            ranges.extend(property_members(esc.prop[0], esc.prop[1], esc.kind == "P"))
            continue
        base = {"d": DIGIT, "s": SPACE, "w": WORD_IU if (unicode and icase) else WORD}[esc.kind.lower()]
        ranges.extend(cf.complement(cf.normalize(base), TOP) if esc.kind.isupper() else base)
    if icase:
        ranges = cf.close_over_case(ranges, unicode)
    ranges = cf.normalize(ranges)
    return cf.complement(ranges, TOP) if negated else ranges


def _small_class(node: CharClass | ClassEscape, icase: bool, unicode: bool) -> tuple[str, ...] | None:
    """The members of a class of at most :data:`_MAX_NEEDLES` searchable characters (``[“”]``)."""
    members: list[str] = []
    for lo, hi in _class_ranges(node, icase, unicode):
        if hi - lo >= _MAX_NEEDLES:
            return None
        for value in range(lo, hi + 1):
            ch = _char(value, icase, unicode)
            if ch is None:
                return None
            members.append(ch)
            if len(members) > 2 * _MAX_NEEDLES:
                return None
    unique = tuple(dict.fromkeys(members))
    return unique if 0 < len(unique) <= _MAX_NEEDLES else None


def needs_non_ascii(node: Node, flags: str, depth: int = 0) -> bool:
    """True when every match of ``node`` consumes a character beyond ASCII (``[“”]``, ``\\p{Emoji}``, ``é``
    without ``i``...): an ASCII text (``str.isascii``, one C call) cannot match."""
    icase, unicode = "i" in flags, "u" in flags
    if depth > 50:
        return False
    if isinstance(node, Char):
        return node.value >= 0x80 and not (icase and min(cf.equivalents(node.value, unicode)) < 0x80)
    if isinstance(node, (CharClass, ClassEscape)):
        ranges = _class_ranges(node, icase, unicode)
        return not ranges or ranges[0][0] >= 0x80
    if isinstance(node, Group) or (isinstance(node, Quant) and node.min >= 1):
        return needs_non_ascii(node.body, flags, depth + 1)
    if isinstance(node, Seq):
        return any(needs_non_ascii(item, flags, depth + 1) for item in node.items)
    if isinstance(node, Alt):
        return all(needs_non_ascii(a, flags, depth + 1) for a in node.alternatives)
    return False


def required_literal(tree: Node, flags: str) -> tuple[RequiredLiteral | None, RequiredLiteral | None]:
    """(what every match contains: one or more runs, any of which; the longest run at a fixed offset
    from every match's start); None where there is none."""
    icase, unicode = "i" in flags, "u" in flags
    needles = _needles(tree, icase, unicode)
    fixed = [r for r in _runs(_tokens(tree, icase, unicode)) if r[1] is not None]
    anchored = max(fixed, key=lambda r: len(r[0])) if fixed else None
    return (
        RequiredLiteral(needles, icase, None) if needles else None,
        RequiredLiteral((anchored[0],), icase, anchored[1]) if anchored else None,
    )


def literal_text(tree: Node, flags: str) -> str | None:
    """The text a pattern consisting of characters alone matches (no ``i``, no assertion, no group),
    when it holds no surrogate or astral character; None otherwise."""
    if "i" in flags:
        return None
    items = tree.items if isinstance(tree, Seq) else [tree]
    chars: list[str] = []
    for item in items:
        if not isinstance(item, Char) or item.value > 0xFFFF or 0xD800 <= item.value <= 0xDFFF:
            return None
        chars.append(chr(item.value))
    return "".join(chars) or None


def final_class(tree: Node, flags: str) -> cf.Ranges | None:
    """The characters the last character of every match is one of, for a pattern whose matches all end
    at the end of the text (it ends with ``$`` without ``m``, and consumes at least one character just
    before it): ``/\\s+$/`` cannot match a text that does not end with white space. None otherwise.
    With ``m`` the same class ends every match at the end of a *line* (:func:`line_end_needles`).

    Only the plain shape is read: the pattern's top-level sequence ends with ``$`` (other assertions may
    sit between), and the consuming item before it is a character or a class, alone or repeated at least
    once (a group around them is looked into). Lookarounds, alternatives and anything else give None."""
    icase, unicode = "i" in flags, "u" in flags
    items = tree.items if isinstance(tree, Seq) else [tree]
    if not items or not (isinstance(items[-1], Assertion) and items[-1].kind == "$"):
        return None
    return _last_consumed(items, icase, unicode, 0)


#: V8's line terminators: what a multiline ``$`` sees after the last character of a match
_LINE_TERMINATORS = "\n\r\u2028\u2029"
#: members of a final class (:func:`final_class`) spelled out as needles at most
_MAX_FINAL_MEMBERS = 4


def line_end_needles(final: cf.Ranges) -> tuple[str, ...] | None:
    """For a multiline pattern whose matches end with a character of ``final`` at a line's end: each member
    followed by each line terminator, so that a text holding none of them (and not ending with a member)
    cannot match (``/[ \\t]+$/m``: " \\n", "\\t\\r"…). None when the class is too large or holds a character
    the text and the view may spell differently (a surrogate or astral character)."""
    members = [c for lo, hi in final for c in range(lo, min(hi, lo + _MAX_FINAL_MEMBERS) + 1)]
    if len(members) > _MAX_FINAL_MEMBERS or any(c > 0xFFFF or 0xD800 <= c <= 0xDFFF for c in members):
        return None
    return tuple(chr(c) + t for c in members for t in _LINE_TERMINATORS)


def _last_consumed(items: list[Node], icase: bool, unicode: bool, depth: int) -> cf.Ranges | None:
    for item in reversed(items):
        if isinstance(item, (Assertion, Empty)):
            continue  # zero-width: the character before it is still the last one consumed
        node = item.body if isinstance(item, Quant) and item.min >= 1 else item
        if isinstance(node, Group) and depth < 50:
            body = node.body
            return _last_consumed(body.items if isinstance(body, Seq) else [body], icase, unicode, depth + 1)
        if isinstance(node, Char):
            values = cf.equivalents(node.value, unicode) if icase else (node.value,)
            return cf.normalize([(v, v) for v in values])
        if isinstance(node, (CharClass, ClassEscape)):
            return _class_ranges(node, icase, unicode)
        return None
    return None
