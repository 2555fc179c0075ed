"""The syntax tree of an ECMAScript pattern, as V8's parser builds it, and the walks over it.

Characters are integers: UTF-16 code units for patterns without ``u``, code points with ``u``
(import-regex B0 items 1–2).  The tree is produced by :mod:`._parser` and consumed by :mod:`._emit`.

Only :func:`children` and :func:`descendants` know which fields hold sub-patterns; every analysis goes
through them, so a new node kind is taught to all of them here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

INFINITY = 2**31 - 1  # V8's RegExpTree::kInfinity
REPEAT_LIMIT = 65535  # larger counts make `regex` allocate without bound; see docs/compatibility.md


@dataclass(slots=True)
class Node:
    """Base class of every pattern node."""


@dataclass(slots=True)
class Empty(Node):
    """Matches the empty string (``(?:)``, a backreference inside its own group)."""


@dataclass(slots=True)
class Char(Node):
    """One character: a UTF-16 code unit, or a code point with ``u``."""

    value: int


@dataclass(slots=True)
class Dot(Node):
    """``.``: any character but a line terminator (any at all with ``s``)."""


@dataclass(slots=True)
class ClassEscape(Node):
    """``\\d \\D \\s \\S \\w \\W`` (kind is the letter) or a property escape (kind ``p``/``P``)."""

    kind: str
    prop: tuple[str, str] | None = None  # (name, value) for \p{name=value}; ("", name) for \p{name}


@dataclass(slots=True)
class CharClass(Node):
    """``[…]`` or ``[^…]``: ranges of characters and class escapes."""

    negated: bool
    ranges: list[tuple[int, int]] = field(default_factory=list)
    escapes: list[ClassEscape] = field(default_factory=list)


@dataclass(slots=True)
class Assertion(Node):
    """``^``, ``$``, ``\\b`` or ``\\B``."""

    kind: str  # "^", "$", "b", "B"


@dataclass(slots=True)
class Group(Node):
    """``(…)``, ``(?<name>…)`` or ``(?:…)``."""

    body: Node
    index: int | None = None  # capture number, None for (?:…)
    name: str | None = None


@dataclass(slots=True)
class Look(Node):
    """A lookaround: ``(?=…)``, ``(?!…)``, ``(?<=…)`` or ``(?<!…)``."""

    body: Node
    behind: bool
    negative: bool


@dataclass(slots=True)
class Quant(Node):
    """``body`` repeated ``min`` to ``max`` times (:data:`INFINITY`: unbounded), greedy or lazy."""

    body: Node
    min: int
    max: int
    greedy: bool
    hidden: int | None = None  # hidden wrapper group id assigned by the emitter


@dataclass(slots=True)
class BackRef(Node):
    """A backreference: ``\\N`` (``index``) or ``\\k<name>`` (``name``)."""

    index: int | None = None
    name: str | None = None


@dataclass(slots=True)
class Seq(Node):
    """Its items, one after the other."""

    items: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class Alt(Node):
    """``a|b``: its alternatives, tried in order."""

    alternatives: list[Node] = field(default_factory=list)


def children(node: Node) -> Sequence[Node]:
    """The sub-patterns directly inside ``node``, in pattern order (none for an atom)."""
    if isinstance(node, (Group, Look, Quant)):
        return (node.body,)
    if isinstance(node, Seq):
        return node.items
    if isinstance(node, Alt):
        return node.alternatives
    return ()


def descendants(node: Node) -> list[Node]:
    """``node`` itself, then every node inside it (breadth first).

    Iterative, not recursive: the parser accepts patterns nested thousands of groups deep, and an
    order-free question (which groups, is there a reference) must not hit Python's recursion limit on
    them.  A list that grows while it is read, with :func:`children` repeated inline, because this runs
    over every node of every compiled pattern: a generator, or a call per node, made the emitter's
    analyses measurably slower (and deeper at the bottom of its recursion, lowering the nesting depth
    it handles).
    """
    found = [node]
    for n in found:
        if isinstance(n, (Group, Look, Quant)):
            found.append(n.body)
        elif isinstance(n, Seq):
            found.extend(n.items)
        elif isinstance(n, Alt):
            found.extend(n.alternatives)
    return found


def captures(node: Node) -> set[int]:
    """Capture numbers of the groups in ``node`` (``node`` itself included)."""
    found: set[int] = set()
    for n in descendants(node):
        if isinstance(n, Group) and n.index is not None:
            found.add(n.index)
    return found


def max_match_is_zero(node: Node, zero_ref: Callable[[BackRef], bool] | None = None) -> bool:
    """True when ``node`` can only ever match the empty string (V8's ``max_match() == 0``).

    V8 counts every backreference as possibly consuming, and so does this without ``zero_ref``; the
    non-empty rewriter (:mod:`._nonempty`) knows some references never consume (forward ones, those to
    empty-only groups) and passes ``zero_ref`` to say which.
    """
    if isinstance(node, (Empty, Assertion, Look)):
        return True
    if isinstance(node, Group):
        return max_match_is_zero(node.body, zero_ref)
    if isinstance(node, Seq):
        return all(max_match_is_zero(i, zero_ref) for i in node.items)
    if isinstance(node, Alt):
        return all(max_match_is_zero(a, zero_ref) for a in node.alternatives)
    if isinstance(node, Quant):
        return node.max == 0 or max_match_is_zero(node.body, zero_ref)
    return zero_ref is not None and isinstance(node, BackRef) and zero_ref(node)


def nullable(node: Node) -> bool:
    """True when ``node`` can match the empty string (a backreference can: its group may be empty)."""
    if isinstance(node, (Empty, Assertion, Look, BackRef)):
        return True
    if isinstance(node, Group):
        return nullable(node.body)
    if isinstance(node, Quant):
        return node.min == 0 or nullable(node.body)
    if isinstance(node, Seq):
        return all(nullable(i) for i in node.items)
    if isinstance(node, Alt):
        return any(nullable(a) for a in node.alternatives)
    return False
