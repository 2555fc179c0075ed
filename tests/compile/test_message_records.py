"""The records the messages stage makes per stack item, made without helper calls: ``item_source`` is
``source_record("stack-item", ...)`` key for key, ``synthetic_message`` reads the model's ``api``,
``provider`` and ``id`` in place, and a string role is tested for truthiness without ``js_truthy``.
Each against what the general form gives, including the edge values where they could part."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.context import load_context
from forgec.compile.assemble import compile_messages, synthetic_message
from forgec.compile.plan import item_source, source_record
from forgec.js.values import UNDEFINED
from forgec.model.variables import VariableStore

ITEMS: list[dict[str, Any]] = [
    {"kind": "block", "id": "a", "name": "A", "role": "user", "content": "x"},
    {"kind": "block", "id": "b", "role": "assistant", "content": "x"},
    {"kind": "block", "name": None, "role": "custom"},
    {"kind": "block", "id": 3, "name": "", "extra": [1]},
    {},
]


@pytest.mark.parametrize("item", ITEMS)
@pytest.mark.parametrize("role", ["user", "assistant", "custom", ""])
def test_item_source_is_the_stack_item_record(item: dict[str, Any], role: str) -> None:
    made, general = item_source(item, role), source_record("stack-item", item, role)
    assert made == general
    assert list(made) == list(general)
    assert (made["itemId"] is UNDEFINED) == ("id" not in item)


MODELS: list[Any] = [
    {"api": "openai", "provider": "p", "id": "m"},
    {"api": None, "provider": 0, "id": ""},
    {"provider": False},
    {},
    None,
    ["not", "a", "dict"],
]


def _field(model: Any, key: str) -> Any:
    value = model.get(key) if isinstance(model, dict) else None
    return "unknown" if value is None else value


@pytest.mark.parametrize("model", MODELS)
def test_assistant_message_fields(model: Any) -> None:
    context = load_context(None)
    runtime = context.runtime()
    runtime.model = model
    message, role = synthetic_message("assistant", "hi", {}, runtime)
    assert role == "assistant"
    assert list(message) == ["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp"]
    assert (message["api"], message["provider"], message["model"]) == (
        _field(model, "api"), _field(model, "provider"), _field(model, "id")
    )


@pytest.mark.parametrize(
    ("role", "kept"),
    [("user", True), ("assistant", True), ("custom", True), ("odd", True), ("", False), ("system", False),
     (None, False), (0, False), (1, True), (float("nan"), False), ([], True), (False, False), (True, True)],
)
def test_which_roles_make_a_message(role: Any, kept: bool) -> None:
    stack = {"items": [{"kind": "block", "id": "b", "role": role, "content": "text"}]}
    context = load_context(None)
    result = compile_messages(stack, context.runtime(), VariableStore.fresh({}), messages=[])
    assert len(result.messages) == int(kept)
