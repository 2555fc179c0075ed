"""Emit a ``regex``-module pattern with the JavaScript meaning of a parsed ECMAScript pattern.

Nothing is passed through textually: every node is written out explicitly (import-regex B1 #19), so
Python-only meanings (``\\A``, ``\\Z``, Unicode ``\\d``/``\\w``, ``$`` before a final newline,
``IGNORECASE`` folding) can never leak in.  Characters are emitted as ``\\uXXXX``/``\\UXXXXXXXX`` escapes
of the units (non-``u``) or code points (``u``) the parser produced; the subject is presented in the
same representation by :mod:`.pattern`.

User capture ``N`` becomes the named group ``gN``.  The body of every quantifier that can repeat and
contains captures is wrapped in a hidden group ``hK`` so that, after a match, the JavaScript capture
reset (B0 item 7) can be applied from the per-iteration spans that ``regex`` records.

Backreferences must see that reset *during* matching (``/(?:\1(a)|b)+/``, ``/(?:(a)|b)+\1/``), and
``regex`` has no way to clear a group.  It does let several groups share one name (they share one
number, and the name's value is the most recent capture of any of them), so a referenced capture
inside a repeating quantifier is also captured as ``bN`` (``(?P<gN>(?P<bN>…))``) and every iteration of
each enclosing repeating quantifier starts with an empty ``(?P<bN>)``: the reference ``(?P=bN)`` then
matches the empty string until the group is captured again in that iteration, which is what a
JavaScript reference to a group without a value does.  ``gN`` stays untouched for reporting values.
When the group cannot match the empty string, an empty capture can only be a reset, so the resets
share ``gN`` itself (cheaper: one capture per iteration) and an empty final value reads as "no value".
Inside a lookbehind ``regex`` matches right to left, as V8 does, so there the reset goes at the
textual end of the body (the end is where a backwards iteration starts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import _casefold as cf
from ._ast import (
    INFINITY,
    REPEAT_LIMIT,
    Alt,
    Assertion,
    BackRef,
    Char,
    CharClass,
    ClassEscape,
    Dot,
    Empty,
    Group,
    Look,
    Node,
    Quant,
    Seq,
    captures,
    children,
    descendants,
    max_match_is_zero,
)
from ._ast import nullable as _nullable
from ._nonempty import Rewriter, forward_references

#: a JavaScript source that may contain a backreference (anything else skips that analysis)
_MAY_REFER = re.compile(r"\\[1-9k]")
#: a quantifier with a minimum writes its body twice (see _quant); nested ones multiply, so cap it
COPY_LIMIT = 32

LINE_TERMINATORS: cf.Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
DIGIT: cf.Ranges = [(0x30, 0x39)]
WORD: cf.Ranges = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
WORD_IU: cf.Ranges = [*WORD, (0x017F, 0x017F), (0x212A, 0x212A)]
SPACE: cf.Ranges = cf.normalize([
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
    (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
])
TOP = 0x10FFFF


def _ch(c: int) -> str:
    if c < 0x80 and (0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A):
        return chr(c)
    return f"\\u{c:04x}" if c <= 0xFFFF else f"\\U{c:08x}"


def _set_body(ranges: cf.Ranges) -> str:
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(_ch(lo))
        elif hi == lo + 1:
            parts.append(_ch(lo) + _ch(hi))
        else:
            parts.append(f"{_ch(lo)}-{_ch(hi)}")
    return "".join(parts)


def _set(ranges: cf.Ranges, negated: bool = False) -> str:
    ranges = cf.normalize(ranges)
    if negated:
        ranges = cf.complement(ranges, TOP)
    if not ranges:
        return "(?!)"
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _ch(ranges[0][0])
    return "[" + _set_body(ranges) + "]"


@dataclass
class Emitted:
    """A ``regex``-module pattern and what the matcher needs to report its captures as V8 does."""

    pattern: str
    #: user group number -> (hidden ids of enclosing repeating quantifiers, outer first; inside lookbehind)
    enclosing: dict[int, tuple[tuple[int, ...], bool]] = field(default_factory=dict)
    hidden_min: dict[int, int] = field(default_factory=dict)
    #: groups whose resets are empty captures of ``gN`` itself: an empty final value means "no value"
    reset_in_place: set[int] = field(default_factory=set)
    #: hidden ids of quantifiers inside a lookbehind (their iterations run right to left)
    hidden_behind: set[int] = field(default_factory=set)
    #: match on the case-canonical copy of the subject (``i`` with backreferences): a backreference
    #: is then a plain comparison of canonical forms, which is exactly ECMAScript's rule, whereas
    #: ``regex``'s ``IGNORECASE`` folds ``ſ``/``K``/``ẞ`` without ``u`` and ``I``/``ı`` with it.
    #: Characters and classes are emitted as closed sets either way, so they match canonical forms too.
    canonical: bool = False


#: emitted text of a character class by (negated, ranges, escapes, i, u): see ``_class``
_CLASS_TEXTS: dict[tuple[Any, ...], str] = {}


class Emitter:
    def __init__(self, flags: str, capture_count: int, *, reject_empty_iterations: bool = True) -> None:
        self.unicode = "u" in flags
        self.icase = "i" in flags
        self.multiline = "m" in flags
        self.dotall = "s" in flags
        self.capture_count = capture_count
        self.out = Emitted("")
        self._hidden = 0
        self._stack: list[int] = []
        self._behind = 0
        self._resettable: set[int] = set()  # referenced groups inside a repeating quantifier
        self._ref_name: dict[int, str] = {}  # group -> the name its references and resets use
        self._copies = 0
        self._reject_empty = reject_empty_iterations  # rewrite optional iterations to non-empty ones (see emit())
        self._rewrote = False
        self._hid_of: dict[int, int] = {}  # id(Quant) -> its hidden group number (a node may be emitted twice)
        self._nullable_groups: set[int] = set()
        self._forward: set[int] = set()  # ids of forward references (always empty)
        self._zero_groups: set[int] = set()  # groups that only ever capture ""
        self._rewriter: Rewriter | None = None  # built on first use (_nonempty.py)
        self._present: set[int] = set()  # groups in the tree (V8 drops quantified empty-only atoms)

    # --- class escapes as ranges -------------------------------------------------------------
    def _escape_ranges(self, esc: ClassEscape) -> cf.Ranges:
        k = esc.kind
        word = WORD_IU if (self.unicode and self.icase) else WORD
        base = {"d": DIGIT, "D": DIGIT, "s": SPACE, "S": SPACE, "w": word, "W": word}[k]
        return cf.complement(cf.normalize(base), TOP) if k.isupper() else list(base)

    def _class(self, node: CharClass) -> str:
        """:meth:`_class_text`, remembered: a pattern may write the same ``\\p{L}`` hundreds of times, and
        each case closure takes milliseconds (issue 13, family 10: 2,000 written classes once took minutes
        before the cost estimate could refuse the pattern)."""
        key = (node.negated, tuple(node.ranges), tuple((e.kind, e.prop) for e in node.escapes), self.icase, self.unicode)
        text = _CLASS_TEXTS.get(key)
        if text is None:
            text = self._class_text(node)
            if len(_CLASS_TEXTS) >= 512:
                _CLASS_TEXTS.clear()
            _CLASS_TEXTS[key] = text
        return text

    def _class_text(self, node: CharClass) -> str:
        """A class with every ``\\p{…}`` answered from Unicode 17 (:mod:`._props`), never from the
        installed ``regex`` release's tables alone."""
        from ._props import builtin_property, property_members

        ranges = list(node.ranges)
        builtins = []
        for esc in node.escapes:
            if esc.kind not in "pP":
                ranges.extend(self._escape_ranges(esc))
                continue
            assert esc.prop is not None
            kind, value = esc.prop
            found = None if self.icase else builtin_property(kind, value, esc.kind == "P")
            if found is None:  # case closure needs the members; or regex does not know the name
                ranges.extend(property_members(kind, value, esc.kind == "P"))
            else:
                builtins.append(found)
                ranges.extend(found.added)
        if self.icase:
            ranges = cf.close_over_case(ranges, self.unicode)
        if not builtins:
            return _set(ranges, node.negated)
        exact = "".join(b.text for b in builtins if not b.removed)
        alternatives = [f"(?!{_set(b.removed)}){b.text}" for b in builtins if b.removed]
        if not alternatives:
            body = _set_body(cf.normalize(ranges)) + exact
            return ("[^" if node.negated else "[") + body + "]"
        if ranges or exact:
            alternatives.insert(0, "[" + _set_body(cf.normalize(ranges)) + exact + "]")
        positive = "(?:" + "|".join(alternatives) + ")"
        # a negated class: any one code point (the pattern is a `u` pattern) that is not a member
        return f"(?:(?!{positive}){_set([(0, TOP)])})" if node.negated else positive

    # --- nodes -------------------------------------------------------------------------------
    def emit(self, node: Node) -> str:
        if isinstance(node, Char):
            if self.icase:
                eq = cf.equivalents(node.value, self.unicode)
                if len(eq) > 1:
                    return _set([(c, c) for c in eq])
            return _ch(node.value)
        if isinstance(node, Seq):
            return "".join(self.emit(i) for i in node.items)
        if isinstance(node, Alt):
            return "(?:" + "|".join(self.emit(a) for a in node.alternatives) + ")"
        if isinstance(node, CharClass):
            return self._class(node)
        if isinstance(node, Dot):
            return _set([(0, TOP)]) if self.dotall else _set(LINE_TERMINATORS, negated=True)
        if isinstance(node, Empty):
            return ""
        if isinstance(node, Assertion):
            return self._assertion(node.kind)
        if isinstance(node, Group):
            if node.index is None:
                return "(?:" + self.emit(node.body) + ")"
            self.out.enclosing[node.index] = (tuple(self._stack), self._behind > 0)
            body = self.emit(node.body)
            if self._ref_name.get(node.index, "g")[0] == "b":
                body = f"(?P<b{node.index}>{body})"
            text = f"(?P<g{node.index}>" + body + ")"
            return text
        if isinstance(node, Look):
            if node.behind:
                self._behind += 1
            body = self.emit(node.body)
            if node.behind:
                self._behind -= 1
            op = ("<" if node.behind else "") + ("!" if node.negative else "=")
            return f"(?{op}{body})"
        if isinstance(node, BackRef):
            assert node.index is not None
            if node.index not in self._present:
                return ""  # its group was dropped with an empty-only quantified atom: never set
            if id(node) in self._forward:
                # a forward reference can never have a value yet: it matches empty (B1 #22).  Inside a
                # lookbehind matching runs right to left, so a textually later group may already be set.
                return ""
            name = self._ref_name.get(node.index, f"g{node.index}")
            mode = self._rewriter.ref_modes.get(id(node)) if self._rewriter else None
            if mode == "strict":  # non-empty matches only (see _nonempty): the group must be set
                return f"(?P={name})"
            if mode == "unset":  # empty matches only: the group must have no value
                return f"(?({name})(?!))"
            return f"(?({name})(?P={name}))"
        if isinstance(node, Quant):
            return self._quant(node)
        raise TypeError(node)  # pragma: no cover

    def _assertion(self, kind: str) -> str:
        if kind == "^":
            return "(?<![^\\n\\r\\u2028\\u2029])" if self.multiline else "\\A"
        if kind == "$":
            return "(?![^\\n\\r\\u2028\\u2029])" if self.multiline else "\\Z"
        w = _set(WORD_IU if (self.unicode and self.icase) else WORD)
        if kind == "b":
            return f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))"
        return f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))"

    def _quant(self, node: Quant) -> str:
        lo, hi = node.min, node.max
        if lo > REPEAT_LIMIT:
            return "(?!)"
        if hi > REPEAT_LIMIT:
            hi = INFINITY
        nullable = _nullable(node.body)
        # a rewritten copy (_nonempty.py) is wrapped exactly as its original, in the same hidden group
        orig = self._rewriter.twins.get(id(node), node) if self._rewriter else node
        # `?`-style quantifiers too when their body can match empty: V8 rejects an empty iteration
        # beyond the minimum, captures and all (capture_count first: most patterns have no group at all)
        wrap = (self.capture_count > 0 and (orig.max > 1 or (orig.min < orig.max and _nullable(orig.body)))
                and bool(captures(node.body)))
        hid = 0
        if wrap:
            key = id(orig)
            hid = self._hid_of.get(key, 0)
            if not hid:
                self._hidden += 1
                hid = self._hid_of[key] = self._hidden
                self.out.hidden_min[hid] = lo
                if self._behind:
                    self.out.hidden_behind.add(hid)
            node.hidden = hid
        tail = None
        if (self._reject_empty and hi > lo and nullable and not max_match_is_zero(node.body)
                and (lo == 0 or self._copies < COPY_LIMIT)):
            if self._rewriter is None:
                self._rewriter = Rewriter(self._present, self._nullable_groups, self._resettable, self._forward,
                                          zero_groups=self._zero_groups)
            self._rewriter.behind = self._behind > 0
            tail = self._rewriter.non_empty(node.body)
            self._copies += bool(lo and tail is not None)
            self._rewrote |= tail is not None and tail is not node.body
        if tail is None:
            return self._iteration(node.body, hid) + _qstr(lo, hi, node.greedy)
        # ECMAScript RepeatMatcher: an iteration beyond the minimum that ends where it started fails and
        # backtracks into the body; `regex` instead accepts it and stops.  So the optional iterations use
        # the body restricted to non-empty matches (same order of alternatives): B{lo} NE(B){0,hi-lo}.
        head = self._iteration(node.body, hid) + ("" if lo == 1 else _qstr(lo, lo, node.greedy)) if lo else ""
        rest = self._iteration(tail, hid) + _qstr(0, INFINITY if hi == INFINITY else hi - lo, node.greedy)
        return rest + head if self._behind else head + rest  # a lookbehind runs right to left

    def _iteration(self, body: Node, hid: int) -> str:
        """One iteration's pattern: in the hidden group ``h<hid>`` (with the backreference resets) or not."""
        if not hid:
            return "(?:" + self.emit(body) + ")"
        self._stack.append(hid)
        text = self.emit(body)
        self._stack.pop()
        if self._resettable:
            resets = "".join(f"(?P<{self._ref_name[n]}>)" for n in sorted(captures(body) & self._resettable))
            text = text + resets if self._behind else resets + text
        return f"(?P<h{hid}>{text})"


def _qstr(lo: int, hi: int, greedy: bool) -> str:
    """The ``regex`` quantifier for ``{lo,hi}`` (``hi`` may be INFINITY)."""
    if (lo, hi) == (0, INFINITY):
        q = "*"
    elif (lo, hi) == (1, INFINITY):
        q = "+"
    elif (lo, hi) == (0, 1):
        q = "?"
    elif hi == INFINITY:
        q = f"{{{lo},}}"
    elif lo == hi:
        q = f"{{{lo}}}"
    else:
        q = f"{{{lo},{hi}}}"
    return q if greedy else q + "?"


def _references(node: Node, inside: tuple[bool, ...], referenced: set[int], repeated: set[int],
                nullable: set[int]) -> None:
    """Collect referenced group numbers, the groups inside a repeating quantifier, and those that
    can match the empty string.  ``inside`` has one flag per enclosing repeating quantifier: whether
    its body can match empty (then `regex` may run an iteration V8 rejects, see ``Emitted.reset_in_place``).

    Recursive (one frame per level, no deeper than :meth:`Emitter.emit` goes next): an explicit stack of
    (node, inside) pairs measured slower."""
    if isinstance(node, BackRef):
        assert node.index is not None
        referenced.add(node.index)
        return
    if isinstance(node, Group) and node.index is not None:
        if inside:
            repeated.add(node.index)
        if _nullable(node.body) or any(inside):
            nullable.add(node.index)
    elif isinstance(node, Quant) and node.max > 1 and node.min <= REPEAT_LIMIT:
        inside = (*inside, _nullable(node.body))
    for child in children(node):
        _references(child, inside, referenced, repeated, nullable)


def _zero_groups(tree: Node) -> set[int]:
    """Capture groups whose body can only match the empty string."""
    return {n.index for n in descendants(tree)
            if isinstance(n, Group) and n.index is not None and max_match_is_zero(n.body)}


def _scan(tree: Node) -> tuple[set[int], bool]:
    """The capture numbers in the tree, and whether it has a backreference (one cheap pass)."""
    captured: set[int] = set()
    refs = False
    for n in descendants(tree):
        if isinstance(n, Group):
            if n.index is not None:
                captured.add(n.index)
        elif isinstance(n, BackRef):
            refs = True
    return captured, refs


def emit(tree: Node, flags: str, capture_count: int, source: str | None = None, *,
         reject_empty_iterations: bool = True) -> Emitted:
    """The ``regex`` pattern for ``tree``.  ``source`` (the JavaScript pattern) lets the common case
    without any backslash-digit or backslash-k skip the backreference analysis.
    ``reject_empty_iterations=False`` skips the ``_nonempty.py`` rewrite (V8's rejection of empty
    iterations): the fallback for a pattern whose rewrite would be too costly to compile (``_cost.py``)."""
    em = Emitter(flags, capture_count, reject_empty_iterations=reject_empty_iterations)
    has_refs = False
    if source is None or _MAY_REFER.search(source):
        em._present, has_refs = _scan(tree)
    referenced: set[int] = set()
    nullable: set[int] = set()
    forward: set[int] = set()
    if has_refs:
        repeated: set[int] = set()
        _references(tree, (), referenced, repeated, nullable)
        forward = forward_references(tree)
        em._resettable = referenced & repeated
        em._ref_name = {n: f"{'b' if n in nullable else 'g'}{n}" for n in em._resettable}
        em.out.reset_in_place = em._resettable - nullable
    em._nullable_groups = nullable
    if has_refs:
        em._zero_groups = _zero_groups(tree)
    em._forward = forward
    # case-insensitive backreferences compare canonical forms: match on the canonical subject
    em.out.canonical = em.icase and bool(referenced & em._present)
    pattern = em.emit(tree)
    # A group can vanish from the rewritten optional iterations (a capture inside a lookaround that
    # makes up a whole iteration, which V8 rejects as empty): define it where it never matches, so the
    # references and value look-ups still find the name.
    if em._rewrote and not has_refs:
        em._present = _scan(tree)[0]
    for n in sorted(em._present) if em._rewrote else ():
        for name in dict.fromkeys((f"g{n}", em._ref_name.get(n, f"g{n}"))):
            if f"(?P<{name}>" not in pattern:
                pattern += f"(?:(?!)(?P<{name}>))?"
    em.out.pattern = pattern
    return em.out
