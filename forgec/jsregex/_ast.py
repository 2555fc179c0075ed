"""The syntax tree of an ECMAScript pattern, as V8's parser builds it.

Characters are integers: UTF-16 code units for patterns without ``u``, code points with ``u``
(import-regex B0 items 1–2).  The tree is produced by :mod:`._parser` and consumed by :mod:`._emit`.
"""

from __future__ import annotations

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
    value: int


@dataclass(slots=True)
class Dot(Node):
    pass


@dataclass(slots=True)
class ClassEscape(Node):
    """``\\d \\D \\s \\S \\w \\W`` (kind is the letter) or a property escape (kind ``p``/``P``)."""

    kind: str
    prop: tuple[str, str] | None = None  # (name, value) for \p{name=value}; ("", name) for \p{name}


@dataclass(slots=True)
class CharClass(Node):
    negated: bool
    ranges: list[tuple[int, int]] = field(default_factory=list)
    escapes: list[ClassEscape] = field(default_factory=list)


@dataclass(slots=True)
class Assertion(Node):
    kind: str  # "^", "$", "b", "B"


@dataclass(slots=True)
class Group(Node):
    body: Node
    index: int | None = None  # capture number, None for (?:…)
    name: str | None = None


@dataclass(slots=True)
class Look(Node):
    body: Node
    behind: bool
    negative: bool


@dataclass(slots=True)
class Quant(Node):
    body: Node
    min: int
    max: int
    greedy: bool
    hidden: int | None = None  # hidden wrapper group id assigned by the emitter


@dataclass(slots=True)
class BackRef(Node):
    index: int | None = None
    name: str | None = None


@dataclass(slots=True)
class Seq(Node):
    items: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class Alt(Node):
    alternatives: list[Node] = field(default_factory=list)


def max_match_is_zero(node: Node) -> bool:
    """True when ``node`` can only ever match the empty string (V8's ``max_match() == 0``)."""
    if isinstance(node, (Empty, Assertion, Look)):
        return True
    if isinstance(node, Group):
        return max_match_is_zero(node.body)
    if isinstance(node, Seq):
        return all(max_match_is_zero(i) for i in node.items)
    if isinstance(node, Alt):
        return all(max_match_is_zero(i) for i in node.alternatives)
    if isinstance(node, Quant):
        return node.max == 0 or max_match_is_zero(node.body)
    return False
