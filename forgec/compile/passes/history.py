"""The chat-history pipeline of one ``chat-history`` slot (compile-core.md §8.3–§8.6).

Messages are plain JSON data passed through verbatim; a message is copied only when it changes, and
then as a shallow copy with ``content`` replaced in place, so the key order stays what the host sent
(§8.8).  How each check reads a message's role is decided per check (§16.14), with the helpers of
:mod:`forgec.model.messages` (re-exported here) instead of ``msg.get("role")`` ad hoc.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import Any

from forgec.diagnostics import Diagnostic
from forgec.js.values import is_integral_number, js_string
from forgec.model.messages import SUMMARY_ROLES as _SUMMARY_ROLES
from forgec.model.messages import (
    content_text,
    latest_user_text,
    preview_len,
    preview_text,
    raw_role,
    role_of,
    roles_of,
)
from forgec.rules import compile as codes

__all__ = [
    "chat_history_pipeline",
    "content_text",
    "latest_user_text",
    "preview_text",
    "role_of",
]

# --- the pipeline ------------------------------------------------------------------------------


def _positive_int(value: Any) -> int | None:
    if is_integral_number(value) and value > 0:
        return int(value)
    return None


def _role_set(messages: list[Any]) -> set[str] | None:
    """The set of the messages' roles when every message is a dict with a string role (then each
    one's :func:`role_of` is that string), else ``None``; read in C, without a call per message."""
    try:
        roles: set[Any] = set(map(dict.get, messages, repeat("role")))
    except TypeError:  # a message that is no dict, or an unhashable role
        return None
    for role in roles:
        if type(role) is not str:
            return None
    return roles


def _info(diagnostics: list[Diagnostic], code: str, message: str, item_id: Any, pointer: Any) -> None:
    diagnostics.append(Diagnostic("info", message, code, item_id=item_id, pointer=pointer))


def chat_history_pipeline(
    messages: list[Any],
    item: dict[str, Any],
    diagnostics: list[Diagnostic],
    *,
    pointer: tuple[str | int, ...] | None = None,
) -> list[Any]:
    """§8.3: the messages one chat-history slot inserts, before its history-stage regex rules.

    ``messages`` is the host's original list (never modified); ``pointer`` locates the slot item in
    the stack document so findings about its options can be positioned.
    """
    raw_options = item.get("options")
    opts: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
    item_id = item.get("id")
    opt_pointer = (*pointer, "options") if pointer is not None else None
    result = list(messages)
    repair = False

    if opts.get("includeLastUserMessage") is False:
        for index in range(len(result) - 1, -1, -1):
            if raw_role(result[index]) == "user":
                del result[index]
                break

    # the roles of ``result`` as a set while it is the list they were read from: both role filters
    # test every message and usually keep them all, which a set test tells without a list built
    role_set: set[str] | None = None
    if opts.get("includeSummaries") is False:
        before = len(result)
        role_set = _role_set(result)
        if role_set is None or not role_set.isdisjoint(_SUMMARY_ROLES):
            result = [m for m, role in zip(result, roles_of(result), strict=True) if role not in _SUMMARY_ROLES]
            role_set = None
        if len(result) != before:
            _info(
                diagnostics,
                codes.HISTORY_SUMMARY_FILTER,
                f"Filtered {before - len(result)} chat-history message(s) by summary.",
                item_id,
                opt_pointer,
            )

    roles = opts.get("roles")
    if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles):
        wanted = set(roles)
        before = len(result)
        if role_set is None:
            role_set = _role_set(result)
        if role_set is None or not role_set <= wanted:
            result = [m for m, role in zip(result, roles_of(result), strict=True) if role in wanted]
        if len(result) != before:
            _info(
                diagnostics,
                codes.HISTORY_ROLE_FILTER,
                f"Filtered {before - len(result)} chat-history message(s) by role.",
                item_id,
                opt_pointer,
            )
        repair = True

    drop_tools = False
    if "toolMode" in opts:
        tool_mode = opts["toolMode"]
        if tool_mode == "drop" and isinstance(tool_mode, str):
            drop_tools = True
            result = _drop_tools(result, diagnostics, item_id, opt_pointer)
        elif not (tool_mode == "keep" and isinstance(tool_mode, str)):
            diagnostics.append(
                Diagnostic(
                    "warning",
                    f"Unsupported chat-history toolMode: {js_string(tool_mode)}.",
                    codes.HISTORY_TOOL_MODE,
                    item_id=item_id,
                    pointer=(*opt_pointer, "toolMode") if opt_pointer else None,
                )
            )

    if opts.get("stripAssistantThinking") is True:
        result = _strip_thinking(result, diagnostics, item_id, opt_pointer)

    max_messages = _positive_int(opts.get("maxMessages"))
    if max_messages is not None and len(result) > max_messages:
        before = len(result)
        result = result[before - max_messages :]
        _info(
            diagnostics,
            codes.HISTORY_MAX_MESSAGES,
            f"Trimmed chat history from {before} to {len(result)} message(s) by maxMessages.",
            item_id,
            opt_pointer,
        )
        repair = True

    max_chars = _positive_int(opts.get("maxChars"))
    if max_chars is not None and result:
        before = len(result)
        total = 0
        start = before
        for index in range(before - 1, -1, -1):
            size = preview_len(result[index])
            if index != before - 1 and total + size > max_chars:
                break
            total += size
            start = index
        if start > 0:
            result = result[start:]
            _info(
                diagnostics,
                codes.HISTORY_MAX_CHARS,
                f"Trimmed chat history from {before} to {len(result)} message(s) by maxChars.",
                item_id,
                opt_pointer,
            )
            repair = True

    if repair and not drop_tools:
        result = _repair_tool_pairs(result, diagnostics, item_id, opt_pointer)
    return result


def _strip_thinking(
    messages: list[Any], diagnostics: list[Diagnostic], item_id: Any, pointer: Any
) -> list[Any]:
    """§8.4 (an assistant message without a thinking part is kept without building anything)."""
    out: list[Any] = []
    blocks = changed = dropped = 0
    append = out.append
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            append(message)
            continue
        content = message.get("content")
        if not isinstance(content, list):
            append(message)
            continue
        for p in content:
            if isinstance(p, dict) and p.get("type") == "thinking":
                break
        else:  # nothing to strip
            out.append(message)
            continue
        kept = [p for p in content if not (isinstance(p, dict) and p.get("type") == "thinking")]
        removed = len(content) - len(kept)
        if not removed:
            out.append(message)
            continue
        blocks += removed
        changed += 1
        if not kept:
            dropped += 1
            continue
        out.append({**message, "content": kept})
    if changed:
        tail = f" and dropped {dropped} empty assistant message(s)." if dropped else "."
        _info(
            diagnostics,
            codes.HISTORY_THINKING_STRIP,
            f"Stripped {blocks} assistant thinking block(s) from {changed} chat-history message(s){tail}",
            item_id,
            pointer,
        )
    return out


def _strip_tool_calls(
    messages: list[Any], keep_result: Callable[[dict[str, Any]], bool], drop_call: Callable[[Any], bool]
) -> tuple[list[Any], int, int, int]:
    """The walk §8.5 and §8.6 share: drop tool-result messages ``keep_result`` refuses and tool-call
    parts ``drop_call`` picks (it is asked only about tool-call parts: both walks keep every other
    part); a message left with no content at all is dropped too.

    Returns the messages and the counts the diagnostics report: tool calls removed, tool-result
    messages dropped, messages dropped because they became empty.
    """
    out: list[Any] = []
    calls = results = empty = 0
    for message, role in zip(messages, roles_of(messages), strict=True):
        if role == "toolResult":
            if keep_result(message):
                out.append(message)
            else:
                results += 1
            continue
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            out.append(message)
            continue
        for part in content:
            if isinstance(part, dict) and part.get("type") == "toolCall" and drop_call(part):
                break
        else:  # no part to drop: the message as it is
            out.append(message)
            continue
        kept = [part for part in content if not (_is_tool_call(part) and drop_call(part))]
        removed = len(content) - len(kept)
        if not removed:
            out.append(message)
            continue
        calls += removed
        if not kept:
            empty += 1
            continue
        out.append({**message, "content": kept})
    return out, calls, results, empty


def _is_tool_call(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "toolCall"


def _drop_tools(messages: list[Any], diagnostics: list[Diagnostic], item_id: Any, pointer: Any) -> list[Any]:
    """§8.5 (``toolMode: "drop"``): every tool call and tool result goes."""
    out, calls, results, empty = _strip_tool_calls(messages, lambda _message: False, lambda _part: True)
    if calls or results:
        tail = f", and dropped {empty} empty message(s)." if empty else "."
        _info(
            diagnostics,
            codes.HISTORY_TOOL_DROP,
            f"Dropped tool history from chat-history: removed {calls} tool call(s), "
            f"dropped {results} tool result message(s){tail}",
            item_id,
            pointer,
        )
    return out


def _first_id(obj: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str) and value:
            return value
    return None


_PART_ID_KEYS = ("id", "toolCallId", "callId")
_RESULT_ID_KEYS = ("toolCallId", "id", "callId")


def _repair_tool_pairs(
    messages: list[Any], diagnostics: list[Diagnostic], item_id: Any, pointer: Any
) -> list[Any]:
    """§8.6: drop tool calls without a result and results without a call.

    One walk collects the ids and, on the way, the ids the second walk would test (each tool-call
    part's, each tool result's); when none of them dangles -- the usual, well-paired history -- the
    messages are returned as they are and the second walk never runs.
    """
    call_ids: set[str] = set()
    result_ids: set[str] = set()
    tested_calls: list[str | None] = []  # the id of every tool-call part outside a tool result
    tested_results: list[str | None] = []  # the id of every tool-result message
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if type(role) is not str:
            role = role_of(message)
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if not isinstance(part, dict):
                    continue
                # most parts (text, thinking) carry no id key at all: three key tests, no call
                part_id = (
                    _first_id(part, _PART_ID_KEYS) if "id" in part or "toolCallId" in part or "callId" in part else None
                )
                if part_id is not None:
                    call_ids.add(part_id)
                if role != "toolResult" and part.get("type") == "toolCall":
                    tested_calls.append(part_id)
        if role == "toolResult":
            result_id = _first_id(message, _RESULT_ID_KEYS)
            tested_results.append(result_id)
            if result_id is not None:
                result_ids.add(result_id)
    if all(result_id is not None and result_id in call_ids for result_id in tested_results) and all(
        part_id in result_ids for part_id in tested_calls
    ):
        return messages

    def keep_result(message: dict[str, Any]) -> bool:
        result_id = _first_id(message, _RESULT_ID_KEYS)
        return result_id is not None and result_id in call_ids

    def dangling_call(part: Any) -> bool:  # asked about tool-call parts only
        return _first_id(part, _PART_ID_KEYS) not in result_ids

    out, calls, results, empty = _strip_tool_calls(messages, keep_result, dangling_call)
    if calls or results or empty:
        tail = f", and dropped {empty} empty message(s)." if empty else "."
        _info(
            diagnostics,
            codes.HISTORY_TOOL_REPAIR,
            f"Repaired tool history after chat-history filtering: removed {calls} dangling tool call(s), "
            f"dropped {results} dangling tool result message(s){tail}",
            item_id,
            pointer,
        )
    return out
