"""Emit a ``regex``-module pattern with the JavaScript meaning of a parsed ECMAScript pattern.

Nothing is passed through textually: every node is written out explicitly (import-regex B1 #19), so
Python-only meanings (``\\A``, ``\\Z``, Unicode ``\\d``/``\\w``, ``$`` before a final newline,
``IGNORECASE`` folding) can never leak in.  Characters are emitted as ``\\uXXXX``/``\\UXXXXXXXX`` escapes
of the units (non-``u``) or code points (``u``) the parser produced; the subject is presented in the
same representation by :mod:`.pattern`.

User capture ``N`` becomes the named group ``gN``.  The body of every quantifier that can repeat and
contains captures is wrapped in a hidden group ``hK`` so that, after a match, the JavaScript capture
reset (B0 item 7) can be applied from the per-iteration spans that ``regex`` records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import _casefold as cf
from ._ast import (
    INFINITY,
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
)
from ._unicode_data import GC_NAMES

REPEAT_LIMIT = 65535  # larger counts make `regex` allocate without bound; see docs/compatibility.md

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


_REGEX_PROPS: dict[str, bool] = {}


def _regex_knows(prop: str) -> bool:
    ok = _REGEX_PROPS.get(prop)
    if ok is None:
        import regex

        try:
            regex.compile(prop)
            ok = True
        except regex.error:
            ok = False
        _REGEX_PROPS[prop] = ok
    return ok


def _icu_ranges(text: str) -> cf.Ranges:
    """Code point ranges of a property (``gc=Lu``, ``sc=Grek``, ``CWKCF``…) from ICU.

    Used where ``regex`` lacks the property, and for ``iu`` classes, whose case closure must be taken
    over the property's explicit members (``regex``'s ignore-case handling of ``\\P{…}`` differs).
    """
    import icu

    uset = icu.UnicodeSet(f"[:{text}:]")
    return [(ord(uset.getRangeStart(i)), ord(uset.getRangeEnd(i))) for i in range(uset.getRangeCount())]


def _property(esc: ClassEscape, explicit: bool = False) -> tuple[str | None, cf.Ranges | None]:
    """A ``\\p``/``\\P`` escape as a ``regex`` class item, or as explicit ranges when ``regex`` lacks it."""
    assert esc.prop is not None
    kind, value = esc.prop
    negated = esc.kind == "P"
    ranges: cf.Ranges | None = None
    if kind in ("sc", "scx"):
        text = f"{kind}={value}"
    elif kind == "gc" or value in GC_NAMES:
        text = f"gc={value}"
    elif value == "Any":
        ranges = [(0, TOP)]
        text = ""
    elif value == "ASCII":
        ranges = [(0, 0x7F)]
        text = ""
    elif value == "Assigned":
        text = "Assigned"
    else:
        text = value
    if ranges is None and (explicit or not _regex_knows(f"\\p{{{text}}}")):
        ranges = _icu_ranges(text)
    if ranges is not None:
        return None, cf.complement(cf.normalize(ranges), TOP) if negated else ranges
    return f"\\{'P' if negated else 'p'}{{{text}}}", None


@dataclass
class Emitted:
    pattern: str
    #: user group number -> (hidden ids of enclosing repeating quantifiers, outer first; inside lookbehind)
    enclosing: dict[int, tuple[tuple[int, ...], bool]] = field(default_factory=dict)
    hidden_min: dict[int, int] = field(default_factory=dict)
    uses_icase_props: bool = False


class Emitter:
    def __init__(self, flags: str, capture_count: int) -> None:
        self.unicode = "u" in flags
        self.icase = "i" in flags
        self.multiline = "m" in flags
        self.dotall = "s" in flags
        self.capture_count = capture_count
        self.out = Emitted("")
        self._hidden = 0
        self._stack: list[int] = []
        self._behind = 0
        self._closed: set[int] = set()

    # --- class escapes as ranges -------------------------------------------------------------
    def _escape_ranges(self, esc: ClassEscape) -> cf.Ranges:
        k = esc.kind
        word = WORD_IU if (self.unicode and self.icase) else WORD
        base = {"d": DIGIT, "D": DIGIT, "s": SPACE, "S": SPACE, "w": word, "W": word}[k]
        return cf.complement(cf.normalize(base), TOP) if k.isupper() else list(base)

    def _class(self, node: CharClass) -> str:
        ranges = list(node.ranges)
        props: list[str] = []
        for esc in node.escapes:
            if esc.kind in "pP":
                text, extra = _property(esc, explicit=self.icase)
                if text is not None:
                    props.append(text)
                else:
                    ranges.extend(extra or [])
            else:
                ranges.extend(self._escape_ranges(esc))
        if not props:
            if self.icase:
                ranges = cf.close_over_case(ranges, self.unicode)
            return _set(ranges, node.negated)
        body = _set_body(cf.normalize(ranges)) + "".join(props)
        return ("[^" if node.negated else "[") + body + "]"

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
            text = f"(?P<g{node.index}>" + self.emit(node.body) + ")"
            self._closed.add(node.index)
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
            if node.index not in self._closed:
                return ""  # a forward reference can never have a value yet: it matches empty (B1 #22)
            name = f"g{node.index}"
            ref = f"(?P={name})"
            if self.icase:
                ref = f"(?i:{ref})"
            return f"(?({name}){ref})"
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
        if not node.greedy:
            q += "?"
        if hi > 1 and _has_capture(node.body):
            self._hidden += 1
            hid = self._hidden
            node.hidden = hid
            self.out.hidden_min[hid] = lo
            self._stack.append(hid)
            body = self.emit(node.body)
            self._stack.pop()
            return f"(?P<h{hid}>{body}){q}"
        return "(?:" + self.emit(node.body) + ")" + q


def _has_capture(node: Node) -> bool:
    if isinstance(node, Group):
        return node.index is not None or _has_capture(node.body)
    if isinstance(node, (Look, Quant)):
        return _has_capture(node.body)
    if isinstance(node, Seq):
        return any(_has_capture(i) for i in node.items)
    if isinstance(node, Alt):
        return any(_has_capture(i) for i in node.alternatives)
    return False


def emit(tree: Node, flags: str, capture_count: int) -> Emitted:
    em = Emitter(flags, capture_count)
    em.out.pattern = em.emit(tree)
    return em.out
