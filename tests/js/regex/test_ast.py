"""The shared tree walks of ``forgec.js.regex._ast`` that every analysis (parser, emitter, non-empty
rewriter) goes through: group numbering as ECMAScript defines it, and no recursion limit on deep nesting."""

from __future__ import annotations

from forgec.js.regex._ast import BackRef, Char, Group, Seq, captures, children, descendants, max_match_is_zero
from forgec.js.regex._parser import parse


def test_captures_are_the_group_numbers_of_the_pattern() -> None:
    # groups are numbered by their opening parenthesis, lookaround and named groups included
    tree = parse(r"(a)(?:(b)|(?<n>c))*(?=(d))\1", "").tree
    assert captures(tree) == {1, 2, 3, 4}
    assert captures(parse("(?:a)(?=b)", "").tree) == set()


def test_descendants_reach_every_node_once() -> None:
    tree = parse(r"(a)(?:\1|\k<n>)+(?<n>b)", "").tree
    nodes = descendants(tree)
    assert nodes[0] is tree
    assert len({id(n) for n in nodes}) == len(nodes)
    assert [n.index for n in nodes if isinstance(n, BackRef)] == [1, 2]  # \k<n> resolved to group 2
    assert sorted(n.value for n in nodes if isinstance(n, Char)) == [ord("a"), ord("b")]


def test_children_are_in_pattern_order() -> None:
    tree = parse("a(b)c", "").tree
    assert isinstance(tree, Seq)
    kids = children(tree)
    assert [type(k) for k in kids] == [Char, Group, Char]
    assert children(kids[0]) == ()


def test_walks_do_not_recurse_on_deep_nesting() -> None:
    depth = 5000  # far beyond Python's default recursion limit of 1000
    tree = parse("(" * depth + "a" + ")" * depth, "").tree
    assert captures(tree) == set(range(1, depth + 1))
    # a named reference nested as deep is resolved by the parser through the same walk
    deep_ref = parse("(?<n>a)" + "(?:" * depth + r"\k<n>" + ")" * depth, "").tree
    assert [n.index for n in descendants(deep_ref) if isinstance(n, BackRef)] == [1]


def test_max_match_is_zero_counts_references_as_consuming_unless_told() -> None:
    tree = parse(r"(a)(?:\1|(?=b))", "").tree
    assert isinstance(tree, Seq)
    alternation = tree.items[1]
    assert not max_match_is_zero(alternation)  # V8: a backreference may consume
    assert max_match_is_zero(alternation, zero_ref=lambda ref: True)
