"""``_shared_containers`` (what a stack-cache entry notes of the containers its stack and raw value share)
gives exactly what the plain walk of every value gives.

The entry's walk looks for a shared container without paths first and makes paths only when there is
one, pushing containers only; the plain walk below (the one it replaced) pushes every value with its path.
Both must name the same containers by the same paths in the same order, on every corpus stack and on
random values that share containers in every way a value can (nested in a shared one, held twice, the
root itself).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.stack import _shared_containers, load_value
from forgec.source import read_source

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _plain_walk(stack: Any, raw: Any) -> tuple[Any, ...]:
    """The walk with a path per value (every value pushed), as the entry made it before."""
    in_stack: dict[int, tuple[Any, ...]] = {}
    pending: list[tuple[Any, tuple[Any, ...]]] = [(stack, ())]
    while pending:
        value, where = pending.pop()
        if isinstance(value, (dict, list)):
            if id(value) in in_stack:
                continue
            in_stack[id(value)] = where
            children = value.items() if isinstance(value, dict) else enumerate(value)
            pending.extend((child, (*where, key)) for key, child in children)
    found: dict[int, list[tuple[Any, ...]]] = {}
    order: list[int] = []
    pending = [(raw, ())]
    while pending:
        value, where = pending.pop()
        if not isinstance(value, (dict, list)):
            continue
        if id(value) in in_stack and where:
            if id(value) not in found:
                order.append(id(value))
                found[id(value)] = []
            found[id(value)].append(where)
            continue
        children = value.items() if isinstance(value, dict) else enumerate(value)
        pending.extend((child, (*where, key)) for key, child in children)
    return tuple((in_stack[key], tuple(found[key])) for key in order)


def _random_value(rng: random.Random, pool: list[Any], depth: int) -> Any:
    """A JSON-like value; containers may come from ``pool`` (shared with the other value)."""
    roll = rng.random()
    if depth > 0 and pool and roll < 0.2:
        return rng.choice(pool)
    if depth > 0 and roll < 0.55:
        if rng.random() < 0.5:
            made: Any = {f"k{i}": _random_value(rng, pool, depth - 1) for i in range(rng.randrange(4))}
        else:
            made = [_random_value(rng, pool, depth - 1) for _ in range(rng.randrange(4))]
        if rng.random() < 0.3:
            pool.append(made)
        return made
    return rng.choice(["text", 1, None, True, 2.5])


@pytest.mark.parametrize("seed", range(400))
def test_random_values_that_share_containers(seed: int) -> None:
    rng = random.Random(seed)
    pool: list[Any] = []
    raw = _random_value(rng, pool, 4)
    stack = _random_value(rng, pool, 4)
    if rng.random() < 0.1:
        stack = raw  # the same value on both sides
    elif rng.random() < 0.2 and isinstance(raw, dict):
        stack = {"held": raw, "again": raw}  # the raw root inside the stack
    assert _shared_containers(stack, raw) == _plain_walk(stack, raw)


def test_some_random_values_share_something() -> None:
    """The random values above do exercise the path walks, not only the quick answer."""
    shared = 0
    for seed in range(400):
        rng = random.Random(seed)
        pool: list[Any] = []
        raw = _random_value(rng, pool, 4)
        stack = _random_value(rng, pool, 4)
        shared += bool(_plain_walk(stack, raw))
    assert shared > 20


def test_every_corpus_stack() -> None:
    files = sorted(CASES.glob("*/stack.json"))
    assert files
    for path in files:
        document = read_source(str(path))
        if not document.parsed:
            continue
        stack, _ = load_value(document.data, path.name)
        assert _shared_containers(stack, document.data) == _plain_walk(stack, document.data), path


def test_nothing_shared_and_scalars() -> None:
    assert _shared_containers({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) == ()
    assert _shared_containers("text", {"a": 1}) == ()
    assert _shared_containers({"a": 1}, None) == ()
    inner = {"x": [1]}
    assert _shared_containers({"kept": inner}, {"d": {"inner": inner}, "l": [inner]}) == (
        (("kept",), (("l", 0), ("d", "inner"))),
    )
