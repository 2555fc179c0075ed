"""System prompt and message assembly (compile-core.md §7, §8.1, §8.2, §1.4) on stacks without
macros or regex rules, with the observed values the specification gives."""

from __future__ import annotations

from typing import Any

from forgec.compile.assemble import compile_messages, compile_prompt, compile_system_prompt
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

NOW = 1773476813000


def _block(item_id: str, role: str | None, content: str, **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"kind": "block", "id": item_id, "content": content, **extra}
    if role is not None:
        item["role"] = role
    return item


def _history(item_id: str = "h", **extra: Any) -> dict[str, Any]:
    return {"kind": "slot", "id": item_id, "slot": "chat-history", **extra}


def _stack(*items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"schemaVersion": 1, "id": "s", "items": list(items), **extra}


def _runtime(**kw: Any) -> Runtime:
    kw.setdefault("now_ms", NOW)
    return Runtime(**kw)


def _system(stack: dict[str, Any], base: str = "BASE") -> tuple[str, list[tuple[str, str, Any]]]:
    result = compile_system_prompt(stack, _runtime(base_system_prompt=base), VariableStore.fresh({}))
    return result.prompt, [(d.level, d.message, d.item_id) for d in result.diagnostics]


def test_system_parts_trimmed_and_joined() -> None:
    stack = _stack(
        _block("a", "system", "A\n"),
        _block("b", "system", "   "),
        _block("c", "system", "\nB"),
        _block("d", "system", "D", enabled=False),
        _block("e", "user", "not system"),
        _block("f", None, "no role"),
    )
    assert _system(stack) == ("A\n\nB", [])


def test_modes() -> None:
    items = [_block("a", "system", "X")]
    assert _system(_stack(*items, mode="append"), "") == ("\n\nX", [])
    assert _system(_stack(*items, mode="prepend"), "") == ("X\n\n", [])
    assert _system(_stack(*items, mode="append"))[0] == "BASE\n\nX"
    assert _system(_stack(*items, mode="weird"))[0] == "X"


def test_empty_prompt_keeps_base_in_every_mode() -> None:
    for mode in ("replace", "append", "prepend"):
        assert _system(_stack(_block("a", "system", "  "), mode=mode)) == (
            "BASE",
            [("warning", "Compiled system prompt is empty; preserving base system prompt.", None)],
        )


def test_chat_history_in_system_warns_but_still_inserts_history() -> None:
    stack = _stack(_history(role="system"), _block("a", "system", "S"))
    assert _system(stack) == ("S", [("warning", "chat-history slot cannot be placed in the system prompt.", "h")])
    messages = [{"role": "user", "content": "hi", "timestamp": 1}]
    result = compile_messages(stack, _runtime(), VariableStore.fresh({}), messages)
    assert result.messages == messages
    assert result.sources == [
        {
            "kind": "chat-history",
            "itemId": "h",
            "slot": "chat-history",
            "historyIndex": 1,
            "historyCount": 1,
            "role": "user",
        }
    ]


def test_synthetic_messages_untrimmed_and_shapes() -> None:
    stack = _stack(
        _block("u", "user", "  hi there  \n", name="Greeting"),
        _block("blank", "user", "  \n "),
        _block("a", "assistant", "ok"),
        _block("c", "custom", "note"),
        _block("odd", "sysstem", "odd role"),
        _block("sys", "system", "system text"),
    )
    result = compile_messages(stack, _runtime(model=None), VariableStore.fresh({}), [])
    user, assistant, custom, odd = result.messages
    assert user == {"role": "user", "content": [{"type": "text", "text": "  hi there  \n"}], "timestamp": NOW}
    assert list(assistant) == ["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp"]
    assert (assistant["api"], assistant["provider"], assistant["model"]) == ("unknown", "unknown", "unknown")
    assert assistant["usage"]["cost"] == {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
    assert custom == {
        "role": "custom",
        "customType": "pi-forge",
        "content": [{"type": "text", "text": "note"}],
        "display": False,
        "details": {"stackId": "s"},
        "timestamp": NOW,
    }
    assert odd["role"] == "user"
    assert [s["role"] for s in result.sources] == ["user", "assistant", "custom", "user"]
    assert result.sources[0] == {"kind": "stack-item", "itemId": "u", "itemName": "Greeting", "role": "user"}
    assert result.diagnostics == []


def test_assistant_model_identity_and_visible_flag_as_given() -> None:
    stack = _stack(_block("a", "assistant", "x"), _block("c", "custom", "y"), defaults={"syntheticMessagesVisible": "no"})
    model = {"provider": "anthropic", "id": "claude", "api": "anthropic-messages"}
    result = compile_messages(stack, _runtime(model=model), VariableStore.fresh({}), [])
    assert (result.messages[0]["api"], result.messages[0]["provider"], result.messages[0]["model"]) == (
        "anthropic-messages",
        "anthropic",
        "claude",
    )
    assert result.messages[1]["display"] == "no"


def test_duplicate_history_slot() -> None:
    messages = [{"role": "user", "content": "q"}]
    stack = _stack(_history("h1"), _history("h2"))
    result = compile_messages(stack, _runtime(), VariableStore.fresh({}), messages)
    assert len(result.messages) == 1
    assert [(d.level, d.message, d.item_id) for d in result.diagnostics] == [
        ("warning", "Skipped duplicate chat-history slot.", "h2")
    ]
    allowed = _stack(_history("h1"), _history("h2"), context={"allowDuplicateChatHistory": "false"})
    result = compile_messages(allowed, _runtime(), VariableStore.fresh({}), messages)
    assert [s["itemId"] for s in result.sources] == ["h1", "h2"]
    assert result.diagnostics == []


def test_implicit_history_appended_after_synthetic_messages() -> None:
    messages = [{"role": "user", "content": "q"}, {"content": "no role"}]
    stack = _stack(_block("u", "user", "pre"))
    result = compile_messages(stack, _runtime(), VariableStore.fresh({}), messages)
    assert result.messages[1:] == messages
    assert result.sources[1:] == [
        {
            "kind": "implicit-history",
            "itemName": "Conversation history",
            "slot": "chat-history",
            "historyIndex": 1,
            "historyCount": 2,
            "role": "user",
        },
        {
            "kind": "implicit-history",
            "itemName": "Conversation history",
            "slot": "chat-history",
            "historyIndex": 2,
            "historyCount": 2,
            "role": "",
        },
    ]


def test_empty_history_still_counts_as_inserted() -> None:
    stack = _stack(_history(options={"roles": ["custom"]}))
    result = compile_messages(stack, _runtime(), VariableStore.fresh({}), [{"role": "user", "content": "q"}])
    assert result.messages == []


def test_compile_prompt_uses_runtime_messages() -> None:
    runtime = _runtime(messages=[{"role": "user", "content": "q"}], base_system_prompt="B")
    compiled = compile_prompt(_stack(), runtime, VariableStore.fresh({"x": 1}))
    assert compiled.system.prompt == "B"
    assert compiled.messages.messages == runtime.messages
    assert compiled.store.snapshot() == {"session": {"x": 1}, "turn": {}, "sessionDirty": False}
