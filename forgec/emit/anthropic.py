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
    is_blank,
    is_tool_result_run,
    join_item,
    js_max,
    js_min,
    part_type,
    parts_of,
    sanitize_surrogates,
    thinking_budget,
    transform_messages,
    unique_by_name,
)
from forgec.emit.ids import anthropic_id
from forgec.js.values import js_truthy

__all__ = ["build_body", "convert_messages", "convert_tools"]

CACHE_CONTROL: Final = {"type": "ephemeral"}
DEFAULT_BUDGETS: Final = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}


def _image_block(part: dict[str, Any]) -> dict[str, Any]:
    source: dict[str, Any] = {"type": "base64"}
    if "mimeType" in part:
        source["media_type"] = part["mimeType"]
    if "data" in part:
        source["data"] = part["data"]
    return {"type": "image", "source": source}


def _text_block(text: Any) -> dict[str, Any]:
    return {"type": "text", "text": sanitize_surrogates(text)}


def _user(msg: dict[str, Any]) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        if is_blank(content):
            return None
        return {"role": "user", "content": sanitize_surrogates(content)}
    blocks: list[dict[str, Any]] = []
    for part in parts_of(msg):
        if part_type(part) == "text":
            if not is_blank(part.get("text")):
                blocks.append(_text_block(part.get("text")))
        else:
            blocks.append(_image_block(part if isinstance(part, dict) else {}))
    if not blocks:
        return None
    return {"role": "user", "content": blocks}


def _assistant(msg: dict[str, Any]) -> dict[str, Any] | None:
    blocks: list[dict[str, Any]] = []
    for part in parts_of(msg):
        kind = part_type(part)
        if kind == "text":
            if not is_blank(part.get("text")):
                blocks.append(_text_block(part.get("text")))
        elif kind == "thinking":
            signature = part.get("thinkingSignature")
            if js_truthy(part.get("redacted")):
                block: dict[str, Any] = {"type": "redacted_thinking"}
                if "thinkingSignature" in part:
                    block["data"] = signature
                blocks.append(block)
                continue
            signed = not is_blank(signature)
            thinking = part.get("thinking")
            if is_blank(thinking) and not signed:
                continue
            if not signed:
                blocks.append(_text_block(thinking))
            else:
                blocks.append(
                    {"type": "thinking", "thinking": sanitize_surrogates(thinking), "signature": signature}
                )
        elif kind == "toolCall":
            block = {"type": "tool_use"}
            if "id" in part:
                block["id"] = part["id"]
            if "name" in part:
                block["name"] = part["name"]
            args = part.get("arguments")
            block["input"] = args if js_truthy(args) else {}
            blocks.append(block)
    if not blocks:
        return None
    return {"role": "assistant", "content": blocks}


def _tool_result_content(parts: list[Any]) -> Any:
    """pi-ai's ``convertContentBlocks``: without images, the ``text`` of every part joined with
    ``\n`` (a part without text joins as ``""``); with images, one block per part (any non-text
    part is an image), led by a placeholder when no text part exists."""
    if not any(part_type(p) == "image" for p in parts):
        return sanitize_surrogates(
            "\n".join(join_item(p.get("text") if isinstance(p, dict) else None) for p in parts)
        )
    blocks = [
        _text_block(p.get("text"))
        if part_type(p) == "text"
        else _image_block(p if isinstance(p, dict) else {})
        for p in parts
    ]
    if not any(part_type(p) == "text" for p in parts):
        blocks.insert(0, {"type": "text", "text": "(see attached image)"})
    return blocks


def _tool_result(msg: dict[str, Any]) -> dict[str, Any]:
    content = _tool_result_content(parts_of(msg))
    block: dict[str, Any] = {"type": "tool_result"}
    if "toolCallId" in msg:
        block["tool_use_id"] = msg["toolCallId"]
    block["content"] = content
    if "isError" in msg:
        block["is_error"] = msg["isError"]
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
        properties = params.get("properties")
        required = params.get("required")
        out.append(
            {
                "name": tool["name"],
                "description": tool["description"],
                "eager_input_streaming": True,
                "input_schema": {
                    "type": "object",
                    "properties": properties if js_truthy(properties) else {},
                    "required": required if js_truthy(required) else [],
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
