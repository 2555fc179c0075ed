"""The steps every target API shares (payloads.md §2–§4).

* :func:`convert_to_llm` — pi-coding-agent's ``convertToLlm``: agent messages to LLM messages.
* :func:`output_token_cap` — pi-ai's token estimate and output-token clamp.
* :func:`transform_messages` — pi-ai's ``transformMessages``: own-versus-foreign assistant turns,
  tool-call id normalisation and the repair of dangling tool calls / failed turns.

Messages are plain JSON data and are never mutated: a changed message is a shallow copy, as the
JavaScript spreads (``{...msg}``) are.  Where pi-ai would throw, :class:`PayloadError` carries the
message Pi records in the ``payloads`` entry.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from forgec.codecs.catalog import Model
from forgec.errors import EXIT_FAILED, ForgecError
from forgec.js.values import UNDEFINED, is_number, js_len, js_string, js_trim, js_truthy, json_stringify

__all__ = [
    "PayloadError",
    "Request",
    "convert_to_llm",
    "estimate_message_tokens",
    "function_tool",
    "grouped_tool_results",
    "is_blank",
    "is_tool_result_run",
    "join_item",
    "js_property_error",
    "js_unsafe_id_chars",
    "output_token_cap",
    "sanitize_surrogates",
    "short_hash",
    "text_of",
    "thinking_budget",
    "tool_output_text",
    "tools_json",
    "transform_messages",
    "unique_by_name",
    "usage_anchor",
    "user_parts",
]

IdNormaliser = Callable[[Any, Model, dict[str, Any]], Any]


class PayloadError(ForgecError):
    """pi-ai threw before the body was complete; the text becomes ``payloads.<api>.error``.

    Exit code 1: the input compiled, but the request pi-ai would build from it fails.
    """

    exit_code = EXIT_FAILED


@dataclass(frozen=True, slots=True)
class Request:
    """Everything an API builder needs: the section-2 LLM messages and the section-3 options."""

    system_prompt: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    level: str
    model: Model
    cap: int
    estimate: float
    session_id: str


def js_property_error(value: Any, prop: str) -> PayloadError:
    """V8's TypeError for reading a property of ``undefined``/``null``."""
    kind = "null" if value is None else "undefined"
    return PayloadError(f"Cannot read properties of {kind} (reading '{prop}')")


# --- small helpers -------------------------------------------------------------------------------


def is_blank(text: Any) -> bool:
    """``!text || text.trim() === ""`` for a string (JavaScript whitespace set)."""
    return not isinstance(text, str) or js_trim(text) == ""


_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


_SURROGATE = re.compile("[\ud800-\udfff]")


def sanitize_surrogates(text: Any) -> Any:
    """pi-ai's ``sanitizeSurrogates``: drop unpaired UTF-16 surrogates (no-op on valid strings).

    Every text of every message goes through here once per provider body, so the test is two C
    calls -- ``isascii`` (most texts), then one regex search for any surrogate -- instead of a
    per-character generator, which was ~11 % of a compile with payloads.
    """
    if not isinstance(text, str) or text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _LONE.sub("", text)


_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def js_unsafe_id_chars(text: str) -> str:
    """``text.replace(/[^a-zA-Z0-9_-]/g, "_")``: without the ``u`` flag JavaScript matches per UTF-16
    code unit, so a character outside the BMP (a surrogate pair) becomes two underscores."""
    return _ID_UNSAFE.sub(lambda m: "__" if ord(m.group()) > 0xFFFF else "_", text)


def short_hash(s: str) -> str:
    """pi-ai's ``shortHash``: a cyrb53-style hash of the UTF-16 units, in base 36."""
    m = 0xFFFFFFFF
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    data = s.encode("utf-16-le", "surrogatepass")
    for k in range(0, len(data), 2):
        c = data[k] | (data[k + 1] << 8)
        h1 = ((h1 ^ c) * 2654435761) & m
        h2 = ((h2 ^ c) * 1597334677) & m
    h1 = (((h1 ^ (h1 >> 16)) * 2246822507) & m) ^ (((h2 ^ (h2 >> 13)) * 3266489909) & m)
    h2 = (((h2 ^ (h2 >> 16)) * 2246822507) & m) ^ (((h1 ^ (h1 >> 13)) * 3266489909) & m)
    return _base36(h2) + _base36(h1)


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def parts_of(message: dict[str, Any]) -> list[Any]:
    """The content parts of a message whose content is a list (``[]`` otherwise)."""
    content = message.get("content")
    return content if isinstance(content, list) else []


def part_type(part: Any) -> Any:
    return part.get("type") if isinstance(part, dict) else None


def text_of(parts: list[Any]) -> str:
    """The texts of the ``text`` parts joined with ``\\n`` (tool-result conversion everywhere)."""
    return "\n".join(join_item(p.get("text")) for p in parts if part_type(p) == "text")


def join_item(value: Any) -> str:
    """Array ``join`` conversion: ``null``/``undefined`` become ``""``."""
    if value is None or value is UNDEFINED:
        return ""
    return value if isinstance(value, str) else js_string(value)


def _field_text(obj: dict[str, Any], key: str) -> str:
    """``obj.key`` inside a template literal or ``+`` concatenation: a missing key prints ``undefined``
    and ``null`` prints ``null`` (unlike ``join``, which prints both as ``""``)."""
    value = obj.get(key, UNDEFINED)
    return value if isinstance(value, str) else js_string(value)


def images_of(parts: list[Any]) -> list[dict[str, Any]]:
    return [p for p in parts if part_type(p) == "image"]


def data_url(image: dict[str, Any]) -> str:
    """``data:${mimeType};base64,${data}`` (a missing field prints ``undefined``, as in JavaScript)."""
    return f"data:{_field_text(image, 'mimeType')};base64,{_field_text(image, 'data')}"


# --- pieces several API builders share (§5–§8) ----------------------------------------------------

PartBuilder = Callable[[dict[str, Any]], dict[str, Any]]


def user_parts(
    msg: dict[str, Any], model: Model, text_part: PartBuilder, image_part: PartBuilder
) -> list[dict[str, Any]] | None:
    """A parts-list user message in an API's shapes: ``text`` parts through ``text_part``, every other
    part through ``image_part`` (dropped for a model without image input); ``None`` when nothing is
    left, which the Google and both OpenAI builders skip.  Anthropic also drops blank text, so it
    has its own loop."""
    parts: list[dict[str, Any]] = []
    for part in parts_of(msg):
        if part_type(part) == "text":
            parts.append(text_part(part))
        elif model.supports_images:
            parts.append(image_part(part if isinstance(part, dict) else {}))
    return parts or None


def grouped_tool_results(messages: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The messages in order, each alone, except that a run of consecutive ``toolResult`` messages
    comes as one list: Anthropic (§5) sends a run as one user turn and Chat Completions (§7) follows
    a run with one message holding its images."""
    run: list[dict[str, Any]] = []
    for msg in messages:
        if msg.get("role") == "toolResult":
            run.append(msg)
            continue
        if run:
            yield run
            run = []
        yield [msg]
    if run:
        yield run


def is_tool_result_run(group: list[dict[str, Any]]) -> bool:
    return group[0].get("role") == "toolResult"


def function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool as both OpenAI APIs declare it (§7 nests it under ``function``, §8 inlines it)."""
    return {
        "name": tool["name"],
        "description": tool["description"],
        "parameters": tool["parameters"],
        "strict": False,
    }


def unique_by_name(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tools de-duplicated by name (Anthropic §5, Responses §8): a later definition replaces an
    earlier one and takes its position, as ``Map.set`` on an existing key does."""
    by_name: dict[Any, dict[str, Any]] = {}
    for tool in tools:
        by_name[tool["name"]] = tool
    return list(by_name.values())


def tool_output_text(text: str, has_images: bool) -> str:
    """The two OpenAI APIs' tool-result text: the joined text, else a placeholder (§7, §8)."""
    if text:
        return text
    return "(see attached image)" if has_images else "(no tool output)"


def thinking_budget(model: Model, level: str, defaults: dict[str, int]) -> int:
    """The token budget of ``level`` (API defaults, overridden by the catalog's ``thinkingBudgets``)."""
    budget = {**defaults, **model.thinking_budgets}.get(level)
    if budget is None:
        raise PayloadError(f"Unsupported thinking level: {level}")
    return budget


# --- §2 host conversion --------------------------------------------------------------------------

_BRANCH_PREFIX: Final = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
_COMPACTION_PREFIX: Final = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)


def _with_timestamp(role_msg: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    if "timestamp" in source:
        role_msg["timestamp"] = source["timestamp"]
    return role_msg


def bash_execution_text(msg: dict[str, Any]) -> str:
    """pi-coding-agent's ``bashExecutionToText``."""
    text = f"Ran `{_field_text(msg, 'command')}`\n"
    output = msg.get("output")
    text += f"```\n{_field_text(msg, 'output')}\n```" if js_truthy(output) else "(no output)"
    exit_code = msg.get("exitCode")
    # ``exitCode !== 0``: only the number 0 is exempt (``false`` or ``"0"`` still print)
    if js_truthy(msg.get("cancelled")):
        text += "\n\n(command cancelled)"
    elif exit_code is not None and not (is_number(exit_code) and exit_code == 0):
        text += f"\n\nCommand exited with code {_field_text(msg, 'exitCode')}"
    if js_truthy(msg.get("truncated")) and js_truthy(msg.get("fullOutputPath")):
        text += f"\n\n[Output truncated. Full output: {_field_text(msg, 'fullOutputPath')}]"
    return text


def convert_to_llm(messages: list[Any]) -> list[dict[str, Any]]:
    """Agent messages to pi-ai LLM messages (custom, summary and bash messages become user text)."""
    out: list[dict[str, Any]] = []
    for msg in messages:
        if not isinstance(msg, dict):
            continue
        role = msg.get("role")
        if role in ("user", "assistant", "toolResult"):
            out.append(msg)
        elif role == "custom":
            content = msg.get("content")
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            out.append(_with_timestamp({"role": "user", "content": content}, msg))
        elif role == "branchSummary":
            text = _BRANCH_PREFIX + _field_text(msg, "summary") + "</summary>"
            out.append(_with_timestamp({"role": "user", "content": [{"type": "text", "text": text}]}, msg))
        elif role == "compactionSummary":
            text = _COMPACTION_PREFIX + _field_text(msg, "summary") + "\n</summary>"
            out.append(_with_timestamp({"role": "user", "content": [{"type": "text", "text": text}]}, msg))
        elif role == "bashExecution":
            if js_truthy(msg.get("excludeFromContext")):
                continue
            part = {"type": "text", "text": bash_execution_text(msg)}
            out.append(_with_timestamp({"role": "user", "content": [part]}, msg))
    return out


def reject_null_parts(messages: list[dict[str, Any]]) -> None:
    """pi-ai reads ``part.type`` of every content part of every LLM message (the estimate, the shared
    transform and each builder all start there), so a ``null`` part throws V8's TypeError whatever the
    target; the context schema admits one (issue 12, point 3).  Called after the estimate, whose own
    failures (an assistant turn without ``usage``) come first, as they do in pi-ai."""
    for msg in messages:
        content = msg.get("content")
        if isinstance(content, list) and any(part is None for part in content):
            raise js_property_error(None, "type")


# --- §3 output-token cap -------------------------------------------------------------------------


def _to_number(value: Any) -> float:
    """JavaScript ``ToNumber`` for the primitives a timestamp or usage field may hold."""
    if value is None:
        return 0.0
    if value is True or value is False:
        return float(value)
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0.0
        try:
            return float(text) if not text.lower().startswith(("inf", "+inf", "-inf", "nan")) else math.nan
        except ValueError:
            return math.nan
    return math.nan


def _ceil_quarter(chars: float) -> float:
    """``Math.ceil(chars / 4)``; ``NaN`` stays ``NaN`` (a count that read a non-string's ``length``)."""
    return chars if math.isnan(chars) else math.ceil(chars / 4)


def js_max(*values: float) -> float:
    """``Math.max``: ``NaN`` if any argument is ``NaN`` (Python's ``max`` would ignore it)."""
    return math.nan if any(math.isnan(v) for v in values) else max(values)


def js_min(*values: float) -> float:
    """``Math.min``: ``NaN`` if any argument is ``NaN``."""
    return math.nan if any(math.isnan(v) for v in values) else min(values)


def _name_length(name: Any) -> float:
    """``block.name.length`` of a tool call: a string's UTF-16 length, an array's length, ``NaN`` for a
    number, boolean or object (``undefined`` added to a number; issue 12).  A missing or ``null`` name
    counts 0 as before: no recorded case shows what pi-ai does there."""
    if isinstance(name, str):
        return js_len(name)
    if isinstance(name, list):
        return len(name)
    if name is None or name is UNDEFINED:
        return 0
    return math.nan


def estimate_message_tokens(msg: dict[str, Any]) -> float:
    """pi-ai's per-message ``estimateTokens``: ``ceil(chars / 4)``, images count 4800 chars."""
    role = msg.get("role")
    chars: float = 0
    content = msg.get("content")
    if role in ("user", "toolResult"):
        if isinstance(content, str):
            chars = js_len(content)
        elif isinstance(content, list):
            for part in content:
                if part_type(part) == "text":
                    chars += js_len(join_item(part.get("text")))
                else:
                    chars += 4800
    elif role == "assistant" and isinstance(content, list):
        for part in content:
            kind = part_type(part)
            if kind == "text":
                chars += js_len(join_item(part.get("text")))
            elif kind == "thinking":
                chars += js_len(join_item(part.get("thinking")))
            elif isinstance(part, dict):
                args = json_stringify(part["arguments"]) if "arguments" in part else None
                chars += _name_length(part.get("name")) + (9 if args is None else js_len(args))
    return _ceil_quarter(chars)


def _usage_total(msg: dict[str, Any]) -> float:
    """``usage.totalTokens || input + output + cacheRead + cacheWrite`` (a missing field is NaN)."""
    if "usage" not in msg:
        raise js_property_error(UNDEFINED, "totalTokens")
    usage = msg["usage"]
    if usage is None:
        raise js_property_error(None, "totalTokens")

    def field(name: str) -> float:
        # a property of a string, number or array that is not an object field reads as undefined
        return _to_number(usage[name]) if isinstance(usage, dict) and name in usage else math.nan

    total = field("totalTokens")
    if total and not math.isnan(total):
        return total
    return field("input") + field("output") + field("cacheRead") + field("cacheWrite")


def _usage_anchor(messages: list[dict[str, Any]]) -> tuple[int, float] | None:
    latest = -math.inf
    anchor: tuple[int, float] | None = None
    for index, msg in enumerate(messages):
        stamp = _to_number(msg["timestamp"]) if "timestamp" in msg else math.nan
        if (
            msg.get("role") == "assistant"
            and stamp >= latest
            and msg.get("stopReason") not in ("error", "aborted")
        ):
            total = _usage_total(msg)
            if total > 0:
                anchor = (index, total)
        latest = math.nan if math.isnan(stamp) or math.isnan(latest) else max(latest, stamp)
    return anchor


def _tools_json(tools: list[dict[str, Any]]) -> str:
    held = [
        {
            "name": t["name"],
            "label": t["name"],
            "description": t["description"],
            "parameters": t["parameters"],
        }
        for t in tools
    ]
    return json_stringify(held) or ""


#: public names for the analyses (``forgec tokens``), which count exactly what pi-ai counts
tools_json = _tools_json
usage_anchor = _usage_anchor


def context_estimate(
    system_prompt: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> float:
    """The token estimate behind the output cap (usage anchor, else characters)."""
    anchor = _usage_anchor(messages)
    if anchor is not None:
        index, total = anchor
        return total + sum(estimate_message_tokens(m) for m in messages[index + 1 :])
    estimate = sum(estimate_message_tokens(m) for m in messages)
    if system_prompt:
        estimate += _ceil_quarter(js_len(system_prompt))
    if tools:
        estimate += _ceil_quarter(js_len(_tools_json(tools)))
    return estimate


def clamp_output(model: Model, estimate: float, wanted: float) -> int:
    """``min(wanted, max(1, contextWindow − estimate − 4096))``."""
    available = model.context_window - estimate - 4096
    value = js_min(wanted, js_max(1, available))  # NaN when the estimate is NaN: the body prints null
    return int(value) if float(value).is_integer() else value  # type: ignore[return-value]


def output_token_cap(
    model: Model, system_prompt: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> tuple[int, float]:
    """``(cap, estimate)`` for the section-2 messages; the estimate is needed again by Anthropic."""
    estimate = context_estimate(system_prompt, messages, tools)
    return clamp_output(model, estimate, model.max_tokens), estimate


# --- §4 shared transform -------------------------------------------------------------------------


def _prepare(msg: dict[str, Any], model: Model) -> dict[str, Any]:
    content = msg.get("content")
    if content is None:
        return {**msg, "content": []}
    if (
        model.supports_images
        or not isinstance(content, list)
        or msg.get("role") not in ("user", "toolResult")
    ):
        return msg
    placeholder = (
        "(image omitted: model does not support images)"
        if msg.get("role") == "user"
        else "(tool image omitted: model does not support images)"
    )
    parts: list[Any] = []
    previous_image = False
    for part in content:
        if part_type(part) == "image":
            if not previous_image:
                parts.append({"type": "text", "text": placeholder})
            previous_image = True
        else:
            parts.append(part)
            previous_image = False
    return {**msg, "content": parts}


def is_own_turn(msg: dict[str, Any], model: Model) -> bool:
    return (
        msg.get("provider") == model.provider and msg.get("api") == model.api and msg.get("model") == model.id
    )


def _transform_assistant(
    msg: dict[str, Any], model: Model, normalise: IdNormaliser | None, id_map: dict[Any, Any]
) -> dict[str, Any]:
    own = is_own_turn(msg, model)
    parts: list[Any] = []
    for part in parts_of(msg):
        kind = part_type(part)
        if kind == "thinking":
            if js_truthy(part.get("redacted")):
                if own:
                    parts.append(part)
                continue
            if own and js_truthy(part.get("thinkingSignature")):
                parts.append(part)
                continue
            thinking = part.get("thinking")
            if is_blank(thinking):
                continue
            parts.append(part if own else {"type": "text", "text": thinking})
        elif kind == "text":
            parts.append(part if own else {"type": "text", "text": part.get("text")})
        elif kind == "toolCall":
            call = part
            if not own and js_truthy(call.get("thoughtSignature")):
                call = {k: v for k, v in call.items() if k != "thoughtSignature"}
            if not own and normalise is not None:
                old_id = part.get("id", UNDEFINED)
                new_id = normalise(old_id, model, msg)
                if new_id != old_id:
                    id_map[_set_key(old_id)] = new_id
                    call = {**call, "id": new_id}
            parts.append(call)
        else:
            parts.append(part)
    return {**msg, "content": parts}


def _set_key(value: Any) -> Any:
    """A key with JavaScript ``Map``/``Set`` semantics: primitives by value, objects by identity
    (so an object where an id belongs is looked up like JavaScript does, never hashed)."""
    return ("object", id(value)) if isinstance(value, (dict, list)) else value


def _synthetic_result(call: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"role": "toolResult"}
    if "id" in call:
        result["toolCallId"] = call["id"]
    if "name" in call:
        result["toolName"] = call["name"]
    result["content"] = [{"type": "text", "text": "No result provided"}]
    result["isError"] = True
    return result


def transform_messages(
    messages: list[dict[str, Any]], model: Model, normalise: IdNormaliser | None = None
) -> list[dict[str, Any]]:
    """pi-ai's ``transformMessages`` for ``model`` with the API's tool-call id normaliser."""
    id_map: dict[Any, Any] = {}
    first: list[dict[str, Any]] = []
    for raw in messages:
        msg = _prepare(raw, model)
        role = msg.get("role")
        if role == "toolResult":
            new_id = id_map.get(_set_key(msg.get("toolCallId")))
            if js_truthy(new_id) and new_id != msg.get("toolCallId"):
                msg = {**msg, "toolCallId": new_id}
        elif role == "assistant":
            msg = _transform_assistant(msg, model, normalise, id_map)
        first.append(msg)

    result: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    seen: set[Any] = set()

    def flush() -> None:
        nonlocal pending, seen
        for call in pending:
            if _set_key(call.get("id", UNDEFINED)) not in seen:
                result.append(_synthetic_result(call))
        pending = []
        seen = set()

    for msg in first:
        role = msg.get("role")
        if role == "assistant":
            if pending:
                flush()
            if msg.get("stopReason") in ("error", "aborted"):
                continue
            calls = [p for p in parts_of(msg) if part_type(p) == "toolCall"]
            if calls:
                pending = calls
                seen = set()
            result.append(msg)
        elif role == "toolResult":
            seen.add(_set_key(msg.get("toolCallId", UNDEFINED)))
            result.append(msg)
        elif role == "user":
            if pending:
                flush()
            result.append(msg)
        else:
            result.append(msg)
    if pending:
        flush()
    return result
