"""The macro engine against the ``macro-*`` conformance cases, without the rest of the compiler.

Each case's blocks are expanded in stack order the way compile-core §7/§8 do (system blocks first,
trimmed and joined with a blank line; then message blocks, untrimmed), sharing one variable store.
Compared with ``expected.json``: the system prompt, the macro diagnostics of both stages, the text of
each synthetic message and the final variable store.  The full pipeline is checked by
``tests/conformance``; this keeps the engine's own corpus check independent of the other stages.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from forgec.compile.macros import expand_block
from forgec.diagnostics import Diagnostic, to_pi_list
from forgec.js.values import js_trim
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
MACRO_CASES = sorted(p for p in CASES.glob("macro-*") if (p / "stack.json").is_file())


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = []
    for part in content:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif kind == "image":
            texts.append("[image]")
        elif kind == "thinking" and isinstance(part.get("thinking"), str):
            texts.append(f"<thinking>\n{part['thinking']}\n</thinking>")
        elif kind == "toolCall":
            texts.append(f"[toolCall: {part.get('name')}]")
    return "\n".join(t for t in texts if t)


def _latest_user(messages: list[Any]) -> str | None:
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            text = _content_text(message.get("content"))
            if js_trim(text):
                return text
    return None


def _runtime(context: dict[str, Any]) -> tuple[Runtime, list[str]]:
    now = datetime.fromisoformat(context.get("now", "2026-01-01T00:00:00Z").replace("Z", "+00:00"))
    tools = [t["name"] for t in context.get("tools", []) if t.get("active", True)]
    messages = context.get("messages", [])
    latest = context["latestUserMessage"] if "latestUserMessage" in context else _latest_user(messages)
    runtime = Runtime(
        options={"cwd": context.get("cwd", "/home/dev/project"), "selectedTools": tools},
        model=context.get("model"),
        latest_user_message=latest,
        now_ms=int(now.timestamp() * 1000),
        time_zone=context.get("timezone", "UTC"),
        messages=messages,
    )
    return runtime, tools


def _apply_deny(stack: dict[str, Any], tools: list[str]) -> list[str]:
    policy = stack.get("tools") or {}
    assert set(policy) <= {"deny"}, "harness only models deny lists of exact names"
    return [t for t in tools if t not in policy.get("deny", [])]


@pytest.mark.parametrize("case", MACRO_CASES, ids=lambda p: p.name)
def test_macro_case(case: Path) -> None:
    stack = json.loads((case / "stack.json").read_text(encoding="utf-8"))
    context = json.loads((case / "context.json").read_text(encoding="utf-8"))
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    runtime, tools = _runtime(context)
    selected = _apply_deny(stack, tools)
    store = VariableStore.fresh(context.get("variables", {}))
    items = [(i, it) for i, it in enumerate(stack["items"]) if it.get("enabled") is not False]

    def expand(index: int, item: dict[str, Any], diagnostics: list[Diagnostic]) -> str:
        return expand_block(
            item.get("content", ""),
            item_id=item["id"],
            stack=stack,
            runtime=runtime,
            store=store,
            diagnostics=diagnostics,
            selected_tools=selected,
            pointer=("items", index, "content"),
        )

    system_diags: list[Diagnostic] = []
    parts = []
    for index, item in items:
        if item.get("kind") == "block" and item.get("role") == "system":
            text = js_trim(expand(index, item, system_diags))
            if text:
                parts.append(text)
    assert "\n\n".join(parts) == expected["system"]["prompt"]
    assert to_pi_list(system_diags) == expected["system"]["diagnostics"]

    message_diags: list[Diagnostic] = []
    sources = expected["messages"]["sources"]
    for index, item in items:
        if item.get("kind") == "block" and item.get("role") not in (None, "", "system"):
            text = expand(index, item, message_diags)
            positions = [n for n, s in enumerate(sources) if s.get("itemId") == item["id"]]
            if not js_trim(text):
                assert positions == []
                continue
            (position,) = positions
            assert expected["messages"]["messages"][position]["content"][0]["text"] == text
    assert to_pi_list(message_diags) == expected["messages"]["diagnostics"]
    assert json.loads(json.dumps(store.snapshot())) == expected["variables"]
    for diagnostic in system_diags + message_diags:  # every finding points into its block
        assert diagnostic.code in ("FG201", "FG202")
        content = stack["items"][diagnostic.pointer[1]]["content"]
        assert content[diagnostic.offset : diagnostic.offset + 2] == "{{"
        assert content[diagnostic.offset + diagnostic.length - 2 : diagnostic.offset + diagnostic.length] == "}}"
