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
    images_of,
    is_blank,
    part_type,
    parts_of,
    sanitize_surrogates,
    text_of,
    thinking_budget,
    transform_messages,
    user_parts,
)
from forgec.emit.ids import identity_id
from forgec.js.values import js_truthy

__all__ = ["build_body"]

DEFAULT_BUDGETS: Final = {"minimal": 128, "low": 2048, "medium": 8192, "high": 32768}
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def _usable_signature(same_model: bool, signature: Any) -> str | None:
    if not same_model or not isinstance(signature, str) or not signature:
        return None
    # fullmatch: JavaScript's ``$`` (no ``m`` flag) does not match before a final line feed
    if len(signature) % 4 != 0 or not _BASE64.fullmatch(signature):
        return None
    return signature


def _inline(part: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if "mimeType" in part:
        data["mimeType"] = part["mimeType"]
    if "data" in part:
        data["data"] = part["data"]
    return {"inlineData": data}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        return {"role": "user", "parts": [{"text": sanitize_surrogates(content)}]}
    parts = user_parts(msg, model, lambda p: {"text": sanitize_surrogates(p.get("text"))}, _inline)
    return None if parts is None else {"role": "user", "parts": parts}


def _assistant(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    same = msg.get("provider") == model.provider and msg.get("model") == model.id
    parts: list[dict[str, Any]] = []
    for part in parts_of(msg):
        kind = part_type(part)
        if kind == "text":
            if is_blank(part.get("text")):
                continue
            out: dict[str, Any] = {"text": sanitize_surrogates(part.get("text"))}
            signature = _usable_signature(same, part.get("textSignature"))
        elif kind == "thinking":
            if is_blank(part.get("thinking")):
                continue
            text = sanitize_surrogates(part.get("thinking"))
            if same:
                out = {"thought": True, "text": text}
                signature = _usable_signature(same, part.get("thinkingSignature"))
            else:
                out, signature = {"text": text}, None
        elif kind == "toolCall":
            call: dict[str, Any] = {}
            if "name" in part:
                call["name"] = part["name"]
            args = part.get("arguments")
            call["args"] = args if args is not None else {}
            if model.id.startswith(("claude-", "gpt-oss-")) and "id" in part:
                call["id"] = part["id"]
            out = {"functionCall": call}
            signature = _usable_signature(same, part.get("thoughtSignature"))
        else:
            continue
        if signature is not None:
            out["thoughtSignature"] = signature
        parts.append(out)
    if not parts:
        return None
    return {"role": "model", "parts": parts}


def _tool_result(msg: dict[str, Any], model: Model, contents: list[dict[str, Any]]) -> None:
    parts = parts_of(msg)
    text = text_of(parts)
    images = images_of(parts) if model.supports_images else []
    value = sanitize_surrogates(text) if text else "(see attached image)" if images else ""
    response = {"error": value} if js_truthy(msg.get("isError")) else {"output": value}
    call: dict[str, Any] = {}
    if "toolName" in msg:
        call["name"] = msg["toolName"]
    call["response"] = response
    if model.id.startswith(("claude-", "gpt-oss-")) and "toolCallId" in msg:
        call["id"] = msg["toolCallId"]
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
