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
    function_tool,
    grouped_tool_results,
    is_tool_result_run,
    sanitize_surrogates,
    tool_output_text,
    transform_messages,
)
from forgec.emit.ids import completions_id
from forgec.emit.jsops import array_method, join_piece, js_gt, prop, put, template, trimmed
from forgec.js.values import js_truthy, json_stringify, utf16_slice

__all__ = ["build_body", "convert_messages"]


def _image_url(part: Any) -> dict[str, Any]:
    """``data:${mimeType};base64,${data}`` (template literals print ``undefined``/``null``)."""
    url = f"data:{template(prop(part, 'mimeType'))};base64,{template(prop(part, 'data'))}"
    return {"type": "image_url", "image_url": {"url": url}}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = prop(msg, "content")
    if isinstance(content, str):
        return {"role": "user", "content": sanitize_surrogates(content)}
    parts = [
        {"type": "text", "text": sanitize_surrogates(prop(item, "text"))}
        if prop(item, "type") == "text"
        else _image_url(item)
        for item in array_method(content, "map", "msg.content")
    ]
    return {"role": "user", "content": parts} if parts else None


def _parse_json(value: Any) -> Any:
    """``JSON.parse(value)`` inside a ``try`` whose ``catch`` answers ``null`` (the argument is
    converted to a string first: ``true`` parses, an object's ``[object Object]`` does not)."""
    from forgec.js.json import loads

    try:
        return loads(template(value))
    except ValueError:
        return None


def _assistant(msg: dict[str, Any]) -> dict[str, Any] | None:
    out: dict[str, Any] = {"role": "assistant", "content": None}
    content = prop(msg, "content")
    texts = [
        sanitize_surrogates(prop(b, "text"))
        for b in array_method(content, "filter", "msg.content")
        if prop(b, "type") == "text" and trimmed(prop(b, "text"), "block.text") != ""
    ]
    text = "".join(texts)
    thinking = [
        b
        for b in content
        if prop(b, "type") == "thinking" and trimmed(prop(b, "thinking"), "block.thinking") != ""
    ]
    if text:
        out["content"] = text
    if thinking:
        signature = prop(thinking[0], "thinkingSignature")
        if js_truthy(signature) and js_gt(prop(signature, "length"), 0):
            out[template(signature)] = "\n".join(join_piece(prop(b, "thinking")) for b in thinking)
    calls = [b for b in content if prop(b, "type") == "toolCall"]
    if calls:
        tool_calls = []
        for call in calls:
            function: dict[str, Any] = {}
            put(function, "name", prop(call, "name"))
            arguments = json_stringify(prop(call, "arguments"))
            if arguments is not None:
                function["arguments"] = arguments
            entry: dict[str, Any] = {}
            put(entry, "id", prop(call, "id"))
            entry["type"] = "function"
            entry["function"] = function
            tool_calls.append(entry)
        out["tool_calls"] = tool_calls
        details = [
            parsed
            for call in calls
            if js_truthy(prop(call, "thoughtSignature"))
            for parsed in [_parse_json(prop(call, "thoughtSignature"))]
            if js_truthy(parsed)
        ]
        if details:
            out["reasoning_details"] = details
    if not out["content"] and not calls:
        return None
    return out


def _tool_results(results: list[dict[str, Any]], model: Model) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    images: list[dict[str, Any]] = []
    for msg in results:
        content = prop(msg, "content")
        texts = [p for p in array_method(content, "filter", "toolMsg.content") if prop(p, "type") == "text"]
        text = "\n".join(join_piece(prop(p, "text")) for p in texts)
        has_images = any(prop(p, "type") == "image" for p in content)
        entry: dict[str, Any] = {
            "role": "tool",
            "content": sanitize_surrogates(tool_output_text(text, has_images)),
        }
        put(entry, "tool_call_id", prop(msg, "toolCallId"))
        out.append(entry)
        if has_images and model.supports_images:
            images.extend(p for p in content if prop(p, "type") == "image")
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
    """pi-ai's ``hasToolHistory`` over the messages *before* the shared transform (so it reads a
    ``null`` assistant content the transform had replaced: ``Cannot read properties of null``)."""
    for msg in messages:
        if msg.get("role") == "toolResult":
            return True
        if msg.get("role") == "assistant":
            content = array_method(prop(msg, "content"), "some", "msg.content")
            if any(prop(p, "type") == "toolCall" for p in content):
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
    if js_truthy(cap):  # ``if (options?.maxTokens)``: a NaN cap leaves the field out
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
