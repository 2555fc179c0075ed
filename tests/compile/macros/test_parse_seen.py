"""The parse cache takes the replay cache's word on a first sight (``grammar.parse_seen``).

``expand_block`` asks the replay cache first (a replayed block needs no parse); its answer -- whether the
text was seen before -- stands for the parse cache's own, so a new block costs one cache call, not two.
A first sight is parsed without a look-up or a mark; a later one is looked up and kept at once.  The
AST is always :func:`parse`'s.  A block is recorded from its second expansion and replayed from the third;
its parse is kept only when it is needed again (a block never recorded, a replay that failed).
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


def _timeline(text: str, stores: list[VariableStore]) -> tuple[list[Any], list[Any]]:
    grammar._CACHE.clear()
    REPLAYS.clear()
    outputs: list[Any] = []
    held = []
    for store in stores:
        hits = REPLAYS.hits
        outputs.append(expand_text(text, store=store, item_id="item"))
        held.append((text in grammar._CACHE.held(), len(REPLAYS), REPLAYS.hits - hits))
    REPLAYS.clear()
    grammar._CACHE.clear()
    return held, outputs


def test_a_compile_records_the_second_expansion_and_replays_from_the_third() -> None:
    """The first expansion leaves both caches without an entry, the second records it (from the top level,
    no parse: ``expand_first_sight`` traced), the third replays (no parse at all)."""
    text = "{{getvar::a}}{{setvar::b::x}}{{unknownMacro}} timeline"
    held, outputs = _timeline(text, [VariableStore() for _ in range(4)])
    assert held == [(False, 0, 0), (False, 1, 0), (False, 1, 1), (False, 1, 1)]
    assert all(out == outputs[0] for out in outputs)


def test_a_text_never_recorded_keeps_its_parse_from_the_second_expansion() -> None:
    """A block that reads a name it writes, or runs a built-in that is not replayable, is not recorded:
    its parse is kept at the second expansion, as before, and used from the third on."""
    for text in ["{{setvar::a::x}}{{getvar::a}} reads its write", "{{date}} {{getvar::a}} not replayable"]:
        held, outputs = _timeline(text, [VariableStore() for _ in range(4)])
        assert held == [(False, 0, 0), (True, 0, 0), (True, 0, 0), (True, 0, 0)], text
        assert all(out == outputs[0] for out in outputs), text


def test_a_replay_that_fails_parses_and_keeps_the_parse() -> None:
    """Recorded at the second expansion, the block reads another value at the third: no replay, so it is
    parsed (and kept) and recorded again; the fourth, with the same value, replays."""
    text = "{{getvar::a}} changes"
    stores = [VariableStore(), VariableStore(), VariableStore(turn={"a": "A"}), VariableStore(turn={"a": "A"})]
    held, outputs = _timeline(text, stores)
    # hits at the third: the look-up (no replay: another value) and the new record's own look-up
    assert held == [(False, 0, 0), (False, 1, 0), (True, 1, 2), (True, 1, 1)]
    assert [out[0] for out in outputs] == [" changes", " changes", "A changes", "A changes"]


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
