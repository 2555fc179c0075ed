"""``anthropic-messages`` request bodies (payloads.md §5).

Anthropic replays signed thinking of its own turns, rebuilds tool schemas from ``properties`` and
``required`` only, groups consecutive tool results into one user turn and places ephemeral cache
markers on the system prompt, the last tool and the last user turn.
"""

from __future__ import annotations

from typing import Any, Final

from forgec.emit.convert import (
    Request,
    clamp_output,
    grouped_tool_results,
    is_tool_result_run,
    js_max,
    js_min,
    sanitize_surrogates,
    thinking_budget,
    transform_messages,
    unique_by_name,
)
from forgec.emit.ids import anthropic_id
from forgec.emit.jsops import array_method, iterate, join_piece, nullish, prop, put, trimmed
from forgec.js.values import UNDEFINED, js_trim, js_truthy

__all__ = ["build_body", "convert_messages", "convert_tools"]

CACHE_CONTROL: Final = {"type": "ephemeral"}
DEFAULT_BUDGETS: Final = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}


def _image_block(part: Any) -> dict[str, Any]:
    source: dict[str, Any] = {"type": "base64"}
    put(source, "media_type", prop(part, "mimeType"))
    put(source, "data", prop(part, "data"))
    return {"type": "image", "source": source}


def _text_block(text: Any) -> dict[str, Any]:
    return {"type": "text", "text": sanitize_surrogates(text)}


def _user(msg: dict[str, Any]) -> dict[str, Any] | None:
    content = prop(msg, "content")
    if isinstance(content, str):
        if js_trim(content) == "":
            return None
        return {"role": "user", "content": sanitize_surrogates(content)}
    blocks = [
        _text_block(prop(item, "text")) if prop(item, "type") == "text" else _image_block(item)
        for item in array_method(content, "map", "msg.content")
    ]
    blocks = [b for b in blocks if b["type"] != "text" or js_trim(b["text"]) != ""]
    if not blocks:
        return None
    return {"role": "user", "content": blocks}


def _thinking(block: Any) -> dict[str, Any] | None:
    if js_truthy(prop(block, "redacted")):
        out: dict[str, Any] = {"type": "redacted_thinking"}
        put(out, "data", prop(block, "thinkingSignature"))
        return out
    signature = prop(block, "thinkingSignature")
    signed = js_truthy(signature) and trimmed(signature, "thinkingSignature") != ""
    thinking = prop(block, "thinking")
    if trimmed(thinking, "block.thinking") == "" and not signed:
        return None
    if not signed:
        return _text_block(thinking)
    return {"type": "thinking", "thinking": sanitize_surrogates(thinking), "signature": signature}


def _assistant(msg: dict[str, Any]) -> dict[str, Any] | None:
    blocks: list[dict[str, Any]] = []
    for block in iterate(prop(msg, "content"), "msg.content"):
        kind = prop(block, "type")
        if kind == "text":
            if trimmed(prop(block, "text"), "block.text") != "":
                blocks.append(_text_block(prop(block, "text")))
        elif kind == "thinking":
            converted = _thinking(block)
            if converted is not None:
                blocks.append(converted)
        elif kind == "toolCall":
            out: dict[str, Any] = {"type": "tool_use"}
            put(out, "id", prop(block, "id"))
            put(out, "name", prop(block, "name"))
            out["input"] = nullish(prop(block, "arguments"), {})
            blocks.append(out)
    if not blocks:
        return None
    return {"role": "assistant", "content": blocks}


def _tool_result_content(content: Any) -> Any:
    """pi-ai's ``convertContentBlocks``: without images, the ``text`` of every block joined with
    ``\n`` (a block without text joins as ``""``); with images, one block per part (any non-text
    part is an image), led by a placeholder when no text part exists."""
    parts = array_method(content, "some", "content")
    if not any(prop(p, "type") == "image" for p in parts):
        return sanitize_surrogates("\n".join(join_piece(prop(p, "text")) for p in parts))
    blocks = [_text_block(prop(p, "text")) if prop(p, "type") == "text" else _image_block(p) for p in parts]
    if not any(b["type"] == "text" for b in blocks):
        blocks.insert(0, {"type": "text", "text": "(see attached image)"})
    return blocks


def _tool_result(msg: dict[str, Any]) -> dict[str, Any]:
    content = _tool_result_content(prop(msg, "content"))
    block: dict[str, Any] = {"type": "tool_result"}
    put(block, "tool_use_id", prop(msg, "toolCallId"))
    block["content"] = content
    put(block, "is_error", prop(msg, "isError"))
    return block


def convert_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for group in grouped_tool_results(messages):
        if is_tool_result_run(group):
            out.append({"role": "user", "content": [_tool_result(msg) for msg in group]})
            continue
        msg = group[0]
        role = msg.get("role")
        converted = _user(msg) if role == "user" else _assistant(msg) if role == "assistant" else None
        if converted is not None:
            out.append(converted)
    if out and out[-1]["role"] == "user":
        last = out[-1]
        if isinstance(last["content"], str):
            last["content"] = [
                {"type": "text", "text": last["content"], "cache_control": dict(CACHE_CONTROL)}
            ]
        elif last["content"] and last["content"][-1].get("type") in ("text", "image", "tool_result"):
            last["content"][-1] = {**last["content"][-1], "cache_control": dict(CACHE_CONTROL)}
    return out


def convert_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for tool in unique_by_name(tools):
        params = tool["parameters"] if isinstance(tool["parameters"], dict) else {}
        # ``schema.properties ?? {}``: only a missing or null member is replaced (pi-ai 0.83.0)
        properties = nullish(params.get("properties", UNDEFINED), {})
        required = nullish(params.get("required", UNDEFINED), [])
        out.append(
            {
                "name": tool["name"],
                "description": tool["description"],
                "eager_input_streaming": True,
                "input_schema": {
                    "type": "object",
                    "properties": properties,
                    "required": required,
                },
            }
        )
    if out:
        out[-1]["cache_control"] = dict(CACHE_CONTROL)
    return out


def build_body(req: Request) -> dict[str, Any]:
    """The ``anthropic-messages`` params for the section-2 messages (already clamped ``level``)."""
    system_prompt, tools, level, model, cap = req.system_prompt, req.tools, req.level, req.model, req.cap
    messages = transform_messages(req.messages, model, anthropic_id)
    body: dict[str, Any] = {"model": model.id, "messages": convert_messages(messages), "max_tokens": cap}
    body["stream"] = True
    if system_prompt:
        body["system"] = [
            {"type": "text", "text": sanitize_surrogates(system_prompt), "cache_control": dict(CACHE_CONTROL)}
        ]
    if tools:
        body["tools"] = convert_tools(tools)
    if level == "off":
        body["thinking"] = {"type": "disabled"}
    else:
        budget: float = thinking_budget(model, level, DEFAULT_BUDGETS)
        wanted = js_min(cap + budget, model.max_tokens)  # JavaScript arithmetic: a NaN cap stays NaN
        if wanted <= budget:
            budget = max(0, wanted - 1024)
        max_tokens = clamp_output(model, req.estimate, wanted)
        budget_tokens = js_min(budget, js_max(0, max_tokens - 1024))
        budget_tokens = budget_tokens if js_truthy(budget_tokens) else 1024
        body["max_tokens"] = max_tokens
        body["thinking"] = {"type": "enabled", "budget_tokens": budget_tokens, "display": "summarized"}
    return body
