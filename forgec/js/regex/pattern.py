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
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ._emit import Emitted, emit
from ._parser import Parsed
from .errors import JSRegexError, JSRegexTimeout
from .replace import expand_js_replacement, expand_trim_replacement, prepass_dollar_zero
from .syntax import normalize_flags, parse_checked

__all__ = ["JSMatch", "JSPattern", "JSRegexError", "JSRegexTimeout", "compile_js", "transform_string"]


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
                 group_names: dict[str, int]) -> None:
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
        self._present = frozenset(compiled.groupindex)  # `groupindex` builds a new dict per access

    def __repr__(self) -> str:
        return f"/{self.source}/{self.flags}"

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
        deadline = None if timeout is None else time.monotonic() + timeout
        out: list[JSMatch] = []
        pos, n = 0, len(view)
        search = self.regex.search
        subject = self._matchable(view)
        while True:
            if deadline is None:
                m = search(subject, pos)
            else:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise JSRegexTimeout(f"/{self.source}/{self.flags} timed out")
                try:
                    m = search(subject, pos, timeout=remaining)
                except TimeoutError as exc:
                    raise JSRegexTimeout(f"/{self.source}/{self.flags} timed out") from exc
            if m is None:
                break
            out.append(JSMatch(self, m, view))
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
        compiled = regex.compile(emitted.pattern, regex.VERSION0)
    except _TooCostly:
        raise _unsupported(pattern, flags, "its nested repetitions are too costly to compile") from None
    except RecursionError:  # nesting deeper than Python's stack (the emitter's or regex's compiler)
        raise _unsupported(pattern, flags, "it is nested too deeply") from None
    except MemoryError:
        raise _unsupported(pattern, flags, "it needs more memory to compile than this machine has") from None
    except (regex.error, OverflowError) as exc:  # V8 accepts what regex cannot
        raise _unsupported(pattern, flags, str(exc) or type(exc).__name__) from None
    return JSPattern(pattern, flags, compiled, emitted, parsed.capture_count, parsed.group_names)


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
    head = ""
    body = text
    if max_chars is not None:
        data = text.encode("utf-16-le", "surrogatepass")
        n = len(data) // 2
        if n > max_chars:
            cut = 2 * (n - max_chars)
            head = data[:cut].decode("utf-16-le", "surrogatepass")
            body = data[cut:].decode("utf-16-le", "surrogatepass")
    view = pattern.view(body)
    matches = pattern.iter_view(view, timeout)
    if not matches:
        return text, 0
    named = bool(pattern.group_names)
    if trim_strings:
        trims = [pattern.view(t) for t in trim_strings]

        def fn(mm: JSMatch) -> str:
            groups = mm.groups() if pattern.group_count else []
            return expand_trim_replacement(replace, mm.matched, mm.start, view, groups,
                                           mm.named_groups() if named else None, trims)
    else:
        template = prepass_dollar_zero(replace)

        def fn(mm: JSMatch) -> str:
            return pattern._substitute(template, mm, view)

    result = _joined(head + _splice(view, matches, fn))
    if result == text or result == _joined(text):
        return text, len(matches)
    return result, len(matches)
