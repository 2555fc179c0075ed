"""The parse cache takes the replay cache's word on a first sight (``grammar.parse_seen``).

``expand_block`` asks the replay cache first (a replayed block needs no parse); its answer -- whether the
text was seen before -- stands for the parse cache's own, so a new block costs one cache call, not two.
A first sight is parsed without a look-up or a mark; a later one is looked up and kept at once.  The
AST is always :func:`parse`'s, and the compile timeline of both caches is the one ``parse`` gave:
kept from the second expansion, replayed from the third.
"""

from __future__ import annotations

import random
from typing import Any

from forgec.compile.macros import expand_text, grammar
from forgec.compile.macros.grammar import parse, parse_seen, parse_with_lark
from forgec.compile.macros.replay import REPLAYS
from forgec.model.variables import VariableStore

PIECES = ["{{", "}}", "::", "{", "}", ":", "a", " ", "{{getvar::x}}", "{{unknown}}", "\u00e9"]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["", "plain", "{{", "}}", "{{a}}", *("".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) for _ in range(count))]


def test_the_same_ast_as_parse_first_sight_or_not() -> None:
    for text in _texts(27, 400):
        grammar._CACHE.clear()
        expected = parse_with_lark(text)
        assert parse_seen(text, False) == expected, text
        assert parse_seen(text, True) == expected, text
        assert parse_seen(text, True) == parse(text) == expected, text


def test_a_first_sight_neither_looks_up_nor_marks() -> None:
    grammar._CACHE.clear()
    text = "{{getvar::a}} first sight"
    held = parse(text), parse(text)  # parse keeps it from its second sight
    assert held[1] is grammar._CACHE.get(text)
    misses = grammar._CACHE.misses
    hits = grammar._CACHE.hits
    doc = parse_seen(text, False)
    assert doc == held[1] and doc is not held[1]  # parsed again: no look-up
    assert (grammar._CACHE.hits, grammar._CACHE.misses) == (hits, misses)
    grammar._CACHE.clear()
    parse_seen(text, False)
    assert hash(text) not in grammar._CACHE._seen_once and len(grammar._CACHE) == 0


def test_a_later_sight_is_looked_up_and_kept_at_once() -> None:
    grammar._CACHE.clear()
    text = "{{getvar::a}} later sight"
    doc = parse_seen(text, True)
    assert grammar._CACHE.get(text) is doc
    assert parse_seen(text, True) is doc and parse(text) is doc


def test_a_compile_keeps_the_parse_from_the_second_expansion_and_replays_from_the_third() -> None:
    """The timeline of ``parse`` and ``get_or_mark`` as before: the first expansion leaves both caches
    without an entry, the second records and keeps the parse, the third replays (no parse at all)."""
    grammar._CACHE.clear()
    REPLAYS.clear()
    text = "{{getvar::a}}{{setvar::b::x}}{{unknownMacro}} timeline"
    outputs: list[Any] = []
    held = []
    for _ in range(4):
        hits = REPLAYS.hits
        outputs.append(expand_text(text, store=VariableStore(), item_id="item"))
        held.append((text in grammar._CACHE.held(), len(REPLAYS), REPLAYS.hits - hits))
    assert held == [(False, 0, 0), (True, 1, 0), (True, 1, 1), (True, 1, 1)]
    assert all(out == outputs[0] for out in outputs)
    REPLAYS.clear()


def test_a_text_new_to_the_replay_cache_is_parsed_again_to_the_same_output() -> None:
    """A text the parse cache holds (parsed twice by the linter, say) but the replay cache never saw is
    parsed afresh at its first expansion: same output, same findings."""
    grammar._CACHE.clear()
    REPLAYS.clear()
    text = "{{getvar::a}} {{unknownMacro}} linted first"
    parse(text)
    parse(text)
    expected = expand_text(text, store=VariableStore(), item_id="item")
    REPLAYS.clear()
    grammar._CACHE.clear()
    assert expand_text(text, store=VariableStore(), item_id="item") == expected
    REPLAYS.clear()


def test_what_is_not_recorded_parses_through_its_own_cache() -> None:
    """A block the replay cache never sees (a non-string item id) keeps the parse cache's own marks."""
    grammar._CACHE.clear()
    text = "{{unknownMacro}} numbered"
    expand_text(text, item_id=1)
    assert hash(text) in grammar._CACHE._seen_once
    expand_text(text, item_id=1)
    assert text in grammar._CACHE.held()
