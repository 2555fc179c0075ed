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
from forgec.emit.jsops import (
    PayloadError,
    array_method,
    iterate,
    js_add,
    js_gt,
    js_property_error,
    js_strict_equal,
    map_key,
    prop,
    put,
    string_method,
    to_number,
    trimmed,
)
from forgec.js.values import UNDEFINED, is_number, js_len, js_string, js_truthy, json_stringify

__all__ = [
    "PayloadError",
    "Request",
    "convert_to_llm",
    "estimate_message_tokens",
    "function_tool",
    "grouped_tool_results",
    "is_tool_result_run",
    "join_item",
    "js_property_error",
    "js_unsafe_id_chars",
    "output_token_cap",
    "sanitize_surrogates",
    "short_hash",
    "thinking_budget",
    "tool_output_text",
    "tools_json",
    "transform_messages",
    "unique_by_name",
    "usage_anchor",
]

IdNormaliser = Callable[[Any, Model, dict[str, Any]], Any]


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


# --- small helpers -------------------------------------------------------------------------------


_SURROGATE = re.compile("[\ud800-\udfff]")
_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


def sanitize_surrogates(text: Any) -> str:
    """pi-ai's ``sanitizeSurrogates``: drop unpaired UTF-16 surrogates (no-op on valid strings).

    It calls ``text.replace``, so anything but a string fails there (``text.replace is not a
    function``, ``Cannot read properties of undefined (reading 'replace')``)."""
    value = string_method(text, "replace", "text")
    if value.isascii() or _SURROGATE.search(value) is None:  # the common cases: two C-level checks
        return value
    return _LONE.sub("", value)


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


def part_type(part: Any) -> Any:
    return part.get("type") if isinstance(part, dict) else None


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


# --- pieces several API builders share (§5–§8) ----------------------------------------------------



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


# --- §3 output-token cap -------------------------------------------------------------------------


def _to_number(value: Any) -> float:
    """JavaScript ``ToNumber`` of a timestamp or usage field (kept for the analyses' callers)."""
    return to_number(value)


def _ceil_quarter(chars: float) -> float:
    """``Math.ceil(chars / 4)``; ``NaN`` stays ``NaN`` (a count that read a non-string's ``length``)."""
    return chars if math.isnan(chars) else math.ceil(chars / 4)


def js_max(*values: float) -> float:
    """``Math.max``: ``NaN`` if any argument is ``NaN`` (Python's ``max`` would ignore it)."""
    return math.nan if any(math.isnan(v) for v in values) else max(values)


def js_min(*values: float) -> float:
    """``Math.min``: ``NaN`` if any argument is ``NaN``."""
    return math.nan if any(math.isnan(v) for v in values) else min(values)


def _length(value: Any) -> float:
    """``value.length`` added to a count: a string's UTF-16 length, an array's length, ``NaN`` for
    any other value (``undefined`` added to a number); ``null``/``undefined`` throw (issue 12)."""
    length = prop(value, "length")
    return math.nan if length is UNDEFINED else float(length)


def _content_chars(content: Any) -> float:
    """pi-ai's ``estimateTextAndImageContentChars``: a string's length, else every block of the
    iterable (a text block's ``text.length``, 4800 for any other block)."""
    if isinstance(content, str):
        return js_len(content)
    chars = 0.0
    for block in iterate(content, "content"):
        chars += _length(prop(block, "text")) if prop(block, "type") == "text" else 4800
    return chars


def estimate_message_tokens(msg: dict[str, Any]) -> float:
    """pi-ai's per-message ``estimateMessageTokens``: ``ceil(chars / 4)``, images count 4800 chars.

    Written as pi-ai 0.83.0 reads the message, so a shape it does not expect fails or counts ``NaN``
    exactly where it does (``content is not iterable``, ``Cannot read properties of undefined
    (reading 'length')``)."""
    role = msg.get("role")
    if role in ("user", "toolResult"):
        return _ceil_quarter(_content_chars(prop(msg, "content")))
    chars = 0.0
    for block in iterate(prop(msg, "content"), "message.content"):
        kind = prop(block, "type")
        if kind == "text":
            chars += _length(prop(block, "text"))
        elif kind == "thinking":
            chars += _length(prop(block, "thinking"))
        else:
            name_length = _length(prop(block, "name"))
            args = json_stringify(prop(block, "arguments"))
            chars += name_length + js_len("undefined" if args is None else args)
    return _ceil_quarter(chars)


def _usage_value(msg: dict[str, Any]) -> Any:
    """``usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite``, with
    JavaScript's ``||`` and ``+`` (a string field concatenates; a missing one makes ``NaN``)."""
    usage = prop(msg, "usage")
    total = prop(usage, "totalTokens")
    if js_truthy(total):
        return total
    value = js_add(prop(usage, "input"), prop(usage, "output"))
    value = js_add(value, prop(usage, "cacheRead"))
    return js_add(value, prop(usage, "cacheWrite"))


def _usage_total(msg: dict[str, Any]) -> float:
    """The usage total as a number (``NaN`` where JavaScript's would not be one)."""
    return to_number(_usage_value(msg))


def _anchor_walk(messages: list[dict[str, Any]]) -> tuple[int, Any] | None:
    """pi-ai's ``getLastAssistantUsageInfo``: the last qualifying assistant turn and its raw usage total."""
    latest = -math.inf
    anchor: tuple[int, Any] | None = None
    for index, msg in enumerate(messages):
        stamp = to_number(prop(msg, "timestamp"))
        if msg.get("role") == "assistant":
            stop = prop(msg, "stopReason")
            if stamp >= latest and stop != "aborted" and stop != "error":
                total = _usage_value(msg)
                if js_gt(total, 0):
                    anchor = (index, total)
        latest = math.nan if math.isnan(stamp) or math.isnan(latest) else max(latest, stamp)
    return anchor


def _usage_anchor(messages: list[dict[str, Any]]) -> tuple[int, float] | None:
    anchor = _anchor_walk(messages)
    return None if anchor is None else (anchor[0], to_number(anchor[1]))


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
    """The token estimate behind the output cap (usage anchor, else characters).

    With an anchor pi-ai adds with JavaScript's ``+``: a usage total that is a string concatenates
    (``"7" + 3`` is ``"73"``, then ``+ 0`` for the added tools) before the subtraction makes a number.
    """
    anchor = _anchor_walk(messages)
    if anchor is not None:
        index, total = anchor
        trailing = 0.0
        for msg in messages[index + 1 :]:
            trailing += estimate_message_tokens(msg)
        return to_number(js_add(js_add(total, trailing), 0))
    estimate = 0.0
    for msg in messages:
        estimate += estimate_message_tokens(msg)
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
    """``provider``, ``api`` and ``model`` all equal the target's (``===``)."""
    return (
        js_strict_equal(msg.get("provider", UNDEFINED), model.provider)
        and js_strict_equal(msg.get("api", UNDEFINED), model.api)
        and js_strict_equal(msg.get("model", UNDEFINED), model.id)
    )


def _transform_block(
    block: Any,
    msg: dict[str, Any],
    own: bool,
    model: Model,
    normalise: IdNormaliser | None,
    id_map: dict[Any, Any],
) -> Any:
    """One block through pass 1's ``flatMap`` callback: a block, or a list to splice in."""
    kind = prop(block, "type")
    if kind == "thinking":
        if js_truthy(prop(block, "redacted")):
            return block if own else []
        if own and js_truthy(prop(block, "thinkingSignature")):
            return block
        thinking = prop(block, "thinking")
        if not js_truthy(thinking) or trimmed(thinking, "block.thinking") == "":
            return []
        if own:
            return block
        return {"type": "text", "text": thinking}
    if kind == "text":
        if own:
            return block
        out: dict[str, Any] = {"type": "text"}
        put(out, "text", prop(block, "text"))
        return out
    if kind == "toolCall":
        call = block
        if not own and js_truthy(prop(block, "thoughtSignature")):
            call = {k: v for k, v in block.items() if k != "thoughtSignature"}
        if not own and normalise is not None:
            old_id = prop(block, "id")
            new_id = normalise(old_id, model, msg)
            if not js_strict_equal(new_id, old_id):
                id_map[map_key(old_id)] = new_id
                call = {**call, "id": new_id}
        return call
    return block


def _transform_assistant(
    msg: dict[str, Any], model: Model, normalise: IdNormaliser | None, id_map: dict[Any, Any]
) -> dict[str, Any]:
    own = is_own_turn(msg, model)
    parts: list[Any] = []
    for block in array_method(prop(msg, "content"), "flatMap", "assistantMsg.content"):
        result = _transform_block(block, msg, own, model, normalise, id_map)
        # flatMap splices a returned array one level deep (an array block is replaced by its items)
        if isinstance(result, list):
            parts.extend(result)
        else:
            parts.append(result)
    return {**msg, "content": parts}


def _synthetic_result(call: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"role": "toolResult"}
    put(result, "toolCallId", prop(call, "id"))
    put(result, "toolName", prop(call, "name"))
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
            new_id = id_map.get(map_key(msg.get("toolCallId", UNDEFINED)))
            if js_truthy(new_id) and not js_strict_equal(new_id, msg.get("toolCallId", UNDEFINED)):
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
            if map_key(prop(call, "id")) not in seen:
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
            calls = [p for p in msg["content"] if prop(p, "type") == "toolCall"]
            if calls:
                pending = calls
                seen = set()
            result.append(msg)
        elif role == "toolResult":
            seen.add(map_key(msg.get("toolCallId", UNDEFINED)))
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
