"""``openai-responses`` request bodies (payloads.md §8).

The Responses API replays the model's own reasoning items (stored whole in ``thinkingSignature``),
gives assistant text items stable ``msg_…`` ids and splits ``call_id|item_id`` tool-call ids.
``prompt_cache_key`` is Pi's session id, which forgec pins (conformance.md *Determinism*).
"""

from __future__ import annotations

from typing import Any, Final

from forgec.codecs.catalog import Model
from forgec.emit.convert import (
    PayloadError,
    Request,
    function_tool,
    js_max,
    sanitize_surrogates,
    short_hash,
    tool_output_text,
    transform_messages,
    unique_by_name,
)
from forgec.emit.ids import responses_id
from forgec.emit.jsops import (
    array_method,
    destructure_split,
    iterate,
    join_piece,
    js_gt,
    js_strict_equal,
    prop,
    put,
    string_method,
    template,
)
from forgec.js.values import UNDEFINED, is_number, js_truthy, json_stringify, utf16_slice

__all__ = ["DEFAULT_SESSION_ID", "build_body", "convert_input"]

#: The session id the reference runner pins; Pi would use a fresh UUIDv7 per session.
DEFAULT_SESSION_ID: Final = "01950000-0000-7000-8000-000000000000"


def _parse_or_fail(text: str) -> Any:
    """``JSON.parse``; V8's SyntaxError text becomes the payload error (engine-specific wording)."""
    from forgec.js.json import JSONParseError, loads

    try:
        return loads(text)
    except JSONParseError as exc:
        raise PayloadError(exc.reason) from None


def _input_text(text: Any) -> dict[str, Any]:
    return {"type": "input_text", "text": sanitize_surrogates(text)}


def _input_image(part: Any) -> dict[str, Any]:
    url = f"data:{template(prop(part, 'mimeType'))};base64,{template(prop(part, 'data'))}"
    return {"type": "input_image", "detail": "auto", "image_url": url}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = prop(msg, "content")
    if isinstance(content, str):
        return {"role": "user", "content": [_input_text(content)]}
    parts = [
        _input_text(prop(item, "text")) if prop(item, "type") == "text" else _input_image(item)
        for item in array_method(content, "map", "msg.content")
    ]
    return {"role": "user", "content": parts} if parts else None


def _text_id(signature: Any) -> tuple[Any, Any]:
    """``parseTextSignature``: ``(id, phase)``, ``undefined`` for each that is missing."""
    if not js_truthy(signature):
        return UNDEFINED, UNDEFINED
    if string_method(signature, "startsWith", "signature").startswith("{"):
        from forgec.js.json import loads

        try:
            parsed = loads(signature)
        except ValueError:
            parsed = None
        version = parsed.get("v") if isinstance(parsed, dict) else None
        # ``v === 1``: a JSON ``true`` is not 1 (Python's ``True == 1`` would say it is)
        if is_number(version) and version == 1 and isinstance(parsed.get("id"), str):
            phase = parsed.get("phase")
            return parsed["id"], phase if phase in ("commentary", "final_answer") else UNDEFINED
    return signature, UNDEFINED


def _assistant(msg: dict[str, Any], model: Model, position: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    different_model = (
        not js_strict_equal(prop(msg, "model"), model.id)
        and js_strict_equal(prop(msg, "provider"), model.provider)
        and js_strict_equal(prop(msg, "api"), model.api)
    )
    text_index = 0
    for block in iterate(prop(msg, "content"), "msg.content"):
        kind = prop(block, "type")
        if kind == "thinking":
            signature = prop(block, "thinkingSignature")
            if js_truthy(signature):
                # JSON.parse converts a non-string first: an object becomes "[object Object]" and fails
                # with V8's SyntaxError, as pi-ai does (issue 12); 5 or true parse to themselves
                items.append(_parse_or_fail(template(signature)))
        elif kind == "text":
            item_id, phase = _text_id(prop(block, "textSignature"))
            fallback = f"msg_pi_{position}" if text_index == 0 else f"msg_pi_{position}_{text_index}"
            text_index += 1
            if not js_truthy(item_id):
                item_id = fallback
            elif js_gt(prop(item_id, "length"), 64):
                item_id = "msg_" + short_hash(item_id)
            item: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": sanitize_surrogates(prop(block, "text")), "annotations": []}
                ],
                "status": "completed",
                "id": item_id,
            }
            put(item, "phase", phase)
            items.append(item)
        elif kind == "toolCall":
            pieces = destructure_split(prop(block, "id"), "toolCall.id")
            item_id = pieces[1] if len(pieces) > 1 else UNDEFINED
            item = {"type": "function_call"}
            if isinstance(item_id, str) and item_id.startswith("fc_") and not different_model:
                item["id"] = item_id
            item["call_id"] = pieces[0]
            put(item, "name", prop(block, "name"))
            arguments = json_stringify(prop(block, "arguments"))
            if arguments is not None:
                item["arguments"] = arguments
            items.append(item)
    return items


def _tool_result(msg: dict[str, Any], model: Model) -> dict[str, Any]:
    call_id = destructure_split(prop(msg, "toolCallId"), "msg.toolCallId")[0]
    content = prop(msg, "content")
    texts = [p for p in array_method(content, "filter", "content") if prop(p, "type") == "text"]
    text = "\n".join(join_piece(prop(p, "text")) for p in texts)
    images = [p for p in content if prop(p, "type") == "image"]
    output: Any
    if not images or not model.supports_images:
        output = sanitize_surrogates(tool_output_text(text, bool(images)))
    else:
        output = [_input_text(text)] if text else []
        output.extend(_input_image(i) for i in images)
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def convert_input(system_prompt: str, messages: list[dict[str, Any]], model: Model) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if system_prompt:
        system_role = "developer" if model.reasoning else "system"
        items.append({"role": system_role, "content": sanitize_surrogates(system_prompt)})
    position = 0
    for msg in messages:
        role = msg.get("role")
        if role == "user":
            converted = _user(msg, model)
            if converted is None:
                continue
            items.append(converted)
        elif role == "assistant":
            produced = _assistant(msg, model, position)
            if not produced:
                continue
            items.extend(produced)
        elif role == "toolResult":
            items.append(_tool_result(msg, model))
        else:
            continue
        position += 1
    return items


def build_body(req: Request) -> dict[str, Any]:
    """The Responses API body for the section-2 messages (already clamped ``level``)."""
    model = req.model
    messages = transform_messages(req.messages, model, responses_id)
    body: dict[str, Any] = {
        "model": model.id,
        "input": convert_input(req.system_prompt, messages, model),
        "stream": True,
        "prompt_cache_key": utf16_slice(req.session_id, 0, 64),
        "store": False,
    }
    if js_truthy(req.cap):  # ``if (options?.maxTokens)``: a NaN cap leaves the field out
        body["max_output_tokens"] = js_max(req.cap, 16)
    if req.tools:
        body["tools"] = [{"type": "function", **function_tool(t)} for t in unique_by_name(req.tools)]
    if req.level == "off":
        off = model.thinking_level_map.get("off")
        if model.reasoning and off is not None:
            body["reasoning"] = {"effort": off}
    else:
        effort = model.thinking_level_map.get(req.level) or req.level
        body["reasoning"] = {"effort": effort, "summary": "auto"}
        body["include"] = ["reasoning.encrypted_content"]
    return body
