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
    data_url,
    function_tool,
    images_of,
    js_max,
    js_property_error,
    part_type,
    parts_of,
    sanitize_surrogates,
    short_hash,
    text_of,
    tool_output_text,
    transform_messages,
    unique_by_name,
    user_parts,
)
from forgec.emit.ids import responses_id
from forgec.js.values import UNDEFINED, is_number, js_len, js_string, js_truthy, json_stringify, utf16_slice

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


def _input_image(part: dict[str, Any]) -> dict[str, Any]:
    return {"type": "input_image", "detail": "auto", "image_url": data_url(part)}


def _user(msg: dict[str, Any], model: Model) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": [_input_text(content)]}
    parts = user_parts(msg, model, lambda p: _input_text(p.get("text")), _input_image)
    return None if parts is None else {"role": "user", "content": parts}


def _text_id(signature: Any) -> tuple[Any, str | None]:
    if not isinstance(signature, str) or not signature:
        return None, None
    if signature.startswith("{"):
        from forgec.js.json import loads

        try:
            parsed = loads(signature)
        except ValueError:
            parsed = None
        version = parsed.get("v") if isinstance(parsed, dict) else None
        # ``v === 1``: a JSON ``true`` is not 1 (Python's ``True == 1`` would say it is)
        if is_number(version) and version == 1 and isinstance(parsed.get("id"), str):
            phase = parsed.get("phase")
            return parsed["id"], phase if phase in ("commentary", "final_answer") else None
    return signature, None


def _assistant(msg: dict[str, Any], model: Model, position: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    different_model = (
        msg.get("provider") == model.provider and msg.get("api") == model.api and msg.get("model") != model.id
    )
    text_index = 0
    for part in parts_of(msg):
        kind = part_type(part)
        if kind == "thinking":
            signature = part.get("thinkingSignature")
            if js_truthy(signature):
                # JSON.parse converts a non-string first: an object becomes "[object Object]" and fails
                # with V8's SyntaxError, as pi-ai does (issue 12); 5 or true parse to themselves
                items.append(_parse_or_fail(signature if isinstance(signature, str) else js_string(signature)))
        elif kind == "text":
            item_id, phase = _text_id(part.get("textSignature"))
            if not item_id:
                item_id = f"msg_pi_{position}" if text_index == 0 else f"msg_pi_{position}_{text_index}"
            elif js_len(item_id) > 64:
                item_id = "msg_" + short_hash(item_id)
            item: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": sanitize_surrogates(part.get("text")), "annotations": []}
                ],
                "status": "completed",
                "id": item_id,
            }
            if phase is not None:
                item["phase"] = phase
            items.append(item)
            text_index += 1
        elif kind == "toolCall":
            call_id = part.get("id", UNDEFINED)
            if not isinstance(call_id, str):
                raise js_property_error(call_id, "split")
            pieces = call_id.split("|")
            item = {"type": "function_call"}
            if len(pieces) > 1 and pieces[1].startswith("fc_") and not different_model:
                item["id"] = pieces[1]
            item["call_id"] = pieces[0]
            if "name" in part:
                item["name"] = part["name"]
            arguments = json_stringify(part["arguments"]) if "arguments" in part else None
            if arguments is not None:
                item["arguments"] = arguments
            items.append(item)
    return items


def _tool_result(msg: dict[str, Any], model: Model) -> dict[str, Any]:
    call_id = msg.get("toolCallId", UNDEFINED)
    if not isinstance(call_id, str):
        raise js_property_error(call_id, "split")
    parts = parts_of(msg)
    text = text_of(parts)
    images = images_of(parts) if model.supports_images else []
    output: Any
    if not images:
        output = sanitize_surrogates(tool_output_text(text, False))
    else:
        output = [_input_text(text)] if text else []
        output.extend(_input_image(i) for i in images)
    return {"type": "function_call_output", "call_id": call_id.split("|")[0], "output": output}


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
        "max_output_tokens": js_max(req.cap, 16),
    }
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
