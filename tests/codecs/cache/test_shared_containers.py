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

from forgec.codecs.stack import _normalised_sharing, _shared_containers, load_value
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


# --- the entry's own answer for a loaded stack: the members normalisation hands on ------------------------


def _random_member(rng: random.Random) -> Any:
    """A value a stack or item member may hold in a file: an object, an array or a scalar."""
    roll = rng.random()
    if roll < 0.45:
        return {f"m{i}": rng.choice([1, "x", [1, {"deep": True}], {"n": None}]) for i in range(rng.randrange(3))}
    if roll < 0.65:
        return [rng.choice([1, "x", {"in": "list"}]) for _ in range(rng.randrange(3))]
    return rng.choice(["text", 3, None, True, ""])


def _random_item(rng: random.Random) -> Any:
    if rng.random() < 0.1:
        return rng.choice(["not an item", 4, [{"source": {}}], None])
    keys = ["kind", "id", "name", "role", "content", "slot", "source", "options", "tags", "enabled", "extra"]
    rng.shuffle(keys)
    item: dict[str, Any] = {}
    for key in keys[: rng.randrange(len(keys) + 1)]:
        if key == "kind":
            item[key] = rng.choice(["block", "slot", "other", 1])
        elif key in ("source", "options", "extra", "tags"):
            item[key] = _random_member(rng)
        else:
            item[key] = rng.choice(["a", "chat-history", "user", " ", 2, None])
    return item


def _random_stack(rng: random.Random) -> dict[str, Any]:
    keys = ["schemaVersion", "id", "name", "defaults", "context", "regex", "import", "variables", "tools", "items", "other"]
    rng.shuffle(keys)
    raw: dict[str, Any] = {}
    for key in keys[: rng.randrange(4, len(keys) + 1)]:
        if key == "items":
            raw[key] = [_random_item(rng) for _ in range(rng.randrange(6))] if rng.random() < 0.9 else {"not": "a list"}
        elif key == "schemaVersion":
            raw[key] = 1
        elif key == "id":
            raw[key] = rng.choice(["stack", " ", "bad id!"])
        else:
            raw[key] = _random_member(rng)
    return raw


@pytest.mark.parametrize("seed", range(600))
def test_normalised_sharing_is_the_walk_on_random_stacks(seed: int) -> None:
    rng = random.Random(seed)
    raw = _random_stack(rng)
    stack, _ = load_value(raw, "stack.json")
    assert _normalised_sharing(stack, raw) == _shared_containers(stack, raw)


def test_random_stacks_share_at_every_place() -> None:
    """The random stacks above share each member normalisation hands on (not only the quick answer)."""
    places: set[Any] = set()
    for seed in range(600):
        rng = random.Random(seed)
        raw = _random_stack(rng)
        stack, _ = load_value(raw, "stack.json")
        for where, _ in _shared_containers(stack, raw):
            places.add(where[-1])
        assert len(_normalised_sharing(stack, raw)) == len(_shared_containers(stack, raw))
    assert places == {"defaults", "context", "regex", "import", "source", "options"}


def test_normalised_sharing_on_every_corpus_stack() -> None:
    files = sorted(CASES.glob("*/stack.json"))
    for path in files:
        document = read_source(str(path))
        if not document.parsed:
            continue
        stack, _ = load_value(document.data, path.name)
        assert _normalised_sharing(stack, document.data) == _shared_containers(stack, document.data), path


def test_normalised_sharing_outside_a_loaded_stack() -> None:
    """A root that is no object (the fallback stack), or a stack not normalised from the value: the walk answers."""
    stack, _ = load_value([1, {"a": {}}], "stack.json")
    assert _normalised_sharing(stack, [1, {"a": {}}]) == ()
    shared = {"k": 1}
    assert _normalised_sharing({"items": [{"source": shared}]}, {"items": [{"source": shared}, {}]}) == (
        (("items", 0, "source"), (("items", 0, "source"),)),
    )
