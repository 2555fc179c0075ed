"""How much work the ``regex`` module's compiler will do for an emitted pattern, estimated before it runs.

``regex.compile`` copies the body of a repeat with a minimum (``X+``, ``X{2,}``, ``X{3}``) roughly
``min + 1`` times, so *nested* repeats cost a product: 25 nested ``+`` take about 30 s and 12 nested
``{3,}`` about 18 s (about 1 µs per unit below), and the C compiler cannot be interrupted. V8 compiles
such patterns at once, and the capture-semantics rewrite (``_nonempty.py``) turns nested ``*`` into
nested ``+``, so without this estimate one hostile rule could hang a compile. The estimate reads the
emitted pattern (the only place where rewrites and copies are visible): every atom costs 1 (a
character class one per 24 characters of its emitted text: case-insensitive Unicode classes are
large), a sequence or an alternation the sum of its parts, a repeat with minimum ``n ≥ 1`` ``(n + 1)`` times its
body. Parsing is paid once per written class, not per copy: ``regex`` parses a class member by member
in Python (~5 µs a character), so 2,000 written ``[\\p{L}\\p{Nd}]`` under ``iu`` (26 KB of JavaScript)
would parse for minutes (issue 13, family 10); a big class adds 5 units per character of its text.
Measured on ``regex`` 2025/2026 releases on a loaded 2-core machine, the real time stays near or below
~1 µs per unit.
"""

from __future__ import annotations

import re

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

#: units (≈ 1 µs each) allowed per pattern; realistic patterns stay far below (a 10-level nest of
#: ``{10}`` is 2.6 e10 … and is refused; ``(?:a{1000}){1000}`` is 1 e6 and allowed)
COMPILE_BUDGET = 2_000_000

#: a character class is copied with its members: ``\p{L}`` under ``iu`` is emitted as a class of about
#: 10,000 characters, which ``regex`` compiles at roughly 360 µs a copy (measured on a loaded 2-core
#: machine; ``(?:\p{Lu}{300}){100}`` took 2.9 s and 470 MB), so a class weighs one unit per this many
#: characters of its text (a small class is one unit)
_CLASS_CHARS_PER_UNIT = 24
#: units per character of a big class's text for parsing it (once per written class, never copied)
_CLASS_PARSE_UNITS_PER_CHAR = 5

_BRACES = re.compile(r"\{(\d+)(?:,(\d*))?\}")
#: a class body after its ``[``: an optional ``^``, escapes and other characters, the closing ``]``
_CLASS_BODY = re.compile(r"\^?(?:[^\\\]]|\\.)*\]", re.S)


def compile_cost(pattern: str, budget: int = COMPILE_BUDGET) -> int:
    """Estimated compile work of a ``regex`` (VERSION0) pattern; stops counting once past ``budget``."""
    # one frame per open group: [cost of finished alternatives, cost of the current sequence]
    frames: list[list[int]] = [[0, 0]]
    last = 0  # cost of the atom a following quantifier applies to
    parsing = 0  # parse cost of the big classes so far: paid once, outside every multiplier
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            last = 1
        elif c == "[":
            end = _class_end(pattern, i)
            size = end - i
            last = max(1, size // _CLASS_CHARS_PER_UNIT)
            if size > _CLASS_CHARS_PER_UNIT:
                parsing += size * _CLASS_PARSE_UNITS_PER_CHAR
                if parsing > budget:
                    return parsing
            i = end
        elif c == "(":
            frames.append([0, 0])
            i += 1
            last = 0
            continue
        elif c == ")":
            done, current = frames.pop() if len(frames) > 1 else frames[0]
            last = done + current
            i += 1
        elif c == "|":
            frames[-1][0] += frames[-1][1]
            frames[-1][1] = 0
            i += 1
            last = 0
            continue
        elif c in "*+?{":
            low, i = _quantifier(pattern, i)
            if low is None:  # a literal "{"
                last = 1
            else:
                extra = last * low  # the repeated atom's cost is already counted once
                frames[-1][1] += extra
                if frames[-1][1] + parsing > budget:
                    return frames[-1][1] + parsing
                last += extra
                continue
        else:
            i += 1
            last = 1
        frames[-1][1] += last
        if frames[-1][1] + parsing > budget:
            return frames[-1][1] + parsing
    while len(frames) > 1:  # unbalanced text cannot come from the emitter; count it anyway
        done, current = frames.pop()
        frames[-1][1] += done + current
    return frames[0][0] + frames[0][1] + parsing


def _class_end(pattern: str, start: int) -> int:
    """The index after the character class opening at ``start`` (the emitter escapes ``]`` inside).

    Scanned by ``re`` in C: an emitted ``\\p{L}`` under ``iu`` is 10,000 characters, and a pattern may
    hold hundreds of them."""
    m = _CLASS_BODY.match(pattern, start + 1)
    return m.end() if m else len(pattern)


def _quantifier(pattern: str, i: int) -> tuple[int | None, int]:
    """(minimum count, index after the quantifier and its lazy/possessive suffix); None: not one."""
    c = pattern[i]
    if c == "{":
        m = _BRACES.match(pattern, i)
        if not m:
            return None, i + 1
        low, end = int(m.group(1)), m.end()
    else:
        low, end = (1 if c == "+" else 0), i + 1
    if end < len(pattern) and pattern[end] in "?+":
        end += 1
    return low, end


# --- matching work ---------------------------------------------------------------------------------

#: seconds one unit of matching work is charged (a search step of the ``regex`` engine takes ~0.1-0.5 µs
#: on the loaded 2-core machine; 1 µs is the pessimistic calibration this file uses throughout)
SEARCH_STEP_SECONDS = 1e-6
#: attempt work past this is not worth proving (and a product of large bounds would grow without end)
_WORK_CAP = 1_000_000


def attempt_work(tree: Node) -> int | None:
    """An upper bound on the steps of one match attempt at one position, or None when none is proven.

    A backtracking engine explores at most every way the pattern can match from a position: for a
    sequence the product of its items' ways, for an alternation their sum, for ``X{m,n}`` the sum over
    the counts, a lookaround once (it is atomic). Each way takes at most the pattern's longest path in
    steps. Any unbounded quantifier (``*``, ``+``, ``{m,}``) or backreference leaves the work unproven
    (``\\s+$`` on a long run of spaces is quadratic, ``(a|aa)+$`` exponential): those keep the clock.

    A search tries each start position at most once, and a global replace's searches continue where
    the last one stopped, so a whole ``transform_string`` does at most ``(len(text) + 1) * work`` steps:
    linear in the text, and :meth:`JSPattern._scan` drops the per-search ``timeout`` when that bound,
    at :data:`SEARCH_STEP_SECONDS` a step, fits in the time it was given.
    """
    found = _ways_and_length(tree, 0)
    if found is None:
        return None
    ways, length = found
    work = ways * max(length, 1)
    return work if work <= _WORK_CAP else None


def _ways_and_length(node: Node, depth: int) -> tuple[int, int] | None:
    """(ways ``node`` can match from one position, steps of its longest way), or None (unbounded)."""
    if depth > 100:
        return None
    if isinstance(node, (Char, CharClass, ClassEscape, Dot, Assertion, Empty)):
        return 1, 1
    if isinstance(node, Group):
        return _ways_and_length(node.body, depth + 1)
    if isinstance(node, Look):
        inner = _ways_and_length(node.body, depth + 1)
        return None if inner is None else (1, inner[0] * max(inner[1], 1))
    if isinstance(node, Seq):
        ways, length = 1, 0
        for item in node.items:
            inner = _ways_and_length(item, depth + 1)
            if inner is None:
                return None
            ways, length = ways * inner[0], length + inner[1]
            if ways * max(length, 1) > _WORK_CAP:
                return None
        return ways, length
    if isinstance(node, Alt):
        ways, length = 0, 0
        for alternative in node.alternatives:
            inner = _ways_and_length(alternative, depth + 1)
            if inner is None:
                return None
            ways, length = ways + inner[0], max(length, inner[1])
        return (ways, length) if ways * max(length, 1) <= _WORK_CAP else None
    if isinstance(node, Quant):
        if node.max >= INFINITY:
            return None
        if node.max == 0:
            return 1, 0
        inner = _ways_and_length(node.body, depth + 1)
        if inner is None:
            return None
        body_ways, body_length = inner
        ways, power = 0, 1
        for count in range(node.max + 1):
            if count >= node.min:
                ways += power
            power *= body_ways
            if ways > _WORK_CAP or power > _WORK_CAP * max(body_ways, 1):
                return None
        length = node.max * body_length
        return (ways, length) if ways * max(length, 1) <= _WORK_CAP else None
    return None  # BackRef


# --- matching work that grows with the text ------------------------------------------------------

#: a linear form ``(c, s)``: at most ``c + s * N`` steps (or ways), ``N`` being the text's length plus one
_Linear = tuple[int, int]


def attempt_bound(tree: Node, flags: str) -> _Linear | None:
    """``(c, s)``: one match attempt takes at most ``c + s * (len(text) + 1)`` steps; None when not proven.

    :func:`attempt_work` proves a constant bound, so any unbounded quantifier or backreference leaves a
    pattern unproven: ``/(\\w+) \\1\\b/i`` and the white-space rules (``^\\s+``, ``[ \\t]+$``,
    ``(?<=\\.)\\s{2,}``) kept the engine's per-search ``timeout`` (a clock read per search, and the
    ``regex`` engine, never Python's faster ``re``, which cannot be interrupted). This bound lets them
    drop it on the texts where ``(len(text) + 1)`` attempts of this size fit in the time given, which
    a text of a few hundred characters does at the pessimistic step time.

    The walk counts, per node, the *ways* it can end (each one the continuation is tried after) and the
    *work* of exploring all of them, which a backtracking engine does once per way of what precedes it:
    ``work(A B) = work(A) + ways(A) * work(B)``, ``ways(A B) = ways(A) * ways(B)``. Atoms, assertions and
    lookarounds (atomic) end one way; a backreference compares at most the text (work ``N``). An
    unbounded quantifier is accepted only over a single character, class or ``.`` (one character an
    iteration, so at most ``N`` ways, and scanning and backtracking take ``2 N`` steps), and it makes the
    bound linear: whatever follows it must then have constant work, or the product is quadratic and the
    pattern stays unproven. One shape is tighter: when the next item consumes one character of a set
    disjoint from the quantified one (``\\w+`` then a space, ``[^)]*`` then ``)``), every way but the
    longest fails on that character at once, so what follows the pair runs once, not ``N`` times.
    """
    icase, unicode = "i" in flags, "u" in flags
    found = _bound(tree, icase, unicode, 0)
    if found is None:
        return None
    work = found[1]
    return work if work[0] + work[1] <= _WORK_CAP else None


def _times(a: _Linear, b: _Linear) -> _Linear | None:
    """``a * b`` when it stays linear (one of them constant), else None."""
    if a[1] and b[1]:
        return None
    return a[0] * b[0], a[0] * b[1] + a[1] * b[0]


def _plus(a: _Linear, b: _Linear) -> _Linear:
    return a[0] + b[0], a[1] + b[1]


def _bound(node: Node, icase: bool, unicode: bool, depth: int) -> tuple[_Linear, _Linear] | None:
    """(ways, work) of ``node`` as linear forms in ``N``, or None (unproven)."""
    if depth > 100:
        return None
    if isinstance(node, CharClass) and any(e.kind in "pP" for e in node.escapes):
        # emitted as an alternation of sets when ``regex`` lacks a property: a character may match several
        return (1 + len(node.escapes), 0), (1 + len(node.escapes), 0)
    if isinstance(node, (Char, CharClass, ClassEscape, Dot, Assertion, Empty)):
        return (1, 0), (1, 0)
    if isinstance(node, BackRef):
        return (1, 0), (1, 1)
    if isinstance(node, Group):
        return _bound(node.body, icase, unicode, depth + 1)
    if isinstance(node, Look):
        inner = _bound(node.body, icase, unicode, depth + 1)
        return None if inner is None else ((1, 0), inner[1])
    if isinstance(node, Alt):
        ways, work = (0, 0), (0, 0)
        for alternative in node.alternatives:
            inner = _bound(alternative, icase, unicode, depth + 1)
            if inner is None:
                return None
            ways, work = _plus(ways, inner[0]), _plus(work, inner[1])
        return ways, work
    if isinstance(node, Seq):
        return _sequence(node.items, icase, unicode, depth)
    if isinstance(node, Quant):
        return _quantifier_bound(node, icase, unicode, depth)
    return None


def _sequence(items: list[Node], icase: bool, unicode: bool, depth: int) -> tuple[_Linear, _Linear] | None:
    ways: _Linear = (1, 0)
    work: _Linear = (0, 0)
    i = 0
    while i < len(items):
        item = items[i]
        step = None
        if i + 1 < len(items) and _disjoint_follow(item, items[i + 1], icase, unicode):
            step = ((1, 0), (2, 2))  # the scan, one test of the next character per way, one way on
            i += 2
        else:
            step = _bound(item, icase, unicode, depth + 1)
            i += 1
        if step is None:
            return None
        more = _times(ways, step[1])
        ways_next = _times(ways, step[0])
        if more is None or ways_next is None:
            return None
        work, ways = _plus(work, more), ways_next
        if work[0] + work[1] > _WORK_CAP or ways[0] + ways[1] > _WORK_CAP:
            return None
    return ways, work


def _quantifier_bound(node: Quant, icase: bool, unicode: bool, depth: int) -> tuple[_Linear, _Linear] | None:
    if node.max >= INFINITY:
        if _single(node) is None:
            return None
        return (1, 1), (1, 2)  # at most N iterations, each one character; scanned, then given back
    found = _ways_and_length(node, depth + 1)  # bounded: the constant model
    if found is None:
        return None
    ways, length = found
    return (ways, 0), (ways * max(length, 1), 0)


def _single(node: Node) -> Node | None:
    """The one-character atom an unbounded quantifier (in a group or not) repeats, or None."""
    while isinstance(node, Group):
        node = node.body
    if not (isinstance(node, Quant) and node.max >= INFINITY):
        return None
    body = node.body
    while isinstance(body, Group) and body.index is None:
        body = body.body
    if isinstance(body, CharClass) and any(e.kind in "pP" for e in body.escapes):
        return None
    return body if isinstance(body, (Char, CharClass, ClassEscape, Dot)) else None


def _disjoint_follow(item: Node, after: Node, icase: bool, unicode: bool) -> bool:
    """``item`` repeats one character of a set without bound and ``after`` consumes one character of a
    set disjoint from it: only the longest run can be followed by ``after``."""
    body = _single(item)
    if body is None or isinstance(body, Dot) or not isinstance(after, (Char, CharClass, ClassEscape)):
        return False
    if isinstance(after, CharClass) and any(e.kind in "pP" for e in after.escapes):
        return False
    first = _members(body, icase, unicode)
    second = _members(after, icase, unicode)
    return not _overlap(first, second)


def _members(node: Node, icase: bool, unicode: bool) -> list[tuple[int, int]]:
    from . import _casefold as cf
    from ._literal import _class_ranges

    if isinstance(node, Char):
        values = cf.equivalents(node.value, unicode) if icase else (node.value,)
        return cf.normalize([(v, v) for v in values])
    assert isinstance(node, (CharClass, ClassEscape))
    return _class_ranges(node, icase, unicode)


def _overlap(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False
