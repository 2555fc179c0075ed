"""The context nesting check: the same answer as the pointer walk, without its cost at 50k messages."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.context import CONTEXT_MAX_DEPTH, ContextError, _deeper_than, _too_deep, load_context


def _reference(value: Any, limit: int) -> tuple[str | int, ...] | None:
    """The pointer walk as it was before the fast check (every node's pointer built)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        current, pointer = stack.pop()
        if len(pointer) > limit:
            return pointer
        if type(current) is dict:
            stack.extend((c, (*pointer, k)) for k, c in current.items() if isinstance(c, (dict, list)))
        elif type(current) is list:
            stack.extend((c, (*pointer, i)) for i, c in enumerate(current) if isinstance(c, (dict, list)))
    return None


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _List(list):  # type: ignore[type-arg]
    pass


def _random_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 9 or roll < 0.3:
        return rng.choice([1, "x", None, True, 2.5, _Dict(a=[1]), _List([[1]]), {}, []])
    if roll < 0.65:
        return {f"k{i}": _random_value(rng, depth + 1) for i in range(rng.randint(0, 4))}
    return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def test_the_fast_check_agrees_with_the_pointer_walk() -> None:
    rng = random.Random(14)
    for _ in range(20_000):
        value = _random_value(rng, 0)
        limit = rng.randint(0, 8)
        assert _too_deep(value, limit) == _reference(value, limit)
        assert _deeper_than(value, limit) == (_reference(value, limit) is not None)


def _history(count: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for i in range(count):
        if i % 2:
            messages.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"answer {i}"}, {"type": "toolCall", "id": f"c{i}", "name": "read", "arguments": {"path": "a"}}],
                    "usage": {"input": 1, "output": 2, "cost": {"input": 0, "total": 0}},
                    "stopReason": "toolUse",
                    "timestamp": 1773476000000 + i,
                }
            )
        else:
            messages.append({"role": "user", "content": f"question {i}", "timestamp": 1773476000000 + i})
    return messages


def test_fifty_thousand_messages_pass_and_one_deep_value_among_them_is_named() -> None:
    context: dict[str, Any] = {"messages": _history(50_000)}
    assert _too_deep(context, CONTEXT_MAX_DEPTH) is None
    deep: Any = "leaf"
    for _ in range(CONTEXT_MAX_DEPTH + 1):
        deep = {"d": deep}
    context["messages"][31_337]["details"] = deep
    pointer = _too_deep(context, CONTEXT_MAX_DEPTH)
    assert pointer is not None and pointer == _reference(context, CONTEXT_MAX_DEPTH)
    assert pointer[:3] == ("messages", 31_337, "details")


def test_a_fifty_thousand_message_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"now": "2026-01-01T00:00:00Z", "messages": _history(50_000)}), encoding="utf-8")
    context = load_context(path)
    assert len(context.messages) == 50_000
    assert context.runtime().latest_user_message == "question 49998"


def test_a_too_deep_file_is_refused_with_the_pointer(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"variables": {"a": ' + "[" * 600 + "]" * 600 + "}}", encoding="utf-8")
    with pytest.raises(ContextError) as caught:
        load_context(path)
    assert "nested deeper than forgec's limit of 500" in str(caught.value)
    assert caught.value.pointer[:3] == ("variables", "a", 0)
