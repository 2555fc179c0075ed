"""``google-generative-ai`` request parameters (payloads.md §6).

The recorded body is the ``@google/genai`` ``generateContentStream`` parameter object
(``{model, contents, config}``), not the REST JSON.  Gemini 2.x cannot nest images in a function
response, so tool-result images travel in a separate user turn.
"""

from __future__ import annotations

import re
from typing import Any, Final

from forgec.codecs.catalog import Model
from forgec.emit.convert import (
    Request,
    sanitize_surrogates,
    thinking_budget,
    transform_messages,
)
from forgec.emit.ids import identity_id
from forgec.emit.jsops import array_method, iterate, join_piece, js_strict_equal, nullish, prop, put, trimmed
from forgec.js.values import UNDEFINED, js_truthy

__all__ = ["build_body"]

DEFAULT_BUDGETS: Final = {"minimal": 128, "low": 2048, "medium": 8192, "high": 32768}
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def _usable_signature(same_model: bool, signature: Any) -> Any:
    """``resolveThoughtSignature``: a same-model signature that looks like base64, else ``undefined``.

    ``isValidThoughtSignature`` reads ``signature.length`` and tests the text: no value but a string
    passes (an array's length is never a multiple of 4 with a text free of commas)."""
    if not same_model or not isinstance(signature, str) or not signature:
        return UNDEFINED
    # fullmatch: JavaScript's ``$`` (no ``m`` flag) does not match before a final line feed
    if len(signature) % 4 != 0 or not _BASE64.fullmatch(signature):
        return UNDEFINED
    return signature


def _inline(part: Any) -> dict[str, Any]:
    data: dict[str, Any] = {}
    put(data, "mimeType", prop(part, "mimeType"))
    put(data, "data", prop(part, "data"))
    return {"inlineData": data}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = prop(msg, "content")
    if isinstance(content, str):
        return {"role": "user", "parts": [{"text": sanitize_surrogates(content)}]}
    parts = [
        {"text": sanitize_surrogates(prop(item, "text"))} if prop(item, "type") == "text" else _inline(item)
        for item in array_method(content, "map", "msg.content")
    ]
    return {"role": "user", "parts": parts} if parts else None


def _skip_text(value: Any, expr: str) -> bool:
    """``!value || value.trim() === ""``."""
    return not js_truthy(value) or trimmed(value, expr) == ""


def _assistant(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    same = js_strict_equal(prop(msg, "provider"), model.provider) and js_strict_equal(
        prop(msg, "model"), model.id
    )
    parts: list[dict[str, Any]] = []
    for block in iterate(prop(msg, "content"), "msg.content"):
        kind = prop(block, "type")
        if kind == "text":
            if _skip_text(prop(block, "text"), "block.text"):
                continue
            signature = _usable_signature(same, prop(block, "textSignature"))
            out: dict[str, Any] = {"text": sanitize_surrogates(prop(block, "text"))}
        elif kind == "thinking":
            if _skip_text(prop(block, "thinking"), "block.thinking"):
                continue
            if same:
                signature = _usable_signature(same, prop(block, "thinkingSignature"))
                out = {"thought": True, "text": sanitize_surrogates(prop(block, "thinking"))}
            else:
                out, signature = {"text": sanitize_surrogates(prop(block, "thinking"))}, UNDEFINED
        elif kind == "toolCall":
            signature = _usable_signature(same, prop(block, "thoughtSignature"))
            call: dict[str, Any] = {}
            put(call, "name", prop(block, "name"))
            call["args"] = nullish(prop(block, "arguments"), {})
            if model.id.startswith(("claude-", "gpt-oss-")):
                put(call, "id", prop(block, "id"))
            out = {"functionCall": call}
        else:
            continue
        if js_truthy(signature):
            out["thoughtSignature"] = signature
        parts.append(out)
    if not parts:
        return None
    return {"role": "model", "parts": parts}


def _tool_result(msg: dict[str, Any], model: Model, contents: list[dict[str, Any]]) -> None:
    content = prop(msg, "content")
    texts = [p for p in array_method(content, "filter", "msg.content") if prop(p, "type") == "text"]
    text = "\n".join(join_piece(prop(p, "text")) for p in texts)
    images = [p for p in content if prop(p, "type") == "image"] if model.supports_images else []
    value = sanitize_surrogates(text) if text else "(see attached image)" if images else ""
    response = {"error": value} if js_truthy(prop(msg, "isError")) else {"output": value}
    call: dict[str, Any] = {}
    put(call, "name", prop(msg, "toolName"))
    call["response"] = response
    if model.id.startswith(("claude-", "gpt-oss-")):
        put(call, "id", prop(msg, "toolCallId"))
    part = {"functionResponse": call}
    last = contents[-1] if contents else None
    if last is not None and last["role"] == "user" and any("functionResponse" in p for p in last["parts"]):
        last["parts"].append(part)
    else:
        contents.append({"role": "user", "parts": [part]})
    if images:
        contents.append(
            {"role": "user", "parts": [{"text": "Tool result image:"}, *(_inline(i) for i in images)]}
        )


def convert_messages(messages: list[dict[str, Any]], model: Model) -> list[dict[str, Any]]:
    contents: list[dict[str, Any]] = []
    for msg in messages:
        role = msg.get("role")
        if role == "toolResult":
            _tool_result(msg, model, contents)
            continue
        converted = (
            _user(msg, model) if role == "user" else _assistant(msg, model) if role == "assistant" else None
        )
        if converted is not None:
            contents.append(converted)
    return contents


def build_body(req: Request) -> dict[str, Any]:
    """The ``generateContentStream`` parameters (without the ``abortSignal``)."""
    system_prompt, tools, level, model, cap = req.system_prompt, req.tools, req.level, req.model, req.cap
    messages = transform_messages(req.messages, model, identity_id)
    config: dict[str, Any] = {"maxOutputTokens": cap}
    if system_prompt:
        config["systemInstruction"] = sanitize_surrogates(system_prompt)
    if tools:
        config["tools"] = [
            {
                "functionDeclarations": [
                    {
                        "name": t["name"],
                        "description": t["description"],
                        "parametersJsonSchema": t["parameters"],
                    }
                    for t in tools
                ]
            }
        ]
    if level == "off":
        config["thinkingConfig"] = {"thinkingBudget": 0}
    else:
        budget = thinking_budget(model, level, DEFAULT_BUDGETS)
        config["thinkingConfig"] = {"includeThoughts": True, "thinkingBudget": budget}
    return {"model": model.id, "contents": convert_messages(messages, model), "config": config}
