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


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("role", ["assistant", "user", "custom", "odd", 1])
def test_the_compile_s_message_maker_makes_synthetic_message_s_messages(model: Any, role: Any) -> None:
    """One compile's maker (the assistant's shared members read once, each message a copy): the same
    message as ``synthetic_message``, key order included, and every message its own dicts and lists
    (a caller may change one without touching another)."""
    from forgec.compile.assemble import _MessageMaker

    runtime = load_context(None).runtime()
    runtime.model = model
    stack = {"id": "s", "defaults": {"syntheticMessagesVisible": True}}
    maker = _MessageMaker(stack, runtime)
    first, again = maker.make(role, "one"), maker.make(role, "two")
    for (made, made_role), text in ((first, "one"), (again, "two")):
        expected, expected_role = synthetic_message(role, text, stack, runtime)
        assert made_role == expected_role and made == expected
        assert list(made) == list(expected)
    one, two = first[0], again[0]
    assert one["content"] is not two["content"] and one["content"][0] is not two["content"][0]
    if role == "assistant":
        assert one["usage"] is not two["usage"] and one["usage"]["cost"] is not two["usage"]["cost"]
        one["usage"]["cost"]["total"] = 5
        one["api"] = "changed"
        assert maker.make(role, "three")[0] == synthetic_message(role, "three", stack, runtime)[0]


def test_a_plugin_compile_reads_the_model_at_each_message() -> None:
    """With a plugin (a custom macro) the runtime may change mid-compile: each assistant message reads
    the model as it is then (no maker), as the reference does; without one, the compile's messages
    are ``synthetic_message``'s."""
    from forgec.plugins import Registry

    runtime = load_context(None).runtime()
    runtime.model = {"api": "first", "provider": "p", "id": "m"}

    def switch(_ctx: Any) -> str:
        runtime.model = {"api": "second", "provider": "p", "id": "m"}
        return "switched"

    registry = Registry()
    registry.register_macro("switch", switch)
    items = [
        {"kind": "block", "id": "a", "role": "assistant", "content": "before"},
        {"kind": "block", "id": "b", "role": "user", "content": "{{switch}}"},
        {"kind": "block", "id": "c", "role": "assistant", "content": "after"},
    ]
    result = compile_messages({"items": items}, runtime, VariableStore.fresh({}), messages=[], registry=registry)
    assert [m.get("api") for m in result.messages] == ["first", None, "second"]
    runtime.model = {"api": "first", "provider": "p", "id": "m"}
    plain = [dict(item, content=item["content"].replace("{{switch}}", "x")) for item in items]
    result = compile_messages({"items": plain}, runtime, VariableStore.fresh({}), messages=[])
    assert result.messages == [synthetic_message(i["role"], i["content"], {}, runtime)[0] for i in plain]
