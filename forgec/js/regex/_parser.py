"""A port of V8's ``RegExpParser`` (Node 20, V8 11.3) for the non-``v`` grammars.

Whether a pattern compiles is reference behaviour (import-regex E1, B0 item 8), so this parser follows
V8's code path by path rather than the ECMAScript grammar as written: Annex B when ``u`` is absent, the
strict grammar with ``u``, the same error reasons in the same precedence (e.g. duplicate group names are
detected when the second group *closes*, undefined named references only after the whole pattern
parsed).  The output is the tree of :mod:`._ast`; emitting a ``regex`` pattern is a separate step.
"""

from __future__ import annotations

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
    descendants,
    max_match_is_zero,
)

END = -1
MAX_CAPTURES = 1 << 16
SYNTAX_CHARS = frozenset(map(ord, "^$\\.*+?()[]{}|/"))
_HEX = frozenset(map(ord, "0123456789abcdefABCDEF"))


class PatternSyntaxError(Exception):
    """A V8 ``RegExpError``; ``reason`` is V8's text for it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ASCII members of ID_Start / ID_Continue: answered without the Unicode tables (loading them costs a
# few milliseconds, and almost every group name is ASCII)
_ASCII_ID_START = frozenset(map(ord, "$ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"))
_ASCII_ID_PART = _ASCII_ID_START | frozenset(map(ord, "0123456789"))


def _is_id_start(c: int) -> bool:
    """V8's ``IsIdentifierStart`` (ID_Start of Unicode 17, ``$``, ``_``); a lone surrogate never."""
    if 0 <= c < 0x80:
        return c in _ASCII_ID_START
    if c < 0:
        return False
    from ._unicode_data import is_id_start

    return is_id_start(c)


def _is_id_part(c: int) -> bool:
    """V8's ``IsIdentifierPart`` (ID_Continue of Unicode 17, ``$``; ZWNJ and ZWJ belong to ID_Continue)."""
    if 0 <= c < 0x80:
        return c in _ASCII_ID_PART
    if c < 0:
        return False
    from ._unicode_data import is_id_part

    return is_id_part(c)


class _State:
    """One open disjunction: the top level or a group being parsed (V8's ``RegExpParserState``)."""

    __slots__ = ("alternatives", "behind", "capture_index", "capture_name", "kind", "pending_empty", "previous",
                 "seq")

    def __init__(self, previous: _State | None, kind: str, capture_index: int | None,
                 capture_name: str | None, behind: bool) -> None:
        self.previous = previous
        self.kind = kind  # "top", "capture", "group", "ahead", "nahead", "behind", "nbehind"
        self.capture_index = capture_index
        self.capture_name = capture_name
        self.behind = behind
        self.alternatives: list[Node] = []
        self.seq: list[Node] = []
        self.pending_empty = False

    def inside_capture(self, index: int | None = None, name: str | None = None) -> bool:
        s: _State | None = self
        while s is not None:
            if s.kind == "capture":
                if index is not None and s.capture_index == index:
                    return True
                if name is not None and s.capture_name == name:
                    return True
            s = s.previous
        return False

    def to_node(self) -> Node:
        alts = [*self.alternatives, _seq(self.seq)]
        return alts[0] if len(alts) == 1 else Alt(alts)


def _seq(items: list[Node]) -> Node:
    if not items:
        return Empty()
    if len(items) == 1:
        return items[0]
    return Seq(items)


class Parsed:
    """The result of a successful parse."""

    __slots__ = ("capture_count", "group_names", "tree")

    def __init__(self, tree: Node, capture_count: int, group_names: dict[str, int]) -> None:
        self.tree = tree
        self.capture_count = capture_count
        self.group_names = group_names


def source_units(source: str, unicode: bool) -> list[int]:
    """The pattern as V8 reads it: UTF-16 units without ``u``, code points (pairs joined) with ``u``."""
    data = source.encode("utf-16-le", "surrogatepass")
    if unicode:
        return [ord(c) for c in data.decode("utf-16-le", "surrogatepass")]
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


class Parser:
    def __init__(self, source: str, flags: str) -> None:
        self.unicode = "u" in flags
        self.ignore_case = "i" in flags
        self.multiline = "m" in flags
        self.dotall = "s" in flags
        self.src = source_units(source, self.unicode)
        self.pos = 0
        self.captures_started = 0
        self._scanned: tuple[int, bool] | None = None
        self.has_named_captures = False
        self.named: dict[str, int] = {}
        self.named_refs: list[str] = []

    # --- reading ------------------------------------------------------------------------------
    def cur(self) -> int:
        return self.src[self.pos] if self.pos < len(self.src) else END

    def nxt(self, k: int = 1) -> int:
        p = self.pos + k
        return self.src[p] if p < len(self.src) else END

    def adv(self, n: int = 1) -> None:
        self.pos = min(self.pos + n, len(self.src) + 1)

    def has_more(self) -> bool:
        return self.pos < len(self.src)

    def error(self, reason: str) -> PatternSyntaxError:
        return PatternSyntaxError(reason)

    # --- capture pre-scan (V8 ScanForCaptures) -------------------------------------------------
    def _scan(self) -> tuple[int, bool]:
        if self._scanned is None:
            src, i, n, count, named = self.src, 0, len(self.src), 0, False
            while i < n:
                c = src[i]
                i += 1
                if c == 0x5C:
                    i += 1
                elif c == 0x5B:
                    while i < n:
                        d = src[i]
                        i += 1
                        if d == 0x5C:
                            i += 1
                        elif d == 0x5D:
                            break
                elif c == 0x28:
                    if i < n and src[i] == 0x3F:
                        i += 1
                        if i >= n or src[i] != 0x3C:
                            continue
                        i += 1
                        if i < n and src[i] in (0x3D, 0x21):
                            continue
                        named = True
                    count += 1
            self._scanned = (count, named)
        return self._scanned

    def capture_count(self) -> int:
        return self._scan()[0]

    def named_refs_apply(self) -> bool:
        return self.unicode or self.has_named_captures or self._scan()[1]

    # --- top level ---------------------------------------------------------------------------
    def parse(self) -> Parsed:
        tree = self._disjunction()
        for name in self.named_refs:
            if name not in self.named:
                raise self.error("Invalid named capture referenced")
        _resolve_names(tree, self.named)
        return Parsed(tree, self.captures_started, dict(sorted(self.named.items(), key=lambda kv: kv[1])))

    def _disjunction(self) -> Node:
        state = _State(None, "top", None, None, False)
        while True:
            c = self.cur()
            if c == END:
                if state.previous is not None:
                    raise self.error("Unterminated group")
                return state.to_node()
            if c == 0x29:  # ')'
                if state.previous is None:
                    raise self.error("Unmatched ')'")
                self.adv()
                body = state.to_node()
                if state.kind == "capture":
                    if state.capture_name is not None:
                        if state.capture_name in self.named:
                            raise self.error("Duplicate capture group name")
                        self.named[state.capture_name] = state.capture_index or 0
                    node: Node = Group(body, state.capture_index, state.capture_name)
                elif state.kind == "group":
                    node = Group(body)
                else:
                    node = Look(body, behind=state.kind in ("behind", "nbehind"),
                                negative=state.kind in ("nahead", "nbehind"))
                state = state.previous
                self._add_atom(state, node)
                # quantifier parsing follows (V8 `break`)
            elif c == 0x7C:  # '|'
                self.adv()
                state.alternatives.append(_seq(state.seq))
                state.seq = []
                state.pending_empty = False
                continue
            elif c in (0x2A, 0x2B, 0x3F):
                raise self.error("Nothing to repeat")
            elif c == 0x5E:  # '^'
                self.adv()
                self._add_plain(state, Assertion("^"))
                continue
            elif c == 0x24:  # '$'
                self.adv()
                self._add_plain(state, Assertion("$"))
                continue
            elif c == 0x2E:
                self.adv()
                self._add_atom(state, Dot())
            elif c == 0x28:
                state = self._open_paren(state)
                continue
            elif c == 0x5B:
                self._add_atom(state, self._char_class())
            elif c == 0x5C:
                r = self._atom_escape(state)
                if r == "continue":
                    continue
            elif c == 0x7B:  # '{'
                save = self.pos
                if self._interval() is not None:
                    raise self.error("Nothing to repeat")
                self.pos = save
                if self.unicode:
                    raise self.error("Lone quantifier brackets")
                self.adv()
                self._add_atom(state, Char(c))
            elif c in (0x7D, 0x5D):
                if self.unicode:
                    raise self.error("Lone quantifier brackets")
                self.adv()
                self._add_atom(state, Char(c))
            else:
                self.adv()
                self._add_atom(state, Char(c))
            self._quantifier(state)

    def _add_plain(self, state: _State, node: Node) -> None:
        state.pending_empty = False
        state.seq.append(node)

    def _add_atom(self, state: _State, node: Node) -> None:
        if isinstance(node, Empty) or (isinstance(node, Group) and node.index is None
                                       and isinstance(node.body, Empty)):
            state.pending_empty = True
            return
        state.pending_empty = False
        state.seq.append(node)

    def _add_empty(self, state: _State) -> None:
        state.pending_empty = True

    # --- quantifiers -------------------------------------------------------------------------
    def _interval(self) -> tuple[int, int] | None:
        """Parse ``{n}``, ``{n,}``, ``{n,m}`` at ``{``; None (position restored by caller) if not one."""
        start = self.pos
        self.adv()
        if not (0x30 <= self.cur() <= 0x39):
            self.pos = start
            return None
        lo = self._number()
        if self.cur() == 0x7D:
            self.adv()
            return lo, lo
        if self.cur() == 0x2C:
            self.adv()
            if self.cur() == 0x7D:
                self.adv()
                return lo, INFINITY
            if not (0x30 <= self.cur() <= 0x39):
                self.pos = start
                return None
            hi = self._number()
            if self.cur() != 0x7D:
                self.pos = start
                return None
            self.adv()
            return lo, hi
        self.pos = start
        return None

    def _number(self) -> int:
        value = 0
        while 0x30 <= self.cur() <= 0x39:
            value = value * 10 + self.cur() - 0x30
            self.adv()
            if value >= INFINITY:
                value = INFINITY
        return value

    def _quantifier(self, state: _State) -> None:
        c = self.cur()
        if c == 0x2A:
            lo, hi = 0, INFINITY
            self.adv()
        elif c == 0x2B:
            lo, hi = 1, INFINITY
            self.adv()
        elif c == 0x3F:
            lo, hi = 0, 1
            self.adv()
        elif c == 0x7B:
            save = self.pos
            r = self._interval()
            if r is None:
                self.pos = save
                if self.unicode:
                    raise self.error("Incomplete quantifier")
                return
            lo, hi = r
            if hi < lo:
                raise self.error("numbers out of order in {} quantifier")
        else:
            return
        greedy = True
        if self.cur() == 0x3F:
            greedy = False
            self.adv()
        if state.pending_empty:
            state.pending_empty = False
            return
        atom = state.seq.pop()
        if isinstance(atom, Look) and (self.unicode or atom.behind):
            raise self.error("Invalid quantifier")
        if max_match_is_zero(atom):
            if lo == 0:
                return
            state.seq.append(atom)
            return
        state.seq.append(Quant(atom, lo, hi, greedy))

    # --- groups ------------------------------------------------------------------------------
    def _open_paren(self, state: _State) -> _State:
        kind = "capture"
        behind = state.behind
        named = False
        self.adv()
        if self.cur() == 0x3F:
            n = self.nxt()
            if n == 0x3A:
                self.adv(2)
                kind = "group"
            elif n == 0x3D:
                self.adv(2)
                kind, behind = "ahead", False
            elif n == 0x21:
                self.adv(2)
                kind, behind = "nahead", False
            elif n == 0x3C:
                self.adv()
                if self.nxt() == 0x3D:
                    self.adv(2)
                    kind, behind = "behind", True
                elif self.nxt() == 0x21:
                    self.adv(2)
                    kind, behind = "nbehind", True
                else:
                    named = True
                    self.has_named_captures = True
                    self.adv()
            else:
                raise self.error("Invalid group")
        index = None
        name = None
        if kind == "capture":
            if self.captures_started >= MAX_CAPTURES:
                raise self.error("Too many captures")
            self.captures_started += 1
            index = self.captures_started
            if named:
                name = self._group_name()
        return _State(state, kind, index, name, behind)

    def _group_name(self) -> str:
        """``RegExpIdentifierName`` then ``>``; unicode escapes and surrogate pairs always allowed."""
        units: list[int] = []
        at_start = True
        while True:
            c = self._name_char()
            if c == 0x5C:
                raise self.error("Invalid capture group name")
            if at_start:
                if not _is_id_start(c):
                    raise self.error("Invalid capture group name")
                at_start = False
            elif c == 0x3E:
                break
            elif not _is_id_part(c):
                raise self.error("Invalid capture group name")
            units.append(c)
        return "".join(map(chr, units))

    def _name_char(self) -> int:
        c = self.cur()
        if c == END:
            return END
        if c == 0x5C and self.nxt() == 0x75:  # \u
            self.adv(2)
            v = self._unicode_escape(force_unicode=True)
            if v is None:
                raise self.error("Invalid Unicode escape")
            return v
        self.adv()
        if 0xD800 <= c <= 0xDBFF and 0xDC00 <= self.cur() <= 0xDFFF:
            t = self.cur()
            self.adv()
            return 0x10000 + ((c - 0xD800) << 10) + (t - 0xDC00)
        return c

    # --- escapes -----------------------------------------------------------------------------
    def _hex(self, length: int) -> int | None:
        start = self.pos
        value = 0
        for _ in range(length):
            c = self.cur()
            if c not in _HEX:
                self.pos = start
                return None
            value = value * 16 + int(chr(c), 16)
            self.adv()
        return value

    def _unicode_escape(self, force_unicode: bool = False) -> int | None:
        """After ``\\u``: ``XXXX`` or (``u`` mode) ``{X…}``; with ``u`` joins an escaped surrogate pair."""
        uni = self.unicode or force_unicode
        if self.cur() == 0x7B and uni:
            start = self.pos
            self.adv()
            value = 0
            digits = 0
            while self.cur() in _HEX:
                value = value * 16 + int(chr(self.cur()), 16)
                digits += 1
                self.adv()
                if value > 0x10FFFF:
                    self.pos = start
                    return None
            if digits and self.cur() == 0x7D:
                self.adv()
                return value
            self.pos = start
            return None
        unit = self._hex(4)
        if unit is not None and uni and 0xD800 <= unit <= 0xDBFF and self.cur() == 0x5C:
            start = self.pos
            if self.nxt() == 0x75:
                self.adv(2)
                trail = self._hex(4)
                if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                    return 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
            self.pos = start
        return unit

    def _octal(self) -> int:
        value = self.cur() - 0x30
        self.adv()
        if 0x30 <= self.cur() <= 0x37:
            value = value * 8 + self.cur() - 0x30
            self.adv()
            if value < 32 and 0x30 <= self.cur() <= 0x37:
                value = value * 8 + self.cur() - 0x30
                self.adv()
        return value

    def _backref_index(self) -> int | None:
        start = self.pos
        value = self.nxt() - 0x30
        self.adv(2)
        while 0x30 <= self.cur() <= 0x39:
            value = value * 10 + self.cur() - 0x30
            if value > MAX_CAPTURES:
                self.pos = start
                return None
            self.adv()
        if value > self.captures_started and value > self.capture_count():
            self.pos = start
            return None
        return value

    def _atom_escape(self, state: _State) -> str:
        n = self.nxt()
        if n == END:
            raise self.error("\\ at end of pattern")
        if 0x31 <= n <= 0x39:
            index = self._backref_index()
            if index is not None:
                if state.inside_capture(index=index):
                    self._add_empty(state)
                else:
                    self._add_atom(state, BackRef(index=index))
                self._quantifier(state)
                return "continue"
            if self.unicode:
                raise self.error("Invalid escape")
            if n in (0x38, 0x39):
                self._add_atom(state, Char(n))
                self.adv(2)
                self._quantifier(state)
                return "continue"
            n = 0x30  # fall through to the octal case
        if n == 0x30:
            self.adv()
            if self.unicode and 0x30 <= self.nxt() <= 0x39:
                raise self.error("Invalid decimal escape")
            # V8: current is the digit; ParseOctalLiteral reads 1–3 octal digits (\0 alone is NUL)
            if self.unicode:
                self.adv()
                self._add_atom(state, Char(0))
            else:
                self._add_atom(state, Char(self._octal()))
            return "atom"
        if n in (0x62, 0x42):  # \b \B
            self.adv(2)
            self._add_plain(state, Assertion(chr(n)))
            return "continue"
        if n in (0x64, 0x44, 0x73, 0x53, 0x77, 0x57):
            self.adv(2)
            self._add_atom(state, CharClass(False, [], [ClassEscape(chr(n))]))
            return "atom"
        if n in (0x70, 0x50):  # \p \P
            self.adv(2)
            if self.unicode:
                prop = self._property(in_class=False)
                self._add_atom(state, CharClass(False, [], [ClassEscape(chr(n), prop)]))
            else:
                self._add_atom(state, Char(n))
            return "atom"
        if n == 0x6B and self.named_refs_apply():  # \k
            self.adv(2)
            if self.cur() != 0x3C:
                raise self.error("Invalid named reference")
            self.adv()
            name = self._group_name()
            if state.inside_capture(name=name):
                self._add_empty(state)
            else:
                self.named_refs.append(name)
                self._add_atom(state, BackRef(name=name))
            return "atom"
        self._add_atom(state, Char(self._character_escape(in_class=False)))
        return "atom"

    def _character_escape(self, in_class: bool) -> int:
        c = self.nxt()
        simple = {0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09, 0x76: 0x0B}
        if c in simple:
            self.adv(2)
            return simple[c]
        if c == 0x63:  # \c
            self.adv()
            letter = self.nxt()
            if 0x41 <= (letter & ~0x20) <= 0x5A and letter != END:
                self.adv(2)
                return letter & 0x1F
            if self.unicode:
                raise self.error("Invalid Unicode escape")
            if in_class and (0x30 <= letter <= 0x39 or letter == 0x5F):
                self.adv(2)
                return letter & 0x1F
            return 0x5C  # the backslash alone; the 'c' is read next as an ordinary character
        if c == 0x30 and not (0x30 <= self.nxt(2) <= 0x39):
            self.adv(2)
            return 0
        if 0x30 <= c <= 0x37:
            if self.unicode:
                raise self.error("Invalid class escape")
            self.adv()
            return self._octal()
        if c == 0x78:  # \x
            self.adv(2)
            v = self._hex(2)
            if v is not None:
                return v
            if self.unicode:
                raise self.error("Invalid escape")
            return 0x78
        if c == 0x75:  # \u
            self.adv(2)
            v = self._unicode_escape()
            if v is not None:
                return v
            if self.unicode:
                raise self.error("Invalid Unicode escape")
            return 0x75
        if not self.unicode:
            if c == 0x6B and in_class and self.named_refs_apply():
                raise self.error("Invalid escape")
            self.adv(2)
            return c
        if c not in SYNTAX_CHARS:
            raise self.error("Invalid escape")
        self.adv(2)
        return c

    def _property(self, in_class: bool) -> tuple[str, str]:
        reason = "Invalid property name in character class" if in_class else "Invalid property name"
        if self.cur() != 0x7B:
            raise self.error(reason)
        name1: list[str] = []
        name2: list[str] | None = None
        self.adv()
        while self.cur() not in (0x7D, 0x3D):
            c = self.cur()
            if c == END or not _is_property_char(c) or self.pos + 1 >= len(self.src):
                raise self.error(reason)
            name1.append(chr(c))
            self.adv()
        if self.cur() == 0x3D:
            name2 = []
            self.adv()
            while self.cur() != 0x7D:
                c = self.cur()
                if c == END or not _is_property_char(c) or self.pos + 1 >= len(self.src):
                    raise self.error(reason)
                name2.append(chr(c))
                self.adv()
        self.adv()
        # the Unicode 17 tables (forgec.js.unicode) are loaded only when a property is used
        from ._unicode_data import BINARY_NAMES, GC_NAMES, SCRIPT_NAMES

        a = "".join(name1)
        if name2 is None:
            if a in GC_NAMES or a in BINARY_NAMES:
                return "", a
            raise self.error(reason)
        b = "".join(name2)
        if a in ("General_Category", "gc") and b in GC_NAMES:
            return "gc", b
        if a in ("Script", "sc", "Script_Extensions", "scx") and b in SCRIPT_NAMES:
            return ("sc" if a in ("Script", "sc") else "scx"), b
        raise self.error(reason)

    # --- character classes -------------------------------------------------------------------
    def _class_atom(self, node: CharClass) -> tuple[int, bool]:
        """One ClassAtom: returns (char, is_class_escape); class escapes are appended to ``node``."""
        c = self.cur()
        if c != 0x5C:
            self.adv()
            return c, False
        n = self.nxt()
        if n == 0x62:
            self.adv(2)
            return 0x08, False
        if n == 0x2D and self.unicode:
            self.adv(2)
            return 0x2D, False
        if n == END:
            raise self.error("\\ at end of pattern")
        if n in (0x64, 0x44, 0x73, 0x53, 0x77, 0x57):
            self.adv(2)
            node.escapes.append(ClassEscape(chr(n)))
            return 0, True
        if n in (0x70, 0x50) and self.unicode:
            self.adv(2)
            node.escapes.append(ClassEscape(chr(n), self._property(in_class=True)))
            return 0, True
        return self._character_escape(in_class=True), False

    def _char_class(self) -> CharClass:
        self.adv()
        node = CharClass(False)
        if self.cur() == 0x5E:
            node.negated = True
            self.adv()
        while self.has_more() and self.cur() != 0x5D:
            c1, is1 = self._class_atom(node)
            if self.cur() == 0x2D:
                self.adv()
                if self.cur() == END:
                    break
                if self.cur() == 0x5D:
                    if not is1:
                        node.ranges.append((c1, c1))
                    node.ranges.append((0x2D, 0x2D))
                    break
                c2, is2 = self._class_atom(node)
                if is1 or is2:
                    if self.unicode:
                        raise self.error("Invalid character class")
                    if not is1:
                        node.ranges.append((c1, c1))
                    node.ranges.append((0x2D, 0x2D))
                    if not is2:
                        node.ranges.append((c2, c2))
                    continue
                if c1 > c2:
                    raise self.error("Range out of order in character class")
                node.ranges.append((c1, c2))
            elif not is1:
                node.ranges.append((c1, c1))
        if not self.has_more():
            raise self.error("Unterminated character class")
        self.adv()
        return node


def _is_property_char(c: int) -> bool:
    return 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A or c == 0x5F


def _resolve_names(node: Node, named: dict[str, int]) -> None:
    """Turn ``\\k<name>`` references into numbered ones once every group is known."""
    for n in descendants(node):
        if isinstance(n, BackRef) and n.name is not None:
            n.index = named[n.name]


def parse(source: str, flags: str) -> Parsed:
    """Parse ``source`` as V8 would with ``flags``; raises :class:`PatternSyntaxError`."""
    return Parser(source, flags).parse()
