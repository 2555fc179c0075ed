"""The chat-history pipeline of one ``chat-history`` slot (compile-core.md §8.3–§8.6).

Messages are plain JSON data passed through verbatim; a message is copied only when it changes, and
then as a shallow copy with ``content`` replaced in place, so the key order stays what the host sent
(§8.8).  How each check reads a message's role is decided per check (§16.14), with the helpers of
:mod:`forgec.model.messages` (re-exported here) instead of ``msg.get("role")`` ad hoc.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain, compress, islice, repeat
from operator import eq, itemgetter, not_
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
    "chat_history",
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


def _stored_roles(messages: list[Any]) -> tuple[list[str], set[str]] | None:
    """:func:`_role_set`, and the list of the roles it was made from (one a message, in order)."""
    try:
        roles: list[Any] = list(map(dict.get, messages, repeat("role")))
        role_set: set[Any] = set(roles)
    except TypeError:  # a message that is no dict, or an unhashable role
        return None
    for role in role_set:
        if type(role) is not str:
            return None
    return roles, role_set


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
    return chat_history(messages, item, diagnostics, pointer=pointer)[0]


def chat_history(
    messages: list[Any],
    item: dict[str, Any],
    diagnostics: list[Diagnostic],
    *,
    pointer: tuple[str | int, ...] | None = None,
) -> tuple[list[Any], list[str] | None]:
    """:func:`chat_history_pipeline`, and the :func:`role_of` of each message it returns when a walk of
    the pipeline read them anyway (else ``None``): the source records need them, and reading 50,000
    roles again costs a visit to every message."""
    raw_options = item.get("options")
    opts: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
    item_id = item.get("id")
    opt_pointer = (*pointer, "options") if pointer is not None else None
    result = list(messages)

    if opts.get("includeLastUserMessage") is False:
        for index in range(len(result) - 1, -1, -1):
            if raw_role(result[index]) == "user":
                del result[index]
                break

    roles = opts.get("roles")
    wanted = set(roles) if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles) else None
    no_summaries = opts.get("includeSummaries") is False
    repair = wanted is not None
    drop_tools, tool_mode_warning = _tool_mode(opts, item_id, opt_pointer)
    strip = opts.get("stripAssistantThinking") is True
    max_messages = _positive_int(opts.get("maxMessages"))
    max_chars = _positive_int(opts.get("maxChars"))
    collect = repair and not drop_tools
    # The role filters run inside the walk below when nothing between them and it needs their
    # output first (dropping tool history does; so does trimming to maxMessages before the walk).
    fused = not drop_tools and (strip or max_chars is not None or collect) and (strip or max_messages is None)
    if fused and max_messages is not None and 2 * max_messages < len(result):
        # maxMessages cuts most of the history: a walk from the newest back stops building at the cut.
        # Only then: at 50,000 messages, visiting them newest first costs ~10-25 % more per message
        # (against their order in memory), which a walk that is cut by less than half does not repay.
        return _newest_first(result, opts, diagnostics, tool_mode_warning, item_id, opt_pointer)
    if not fused:
        result = _filter_roles(result, no_summaries, wanted, diagnostics, item_id, opt_pointer)
        if tool_mode_warning is not None:
            diagnostics.append(tool_mode_warning)
        if drop_tools:
            result = _drop_tools(result, diagnostics, item_id, opt_pointer)
        if max_messages is not None and not strip and len(result) > max_messages:
            # nothing before maxMessages can drop a message now: trimming before the walk is exact
            # and spares it the messages it would cut
            result = _trim_to(result, max_messages, diagnostics, item_id, opt_pointer)
            repair = True
            collect = not drop_tools

    walk: _Walk | None = None
    if fused or strip or max_chars is not None or collect:
        # the ids are collected in the walk unless maxMessages will cut most of what it returns
        # (the strip only ever drops): the repair then reads the kept messages alone
        collect = collect and (max_messages is None or 2 * max_messages >= len(result))
        role_filters = (no_summaries, wanted) if fused else None
        if max_messages is not None and len(result) > max_messages:
            walk = _scan_newest(result, max_messages, strip, max_chars is not None, collect, role_filters)
        else:
            walk = _scan(result, strip, max_chars is not None, collect, role_filters)
        if fused:
            _report_filtered(diagnostics, walk.summaries, walk.unwanted, wanted is not None, item_id, opt_pointer)
            if tool_mode_warning is not None:
                diagnostics.append(tool_mode_warning)
        _report_strip(walk, diagnostics, item_id, opt_pointer)
        result = walk.messages
    scanned = len(result)

    members = walk.members if walk is not None else len(result)  # what the filters and the strip leave
    if max_messages is not None and members > max_messages:
        _report_trim(diagnostics, "maxMessages", members, max_messages, item_id, opt_pointer)
        result = result[len(result) - max_messages :]
        repair = True

    if max_chars is not None and result and walk is not None and walk.sizes is not None:
        before = len(result)
        kept = _kept_within(walk.sizes, before, max_chars)
        if kept < before:
            result = result[before - kept :]
            _report_trim(diagnostics, "maxChars", before, len(result), item_id, opt_pointer)
            repair = True

    first = scanned - len(result)  # maxMessages and maxChars keep the newest: result is walked[first:]
    kept_roles = None
    if walk is not None and walk.roles is not None:
        kept_roles = walk.roles[first:] if first else walk.roles
    if repair and not drop_tools:
        repaired = _repair_tool_pairs(
            result, diagnostics, item_id, opt_pointer, walk.pairs if walk is not None else None, first
        )
        if repaired is not result:
            result, kept_roles = repaired, None
    return result, kept_roles


#: how many messages more than ``maxMessages`` :func:`_scan_newest` walks, per 64 kept, plus 16: room
#: for the assistant messages the strip drops (those left with no part), so that the walked part
#: still holds the newest ``maxMessages`` members without a second walk
_SLACK_PER_64 = 1
_SLACK = 16


def _scan_newest(
    messages: list[Any],
    max_messages: int,
    strip: bool,
    measure: bool,
    collect: bool,
    role_filters: tuple[bool, set[str] | None] | None,
) -> _Walk:
    """:func:`_scan` of ``messages`` (more than ``max_messages``) as far as ``maxMessages`` can keep
    them: the older messages it cuts anyway are only counted (:func:`_count_rest`) for the findings
    -- the filters', the strip's and the trim's own ``from`` -- neither copied, measured nor read
    for ids (``all-filters``: 40,000 of 50,000 kept, a fifth of the walk spared).

    The walked part is the newest ``max_messages`` and a slack; it must still hold the newest
    ``max_messages`` members once the filters and the strip have dropped theirs, else the whole
    list is walked again.  So the cut is taken only when the role filters drop no message of the
    part it cuts (their roles read in C beforehand: a history whose older messages the filters keep
    whole is taken to be kept whole in its newest ones too -- a guess that costs a second walk when
    wrong, never a wrong result; reading every role would cost a pass over the whole list in memory,
    about what the cut saves in the mypyc build).  The walk returned holds the walked part's
    messages, sizes and ids (positions from its start), and counts every message.  When the cut part
    is exact dicts the filters keep whole (the roles read in C say so), only the strip can drop there:
    its assistant messages alone are read (:func:`_count_strips`, after two passes in C): the bench's
    9,300 cut messages cost ~70 % of what :func:`_count_rest` reading every message does (pure).
    """
    no_summaries, wanted = role_filters if role_filters is not None else (False, None)
    skip = len(messages) - max_messages - max_messages * _SLACK_PER_64 // 64 - _SLACK
    cut_roles: list[str] | None = None  # the cut part's roles, when the filters keep all of it
    if skip > 0 and (no_summaries or wanted is not None):
        stored = _stored_roles(messages[:skip])
        if (
            stored is None
            or (no_summaries and not stored[1].isdisjoint(_SUMMARY_ROLES))
            or (wanted is not None and not stored[1] <= wanted)
        ):
            skip = 0  # the role filters drop some: how many of the walked part they leave is unknown
        else:
            cut_roles = stored[0]
    if skip > 0:
        walk = _scan(messages[skip:], strip, measure, collect, role_filters)
        if len(walk.messages) >= max_messages:
            if cut_roles is not None and set(map(type, messages[:skip])) == {dict}:
                # exact dicts of string roles, all kept by the filters: only the strip drops there,
                # and only assistant messages (picked in C), so only they are read
                summaries = unwanted = 0
                blocks, changed, dropped = (
                    _count_strips(compress(messages, map(eq, cut_roles, repeat("assistant")))) if strip else (0, 0, 0)
                )
                members = skip - dropped
            else:
                members, summaries, unwanted, blocks, changed, dropped = _count_rest(
                    islice(messages, skip), strip, no_summaries, wanted
                )
            walk.members += members
            walk.summaries += summaries
            walk.unwanted += unwanted
            walk.blocks += blocks
            walk.changed += changed
            walk.dropped += dropped
            return walk
    return _scan(messages, strip, measure, collect, role_filters)


def _newest_first(
    messages: list[Any],
    opts: dict[str, Any],
    diagnostics: list[Diagnostic],
    tool_mode_warning: Diagnostic | None,
    item_id: Any,
    pointer: Any,
) -> tuple[list[Any], list[str] | None]:
    """:func:`chat_history` from step 2 on when one walk does the role filters and the strip and a
    limit is set (``toolMode`` is not ``"drop"``): the walk goes from the newest message back.

    ``maxMessages`` and ``maxChars`` keep the newest messages, so once either cuts, no older message
    is copied by the strip, measured or read for tool ids: the walk only counts what the filters and
    the strip drop there, for their findings (a history of 50,000 messages cut to 40,000 spares a
    fifth of the walk's work; cut to the newest few, nearly all of it).
    """
    roles = opts.get("roles")
    wanted = set(roles) if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles) else None
    max_messages = _positive_int(opts.get("maxMessages"))
    max_chars = _positive_int(opts.get("maxChars"))
    strip = opts.get("stripAssistantThinking") is True
    # the ids are read in the walk when the repair is due anyway, or likely (maxMessages will cut)
    collect = wanted is not None or (max_messages is not None and len(messages) > max_messages)
    walk = _scan(
        reversed(messages),
        strip,
        max_chars is not None,
        collect,
        (opts.get("includeSummaries") is False, wanted),
        (max_messages, max_chars),
    )
    _report_filtered(diagnostics, walk.summaries, walk.unwanted, wanted is not None, item_id, pointer)
    if tool_mode_warning is not None:
        diagnostics.append(tool_mode_warning)
    _report_strip(walk, diagnostics, item_id, pointer)
    result = walk.messages
    repair = wanted is not None
    before = walk.members
    if max_messages is not None and before > max_messages:
        _report_trim(diagnostics, "maxMessages", before, max_messages, item_id, pointer)
        before = max_messages
        repair = True
    if len(result) < before:
        _report_trim(diagnostics, "maxChars", before, len(result), item_id, pointer)
        repair = True
    if not repair:
        return result, walk.roles
    repaired = _repair_tool_pairs(result, diagnostics, item_id, pointer, walk.pairs, 0, newest_first=True)
    return (result, walk.roles) if repaired is result else (repaired, None)


def _tool_mode(opts: dict[str, Any], item_id: Any, pointer: Any) -> tuple[bool, Diagnostic | None]:
    """``toolMode``: whether it is ``"drop"``, and the warning an unsupported value gets (emitted by
    the caller, after the role filters' findings)."""
    if "toolMode" not in opts:
        return False, None
    tool_mode = opts["toolMode"]
    if tool_mode == "drop" and isinstance(tool_mode, str):
        return True, None
    if tool_mode == "keep" and isinstance(tool_mode, str):
        return False, None
    warning = Diagnostic(
        "warning",
        f"Unsupported chat-history toolMode: {js_string(tool_mode)}.",
        codes.HISTORY_TOOL_MODE,
        item_id=item_id,
        pointer=(*pointer, "toolMode") if pointer else None,
    )
    return False, warning


def _filter_roles(
    result: list[Any],
    no_summaries: bool,
    wanted: set[str] | None,
    diagnostics: list[Diagnostic],
    item_id: Any,
    pointer: Any,
) -> list[Any]:
    """``includeSummaries: false`` then ``roles``, as a pass of their own (when no walk does them)."""
    # the roles of ``result`` as a set while it is the list they were read from: both role filters
    # test every message and usually keep them all, which a set test tells without a list built
    role_set: set[str] | None = None
    summaries = unwanted = 0
    if no_summaries:
        before = len(result)
        role_set = _role_set(result)
        if role_set is None or not role_set.isdisjoint(_SUMMARY_ROLES):
            result = [m for m, role in zip(result, roles_of(result), strict=True) if role not in _SUMMARY_ROLES]
            role_set = None
        summaries = before - len(result)
    if wanted is not None:
        before = len(result)
        if role_set is None:
            role_set = _role_set(result)
        if role_set is None or not role_set <= wanted:
            result = [m for m, role in zip(result, roles_of(result), strict=True) if role in wanted]
        unwanted = before - len(result)
    _report_filtered(diagnostics, summaries, unwanted, wanted is not None, item_id, pointer)
    return result


def _report_filtered(
    diagnostics: list[Diagnostic], summaries: int, unwanted: int, by_role: bool, item_id: Any, pointer: Any
) -> None:
    """The role filters' findings: messages dropped as summaries, then by ``roles``."""
    if summaries:
        _info(
            diagnostics,
            codes.HISTORY_SUMMARY_FILTER,
            f"Filtered {summaries} chat-history message(s) by summary.",
            item_id,
            pointer,
        )
    if by_role and unwanted:
        _info(
            diagnostics,
            codes.HISTORY_ROLE_FILTER,
            f"Filtered {unwanted} chat-history message(s) by role.",
            item_id,
            pointer,
        )


def _trim_to(
    messages: list[Any], max_messages: int, diagnostics: list[Diagnostic], item_id: Any, pointer: Any
) -> list[Any]:
    """``maxMessages``: the newest ``max_messages`` of ``messages`` (longer than that), reported."""
    before = len(messages)
    kept = messages[before - max_messages :]
    _report_trim(diagnostics, "maxMessages", before, len(kept), item_id, pointer)
    return kept


#: the finding code of each trimming limit
_TRIM_CODES = {"maxMessages": codes.HISTORY_MAX_MESSAGES, "maxChars": codes.HISTORY_MAX_CHARS}


def _report_trim(diagnostics: list[Diagnostic], option: str, before: int, after: int, item_id: Any, pointer: Any) -> None:
    """The info finding of ``option`` (``maxMessages`` or ``maxChars``) trimming the history from
    ``before`` to ``after`` messages: one wording for both walks (oldest first and newest first)."""
    _info(
        diagnostics,
        _TRIM_CODES[option],
        f"Trimmed chat history from {before} to {after} message(s) by {option}.",
        item_id,
        pointer,
    )


def _kept_within(sizes: list[int], count: int, max_chars: int) -> int:
    """How many of the newest ``count`` messages (``sizes`` ends with theirs) ``maxChars`` keeps: the
    newest always, then older ones while the running total stays within ``max_chars``.

    Sizes are never negative, so the running totals from the newest back never decrease and the
    count kept is where ``max_chars`` falls among them (summed and searched in C).
    """
    newest = sizes[len(sizes) - count :] if count < len(sizes) else sizes  # no copy of them all
    if sum(newest) <= max_chars:  # the usual budget, above the whole history: no running totals
        return count
    totals = list(accumulate(reversed(newest)))
    return max(1, bisect_right(totals, max_chars))


class _PairIds:
    """What §8.6's repair reads of a list of messages: every id a content part carries, every tool
    result's id, and the ids its second walk would test (each tool-call part's outside a tool result,
    each tool result's), so that a list where none dangles is recognised without that walk.

    Each id is kept with the position of the last message that carries it, and each tested id with
    its message's position, so the same record answers for any newest part of the list (what
    maxMessages and maxChars keep) without a walk of its own.
    """

    __slots__ = ("call_ids", "call_positions", "result_ids", "result_positions", "tested_calls", "tested_results")

    def __init__(self) -> None:
        self.call_ids: dict[str, int] = {}
        self.result_ids: dict[str, int] = {}
        self.tested_calls: list[str | None] = []
        self.call_positions: list[int] = []
        self.tested_results: list[str | None] = []
        self.result_positions: list[int] = []

    def dangling(self, first: int) -> bool:
        """Whether, among the messages from position ``first`` on, a tool result has no call or a
        tool call no result."""
        # the tested ids from ``first`` on (all of them, uncopied, when nothing was cut)
        start = bisect_left(self.result_positions, first)
        results = self.tested_results[start:] if start else self.tested_results
        start = bisect_left(self.call_positions, first)
        calls = self.tested_calls[start:] if start else self.tested_calls
        return _missing_before(self.call_ids, results, first) or _missing_before(self.result_ids, calls, first)

    def ids(self, first: int) -> tuple[set[str], set[str]]:
        """The call ids and the result ids of the messages from position ``first`` on."""
        calls = {key for key, last in self.call_ids.items() if last >= first}
        results = {key for key, last in self.result_ids.items() if last >= first}
        return calls, results

    def touched(self, first: int, call_ids: set[str], result_ids: set[str]) -> list[int]:
        """The positions (from ``first`` on, in order) of the messages §8.6's repair changes or drops,
        given the :meth:`ids` of those messages: each tool result whose id no call carries, each
        message with a tool call (outside a tool result) whose id no result carries.  Every other
        message it keeps as it is."""
        # read in C: a long history pairs tens of thousands of ids, of which few dangle
        start = bisect_left(self.result_positions, first)
        known: Callable[[Any], bool] = call_ids.__contains__  # None is in neither set
        positions = set(compress(self.result_positions[start:], map(not_, map(known, self.tested_results[start:]))))
        start = bisect_left(self.call_positions, first)
        known = result_ids.__contains__
        positions.update(compress(self.call_positions[start:], map(not_, map(known, self.tested_calls[start:]))))
        return sorted(positions)


def _missing_before(positions: dict[Any, int], ids: list[str | None], first: int) -> bool:
    """Whether one of ``ids`` (each a string or ``None``) is no key of ``positions`` or is one whose
    position is below ``first``: a tool result or call of :meth:`_PairIds.dangling` without its pair.

    Read in C, a pair per two messages of a long agent history: one ``itemgetter`` over all the ids
    (``None`` is no key: a ``KeyError``, as for any unknown id), then, when a cut could have left a
    pair's other half before ``first``, the least position.  Two to four times quicker than a
    ``dict.get`` call per id through ``map`` (the bench's 12,500 pairs: ~1.1 or ~0.6 ms against ~2.7)."""
    if len(ids) < 2:  # ``itemgetter`` of one key answers the value, not a tuple (and of none, raises)
        return bool(ids) and positions.get(ids[0], -1) < first
    try:
        found = itemgetter(*ids)(positions)
    except KeyError:
        return True
    return first > 0 and min(found) < first  # every position is 0 or more


class _Walk:
    """What :func:`_scan` returns: the messages it kept, and what it read of them on the way."""

    __slots__ = ("blocks", "changed", "dropped", "members", "messages", "pairs", "roles", "sizes", "summaries", "unwanted")

    def __init__(self, messages: list[Any], roles: list[str] | None, sizes: list[int] | None, pairs: _PairIds | None) -> None:
        self.messages = messages
        self.roles = roles
        self.sizes = sizes
        self.pairs = pairs
        self.summaries = self.unwanted = 0  # dropped by the role filters
        self.blocks = self.changed = self.dropped = 0  # the thinking strip's counts
        #: how many messages the filters and the strip leave (newest first: kept or not; else ``len(messages)``)
        self.members = len(messages)


def _report_strip(walk: _Walk, diagnostics: list[Diagnostic], item_id: Any, pointer: Any) -> None:
    if walk.changed:
        tail = f" and dropped {walk.dropped} empty assistant message(s)." if walk.dropped else "."
        _info(
            diagnostics,
            codes.HISTORY_THINKING_STRIP,
            f"Stripped {walk.blocks} assistant thinking block(s) from {walk.changed} chat-history message(s){tail}",
            item_id,
            pointer,
        )


#: the roles whose preview adds text to the content's (§8.9): :func:`_scan` measures them whole
_MEASURED_WHOLE = _SUMMARY_ROLES | {"bashExecution"}


def _scan(
    messages: Iterable[Any],
    strip: bool,
    measure: bool,
    collect: bool,
    role_filters: tuple[bool, set[str] | None] | None = None,
    limits: tuple[int | None, int | None] | None = None,
) -> _Walk:
    """One walk over the messages that does, message by message: the role filters (when
    ``role_filters``: ``(includeSummaries is false, the roles wanted or None)``), §8.4's thinking
    strip (when ``strip``; an assistant message without a thinking part is kept without building
    anything), and of each message it keeps: its :func:`role_of`, its ``maxChars`` size
    (``js_len(preview_text(m))``, when ``measure``) and its tool ids (when ``collect``).

    The stages each read every message of the host's conversation, and at tens of thousands of
    messages a visit to a message costs more than the work done there: one walk that reads each
    message and part once replaces five.  The size is summed part by part for the parts whose
    rendering is known here (UTF-16 lengths add up over a concatenation, plus one per ``\n``
    between non-empty parts); any other message is measured by :func:`preview_len` itself.

    ``limits``: ``(maxMessages, maxChars)`` when ``messages`` come newest first (:func:`_newest_first`):
    the walk stops keeping at the first message either limit cuts -- what follows is only counted by
    :func:`_count_rest` -- and returns the kept messages oldest first, without sizes; the ids are
    then those of the kept messages alone (read with ``first`` 0), or none when the message
    ``maxChars`` cut had been read for them.
    """
    out: list[Any] = []
    roles: list[str] = []
    sizes: list[int] = []
    pairs = _PairIds()
    call_ids, result_ids = pairs.call_ids, pairs.result_ids
    tested_calls, tested_results = pairs.tested_calls, pairs.tested_results
    call_positions, result_positions = pairs.call_positions, pairs.result_positions
    detail = measure or collect
    # module-level names and a method read through locals: compiled, a module global is a dictionary
    # look-up at each use and ``text.isascii()`` a method look-up and call (mypyc has no primitive
    # for it, ~250 instructions); ``str.isascii`` held in a local is one vectorcall (~130).  The pure
    # build reads either form at about the same cost.
    measured_whole, summary_roles = _MEASURED_WHOLE, _SUMMARY_ROLES
    isascii = str.isascii
    # a tool id's position, which a list and a dictionary both hold: compiled, an ``int`` local is boxed
    # at each use (above 256, a second int object per id); as ``Any`` it is boxed once
    position: Any
    # the usual shapes' own paths below (sizes read, no limit cutting from the newest back): reading
    # ids alone, the general walk is as quick (its shape tests end sooner) and they would only add tests
    forward = measure and limits is None
    usual_strips = 0  # stripped assistant turns of the usual shape (a thinking block each)
    no_summaries, wanted = role_filters if role_filters is not None else (False, None)
    summaries = unwanted = blocks = changed = dropped = 0
    max_kept, budget = limits if limits is not None else (None, None)
    total = 0  # newest first: the sizes of the kept messages so far
    rest: Iterator[Any] | None = None  # newest first: what a limit cut, to be counted only
    cut = 0  # newest first: 1 when maxChars cut a message (one the filters and the strip keep)
    cut_read = False  # that message was read for ids
    unread = iter(messages)
    for message in unread:
        if max_kept is not None and len(out) == max_kept:
            rest = chain((message,), unread)
            break
        # an exact dict is read by subscript (a third quicker than ``get`` in the pure build; a missing
        # key raises, answered as ``get``'s None); a dict subclass by its own ``get``.  The test is the
        # ``if`` itself so that mypy narrows ``message`` to a dict in both kinds (native reads, compiled)
        if type(message) is dict:
            exact = True
            try:
                role = message["role"]
            except KeyError:
                role = None
        elif not isinstance(message, dict):
            if wanted is not None and "" not in wanted:  # role_of(message) is ""
                unwanted += 1
                continue
            if budget is not None and out and total > budget:  # its size is 0
                cut = 1
                rest = unread
                break
            out.append(message)
            roles.append("")
            if measure and budget is None:
                sizes.append(0)
            continue
        else:
            exact = False
            role = message.get("role")
        name = role if type(role) is str else role_of(message)
        if no_summaries and name in summary_roles:
            summaries += 1
            continue
        if wanted is not None and name not in wanted:
            unwanted += 1
            continue
        content: Any
        if exact:
            try:
                content = message["content"]
            except KeyError:
                content = None
        else:
            content = message.get("content")
        if forward and type(content) is list:
            # the two usual shapes of the forward walk, each read whole and kept at once (no part
            # loop, no per-message flags, no tail of tests for what they cannot be); any other shape,
            # or a near miss of these, takes the general walk below, which gives the same result
            # the parts' keys read by subscript too (exact dicts: a missing key is a near miss); the
            # outcome a flag set by an ``if`` (compiled: a native bool, not a boxed ``and`` chain)
            one_text = False
            try:
                if (
                    len(content) == 1
                    and type(part := content[0]) is dict
                    and len(part) == 2
                    and type(text := part["text"]) is str
                    and part["type"] == "text"
                    and name not in measured_whole
                ):
                    one_text = True
            except KeyError:
                pass
            if one_text:
                # one text part of ``type`` and ``text`` alone (a user turn, a tool result, a final
                # answer): no id key, and its text's UTF-16 length is the message's size
                if isascii(text):
                    sizes.append(len(text))
                else:
                    try:  # js_len inlined: a call per non-ASCII text was ~10 % of such a message
                        sizes.append(len(text.encode("utf-16")) // 2 - 1)  # less the BOM
                    except UnicodeEncodeError:  # a lone surrogate
                        sizes.append(js_len(text))
                if collect and name == "toolResult":
                    position = len(out)
                    if type(result_id := message.get("toolCallId")) is not str or not result_id:
                        result_id = _first_id(message, _RESULT_ID_KEYS)
                    tested_results.append(result_id)
                    result_positions.append(position)
                    if result_id is not None:
                        result_ids[result_id] = position
                out.append(message)
                roles.append(name)
                continue
            usual_turn = False
            try:
                if (
                    strip
                    and len(content) == 3
                    and role == "assistant"
                    and exact
                    and type(head := content[0]) is dict
                    and head["type"] == "thinking"
                    and type(part := content[1]) is dict
                    and len(part) == 2
                    and type(text := part["text"]) is str
                    and part["type"] == "text"
                    and type(call := content[2]) is dict
                    and call["type"] == "toolCall"
                    and type(call_id := call["id"]) is str
                    and call_id
                    and type(tool := call["name"]) is str
                ):
                    usual_turn = True
            except KeyError:
                pass
            if usual_turn:
                # the usual stripped assistant turn: a thinking part (dropped unread), a text part of
                # ``type`` and ``text`` alone (no id key) and a tool call with a string id and name --
                # what the part loop below reads of it, without a test per part; any other shape (a
                # thinking part elsewhere, an id under another key, a subclass) takes that loop.  Its
                # own block, apart from the two-part turns': a shared head would cost the bench's
                # turn ~1.5 % of a call in stores and tests
                if collect:
                    position = len(out)
                    call_ids[call_id] = position
                    tested_calls.append(call_id)
                    call_positions.append(position)
                size = 12 + (len(tool) if isascii(tool) else js_len(tool))  # "[toolCall: " name "]"
                if text:
                    size += 1 + (len(text) if isascii(text) else js_len(text))  # and a "\n" between
                sizes.append(size)
                usual_strips += 1
                message = message.copy()  # an exact dict: what ``_stripped`` builds of it
                message["content"] = content[1:]
                out.append(message)
                roles.append(name)
                continue
            if (
                strip
                and len(content) == 2
                and role == "assistant"
                and type(message) is dict
                and type(head := content[0]) is dict
                and head.get("type") == "thinking"
                and type(part := content[1]) is dict
            ):
                # the two-part stripped turns of real histories: a thinking part (dropped unread) then
                # a text part of ``type`` and ``text`` alone (a final answer: no id key; an empty text
                # counts nothing) or a tool call with a non-empty string ``id`` and a string ``name``
                # (its id recorded as the part loop would).  A near miss (a third key on the text
                # part, an id under another key, a name that is no string, another second part)
                # leaves ``size`` at -1 and takes the part loop below.
                size = -1
                kind = part.get("type")
                if kind == "text":
                    if len(part) == 2 and type(text := part.get("text")) is str:
                        size = len(text) if isascii(text) else js_len(text)
                elif (
                    kind == "toolCall"
                    and type(call_id := part.get("id")) is str
                    and call_id
                    and type(tool := part.get("name")) is str
                ):
                    size = 12 + (len(tool) if isascii(tool) else js_len(tool))  # "[toolCall: " name "]"
                    if collect:
                        position = len(out)
                        call_ids[call_id] = position
                        tested_calls.append(call_id)
                        call_positions.append(position)
                if size >= 0:
                    sizes.append(size)
                    usual_strips += 1
                    message = message.copy()  # an exact dict: what ``_stripped`` builds of it
                    message["content"] = content[1:]
                    out.append(message)
                    roles.append(name)
                    continue
        if strip and not detail and role == "assistant" and isinstance(content, list):
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
        if not detail:
            out.append(message)
            roles.append(name)
            continue
        # the message goes to ``len(out)`` unless the strip leaves it empty; the thinking parts the
        # strip removes are skipped below (neither measured nor read for ids), so the one loop over
        # the parts both finds them and reads what the kept message is measured and paired by
        stripping = strip and role == "assistant"
        thinking = size = 0
        fast = measure and name not in measured_whole
        if not isinstance(content, list):
            fast = False
        elif (
            len(content) == 1
            and type(part := content[0]) is dict
            and len(part) == 2
            and type(text := part.get("text")) is str
            and part.get("type") == "text"
        ):
            # the usual one text part (a user turn, a tool result, a final answer): of ``type`` and
            # ``text`` alone it carries no id key, and its text's length is the message's size
            if fast:
                size = len(text) if isascii(text) else js_len(text)
        elif (
            stripping
            and len(content) == 3
            and type(message) is dict
            and type(head := content[0]) is dict
            and head.get("type") == "thinking"
            and type(part := content[1]) is dict
            and len(part) == 2
            and type(text := part.get("text")) is str
            and part.get("type") == "text"
            and type(call := content[2]) is dict
            and call.get("type") == "toolCall"
            and type(call_id := call.get("id")) is str
            and call_id
            and type(tool := call.get("name")) is str
        ):
            # the usual stripped assistant turn: a thinking part (dropped unread), a text part of
            # ``type`` and ``text`` alone (no id key) and a tool call with a string id and name --
            # what the part loop below reads of it, without a test per part; any other shape (a
            # thinking part elsewhere, an id under another key, a subclass) takes that loop
            if collect:
                call_ids[call_id] = len(out)
                tested_calls.append(call_id)
                call_positions.append(len(out))
            if fast:
                size = 12 + (len(tool) if isascii(tool) else js_len(tool))  # "[toolCall: " name "]"
                if text:
                    size += 1 + (len(text) if isascii(text) else js_len(text))  # and a "\n" between
            blocks += 1
            changed += 1
            message = message.copy()  # an exact dict: what ``_stripped`` builds of it
            message["content"] = content[1:]
        else:
            count = 0
            for part in content:
                if not isinstance(part, dict):
                    continue
                kind = part.get("type")
                if kind == "text" and fast:
                    # the usual part, its text read first: a dict of ``type`` and ``text`` alone
                    # carries no id key, which its size tells without three key tests
                    text = part.get("text")
                    if (
                        collect
                        and (text is None or len(part) != 2 or type(part) is not dict)
                        and ("id" in part or "toolCallId" in part or "callId" in part)
                    ):
                        if type(part_id := part.get("id")) is not str or not part_id:
                            part_id = _first_id(part, _PART_ID_KEYS)
                        if part_id is not None:
                            call_ids[part_id] = len(out)
                    if isinstance(text, str) and text:
                        size += len(text) if isascii(text) else js_len(text)
                        count += 1
                    continue
                if stripping and kind == "thinking":
                    thinking += 1
                    continue
                if collect:
                    # most parts (text, thinking) carry no id key at all: three key tests, no call;
                    # a tool call's ``id`` is usually a non-empty string
                    part_id = None
                    if "id" in part or "toolCallId" in part or "callId" in part:
                        if type(part_id := part.get("id")) is not str or not part_id:
                            part_id = _first_id(part, _PART_ID_KEYS)
                        if part_id is not None:
                            call_ids[part_id] = len(out)
                    if kind == "toolCall" and name != "toolResult":
                        tested_calls.append(part_id)
                        call_positions.append(len(out))
                if not fast:
                    continue
                if kind == "text":
                    text = part.get("text")
                    if not isinstance(text, str) or not text:
                        continue
                    size += len(text) if isascii(text) else js_len(text)
                elif kind == "toolCall":
                    tool = part.get("name")
                    if type(tool) is not str:
                        fast = False
                        continue
                    size += 12 + (len(tool) if isascii(tool) else js_len(tool))  # "[toolCall: " name "]"
                elif kind == "thinking":
                    text = part.get("thinking")
                    if not isinstance(text, str):
                        continue
                    size += 23 + (len(text) if isascii(text) else js_len(text))  # "<thinking>\n" … "\n</thinking>"
                elif kind == "image":
                    size += 7  # "[image]"
                else:
                    continue
                count += 1
            if count:
                size += count - 1
        if thinking:
            blocks += thinking
            changed += 1
            if thinking == len(content):  # only thinking parts: nothing of it was measured or collected
                dropped += 1
                continue
            message = _stripped(message, content, thinking)
        if measure:
            if not fast:
                size = preview_len(message)
            if budget is None:
                sizes.append(size)
            elif out and total + size > budget:
                # maxChars keeps no older message: this one (a member, its strip counted) is cut
                cut, cut_read = 1, collect
                rest = unread
                break
            else:
                total += size
        if collect and name == "toolResult":
            if type(result_id := message.get("toolCallId")) is not str or not result_id:
                result_id = _first_id(message, _RESULT_ID_KEYS)
            tested_results.append(result_id)
            result_positions.append(len(out))
            if result_id is not None:
                result_ids[result_id] = len(out)
        out.append(message)
        roles.append(name)
    if limits is None:
        walk = _Walk(out, roles, sizes if measure else None, pairs if collect else None)
    else:
        out.reverse()
        roles.reverse()
        walk = _Walk(out, roles, None, pairs if collect and not cut_read else None)
        walk.members += cut
        if rest is not None:
            more, filtered, unwanted_more, blocks_more, changed_more, dropped_more = _count_rest(rest, strip, no_summaries, wanted)
            walk.members += more
            summaries, unwanted = summaries + filtered, unwanted + unwanted_more
            blocks, changed, dropped = blocks + blocks_more, changed + changed_more, dropped + dropped_more
    walk.summaries, walk.unwanted = summaries, unwanted
    walk.blocks, walk.changed, walk.dropped = blocks + usual_strips, changed + usual_strips, dropped
    return walk


def _stripped(message: dict[str, Any], content: list[Any], thinking: int) -> dict[str, Any]:
    """A copy of ``message`` whose ``content`` (a list) lacks its ``thinking`` thinking parts (not
    all of them), in the message's key order (§8.4).

    The usual assistant turn has one thinking part, first: its slice is what the filter gives,
    without a test per part; an exact dict is copied (a copy clones the key table) and its
    ``content`` replaced in place, which is what ``{**message, "content": ...}`` builds.
    """
    first = content[0]
    if thinking == 1 and type(first) is dict and first.get("type") == "thinking":
        kept = content[1:]
    else:
        kept = [part for part in content if not (isinstance(part, dict) and part.get("type") == "thinking")]
    if type(message) is not dict:
        return {**message, "content": kept}
    copy = message.copy()
    copy["content"] = kept
    return copy


def _count_rest(
    messages: Iterator[Any], strip: bool, no_summaries: bool, wanted: set[str] | None
) -> tuple[int, int, int, int, int, int]:
    """What :func:`_scan` counts of the messages a limit cut (newest first): how many the filters and
    the strip leave, how many each role filter drops, and the strip's counts -- the findings report
    them, but no message is built, measured or read for ids."""
    members = summaries = unwanted = blocks = changed = dropped = 0
    summary_roles = _SUMMARY_ROLES  # a local: compiled, a module global is a look-up at each use
    for message in messages:
        if not isinstance(message, dict):
            if wanted is not None and "" not in wanted:  # role_of(message) is ""
                unwanted += 1
            else:
                members += 1
            continue
        role = message.get("role")
        name = role if type(role) is str else role_of(message)
        if no_summaries and name in summary_roles:
            summaries += 1
            continue
        if wanted is not None and name not in wanted:
            unwanted += 1
            continue
        if strip and role == "assistant":
            content = message.get("content")
            if isinstance(content, list):
                thinking = 0
                for part in content:
                    if isinstance(part, dict) and part.get("type") == "thinking":
                        thinking += 1
                if thinking:
                    blocks += thinking
                    changed += 1
                    if thinking == len(content):  # every part goes: the message is dropped
                        dropped += 1
                        continue
        members += 1
    return members, summaries, unwanted, blocks, changed, dropped


def _count_strips(messages: Iterable[Any]) -> tuple[int, int, int]:
    """:func:`_count_rest`'s strip counts (blocks, changed, dropped) of assistant messages that the
    role filters keep: the thinking parts each would lose, without building anything."""
    blocks = changed = dropped = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            thinking = 0
            for part in content:
                if isinstance(part, dict) and part.get("type") == "thinking":
                    thinking += 1
            if thinking:
                blocks += thinking
                changed += 1
                if thinking == len(content):  # every part goes: the message is dropped
                    dropped += 1
    return blocks, changed, dropped


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
    first: int = 0,
    *,
    newest_first: bool = False,
) -> list[Any]:
    """§8.6: drop tool calls without a result and results without a call.

    ``pairs``: the ids of a walked list whose messages from position ``first`` on are ``messages``,
    when a walk already collected them (:func:`_scan`); ``newest_first``: that walk went from the
    newest message back (:func:`_newest_first`; ``first`` 0), so its positions count from the end.  When none dangles -- the usual, well-paired
    history -- the messages are returned as they are and the dropping walk never runs.
    """
    if pairs is None:
        pairs, first, newest_first = _scan(messages, False, False, True).pairs, 0, False
        assert pairs is not None
    if not pairs.dangling(first):
        return messages
    call_ids, result_ids = pairs.ids(first)
    touched = pairs.touched(first, call_ids, result_ids)
    if newest_first:
        last = len(messages) - 1
        touched = [last - position for position in reversed(touched)]

    def keep_result(message: dict[str, Any]) -> bool:
        result_id = _first_id(message, _RESULT_ID_KEYS)
        return result_id is not None and result_id in call_ids

    def dangling_call(part: Any) -> bool:  # asked about tool-call parts only
        return _first_id(part, _PART_ID_KEYS) not in result_ids

    if len(touched) * 8 > len(messages):
        # many messages to change (``roles`` dropping every tool result): one walk of them all, a
        # call per message named costing more than the walk's step for each message it keeps
        out, calls, results, empty = _strip_tool_calls(messages, keep_result, dangling_call)
    else:
        # only the messages the ids name are read again (a cut that splits one pair in a history
        # of tens of thousands: one message, not a walk of them all); the others are kept as they
        # are, copied in slices
        out = []
        calls = results = empty = start = 0
        for position in touched:
            position -= first
            out += messages[start:position]
            kept, dropped_calls, dropped_results, emptied = _strip_tool_calls(
                messages[position : position + 1], keep_result, dangling_call
            )
            out += kept
            calls, results, empty = calls + dropped_calls, results + dropped_results, empty + emptied
            start = position + 1
        out += messages[start:]
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
