"""Rewrite a quantified body so that it only matches non-empty strings, keeping V8's order of tries.

ECMAScript's RepeatMatcher fails an iteration that ends where it started once the minimum count is
reached, and backtracks *into* the body for its next way of matching (``/(?:|a)+/`` matches ``aa``,
``/(\\w??)+/`` matches a whole word).  ``regex`` instead accepts such an iteration and stops looping,
and it has no way to compare the current position with the one an iteration started at.  So the emitter
writes a quantifier ``B{lo,hi}`` as ``B{lo}`` followed by ``NE(B){0,hi-lo}``, where ``NE(B)`` is built
here: ``B`` restricted to its non-empty matches, tried in the same order as ``B`` tries them.

``NE`` is exact or not built at all (``None``: the emitter keeps ``regex``'s behaviour).  It needs, for a
sequence of several parts that can each be empty, to know whether a part tries all its empty matches
first or last (lazy/greedy optional parts); bodies that interleave them, and references to groups that
may hold the empty string, are left alone (docs/compatibility.md, "Regex").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ._ast import (
    REPEAT_LIMIT,
    Alt,
    BackRef,
    CharClass,
    Empty,
    Group,
    Look,
    Node,
    Quant,
    Seq,
    captures,
    max_match_is_zero,
    nullable,
)

#: where a node's empty matches sit in its order of tries
Order = Literal["never", "always", "last", "first"]

NEVER = CharClass(False)  # emits (?!)


def _single(node: Node) -> bool:
    """True when ``node`` has at most one way to match at a position (so no order to preserve)."""
    if isinstance(node, Group):
        return _single(node.body)
    if isinstance(node, Seq):
        return all(_single(i) for i in node.items)
    if isinstance(node, Alt):
        return len(node.alternatives) == 1 and _single(node.alternatives[0])
    if isinstance(node, Quant):
        return node.min == node.max and _single(node.body)
    return True


@dataclass
class Rewriter:
    """Builds ``NE(B)`` for the bodies of one pattern: what it knows of the pattern's groups and references."""

    #: groups present in the tree, groups whose body can match empty, groups reset in loops
    present: set[int]
    nullable_groups: set[int]
    resettable: set[int]
    #: ids of backreferences that always match the empty string (forward references)
    forward: set[int]
    #: id(rewritten Quant) -> the Quant it derives from (they share one hidden group)
    twins: dict[int, Quant] = field(default_factory=dict)
    #: id(new BackRef) -> "strict" (only a set, non-empty value matches) or "unset" (only no value)
    ref_modes: dict[int, str] = field(default_factory=dict)
    #: rewriting a body inside a lookbehind (set by the emitter per call; NE never enters a lookaround)
    behind: bool = False
    #: groups that can only ever capture the empty string (a reference to one never consumes)
    zero_groups: set[int] = field(default_factory=set)

    # --- classification ------------------------------------------------------------------------
    def _zero(self, node: Node) -> bool:
        """Only ever matches the empty string.

        Inside a compound node the references are judged by what the emitter knows only when some group
        is empty-only (``zero_groups``); otherwise V8's rule (a reference may consume) is kept there.
        """
        if isinstance(node, BackRef):
            return self._zero_ref(node)
        return max_match_is_zero(node, self._zero_ref if self.zero_groups else None)

    def _zero_ref(self, node: BackRef) -> bool:
        """The reference never consumes: its group is absent, not yet closed, or only captures ""."""
        return node.index not in self.present or id(node) in self.forward or node.index in self.zero_groups

    def _ref_known(self, node: BackRef) -> bool:
        """The reference's value is either unset or non-empty (never the empty string)."""
        n = node.index
        return n is not None and n not in self.nullable_groups and n not in self.resettable

    def order(self, node: Node) -> Order | None:
        if not nullable(node):
            return "never"
        if self._zero(node):
            return "always"
        if isinstance(node, Group):
            return self.order(node.body)
        if isinstance(node, Quant):
            if node.min != 0 or (nullable(node.body) and self.non_empty(node.body) is None):
                return None
            return "last" if node.greedy else "first"  # the single empty try is the zero count
        if isinstance(node, Alt):
            return self._alt_order([self.order(a) for a in node.alternatives])
        if isinstance(node, Seq):
            # the parts' tries nest (first part outermost): the order survives only when each part has
            # a single empty try
            consuming = [i for i in node.items if not self._zero(i)]
            if not all(_single(i) for i in node.items if self._zero(i)):
                return None
            if not all(self._one_empty(i) for i in consuming):
                return None
            orders = {self.order(i) for i in consuming}
            return orders.pop() if len(orders) == 1 and orders <= {"last", "first"} else None
        return None  # a backreference whose value may be empty or not

    def _one_empty(self, node: Node) -> bool:
        """``node`` (nullable) has exactly one way to match the empty string."""
        if self._zero(node):
            return _single(node)
        if isinstance(node, BackRef):
            return self._ref_known(node)
        if isinstance(node, Group):
            return self._one_empty(node.body)
        if isinstance(node, Quant):
            return node.min == 0
        if isinstance(node, Alt):
            empties = [a for a in node.alternatives if nullable(a)]
            return len(empties) == 1 and self._one_empty(empties[0])
        if isinstance(node, Seq):
            return all(self._one_empty(i) for i in node.items)
        return False

    @staticmethod
    def _alt_order(orders: list[Order | None]) -> Order | None:
        if None in orders:
            return None
        # "last": non-empty tries, then a part that ends with empties, then only empties
        seen_empty = False
        last_ok = True
        for o in orders:
            if seen_empty and o != "always":
                last_ok = False
            if o in ("last", "always"):
                seen_empty = True
            elif o == "first":
                last_ok = False
        if last_ok:
            return "last"
        # "first": only empties, then a part that starts with empties, then non-empty tries
        seen_nonempty = False
        for o in orders:
            if seen_nonempty and o != "never":
                return None
            if o in ("first", "never"):
                seen_nonempty = True
            elif o == "last":
                return None
        return "first"

    # --- rewriting -----------------------------------------------------------------------------
    def non_empty(self, node: Node) -> Node | None:
        """``node`` restricted to its non-empty matches, in the same order; None if not exact."""
        if not nullable(node):
            return node
        if self._zero(node):
            return NEVER
        if isinstance(node, BackRef):
            return self._marked_ref(node, "strict")
        # a group or alternation keeps its shape; recursing directly (no helper shared with
        # empty()) keeps one frame per nesting level, as deep patterns need
        if isinstance(node, Group):
            inner = self.non_empty(node.body)
            return None if inner is None else Group(inner, node.index, node.name)
        if isinstance(node, Alt):
            alternatives = [self.non_empty(a) for a in node.alternatives]
            return None if any(a is None for a in alternatives) else Alt(alternatives)  # type: ignore[arg-type]
        if isinstance(node, Quant):
            if node.min > REPEAT_LIMIT:
                return None
            body = node.body
            if nullable(node.body):
                # its own iterations are non-empty ones (the emitter writes it as NE(body){0,max}), so
                # only the zero count is empty; with a minimum, the first iterations may be empty too
                restricted = self.non_empty(node.body) if node.min == 0 else None
                if restricted is None:
                    return None
                body = restricted
            twin = Quant(body, max(node.min, 1), node.max, node.greedy)
            self.twins[id(twin)] = self.twins.get(id(node), node)
            return twin
        if isinstance(node, Seq):
            # inside a lookbehind the parts are tried right to left: work in that order
            return self._seq_non_empty(node.items[::-1] if self.behind else node.items)
        return None  # pragma: no cover

    def _seq(self, items: list[Node]) -> Seq:
        """A sequence from parts listed in the order they are tried."""
        return Seq(items[::-1] if self.behind else items)

    def _seq_non_empty(self, items: list[Node]) -> Node | None:
        """NE of a sequence whose parts ``items`` are listed in the order they are tried."""
        consuming = [i for i, item in enumerate(items) if not self._zero(item)]
        if not consuming:
            return NEVER
        if len(consuming) == 1:
            part = self.non_empty(items[consuming[0]])
            if part is None:
                return None
            return self._seq([*items[: consuming[0]], part, *items[consuming[0] + 1:]])
        first = consuming[0]
        pre, head, post = items[:first], items[first], items[first + 1:]
        if not all(_single(i) for i in pre):
            return None
        order = self.order(head)
        if order not in ("last", "first"):
            return None
        head_ne, head_e, post_ne = self.non_empty(head), self.empty(head), self._seq_non_empty(post)
        if head_ne is None or head_e is None or post_ne is None:
            return None
        nonempty_first = self._seq([*pre, head_ne, *post])
        empty_first = self._seq([*pre, head_e, post_ne])
        if order == "last":
            return Alt([nonempty_first, empty_first])
        return Alt([empty_first, nonempty_first])

    def empty(self, node: Node) -> Node | None:
        """``node`` restricted to its empty matches, in the same order; None if not exact."""
        if not nullable(node):
            return NEVER
        if self._zero(node):
            return node
        if isinstance(node, BackRef):
            return self._marked_ref(node, "unset")
        if isinstance(node, Group):
            body = self.empty(node.body)
            return None if body is None else Group(body, node.index, node.name)
        if isinstance(node, Alt):
            alternatives = [self.empty(a) for a in node.alternatives]
            return None if any(a is None for a in alternatives) else Alt(alternatives)  # type: ignore[arg-type]
        if isinstance(node, Quant):
            if node.min != 0:
                return None
            return Empty()  # zero iterations: nothing matched, nothing captured
        if isinstance(node, Seq):
            items = [self.empty(i) for i in node.items]
            return None if any(i is None for i in items) else Seq(items)  # type: ignore[arg-type]
        return None  # pragma: no cover

    def _marked_ref(self, node: BackRef, mode: str) -> Node | None:
        """A copy of the reference that :meth:`non_empty` (``mode`` "strict") or :meth:`empty` ("unset")
        restricts; None when the group's value may be the empty string (then neither is exact)."""
        if not self._ref_known(node):
            return None
        ref = BackRef(node.index, node.name)
        self.ref_modes[id(ref)] = mode
        return ref


def forward_references(tree: Node) -> set[int]:
    """ids of the backreferences that can never see a value, so always match the empty string.

    That is a reference met before its group can have closed on any path (B1 #22): textually earlier
    (outside lookbehinds, which run right to left), in another alternative, or reset by a loop
    iteration that has not captured it yet (``/(()|\\2(.?))*/``: ``\\2`` is always empty).  Decided
    once on the tree, so that a body the emitter writes twice gets the same decision in both copies.
    """
    out: set[int] = set()

    def walk(node: Node, before: frozenset[int], behind: bool) -> frozenset[int]:
        """The groups that may hold a value after ``node``, given those that may before it."""
        if isinstance(node, BackRef):
            if node.index not in before:
                out.add(id(node))
            return before
        if isinstance(node, Group):
            after = walk(node.body, before, behind)
            return after | {node.index} if node.index is not None else after
        if isinstance(node, Look):
            after = walk(node.body, before, node.behind)
            return before if node.negative else after  # a negative lookaround keeps no capture
        if isinstance(node, Quant):
            if node.max == 0:
                return before
            # every iteration starts with the body's captures reset, so what it may see does not
            # depend on earlier iterations: one walk covers them all
            return before | walk(node.body, before - captures(node.body), behind)
        if isinstance(node, Seq):
            for item in node.items[::-1] if behind else node.items:
                before = walk(item, before, behind)
            return before
        if isinstance(node, Alt):
            after = frozenset[int]()
            for a in node.alternatives:
                after |= walk(a, before, behind)
            return after
        return before

    walk(tree, frozenset(), False)
    return out
