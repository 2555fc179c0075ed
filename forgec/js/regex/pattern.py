"""Compiled JavaScript patterns and the rule transform (import-regex A5.3–A5.6, B0).

Subjects are matched in the representation the pattern was parsed in: without ``u`` a *unit view* in
which every UTF-16 code unit is one Python character (surrogates included), with ``u`` the code-point
string with valid pairs joined and lone halves kept.  Results go back through ``surrogatepass`` so an
untouched pair becomes one character again (compile-core §16.3).
"""

from __future__ import annotations

import re
import sys
import time
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import and_, contains, not_, or_
from typing import Any

from ._ast import BackRef, Group, Node, Quant, Seq, descendants, nullable
from ._cost import SEARCH_STEP_SECONDS, attempt_bound, attempt_work
from ._emit import Emitted, emit
from ._literal import (
    RequiredLiteral,
    final_class,
    line_end_needles,
    literal_text,
    needs_non_ascii,
    required_literal,
)
from ._parser import Parsed
from .errors import JSRegexError, JSRegexTimeout
from .replace import (
    AFTER,
    BEFORE,
    GROUP,
    LITERAL,
    MATCH,
    TRIMMED_MATCH,
    Program,
    expand_js_replacement,
    expand_trim_replacement,
    js_program,
    prepass_dollar_zero,
    trim_program,
)
from .syntax import normalize_flags, parse_checked

__all__ = ["JSMatch", "JSPattern", "JSRegexError", "JSRegexTimeout", "compile_js", "replace_literal",
           "transform_prefiltered", "transform_string"]


def _units_view(text: str) -> str:
    """One Python character per UTF-16 code unit."""
    if text.isascii():
        return text
    data = text.encode("utf-16-le", "surrogatepass")
    if len(data) == 2 * len(text):
        return text  # no astral characters: already one character per unit
    units = array("H")
    units.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        units.byteswap()
    return "".join(map(chr, units))


#: any UTF-16 surrogate half (searched in C: a per-character loop cost ~20 ns per character)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _joined(text: str) -> str:
    """Re-join surrogate pairs (valid pairs become one code point; lone halves stay)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


#: up to this many texts :meth:`JSPattern.candidates` looks for a single run text by text (measured faster than
#: the ``map``/``compress`` pass up to 32 texts at least, pure build); past it, the C-level pass
_FEW_TEXTS = 32


class JSMatch:
    """One match, with JavaScript capture semantics (unset groups are ``None``).

    Strings are in the pattern's representation (unit view without ``u``); use :meth:`text` for
    normal Python strings.
    """

    __slots__ = ("_groups", "_m", "_pattern", "_subject", "end", "start")

    def __init__(self, pattern: JSPattern, m: Any, subject: str | None = None) -> None:
        self._pattern = pattern
        self._m = m
        #: the view the match is reported on (``m.string`` may be its case-canonical copy)
        self._subject: str = m.string if subject is None else subject
        self.start, self.end = m.span()
        self._groups: list[str | None] | None = None

    @property
    def matched(self) -> str:
        return self._subject[self.start:self.end]

    def groups(self) -> list[str | None]:
        if self._groups is None:
            self._groups = self._pattern._group_values(self._m, self._subject)
        return self._groups

    def group(self, index: int | str = 0) -> str | None:
        if isinstance(index, str):
            index = self._pattern.group_names[index]
        return self.matched if index == 0 else self.groups()[index - 1]

    def named_groups(self) -> dict[str, str | None] | None:
        if not self._pattern.group_names:
            return None
        g = self.groups()
        return {name: g[i - 1] for name, i in self._pattern.group_names.items()}

    def text(self, index: int | str = 0) -> str | None:
        """A group's value as a normal Python string (pairs joined)."""
        v = self.group(index)
        return None if v is None else _joined(v)


class JSPattern:
    """A compiled JavaScript ``RegExp``."""

    def __init__(self, source: str, flags: str, compiled: Any, emitted: Emitted, group_count: int,
                 group_names: dict[str, int],
                 literals: tuple[RequiredLiteral | None, RequiredLiteral | None] = (None, None),
                 nonempty: bool = False, literal_text: str | None = None, non_ascii: bool = False,
                 work: int | None = None, final: list[tuple[int, int]] | None = None,
                 bound: tuple[int, int] | None = None, twins: tuple[Any, Any] = (None, None),
                 line_ends: tuple[str, ...] | None = None) -> None:
        self.source = source
        self.flags = flags
        self.global_ = "g" in flags
        self.ignore_case = "i" in flags
        self.unicode = "u" in flags
        self.group_count = group_count
        self.group_names = group_names
        self.regex = compiled
        self._emitted = emitted
        self._needs_reset = any(enc for enc, _behind in emitted.enclosing.values())
        self._canon = _canon_table(self.unicode) if emitted.canonical else None
        index = compiled.groupindex  # ``groupindex`` builds a new dict per access
        self._present = frozenset(index)
        #: each capture's group number in ``compiled`` (and in its twins and multiline spelling, made from the
        #: same text), -1 for one V8 drops, when no capture is ever reset: :meth:`_group_values` then reads
        #: them from ``m.regs`` with no name to format and look up per capture (None: the general loop)
        self._plain_groups: tuple[int, ...] | None = (
            None if self._needs_reset or emitted.reset_in_place
            else tuple(index.get(f"g{n}", -1) for n in range(1, group_count + 1))
        )
        #: a run every match contains (``_literal.py``): a text without it cannot match
        self.required = literals[0]
        anchor = literals[1]
        #: (run, its offset from every match's start, lower-cased?): where a search may start
        self._anchor = (anchor.needles[0], anchor.offset, anchor.folded) if anchor and anchor.offset is not None else None
        self._needles = literals[0].needles if literals[0] else ()
        #: no match can be empty (the V8 tree is not nullable): JavaScript's stepping is finditer's
        self._nonempty = nonempty
        #: the whole pattern is this text (no ``i``): ``str.replace``/``str.count`` are its matches
        self._literal = literal_text
        #: ``_literal`` for callers outside this module (:func:`replace_literal`)
        self.literal = literal_text
        self._folded = bool(literals[0] and literals[0].folded)
        #: every match consumes a character beyond ASCII: an ASCII text cannot match
        self._non_ascii = non_ascii
        #: proven steps of one match attempt (``_cost.attempt_work``), None when unbounded
        self._work = work
        #: every match ends the text with one of these characters (``_literal.final_class``): its ranges'
        #: starts and ends, or None
        self._final: tuple[list[int], list[int]] | None = (
            None if final is None else ([lo for lo, _hi in final], [hi for _lo, hi in final]))
        #: with ``m``, ``_final`` ends every match at a line's end: a text must end with a member or hold one
        #: of these (a member, then a line terminator: ``_literal.line_end_needles``)
        self._line_ends = line_ends
        #: ``compiled`` with native multiline anchors, for texts with ``\n`` as their only line terminator
        self._multiline = _compile_multiline(compiled) if "m" in flags else None
        #: ``(c, s)``: proven steps of one attempt, ``c + s * (len(text) + 1)`` (``_cost.attempt_bound``),
        #: for a pattern whose work grows with the text (None: unproven, or ``work`` is proven)
        self._bound = bound if work is None else None
        #: ``re`` twins of ``compiled`` and of ``_multiline`` (:func:`_re_twin`), run where no timeout is needed
        self._twins = twins
        #: the case-canonical copy of an ASCII view is its upper-casing (``str.upper`` in C, not ``translate``)
        self._canon_upper = self._canon is not None and _ascii_canon_is_upper(self.unicode)
        #: templates read for this pattern's groups (:func:`_program_of`): JavaScript's, and pi-forge's trimStrings one
        self._js_programs: dict[str, Program] = {}
        self._trim_programs: dict[str, Program] = {}

    def may_match(self, text: str, lowered: Callable[[str], str] = str.lower) -> bool:
        """False when ``text`` cannot hold a match (it holds none of the runs every match contains,
        ``_literal.py``); exact, and cheap: C-level substring searches (in the lower-cased text under ``i``,
        which ``lowered`` computes: a caller running many rules over one text may remember it)."""
        if self._non_ascii and text.isascii():
            return False
        if self._final is not None and not self._ends_in_final(text) and not self._line_end_in(text):
            return False
        needles = self._needles
        if not needles:
            return True
        if self._folded:
            text = lowered(text)
        if len(needles) == 1:
            return needles[0] in text
        return any(n in text for n in needles)

    def candidates(self, texts: list[str], lowered: Callable[[], list[str]],
                   ascii_flags: Callable[[], list[bool]]) -> list[int] | None:
        """The indexes of ``texts`` :meth:`may_match` accepts, in order, or None when it accepts every text.

        One C-level pass per run over the whole list (``map``/``compress``: no Python code per text), for a
        caller that runs many rules over the same texts: ``lowered()`` returns ``texts`` lower-cased (under
        ``i``) and ``ascii_flags()`` their ``str.isascii``, each kept by the caller as the texts change."""
        needles = self._needles
        if not needles and not self._non_ascii and self._final is None:
            return None
        if len(needles) == 1 and not self._non_ascii and self._final is None and len(texts) <= _FEW_TEXTS:
            # one run to look for in a few texts (a usual compile): a comprehension does without the
            # list of hits and the ``compress`` (0.52 -> 0.23 µs for two texts)
            needle = needles[0]
            return [k for k, text in enumerate(lowered() if self._folded else texts) if needle in text]
        hits: list[bool] | None = None
        if needles:
            haystacks = lowered() if self._folded else texts
            hits = list(map(contains, haystacks, repeat(needles[0])))
            for needle in needles[1:]:
                hits = list(map(or_, hits, map(contains, haystacks, repeat(needle))))
        if self._non_ascii:
            wide = list(map(not_, ascii_flags()))
            hits = wide if hits is None else list(map(and_, hits, wide))
        if self._final is not None:  # a Python call per text, for the few patterns ending in ``$``
            ends = list(map(self._ends_in_final, texts))
            for pair in self._line_ends or ():
                ends = list(map(or_, ends, map(contains, texts, repeat(pair))))
            hits = ends if hits is None else list(map(and_, hits, ends))
        assert hits is not None  # one of the three checks ran (the first test above)
        return list(compress(range(len(texts)), hits))

    def _line_end_in(self, text: str) -> bool:
        """Whether ``text`` holds a member of the final class before a line terminator (``_line_ends``)."""
        return self._line_ends is not None and any(n in text for n in self._line_ends)

    def _ends_in_final(self, text: str) -> bool:
        """False when ``text`` cannot end a match (``_final``): it is empty, or its last character is in
        none of the ranges. A surrogate or astral last character is answered True: the view (units, or
        pairs joined) may end with another character than the text."""
        final = self._final
        if final is None:
            return True
        if not text:
            return False
        last = ord(text[-1])
        if last >= 0xD800 and (last <= 0xDFFF or last > 0xFFFF):
            return True
        k = bisect_right(final[0], last) - 1
        return k >= 0 and last <= final[1][k]

    def __repr__(self) -> str:
        return f"/{self.source}/{self.flags}"

    @property
    def emitted_pattern(self) -> str:
        """The pattern the emitter wrote (what ``_cost.py`` estimates); ``self.regex`` may hold a
        faster spelling of it (:func:`_compile_emitted`)."""
        return self._emitted.pattern

    # --- representation ----------------------------------------------------------------------
    def view(self, text: str) -> str:
        """``text`` in the representation this pattern matches on."""
        return _joined(text) if self.unicode else _units_view(text)

    def _matchable(self, view: str) -> str:
        """What ``self.regex`` runs on: the view, or its case-canonical copy (see ``Emitted.canonical``)."""
        return view if self._canon is None else view.translate(self._canon)

    # --- captures ----------------------------------------------------------------------------
    def _group_values(self, m: Any, subject: str) -> list[str | None]:
        values: list[str | None] = []
        plain = self._plain_groups
        if plain is not None:
            regs = m.regs
            for k in plain:
                if k < 0:
                    values.append(None)
                else:
                    start, end = regs[k]
                    values.append(None if start < 0 else subject[start:end])
            return values
        present = self._present
        for n in range(1, self.group_count + 1):
            name = f"g{n}"
            if name not in present:  # V8 drops `(…)?`-style atoms that can only match empty, group and all
                values.append(None)
                continue
            span = m.span(name)
            if span[0] < 0 or (span[0] == span[1] and n in self._emitted.reset_in_place):
                values.append(None)
                continue
            enclosing, _behind = self._emitted.enclosing.get(n, ((), False))
            if enclosing:
                kept = self._survives_reset(m, name, enclosing)
                values.append(None if kept is None else subject[kept[0]:kept[1]])
                continue
            values.append(subject[span[0]:span[1]])
        return values

    def _survives_reset(self, m: Any, name: str, enclosing: tuple[int, ...]) -> tuple[int, int] | None:
        """JavaScript clears captures at each iteration of a quantified group (B0 item 7).

        A capture survives when it lies inside the last accepted iteration of every enclosing quantifier;
        returns its span, or None.  An iteration that matched empty beyond the minimum count is one
        JavaScript rejects, so captures made in it are dropped.  Inside a lookbehind iterations run right
        to left; ``regex`` lists their spans in that (chronological) order too, so the last span is still
        the last iteration, and a rejected empty iteration sits at its left edge.
        """
        span: tuple[int, int] = m.span(name)
        moved = True
        while moved:  # dropping a rejected capture moves the span back: re-check every level
            moved = False
            for hid in enclosing:
                spans = m.spans(f"h{hid}")
                minimum = self._emitted.hidden_min.get(hid, 0)
                rejected = 0
                while len(spans) > minimum and spans and spans[-1][0] == spans[-1][1]:
                    spans = spans[:-1]
                    rejected += 1
                if not spans:
                    return None
                last = spans[-1]
                edge = last[0] if hid in self._emitted.hidden_behind else last[1]
                if rejected and span[0] == span[1] == edge:
                    caps = m.spans(name)
                    while caps and caps[-1] != span:
                        caps = caps[:-1]
                    while rejected and caps and caps[-1] == span:
                        caps = caps[:-1]
                        rejected -= 1
                    if not caps:
                        return None
                    if caps[-1] != span:
                        span = caps[-1]
                        moved = True
                if not (last[0] <= span[0] and span[1] <= last[1]):
                    return None
        return span

    # --- matching ----------------------------------------------------------------------------
    def iter_view(self, view: str, timeout: float | None = 1.0) -> list[JSMatch]:
        """The matches ``String.prototype.replace`` uses: one if not global, else all (JS stepping)."""
        return [JSMatch(self, m, view) for m in self._scan(view, timeout)]

    def _timed_out(self) -> JSRegexTimeout:
        return JSRegexTimeout(f"/{self.source}/{self.flags} timed out")

    def _proven(self, attempts: int, timeout: float) -> bool:
        """Whether ``attempts`` match attempts (the view's length plus one) finish within ``timeout`` at
        the pessimistic step time: a constant bound per attempt (``_cost.attempt_work``) or one that grows
        with the text (``_cost.attempt_bound``)."""
        if self._work is not None:
            return attempts * self._work * SEARCH_STEP_SECONDS <= timeout
        bound = self._bound
        return bound is not None and attempts * (bound[0] + bound[1] * attempts) * SEARCH_STEP_SECONDS <= timeout

    def _scan(self, view: str, timeout: float | None, lowered: str | None = None) -> list[Any]:
        """The ``regex`` matches of :meth:`iter_view` (on the matchable subject), within ``timeout``.

        A pattern whose matching work is proven (:meth:`_proven`: per attempt a constant, or for an
        unbounded repetition of one character or a backreference a bound linear in the text) runs without
        the engine's ``timeout`` when ``len(view) + 1`` attempts at the pessimistic step time fit in
        ``timeout``: it cannot run out of it, and the clock the engine reads per search is the largest
        cost left once the prefilter has passed. Such a search runs in ``re`` where the pattern has a twin
        there (:func:`_re_twins`).

        Three ways, one result. A pattern that cannot match the empty string steps exactly as
        ``finditer`` does (the next search starts where a match ended), so its global matches come from
        one C-level ``finditer`` whose ``timeout`` bounds the whole iteration, unless it has a required
        run at a fixed offset (``_literal.py``): then each search starts at the run's next occurrence
        (``str.find``), skipping text the engine would scan position by position. Otherwise a loop of
        searches steps as JavaScript's ``lastIndex`` does (past an empty match by one unit).

        ``lowered``: ``view.lower()`` when the caller holds it already (the run of a case-insensitive
        rule is searched in it).
        """
        if self._canon is None:
            subject = view
        elif self._canon_upper and view.isascii():
            subject = view.upper()  # what ``translate`` gives an ASCII view (``_ascii_canon_is_upper``)
        else:
            subject = view.translate(self._canon)  # ``_matchable``, inline
        anchor = self._anchor
        compiled = self.regex
        twin = self._twins[0]
        if self._multiline is not None and "\r" not in view and "\u2028" not in view and "\u2029" not in view:
            compiled = self._multiline  # no line terminator but ``\n`` (``_OTHER_TERMINATORS``)
            twin = self._twins[1]
        if timeout is not None and (self._work is not None or self._bound is not None) and self._proven(
            len(view) + 1, timeout
        ):
            timeout = None  # proven to finish within the time it was given (an unproven pattern: no call)
        if timeout is None and twin is not None:
            compiled = twin  # the same matches, from ``re`` (:func:`_re_twins`)
        deadline = None if timeout is None else time.monotonic() + timeout
        if anchor is None and self.global_ and self._nonempty:
            try:
                found = list(compiled.finditer(subject) if timeout is None
                             else compiled.finditer(subject, timeout=timeout))
            except TimeoutError as exc:
                raise self._timed_out() from exc
            if all(m.end() > m.start() for m in found):  # always, unless the emitter disagrees with the AST
                return found
        out: list[Any] = []
        pos, n = 0, len(view)
        search = compiled.search
        haystack = ""
        needle, offset = "", 0
        if anchor is not None:  # every match has the run `needle` at `offset` from its start
            needle, offset, folded = anchor
            haystack = (view.lower() if lowered is None else lowered) if folded else view
            if len(haystack) != len(view):  # a lower-casing that changes lengths: indexes differ
                anchor = None
        while True:
            if anchor is not None:
                at = haystack.find(needle, pos + offset)
                if at < 0:
                    break
                pos = at - offset
            if deadline is None:
                m = search(subject, pos)
            else:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._timed_out()
                try:
                    m = search(subject, pos, timeout=remaining)
                except TimeoutError as exc:
                    raise self._timed_out() from exc
            if m is None:
                break
            out.append(m)
            if not self.global_:
                break
            s, e = m.span()
            pos = e + 1 if e == s else e
            if pos > n:
                break
        return out

    def search(self, text: str, timeout: float | None = 1.0) -> JSMatch | None:
        """The first match in ``text`` (ignores ``g``), like ``RegExp.prototype.exec`` from index 0."""
        view = self.view(text)
        try:
            m = self.regex.search(self._matchable(view), 0, timeout=timeout)
        except TimeoutError as exc:
            raise JSRegexTimeout(f"/{self.source}/{self.flags} timed out") from exc
        return None if m is None else JSMatch(self, m, view)

    def test(self, text: str, timeout: float | None = 1.0) -> bool:
        return self.search(text, timeout) is not None

    def finditer(self, text: str, timeout: float | None = 1.0) -> list[JSMatch]:
        """All matches with JavaScript global stepping (whatever the ``g`` flag)."""
        g = self.global_
        self.global_ = True
        try:
            return self.iter_view(self.view(text), timeout)
        finally:
            self.global_ = g

    def replace(self, text: str, replacement: str | Callable[[JSMatch], str],
                timeout: float | None = 1.0) -> str:
        """``String.prototype.replace(this, replacement)`` with plain JavaScript substitution."""
        view = self.view(text)
        matches = self.iter_view(view, timeout)
        if not matches:
            return text
        if callable(replacement):
            fn = replacement
        else:
            def fn(mm: JSMatch) -> str:
                return self._substitute(replacement, mm, view)
        return _joined(_splice(view, matches, fn))

    def _substitute(self, template: str, mm: JSMatch, view: str) -> str:
        if "$" not in template:
            return template
        groups = mm.groups() if self.group_count else []
        return expand_js_replacement(template, mm.matched, mm.start, view, groups, mm.named_groups())


def _splice(view: str, matches: Sequence[JSMatch], fn: Callable[[JSMatch], str]) -> str:
    parts: list[str] = []
    last = 0
    for mm in matches:
        parts.append(view[last:mm.start])
        parts.append(fn(mm))
        last = mm.end
    parts.append(view[last:])
    return "".join(parts)


@lru_cache(maxsize=2)
def _canon_table(unicode: bool) -> dict[int, int]:
    """``str.translate`` table mapping each character to a canonical member of its case class (B0
    items 3–4): backreferences compare canonical forms, and V8's classes, literals and backreferences
    share one equivalence (measured, :func:`forgec.js.unicode.fold_map`), so any member will do."""
    from ._unicode_data import fold_map

    return dict(fold_map(unicode))


@lru_cache(maxsize=1024)
def _compile(pattern: str, flags: str) -> JSPattern:
    import regex

    try:
        parsed = parse_checked(pattern, flags)
        emitted = _emit_affordable(parsed, pattern, flags)
        compiled = _compile_emitted(emitted.pattern, flags, _always_set(parsed.tree))
    except _TooCostly:
        raise _unsupported(pattern, flags, "its nested repetitions are too costly to compile") from None
    except RecursionError:  # nesting deeper than Python's stack (the emitter's or regex's compiler)
        raise _unsupported(pattern, flags, "it is nested too deeply") from None
    except MemoryError:
        raise _unsupported(pattern, flags, "it needs more memory to compile than this machine has") from None
    except (regex.error, OverflowError) as exc:  # V8 accepts what regex cannot
        raise _unsupported(pattern, flags, str(exc) or type(exc).__name__) from None
    tree = parsed.tree
    literals = required_literal(tree, flags)
    work = attempt_work(tree)
    bound = None if work is not None else attempt_bound(tree, flags)
    anchored = literals[1] is not None and literals[1].offset is not None
    twins = _re_twins(compiled, emitted, tree) if bound is not None and not anchored else (None, None)
    final = final_class(tree, flags)
    line_ends = None if final is None or "m" not in flags else line_end_needles(final)
    if line_ends is None and "m" in flags:
        final = None
    return JSPattern(pattern, flags, compiled, emitted, parsed.capture_count, parsed.group_names,
                     literals, not nullable(tree), literal_text(tree, flags),
                     needs_non_ascii(tree, flags), work, final, bound, twins, line_ends)


#: what the emitter writes for ``\b`` and ``\B`` with ASCII word characters (every flag set but ``iu``)
_ASCII_BOUNDARY = "(?:(?<=[0-9A-Z\\u005fa-z])(?![0-9A-Z\\u005fa-z])|(?<![0-9A-Z\\u005fa-z])(?=[0-9A-Z\\u005fa-z]))"
_ASCII_NON_BOUNDARY = "(?:(?<=[0-9A-Z\\u005fa-z])(?=[0-9A-Z\\u005fa-z])|(?<![0-9A-Z\\u005fa-z])(?![0-9A-Z\\u005fa-z]))"


#: what the emitter writes for JavaScript's ``\\w`` without ``iu`` and for ``\\d``: ``regex``'s own ``\\w`` and ``\\d``
#: under ``regex.ASCII`` are these sets, and scanned ~25 % faster (``/(\\w+) \\1\\b/i`` over the rules row)
_ASCII_WORD = "[0-9A-Z\\u005fa-z]"
_ASCII_DIGIT = "[0-9]"


def _always_set(tree: Node) -> tuple[int, ...]:
    """The groups every backreference to which runs after the group has matched: the group is an item
    of the pattern's top-level sequence and every reference to it a later item of that sequence (none
    inside a quantifier, an alternative or a lookaround, where the group could be unset or reset).

    The emitter writes a reference as ``(?(gN)(?P=gN))`` (JavaScript: a group without a value matches
    empty), a conditional ``regex`` evaluates at every attempt (``/(\\w+) \\1\\b/i``: ~25 % of its search
    time); for these groups the condition is always true, so :func:`_compile_emitted` writes the plain
    reference."""
    items = tree.items if isinstance(tree, Seq) else [tree]
    matched: set[int] = set()
    later: dict[int, int] = {}  # group -> top-level references after it
    for item in items:
        if isinstance(item, Group) and item.index is not None:
            matched.add(item.index)
        elif isinstance(item, BackRef) and item.index in matched:
            later[item.index] = later.get(item.index, 0) + 1
    if not later:
        return ()
    every: dict[int, int] = {}
    for node in descendants(tree):
        if isinstance(node, BackRef) and node.index is not None:
            every[node.index] = every.get(node.index, 0) + 1
    return tuple(sorted(g for g, n in later.items() if every.get(g) == n))


def _compile_emitted(text: str, flags: str, always_set: tuple[int, ...] = ()) -> Any:
    """``regex.compile`` of the emitted pattern, with JavaScript's ASCII word boundaries as ``regex``'s own.

    The emitter spells ``\\b`` as four lookarounds over the word class, which the engine tries at every
    position: a pattern that starts with ``\\b`` searched ~15x slower than with a native ``\\b``. Under
    ``regex.ASCII`` the native ``\\b``/``\\B`` test exactly JavaScript's word characters ``[0-9A-Za-z_]``,
    and the flag changes nothing else the emitter writes (it never uses ``\\w``, ``\\d``, ``\\s`` or
    ``IGNORECASE``; ``\\p{…}`` is left alone: a pattern holding one keeps the lookarounds). With ``iu``
    the word class has two more members (ſ, K) and stays spelled out. The text is exact: the emitter
    escapes every other ``(`` inside classes and literals, so the spelling can only be a boundary, and
    the compile estimate (``_cost.py``) is taken on the emitted text before this step.

    References to the ``always_set`` groups (:func:`_always_set`) lose their ``(?(gN)…)`` condition.
    """
    import regex

    for index in always_set:
        for name in (f"g{index}", f"b{index}"):
            text = text.replace(f"(?({name})(?P={name}))", f"(?P={name})")

    if "\\p" not in text and "\\P" not in text:
        native = text
        if "i" not in flags or "u" not in flags:
            native = native.replace(_ASCII_BOUNDARY, "\\b").replace(_ASCII_NON_BOUNDARY, "\\B")
        native = native.replace(_ASCII_WORD, "\\w").replace(_ASCII_DIGIT, "\\d")
        if native != text:
            return regex.compile(native, regex.VERSION0 | regex.ASCII)
    return regex.compile(text, regex.VERSION0)


#: what the emitter writes for ``^`` and ``$`` under ``m`` (V8's four line terminators)
_LINE_START = "(?<![^\\n\\r\\u2028\\u2029])"
_LINE_END = "(?![^\\n\\r\\u2028\\u2029])"
#: the line terminators ``regex``'s ``MULTILINE`` does not know
_OTHER_TERMINATORS = ("\r", "\u2028", "\u2029")


def _compile_multiline(compiled: Any) -> Any | None:
    """``compiled`` with V8's multiline ``^``/``$`` as ``regex``'s own (``MULTILINE``), or None.

    The emitter spells them as lookarounds over the four line terminators, tried at every position;
    ``regex``'s ``^``/``$`` are scanned for directly (about 2x on ``/^\\s+/gm``) but know ``\\n``
    alone, so :meth:`JSPattern._scan` uses this spelling only for a text without ``\\r``, U+2028 and
    U+2029, where both mean the same. The spellings are exact (no other emitted text holds them)."""
    import regex

    native = _multiline_text(compiled.pattern)
    return None if native is None else regex.compile(native, compiled.flags | regex.MULTILINE)


def _multiline_text(text: str) -> str | None:
    """``text`` with the emitter's multiline ``^``/``$`` as the engines' own (to compile with ``MULTILINE``),
    or None when it has neither."""
    if _LINE_START not in text and _LINE_END not in text:
        return None
    return text.replace(_LINE_START, "^").replace(_LINE_END, "$")


def _re_twins(compiled: Any, emitted: Emitted, tree: Node) -> tuple[Any, Any]:
    """``re`` compilations of ``compiled`` and of its multiline form (:func:`_compile_multiline`), or None each.

    For the patterns :meth:`JSPattern._scan` runs without a timeout on the strength of
    ``_cost.attempt_bound`` (an unbounded quantifier or a backreference: work that grows with the text),
    Python's ``re`` finds the same matches 2-4x faster than ``regex`` (``/(\\w+) \\1\\b/i``, ``^\\s+``,
    ``(?<=\\.)\\s{2,}`` over the rules row), and cannot be interrupted, which only matters where a
    timeout is kept. It is used only where both engines mean the same by the emitted text: no
    ``\\p{…}`` (``re`` refuses it), no variable-length lookbehind (refused too), no native ``\\B``
    (``scripts/diff_regex.py`` found ``/A*?^\\B/gmu`` matching ``""`` in ``regex`` only), no capture reset
    (``regex``'s ``spans`` are read for it) and no quantified body that can match empty (where the two
    engines' rules for an empty iteration could differ); the emitter never writes ``IGNORECASE``.
    """
    import regex

    if emitted.hidden_min or any(enc for enc, _behind in emitted.enclosing.values()):
        return None, None
    if "\\B" in compiled.pattern:  # ``re``'s native ``\B`` never matches in an empty text (before 3.14)
        return None, None
    if any(isinstance(node, Quant) and nullable(node.body) for node in descendants(tree)):
        return None, None
    flags = re.ASCII if compiled.flags & regex.ASCII else 0
    multiline = _multiline_text(compiled.pattern)
    return _re_compile(compiled.pattern, flags), None if multiline is None else _re_compile(multiline, flags | re.M)


def _re_compile(text: str, flags: int) -> Any:
    """``re.compile``, or None where ``re`` refuses the text (a property, a variable lookbehind…)."""
    try:
        return re.compile(text, flags)
    except (re.error, OverflowError, RecursionError, ValueError):
        return None


@lru_cache(maxsize=2)
def _ascii_canon_is_upper(unicode: bool) -> bool:
    """Whether the case-canonical table (:func:`_canon_table`) maps every ASCII character to its
    upper-case form: then an ASCII view's canonical copy is ``view.upper()``."""
    table = _canon_table(unicode)
    return all(table.get(c, c) == ord(chr(c).upper()) for c in range(128))


class _TooCostly(Exception):
    """The emitted pattern would keep ``regex.compile`` busy past :data:`_cost.COMPILE_BUDGET`."""


def _emit_affordable(parsed: Parsed, pattern: str, flags: str) -> Emitted:
    """The emitted pattern, checked by ``_cost.py`` before ``regex.compile`` (which cannot be interrupted
    and copies repeated bodies, so nested repeats could run for minutes). If V8's rejection of empty
    iterations is what makes it costly (it turns nested ``*`` into nested ``+``), that rewrite is dropped."""
    from ._cost import COMPILE_BUDGET, compile_cost

    emitted = emit(parsed.tree, flags, parsed.capture_count, pattern)
    if compile_cost(emitted.pattern) <= COMPILE_BUDGET:
        return emitted
    emitted = emit(parsed.tree, flags, parsed.capture_count, pattern, reject_empty_iterations=False)
    if compile_cost(emitted.pattern) <= COMPILE_BUDGET:
        return emitted
    raise _TooCostly


def _unsupported(pattern: str, flags: str, why: str) -> JSRegexError:
    reason = f"forgec cannot run this pattern ({why})"
    return JSRegexError(f"Invalid regular expression: /{pattern}/{flags}: {reason}", reason, unsupported=True)


def compile_js(pattern: str, flags: str = "") -> JSPattern:
    """Compile a JavaScript pattern exactly as ``new RegExp(pattern, flags)`` in Node 20 would.

    Raises :class:`JSRegexError` whose ``str()`` is V8's ``Invalid regular expression: /…/…: reason``.
    Compiled patterns are cached (LRU) by ``(pattern, flags)``.
    """
    return _compile(pattern, normalize_flags(flags))


def transform_string(
    pattern: JSPattern,
    text: str,
    replace: str,
    *,
    trim_strings: list[str] | None = None,
    max_chars: int | None = None,
    timeout: float = 1.0,
) -> tuple[str, int]:
    """Apply one regex rule to one text segment (A5.3–A5.6); returns ``(new_text, matches)``.

    ``max_chars`` restricts matching to the last ``max_chars`` UTF-16 units (exact cut).  A non-empty
    ``trim_strings`` selects pi-forge's own expander (A5.5); otherwise the ``$0`` pre-pass and JavaScript
    substitution apply (A5.4).  ``matches`` counts what the reference's statistics count (A5.6).
    Raises :class:`JSRegexTimeout` when matching takes longer than ``timeout`` seconds.
    """
    if not pattern.may_match(text):
        return text, 0
    return transform_prefiltered(pattern, text, replace, trim_strings=trim_strings, max_chars=max_chars,
                                 timeout=timeout)


def transform_prefiltered(
    pattern: JSPattern,
    text: str,
    replace: str,
    *,
    trim_strings: list[str] | None = None,
    max_chars: int | None = None,
    timeout: float = 1.0,
    lowered: str | None = None,
) -> tuple[str, int]:
    """:func:`transform_string` on a text :meth:`JSPattern.may_match` (or :meth:`JSPattern.candidates`)
    has accepted already: the regex pass checks every text of a call site at once, and a second check
    per text lower-cased it again under ``i``. ``lowered``: ``text.lower()`` when the caller holds it."""
    head = ""
    body = text
    if max_chars is not None:
        if text.isascii():  # one unit per character: the cut is a slice
            if len(text) > max_chars:
                head, body = text[: len(text) - max_chars], text[len(text) - max_chars :]
        else:
            data = text.encode("utf-16-le", "surrogatepass")
            n = len(data) // 2
            if n > max_chars:
                cut = 2 * (n - max_chars)
                head = data[:cut].decode("utf-16-le", "surrogatepass")
                body = data[cut:].decode("utf-16-le", "surrogatepass")
    # Both expanders copy a template without "$" as it is (the $0 pre-pass too): every match becomes
    # the same text, and neither the groups nor a JSMatch are needed.
    constant = "$" not in replace
    literal = pattern._literal
    if constant and literal is not None:
        # A pattern that is one literal text (no surrogates or astral characters: _literal.py) matches
        # where str.find does, in the text as much as in its view; JavaScript steps past each match,
        # as str.replace and str.count do.  The result is re-joined as the view's would be.
        count = body.count(literal) if pattern.global_ else int(literal in body)
        if not count:
            return text, 0
        result = _joined(head + (body.replace(literal, replace) if pattern.global_ else body.replace(literal, replace, 1)))
    else:
        view = body if body.isascii() else pattern.view(body)  # ``view`` is the identity on ASCII
        found = pattern._scan(view, timeout, lowered if view is text else None)
        count = len(found)
        if not count:
            return text, 0
        if constant:
            parts: list[str] = []
            last = 0
            for m in found:
                s, e = m.span()
                parts.append(view[last:s])
                last = e
            parts.append(view[last:])
            result = _joined(head + replace.join(parts))
        else:
            program = _program_of(pattern, replace, bool(trim_strings))
            trims = [pattern.view(t) for t in trim_strings] if trim_strings else []
            result = _joined(head + _run_program(pattern, view, found, program, trims))
    if result.isascii():  # as in ``replace_literal``: an ASCII result can equal only ``text`` itself
        return (text, count) if result == text else (result, count)
    if result == text or result == _joined(text):
        return text, count
    return result, count


def replace_literal(pattern: JSPattern, text: str, replace: str) -> tuple[str, int]:
    """:func:`transform_prefiltered` for a pattern that is one literal text (``pattern.literal``), a
    template without ``$`` and no ``max_chars``: the same result from ``str.count``/``str.replace`` with
    none of the general path's work, for the regex pass, which calls it per segment (the usual rule
    on a small input: the call overhead was most of its time)."""
    literal = pattern._literal
    assert literal is not None
    if pattern.global_:
        count = text.count(literal)
        if not count:
            return text, 0
        result = text.replace(literal, replace)
    else:
        if literal not in text:
            return text, 0
        count = 1
        result = text.replace(literal, replace, 1)
    if result.isascii():  # ``_joined`` is the identity on ASCII, and an ASCII result can equal only ``text``
        return (text, count) if result == text else (result, count)
    result = _joined(result)
    if result == text or result == _joined(text):
        return text, count
    return result, count


#: programs one pattern keeps per expander before it forgets them (a rule has one template)
_PROGRAMS_KEPT = 64


def _program_of(pattern: JSPattern, replace: str, trimmed: bool) -> Program:
    """``replace`` read once for ``pattern``'s groups: pi-forge's trimStrings expander when ``trimmed``
    (on the raw template), else JavaScript's after the ``$0`` pre-pass (what :func:`_expander` runs)."""
    programs = pattern._trim_programs if trimmed else pattern._js_programs
    program = programs.get(replace)
    if program is None:
        if len(programs) >= _PROGRAMS_KEPT:
            programs.clear()
        if trimmed:
            program = trim_program(replace, pattern.group_count, pattern.group_names)
        else:
            program = js_program(prepass_dollar_zero(replace), pattern.group_count, pattern.group_names)
        programs[replace] = program
    return program


def _run_program(pattern: JSPattern, view: str, found: list[Any], program: Program, trims: list[str]) -> str:
    """``view`` with each match of ``found`` replaced by ``program``'s text: what :func:`_splice` with the
    :func:`_expander` of the same template makes, without a :class:`JSMatch` or a template scan per match."""
    steps, needs_groups = program
    parts: list[str] = []
    last = 0
    for m in found:
        s, e = m.span()
        parts.append(view[last:s])
        groups: list[str | None] = pattern._group_values(m, view) if needs_groups else []
        for kind, group, text in steps:
            if kind == LITERAL:
                parts.append(text)
            elif kind == MATCH:
                parts.append(view[s:e])
            elif kind == BEFORE:
                parts.append(view[:s])
            elif kind == AFTER:
                parts.append(view[e:])
            elif kind == GROUP:
                parts.append(groups[group - 1] or "")
            elif kind == TRIMMED_MATCH:
                parts.append(_trimmed(view[s:e], trims))
            else:  # TRIMMED_GROUP
                value = groups[group - 1]
                parts.append("" if value is None else _trimmed(value, trims))
        last = e
    parts.append(view[last:])
    return "".join(parts)


def _trimmed(value: str, trims: list[str]) -> str:
    """pi-forge's trim of a match or a capture (``replace._trim``): every trim string removed, in order."""
    for t in trims:
        if t:
            value = value.replace(t, "")
    return value


def _expander(pattern: JSPattern, view: str, replace: str, trim_strings: list[str] | None) -> Callable[[JSMatch], str]:
    """The replacement of one match: pi-forge's trimStrings expander (A5.5) or, after the ``$0``
    pre-pass, JavaScript's ``GetSubstitution`` (A5.4). The rule transform runs the same template as a
    program (:func:`_run_program`); ``tests/js/regex/test_replace_program.py`` holds the two equal."""
    if trim_strings:
        trims = [pattern.view(t) for t in trim_strings]
        named = bool(pattern.group_names)

        def trimmed(mm: JSMatch) -> str:
            groups = mm.groups() if pattern.group_count else []
            return expand_trim_replacement(replace, mm.matched, mm.start, view, groups,
                                           mm.named_groups() if named else None, trims)

        return trimmed
    template = prepass_dollar_zero(replace)

    def substituted(mm: JSMatch) -> str:
        return pattern._substitute(template, mm, view)

    return substituted
