"""``openai-completions`` request bodies (payloads.md §7), for OpenAI-compatible providers.

The reference model is OpenRouter's ``google/gemini-2.5-flash``; its compatibility profile
(``system`` role, ``max_completion_tokens``, OpenRouter ``reasoning`` object) comes from the model
catalog's ``compat`` flags so other compatible providers can be described there too.
"""

from __future__ import annotations

from typing import Any

from forgec.emit.convert import (
    Request,
    data_url,
    images_of,
    is_blank,
    js_property_error,
    js_unsafe_id_chars,
    part_type,
    parts_of,
    sanitize_surrogates,
    short_hash,
    text_of,
    transform_messages,
)
from forgec.emit.models import Model
from forgec.jscompat import js_len, js_truthy, json_stringify, utf16_slice

__all__ = ["build_body", "normalise_tool_call_id"]


def normalise_tool_call_id(call_id: Any, model: Model, msg: dict[str, Any]) -> Any:
    """Ids with ``|`` (OpenAI Responses call|item pairs) are folded into 40 safe characters."""
    if not isinstance(call_id, str):
        raise js_property_error(call_id, "includes")
    if "|" not in call_id:
        return call_id
    call, _, item = call_id.partition("|")
    call = js_unsafe_id_chars(call)
    item = js_unsafe_id_chars(item)
    combined = f"{call}_{item}" if item else call
    if js_len(combined) <= 40:
        return combined
    return utf16_slice(call, 0, 31) + "_" + short_hash(call_id)[:8]


def _image_url(part: dict[str, Any]) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": data_url(part)}}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": sanitize_surrogates(content)}
    parts: list[dict[str, Any]] = []
    for part in parts_of(msg):
        if part_type(part) == "text":
            parts.append({"type": "text", "text": sanitize_surrogates(part.get("text"))})
        elif model.supports_images:
            parts.append(_image_url(part if isinstance(part, dict) else {}))
    if not parts:
        return None
    return {"role": "user", "content": parts}


def _parse_json(text: str) -> Any:
    from forgec.jsonparse import loads

    try:
        return loads(text)
    except ValueError:
        return None


def _assistant(msg: dict[str, Any]) -> dict[str, Any] | None:
    out: dict[str, Any] = {"role": "assistant", "content": None}
    parts = parts_of(msg)
    texts = [p for p in parts if part_type(p) == "text" and not is_blank(p.get("text"))]
    if texts:
        out["content"] = "".join(sanitize_surrogates(p["text"]) for p in texts)
    thinking = [p for p in parts if part_type(p) == "thinking" and not is_blank(p.get("thinking"))]
    if thinking:
        signature = thinking[0].get("thinkingSignature")
        if isinstance(signature, str) and signature:
            out[signature] = "\n".join(p["thinking"] for p in thinking)
    calls = [p for p in parts if part_type(p) == "toolCall"]
    if calls:
        tool_calls = []
        for call in calls:
            function: dict[str, Any] = {}
            if "name" in call:
                function["name"] = call["name"]
            arguments = json_stringify(call["arguments"]) if "arguments" in call else None
            if arguments is not None:
                function["arguments"] = arguments
            entry: dict[str, Any] = {}
            if "id" in call:
                entry["id"] = call["id"]
            entry["type"] = "function"
            entry["function"] = function
            tool_calls.append(entry)
        out["tool_calls"] = tool_calls
        details = [
            parsed
            for call in calls
            if isinstance(call.get("thoughtSignature"), str) and call["thoughtSignature"]
            for parsed in [_parse_json(call["thoughtSignature"])]
            if js_truthy(parsed)
        ]
        if details:
            out["reasoning_details"] = details
    content = out["content"]
    if not content and not calls:
        return None
    return out


def _tool_results(results: list[dict[str, Any]], model: Model) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    images: list[dict[str, Any]] = []
    for msg in results:
        parts = parts_of(msg)
        text = text_of(parts)
        found = images_of(parts) if model.supports_images else []
        content = text if text else "(see attached image)" if found else "(no tool output)"
        entry: dict[str, Any] = {"role": "tool", "content": sanitize_surrogates(content)}
        if "toolCallId" in msg:
            entry["tool_call_id"] = msg["toolCallId"]
        out.append(entry)
        images.extend(found)
    if images:
        out.append(
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Attached image(s) from tool result:"},
                    *(_image_url(i) for i in images),
                ],
            }
        )
    return out


def convert_messages(
    system_prompt: str, messages: list[dict[str, Any]], model: Model
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if system_prompt:
        role = (
            "developer" if model.compat.get("supportsDeveloperRole", True) and model.reasoning else "system"
        )
        out.append({"role": role, "content": sanitize_surrogates(system_prompt)})
    index = 0
    while index < len(messages):
        msg = messages[index]
        role = msg.get("role")
        if role == "toolResult":
            run: list[dict[str, Any]] = []
            while index < len(messages) and messages[index].get("role") == "toolResult":
                run.append(messages[index])
                index += 1
            out.extend(_tool_results(run, model))
            continue
        converted = _user(msg, model) if role == "user" else _assistant(msg) if role == "assistant" else None
        if converted is not None:
            out.append(converted)
        index += 1
    return out


def _has_tool_history(messages: list[dict[str, Any]]) -> bool:
    for msg in messages:
        if msg.get("role") == "toolResult":
            return True
        if msg.get("role") == "assistant" and any(part_type(p) == "toolCall" for p in parts_of(msg)):
            return True
    return False


def build_body(req: Request) -> dict[str, Any]:
    """The Chat Completions body for the section-2 messages (already clamped ``level``)."""
    system_prompt, tools, level, model, cap = req.system_prompt, req.tools, req.level, req.model, req.cap
    messages = transform_messages(req.messages, model, normalise_tool_call_id)
    compat = model.compat
    body: dict[str, Any] = {
        "model": model.id,
        "messages": convert_messages(system_prompt, messages, model),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if compat.get("supportsStore", True):
        body["store"] = False
    body[compat.get("maxTokensField", "max_completion_tokens")] = cap
    if tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t["name"],
                    "description": t["description"],
                    "parameters": t["parameters"],
                    "strict": False,
                },
            }
            for t in tools
        ]
    elif _has_tool_history(req.messages):
        body["tools"] = []
    if model.base_url.startswith("https://api.openai.com"):
        body["prompt_cache_key"] = utf16_slice(req.session_id, 0, 64)
    effort = model.thinking_level_map.get(level, level) if level != "off" else None
    if compat.get("thinkingFormat") == "openrouter":
        body["reasoning"] = {"effort": effort if effort is not None else "none"}
    elif model.reasoning and effort is not None:
        body["reasoning_effort"] = effort
    return body
