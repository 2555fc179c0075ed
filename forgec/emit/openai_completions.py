"""``openai-completions`` request bodies (payloads.md §7), for OpenAI-compatible providers.

The reference model is OpenRouter's ``google/gemini-2.5-flash``; its compatibility profile
(``system`` role, ``max_completion_tokens``, OpenRouter ``reasoning`` object) comes from the model
catalog's ``compat`` flags so other compatible providers can be described there too.
"""

from __future__ import annotations

from typing import Any

from forgec.codecs.catalog import Model
from forgec.emit.convert import (
    Request,
    data_url,
    function_tool,
    grouped_tool_results,
    images_of,
    is_blank,
    is_tool_result_run,
    part_type,
    parts_of,
    sanitize_surrogates,
    text_of,
    tool_output_text,
    transform_messages,
    user_parts,
)
from forgec.emit.ids import completions_id
from forgec.js.values import js_truthy, json_stringify, utf16_slice

__all__ = ["build_body", "convert_messages"]


def _image_url(part: dict[str, Any]) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": data_url(part)}}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": sanitize_surrogates(content)}
    parts = user_parts(
        msg, model, lambda p: {"type": "text", "text": sanitize_surrogates(p.get("text"))}, _image_url
    )
    return None if parts is None else {"role": "user", "content": parts}


def _parse_json(text: str) -> Any:
    from forgec.js.json import loads

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
        entry: dict[str, Any] = {
            "role": "tool",
            "content": sanitize_surrogates(tool_output_text(text, bool(found))),
        }
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
        system_role = (
            "developer" if model.compat.get("supportsDeveloperRole", True) and model.reasoning else "system"
        )
        out.append({"role": system_role, "content": sanitize_surrogates(system_prompt)})
    for group in grouped_tool_results(messages):
        if is_tool_result_run(group):
            out.extend(_tool_results(group, model))
            continue
        msg = group[0]
        role = msg.get("role")
        converted = _user(msg, model) if role == "user" else _assistant(msg) if role == "assistant" else None
        if converted is not None:
            out.append(converted)
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
    messages = transform_messages(req.messages, model, completions_id)
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
        body["tools"] = [{"type": "function", "function": function_tool(t)} for t in tools]
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
