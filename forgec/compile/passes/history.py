"""The chat-history pipeline of one ``chat-history`` slot (compile-core.md §8.3–§8.6).

Messages are plain JSON data passed through verbatim; a message is copied only when it changes, and
then as a shallow copy with ``content`` replaced in place, so the key order stays what the host sent
(§8.8).  How each check reads a message's role is decided per check (§16.14), with the helpers of
:mod:`forgec.model.messages` (re-exported here) instead of ``msg.get("role")`` ad hoc.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate, repeat
from typing import Any

from forgec.diagnostics import Diagnostic
from forgec.js.values import is_integral_number, js_len, js_string
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

    # One walk does the thinking strip and, on its output, what the later stages read of every
    # message: its maxChars size, and (when the tool-pair repair is already due) its tool ids.
    strip = opts.get("stripAssistantThinking") is True
    max_messages = _positive_int(opts.get("maxMessages"))
    max_chars = _positive_int(opts.get("maxChars"))
    if max_messages is not None and not strip and len(result) > max_messages:
        # nothing before maxMessages can drop a message now: trimming before the walk is exact and
        # spares it the messages it would cut
        result = _trim_to(result, max_messages, diagnostics, item_id, opt_pointer)
        repair = True
    # the ids are collected in the same walk only when the list it returns is likely the one the
    # repair reads: a list still longer than maxMessages will be trimmed (the strip only ever
    # drops), and the repair then reads the kept messages alone
    collect = repair and not drop_tools and (max_messages is None or len(result) <= max_messages)
    sizes: list[int] | None = None
    pairs: _PairIds | None = None
    if strip or max_chars is not None or collect:
        result, sizes, pairs = _scan(
            result, strip, max_chars is not None, collect, diagnostics, item_id, opt_pointer
        )
    scanned = len(result)

    if max_messages is not None and len(result) > max_messages:
        result = _trim_to(result, max_messages, diagnostics, item_id, opt_pointer)
        repair = True

    if max_chars is not None and result and sizes is not None:
        before = len(result)
        kept = _kept_within(sizes, before, max_chars)
        if kept < before:
            result = result[before - kept :]
            _info(
                diagnostics,
                codes.HISTORY_MAX_CHARS,
                f"Trimmed chat history from {before} to {len(result)} message(s) by maxChars.",
                item_id,
                opt_pointer,
            )
            repair = True

    if len(result) != scanned:  # the ids collected were the untrimmed list's
        pairs = None
    if repair and not drop_tools:
        result = _repair_tool_pairs(result, diagnostics, item_id, opt_pointer, pairs)
    return result


def _trim_to(
    messages: list[Any], max_messages: int, diagnostics: list[Diagnostic], item_id: Any, pointer: Any
) -> list[Any]:
    """``maxMessages``: the newest ``max_messages`` of ``messages`` (longer than that), reported."""
    before = len(messages)
    kept = messages[before - max_messages :]
    _info(
        diagnostics,
        codes.HISTORY_MAX_MESSAGES,
        f"Trimmed chat history from {before} to {len(kept)} message(s) by maxMessages.",
        item_id,
        pointer,
    )
    return kept


def _kept_within(sizes: list[int], count: int, max_chars: int) -> int:
    """How many of the newest ``count`` messages (``sizes`` ends with theirs) ``maxChars`` keeps: the
    newest always, then older ones while the running total stays within ``max_chars``.

    Sizes are never negative, so the running totals from the newest back never decrease and the
    count kept is where ``max_chars`` falls among them (summed and searched in C).
    """
    totals = list(accumulate(reversed(sizes[len(sizes) - count :])))
    return max(1, bisect_right(totals, max_chars))


class _PairIds:
    """What §8.6's repair reads of a list of messages: every id a content part carries, every tool
    result's id, and the ids its second walk would test (each tool-call part's outside a tool result,
    each tool result's), so that a list where none dangles is recognised without that walk."""

    __slots__ = ("call_ids", "result_ids", "tested_calls", "tested_results")

    def __init__(self) -> None:
        self.call_ids: set[str] = set()
        self.result_ids: set[str] = set()
        self.tested_calls: list[str | None] = []
        self.tested_results: list[str | None] = []

    def dangling(self) -> bool:
        call_ids = self.call_ids
        result_ids = self.result_ids
        for result_id in self.tested_results:
            if result_id is None or result_id not in call_ids:
                return True
        return any(part_id not in result_ids for part_id in self.tested_calls)


def _scan(
    messages: list[Any],
    strip: bool,
    measure: bool,
    collect: bool,
    diagnostics: list[Diagnostic],
    item_id: Any,
    pointer: Any,
) -> tuple[list[Any], list[int] | None, _PairIds | None]:
    """§8.4's thinking strip (when ``strip``; an assistant message without a thinking part is kept
    without building anything), and of each message it keeps: its ``maxChars`` size
    (``js_len(preview_text(m))``, when ``measure``) and its tool ids (when ``collect``).

    The later stages each read every message of the host's conversation; one walk that reads each
    message and part once replaces three.  The size is summed part by part for the parts whose
    rendering is known here (UTF-16 lengths add up over a concatenation, plus one per ``\n``
    between non-empty parts); any other message is measured by :func:`preview_len` itself.
    """
    out: list[Any] = []
    append = out.append
    sizes: list[int] | None = [] if measure else None
    pairs = _PairIds() if collect else None
    call_ids = pairs.call_ids if pairs is not None else set()
    tested_calls = pairs.tested_calls if pairs is not None else []
    blocks = changed = dropped = 0
    for message in messages:
        if not isinstance(message, dict):
            append(message)
            if sizes is not None:
                sizes.append(0)
            continue
        role = message.get("role")
        content = message.get("content")
        if strip and role == "assistant" and isinstance(content, list):
            for p in content:
                if isinstance(p, dict) and p.get("type") == "thinking":
                    kept = [q for q in content if not (isinstance(q, dict) and q.get("type") == "thinking")]
                    blocks += len(content) - len(kept)
                    changed += 1
                    if kept:
                        message = {**message, "content": kept}
                        content = kept
                    else:
                        dropped += 1
                        message = None
                    break
            if message is None:
                continue
        append(message)
        if sizes is None and pairs is None:
            continue
        if type(role) is not str:
            role = role_of(message)
        size = 0
        fast = sizes is not None and role != "bashExecution" and role not in _SUMMARY_ROLES
        if isinstance(content, list):
            count = 0
            for part in content:
                if not isinstance(part, dict):
                    continue
                kind = part.get("type")
                if collect:
                    # most parts (text, thinking) carry no id key at all: three key tests, no call;
                    # a tool call's first key is usually a non-empty string ``id``
                    if type(part_id := part.get("id")) is not str or not part_id:
                        part_id = (
                            _first_id(part, _PART_ID_KEYS) if "toolCallId" in part or "callId" in part else None
                        )
                    if part_id is not None:
                        call_ids.add(part_id)
                    if kind == "toolCall" and role != "toolResult":
                        tested_calls.append(part_id)
                if not fast:
                    continue
                if kind == "text":
                    text = part.get("text")
                    if not isinstance(text, str) or not text:
                        continue
                    size += len(text) if text.isascii() else js_len(text)
                elif kind == "toolCall":
                    name = part.get("name")
                    if type(name) is not str:
                        fast = False
                        continue
                    size += 12 + (len(name) if name.isascii() else js_len(name))  # "[toolCall: " name "]"
                elif kind == "thinking":
                    text = part.get("thinking")
                    if not isinstance(text, str):
                        continue
                    size += 23 + (len(text) if text.isascii() else js_len(text))  # "<thinking>\n" … "\n</thinking>"
                elif kind == "image":
                    size += 7  # "[image]"
                else:
                    continue
                count += 1
            if count:
                size += count - 1
        else:
            fast = False
        if sizes is not None:
            sizes.append(size if fast else preview_len(message))
        if pairs is not None and role == "toolResult":
            result_id = _first_id(message, _RESULT_ID_KEYS)
            pairs.tested_results.append(result_id)
            if result_id is not None:
                pairs.result_ids.add(result_id)
    if changed:
        tail = f" and dropped {dropped} empty assistant message(s)." if dropped else "."
        _info(
            diagnostics,
            codes.HISTORY_THINKING_STRIP,
            f"Stripped {blocks} assistant thinking block(s) from {changed} chat-history message(s){tail}",
            item_id,
            pointer,
        )
    return out, sizes, pairs


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
    messages: list[Any],
    diagnostics: list[Diagnostic],
    item_id: Any,
    pointer: Any,
    pairs: _PairIds | None = None,
) -> list[Any]:
    """§8.6: drop tool calls without a result and results without a call.

    ``pairs``: the ids of ``messages`` when a walk already collected them (:func:`_scan`).  When none
    dangles -- the usual, well-paired history -- the messages are returned as they are and the
    dropping walk never runs.
    """
    if pairs is None:
        pairs = _scan(messages, False, False, True, diagnostics, item_id, pointer)[2]
        assert pairs is not None
    if not pairs.dangling():
        return messages
    call_ids = pairs.call_ids
    result_ids = pairs.result_ids

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
