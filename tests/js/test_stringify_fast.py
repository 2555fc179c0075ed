"""The recursive JSON writer (``values._write_json``) against the iterative one it speeds up.

``_stringify_into`` is the writer every output of forgec went through until the recursive one took the
common, shallow case; it stays for deep data.  Both must write the same text for any value, so this
compares them over random values mixing everything ``JSON.stringify`` treats specially: ``undefined``
and holes, functions, array-index keys (JavaScript enumerates them first), lone and split surrogates,
non-finite and huge numbers, booleans (which are ``int`` in Python), tuples, dict subclasses, and
nesting on both sides of the recursive writer's depth limit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from forgec.js import values
from forgec.js.values import HOLE, UNDEFINED, JSNonPlainObject, dumps_report, json_stringify

_STRINGS = ["", "a", "0", "1", "01", "4294967294", "4294967295", "12", "x\x00", "\x001", "ü", "😀", "\ud800",
            "a\udc00b", "\ud83d\ude00"[:1], 'q"\\\n\t\x1f', "\u2028", "key", "Key", "k2"]
_NUMBERS: list[Any] = [0, -0.0, 1, -1, 1.5, 1e21, 1e-7, 2**53, 2**53 + 1, -(2**53), 10**400, float("nan"),
                       float("inf"), 0.1, 123456789012345678901.0, True, False]


def _value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth <= 0 or roll < 0.35:
        return rng.choice([*_STRINGS, *_NUMBERS, None, UNDEFINED, HOLE, len])
    if roll < 0.6:
        items = [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
        return tuple(items) if rng.random() < 0.1 else items
    roll = rng.random()
    if roll < 0.03:
        return JSNonPlainObject("Date", iso="2026-12-02T10:00:00.000Z")
    obj: dict[str, Any] = JSNonPlainObject("Map") if roll < 0.08 else {}
    for _ in range(rng.randrange(5)):
        obj[rng.choice(_STRINGS)] = _value(rng, depth - 1)
    return obj


def _iterative(value: Any, indent: int | None, sort_keys: bool) -> str:
    out: list[str] = []
    values._stringify_into(value, out, indent, "", sort_keys=sort_keys)
    return "".join(out)


@pytest.mark.parametrize("seed", range(40))
def test_random_values_are_written_as_the_iterative_writer_does(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        value = _value(rng, 5)
        for indent in (None, 0, 2, 4):
            fast: list[str] = []
            values._write_json(value, fast, indent, False)
            assert "".join(fast) == _iterative(value, indent, False)
        try:
            sorted_text = _iterative(value, 2, True)
        except TypeError:  # mixed key kinds cannot be sorted: both writers must refuse
            with pytest.raises(TypeError):
                values._write_json(value, [], 2, True)
            continue
        assert dumps_report(value) == sorted_text + "\n"


@pytest.mark.parametrize("depth", [values._FAST_DEPTH - 1, values._FAST_DEPTH, values._FAST_DEPTH + 1, 3000])
def test_nesting_around_the_depth_limit(depth: int) -> None:
    value: Any = {"1": "x", "a": [None]}
    for level in range(depth):
        value = [value, {"k": level}] if level % 2 else {"b": value, "0": level}
    for indent in (None, 2):
        assert json_stringify(value, indent) == _iterative(value, indent, False)


def test_javascript_key_order_and_skipped_members() -> None:
    obj = {"b": 1, "10": 2, "2": 3, "01": 4, "u": UNDEFINED, "f": len, "x\x001": 5}
    assert json_stringify(obj) == '{"2":3,"10":2,"b":1,"01":4,"x\\u00001":5}'
    assert json_stringify([UNDEFINED, HOLE, len, True, 2**53, float("nan")]) == "[null,null,null,true,9007199254740992,null]"
    assert json_stringify({"u": UNDEFINED}, 2) == "{}"


def test_a_bigint_still_refuses() -> None:
    with pytest.raises(TypeError, match="BigInt"):
        json_stringify({"a": [values.JSBigInt(1)]})
