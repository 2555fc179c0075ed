"""The one walk of the chat-history pipeline (``_scan``): what it records of a list answers for any
newest part of it (maxMessages and maxChars keep the newest messages) exactly as a walk of that part
alone would, and the roles it hands the source records are :func:`role_of` of what it returns."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.compile.passes.history import (
    _PART_ID_KEYS,
    _RESULT_ID_KEYS,
    _filter_roles,
    _first_id,
    _kept_within,
    _missing_before,
    _newest_first,
    _repair_tool_pairs,
    _report_strip,
    _scan,
    _strip_tool_calls,
    _tool_mode,
    _trim_to,
    chat_history,
    chat_history_pipeline,
)
from forgec.diagnostics import Diagnostic
from forgec.model.messages import preview_len, roles_of
from forgec.rules import compile as codes

_IDS = st.sampled_from(["c1", "c2", "c3", "", None, 4])
_PART = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": st.sampled_from(["hi", "", "ünï 😀"])}),
    st.fixed_dictionaries({"type": st.just("thinking"), "thinking": st.just("t")}),
    st.builds(lambda value: {"type": "thinking", "thinking": "ü", "id": value}, _IDS),
    st.builds(
        lambda key, value: {"type": "toolCall", key: value, "name": "read"},
        st.sampled_from(["id", "toolCallId", "callId"]),
        _IDS,
    ),
    st.builds(lambda value: {"type": "text", "text": "x", "id": value}, _IDS),
    st.sampled_from([None, "text", 3]),
)
_MESSAGE = st.one_of(
    st.builds(
        lambda role, content: {"role": role, "content": content},
        st.sampled_from(["user", "assistant", "assistant", "branchSummary", "bashExecution", None, 5]),
        st.one_of(st.just("plain"), st.lists(_PART, max_size=3)),
    ),
    st.builds(
        lambda key, value, content: {"role": "toolResult", key: value, "content": content},
        st.sampled_from(["toolCallId", "id", "callId"]),
        _IDS,
        st.lists(_PART, max_size=2),
    ),
    st.sampled_from([None, "text", 7]),
)


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["c1", "c2", "c3", "c4"]), st.integers(min_value=0, max_value=6)),
    st.lists(st.sampled_from(["c1", "c2", "c3", "c4", "c5", None]), max_size=6),
    st.integers(min_value=0, max_value=7),
)
def test_an_id_is_missing_when_no_key_or_a_position_before_the_first_kept(
    positions: dict[str, int], ids: list[str | None], first: int
) -> None:
    """``_missing_before`` (``itemgetter`` over every id, the least position only when ``first`` is
    above 0) answers what a test per id does: ``None`` and an unknown id are missing, and so is an id
    whose last position is before ``first``; none, one and many ids alike."""
    expected = any(identifier is None or positions.get(identifier, -1) < first for identifier in ids)
    assert _missing_before(positions, ids, first) is expected


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE, max_size=12), st.integers(min_value=0, max_value=12))
def test_the_tool_ids_of_a_walk_answer_for_its_newest_messages(messages: list[Any], first: int) -> None:
    walked = _scan(messages, False, False, True)
    first = min(first, len(walked.messages))
    alone = _scan(walked.messages[first:], False, False, True)
    assert walked.pairs is not None and alone.pairs is not None
    assert walked.pairs.dangling(first) == alone.pairs.dangling(0)
    assert walked.pairs.ids(first) == (set(alone.pairs.call_ids), set(alone.pairs.result_ids))


def _recorded(walk: Any) -> Any:
    pairs = walk.pairs
    ids = None
    if pairs is not None:
        ids = (pairs.call_ids, pairs.result_ids, pairs.tested_calls, pairs.call_positions,
               pairs.tested_results, pairs.result_positions)  # fmt: skip
    return walk.messages, walk.roles, walk.sizes, ids


@settings(max_examples=400, deadline=None)
@given(st.lists(_MESSAGE, max_size=12), st.booleans(), st.booleans())
def test_the_strip_inside_the_walk_is_the_strip_before_it(messages: list[Any], measure: bool, collect: bool) -> None:
    """The walk finds the thinking parts in the loop that measures and reads ids: what it records is
    what a walk of the already stripped messages records (a removed part is never measured, and its
    id never pairs a tool result), and the strip's counts are the strip's alone."""
    walked = _scan(messages, True, measure, collect)
    stripped = _scan(messages, True, False, False)
    assert (walked.blocks, walked.changed, walked.dropped) == (stripped.blocks, stripped.changed, stripped.dropped)
    assert _recorded(walked) == _recorded(_scan(stripped.messages, False, measure, collect))


def test_a_message_left_empty_by_the_strip_pairs_nothing() -> None:
    messages = [
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "id": "c1"}]},
        {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "done"}]},
        {"role": "user", "content": "next"},
    ]
    item = {"kind": "slot", "id": "h", "slot": "chat-history",
            "options": {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult"]}}  # fmt: skip
    assert chat_history_pipeline(messages, item, []) == [messages[2]]


_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "includeLastUserMessage": st.booleans(),
        "includeSummaries": st.booleans(),
        "roles": st.sampled_from([["user", "assistant"], ["assistant", "toolResult", "user"], ["5"], [""], []]),
        "toolMode": st.sampled_from(["drop", "keep", "odd"]),
        "stripAssistantThinking": st.booleans(),
        "maxMessages": st.sampled_from([1, 3, 10]),
        "maxChars": st.sampled_from([1, 10, 40, 1000]),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE, max_size=12), _OPTIONS)
def test_the_roles_handed_on_are_those_of_the_messages_returned(messages: list[Any], options: dict[str, Any]) -> None:
    item = {"kind": "slot", "id": "h", "slot": "chat-history", "options": options}
    kept, roles = chat_history(messages, item, [])
    assert kept == chat_history_pipeline(messages, item, [])
    if roles is not None:
        assert roles == roles_of(kept)


def _staged(messages: list[Any], options: dict[str, Any]) -> tuple[list[Any], list[tuple[str, str | None, str]]]:
    """§8.3 stage by stage, each stage a pass of its own over the whole list (no fused walk, no
    newest-first walk): what the pipeline must return and report, in that order."""
    diagnostics: list[Diagnostic] = []
    result = list(messages)
    if options.get("includeLastUserMessage") is False:
        for index in range(len(result) - 1, -1, -1):
            if isinstance(result[index], dict) and result[index].get("role") == "user":
                del result[index]
                break
    roles = options.get("roles")
    wanted = set(roles) if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles) else None
    result = _filter_roles(result, options.get("includeSummaries") is False, wanted, diagnostics, "h", None)
    _drop, warning = _tool_mode(options, "h", None)
    if warning is not None:
        diagnostics.append(warning)
    stripped = _scan(result, options.get("stripAssistantThinking") is True, False, False)
    _report_strip(stripped, diagnostics, "h", None)
    result = stripped.messages
    repair = wanted is not None
    max_messages, max_chars = options.get("maxMessages"), options.get("maxChars")
    if max_messages is not None and len(result) > max_messages:
        result = _trim_to(result, max_messages, diagnostics, "h", None)
        repair = True
    if max_chars is not None and result:
        kept = _kept_within([preview_len(m) for m in result], len(result), max_chars)
        if kept < len(result):
            diagnostics.append(Diagnostic("info", f"Trimmed chat history from {len(result)} to {kept} message(s) by maxChars.", codes.HISTORY_MAX_CHARS))
            result = result[len(result) - kept :]
            repair = True
    if repair:
        result = _repair_tool_pairs(result, diagnostics, "h", None)
    return result, [(d.level, d.code, d.message) for d in diagnostics]


_LIMITED = st.fixed_dictionaries(
    {"stripAssistantThinking": st.just(True), "maxMessages": st.integers(min_value=1, max_value=14)},
    optional={
        "includeLastUserMessage": st.booleans(),
        "includeSummaries": st.booleans(),
        "roles": st.sampled_from([["user", "assistant"], ["assistant", "toolResult", "user"], ["5"], [""], []]),
        "toolMode": st.sampled_from(["keep", "odd"]),
        "maxChars": st.sampled_from([1, 2, 5, 10, 40, 1000]),
    },
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_MESSAGE, max_size=16), _LIMITED)
def test_the_newest_first_walk_is_the_pipeline_stage_by_stage(messages: list[Any], options: dict[str, Any]) -> None:
    """The walk from the newest back (taken when maxMessages cuts most of a long history) stops
    building, measuring and reading ids at the first message a limit cuts and only counts beyond it:
    it returns and reports exactly what the stages one after the other do -- the cut message read
    for ids (maxChars) pairs nothing, and the counts include what was cut."""
    item = {"kind": "slot", "id": "h", "slot": "chat-history", "options": options}
    expected, findings = _staged(messages, options)
    diagnostics: list[Diagnostic] = []
    start = list(messages)
    if options.get("includeLastUserMessage") is False:  # step 1, as chat_history does it before the walk
        for index in range(len(start) - 1, -1, -1):
            if isinstance(start[index], dict) and start[index].get("role") == "user":
                del start[index]
                break
    _drop, warning = _tool_mode(options, "h", None)
    kept, roles = _newest_first(start, options, diagnostics, warning, "h", None)
    assert kept == expected
    assert [(d.level, d.code, d.message) for d in diagnostics] == findings
    if roles is not None:
        assert roles == roles_of(kept)
    assert chat_history(messages, item, [])[0] == expected  # whichever walk the pipeline takes


def test_a_long_history_cut_by_max_messages_is_walked_newest_first() -> None:
    """maxMessages keeping 2 of 40 messages: the kept ones only are copied by the strip (the older
    ones are counted), and the findings count every message."""
    history: list[Any] = []
    for number in range(20):
        history.append({"role": "user", "content": [{"type": "text", "text": f"q{number}"}]})
        history.append({"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": f"a{number}"}]})
    options = {"stripAssistantThinking": True, "maxMessages": 2, "roles": ["user", "assistant"]}
    diagnostics: list[Diagnostic] = []
    kept, roles = chat_history(history, {"id": "h", "options": options}, diagnostics)
    assert kept == [history[38], {"role": "assistant", "content": [{"type": "text", "text": "a19"}]}]
    assert roles == ["user", "assistant"]
    assert [d.message for d in diagnostics] == [
        "Stripped 20 assistant thinking block(s) from 20 chat-history message(s).",
        "Trimmed chat history from 40 to 2 message(s) by maxMessages.",
    ]
    assert history[1]["content"][0]["type"] == "thinking"  # the host's messages are never changed


class _Part(dict):  # type: ignore[type-arg]
    """A part whose own ``get`` answers a text that is not stored: only its keys carry the id."""

    def get(self, key: Any, default: Any = None) -> Any:
        return "x" if key == "text" else super().get(key, default)


def test_a_text_part_of_two_keys_pairs_by_its_id_when_one_of_them_is_an_id() -> None:
    """The walk skips the id tests for a text part of exactly ``type`` and ``text``; a two-key text
    part without ``text`` (its other key an id), or a dict subclass of two keys, is still read."""
    for carrier in ({"type": "text", "id": "c1"}, _Part({"type": "text", "id": "c1"})):
        messages = [
            {"role": "assistant", "content": [{"type": "text", "text": "calling"}, carrier]},
            {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "done"}]},
        ]
        options = {"roles": ["assistant", "toolResult"], "maxChars": 1000}
        diagnostics: list[Diagnostic] = []
        kept, _roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
        assert kept == messages  # the result pairs with the text part's id: nothing dangles
        assert diagnostics == []


def test_a_message_of_one_text_part_hands_over_to_the_part_loop_unless_the_part_is_the_usual_one() -> None:
    """The walk takes a content of one exact-dict part of ``type`` "text" and a string ``text`` as a
    whole (no id, its text's length the size); a single part with an id key, a text that is no
    string, a dict subclass or another type is read part by part, as before."""
    for carrier in (
        {"type": "text", "id": "c1"},
        {"type": "text", "text": "calling", "id": "c1"},
        {"text": "calling", "callId": "c1"},
        _Part({"type": "text", "id": "c1"}),
    ):
        messages = [
            {"role": "assistant", "content": [carrier]},
            {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "done"}]},
        ]
        options = {"roles": ["assistant", "toolResult"], "maxChars": 1000, "stripAssistantThinking": True}
        diagnostics: list[Diagnostic] = []
        kept, _roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
        assert kept == messages  # the result pairs with the single part's id: nothing dangles
        assert diagnostics == []
    thinking = {"role": "assistant", "content": [{"type": "thinking", "text": "hmm"}]}
    answer = {"role": "assistant", "content": [{"type": "text", "text": "ünï 😀"}]}  # 6 UTF-16 units
    diagnostics = []
    kept, _roles = chat_history([thinking, answer], {"id": "h", "options": {"stripAssistantThinking": True, "maxChars": 6}}, diagnostics)
    assert kept == [answer]
    assert [d.message for d in diagnostics] == [
        "Stripped 1 assistant thinking block(s) from 1 chat-history message(s) and dropped 1 empty assistant message(s)."
    ]
    diagnostics = []
    kept, _roles = chat_history([answer, answer], {"id": "h", "options": {"maxChars": 11}}, diagnostics)
    assert kept == [answer]  # 6 + 6 units are over 11: the older one goes
    assert [d.message for d in diagnostics] == ["Trimmed chat history from 2 to 1 message(s) by maxChars."]


_KEEPING_MOST = st.fixed_dictionaries(
    {"stripAssistantThinking": st.just(True), "maxMessages": st.integers(min_value=17, max_value=44)},
    optional={
        "includeSummaries": st.booleans(),
        "roles": st.sampled_from([["user", "assistant", "toolResult"], ["user", "assistant", "toolResult", "5", ""]]),
        "maxChars": st.sampled_from([10, 200, 10_000]),
    },
)
_PLAIN_MESSAGE = st.builds(
    lambda role, content: {"role": role, "content": content},
    st.sampled_from(["user", "assistant", "assistant", "toolResult"]),
    st.lists(_PART, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PLAIN_MESSAGE, _MESSAGE), min_size=34, max_size=60), _KEEPING_MOST)
def test_a_history_mostly_kept_by_max_messages_is_walked_from_the_cut(messages: list[Any], options: dict[str, Any]) -> None:
    """maxMessages keeping more than half (the forward walk): the messages it cuts anyway are only
    counted, unless the role filters drop some or the strip drops more than the slack (then the
    whole list is walked); either way the pipeline returns and reports what the stages do."""
    expected, findings = _staged(messages, options)
    diagnostics: list[Diagnostic] = []
    kept, roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
    assert kept == expected
    assert [(d.level, d.code, d.message) for d in diagnostics] == findings
    if roles is not None:
        assert roles == roles_of(kept)


def test_the_strip_dropping_more_than_the_slack_walks_the_whole_history() -> None:
    """20 questions, then 35 turns of a thinking-only answer and a question, 50 kept: the newest 66
    messages walked first leave 33 members (the strip drops the answers), fewer than maxMessages,
    so the whole history is walked; and 200 agent turns with 150 kept: walked from the cut."""
    history: list[Any] = [{"role": "user", "content": [{"type": "text", "text": f"q{n}"}]} for n in range(20)]
    for number in range(35):
        history.append({"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}]})
        history.append({"role": "user", "content": [{"type": "text", "text": f"r{number}"}]})
    options: dict[str, Any] = {"stripAssistantThinking": True, "maxMessages": 50, "roles": ["user", "assistant"]}
    expected, findings = _staged(history, options)
    diagnostics: list[Diagnostic] = []
    assert chat_history(history, {"id": "h", "options": options}, diagnostics)[0] == expected
    assert [(d.level, d.code, d.message) for d in diagnostics] == findings
    assert findings[-1][2] == "Trimmed chat history from 55 to 50 message(s) by maxMessages."
    agent: list[Any] = []
    for number in range(50):
        agent.append({"role": "user", "content": [{"type": "text", "text": f"q{number}"}]})
        agent.append({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "t"}, {"type": "toolCall", "id": f"c{number}", "name": "read"}]})  # fmt: skip
        agent.append({"role": "toolResult", "toolCallId": f"c{number}", "content": [{"type": "text", "text": "ok"}]})
        agent.append({"role": "assistant", "content": [{"type": "text", "text": "ünï 😀"}]})
    options = {"includeSummaries": False, "roles": ["user", "assistant", "toolResult"], "stripAssistantThinking": True,
               "maxMessages": 150, "maxChars": 10**8}  # fmt: skip
    expected, findings = _staged(agent, options)
    diagnostics = []
    assert chat_history(agent, {"id": "h", "options": options}, diagnostics)[0] == expected
    assert [(d.level, d.code, d.message) for d in diagnostics] == findings
    assert [message for _level, _code, message in findings] == [
        "Stripped 50 assistant thinking block(s) from 50 chat-history message(s).",
        "Trimmed chat history from 200 to 150 message(s) by maxMessages.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
    ]


def test_role_filters_dropping_only_in_the_newest_part_walk_the_whole_history() -> None:
    """The cut is guessed from the roles of the part it cuts: 40 questions, then 30 tool results (the
    roles filter drops them) each before a question, 50 kept -- the cut part holds questions only,
    the walked newest 66 leave 36 members, so the whole history is walked after all."""
    history: list[Any] = [{"role": "user", "content": [{"type": "text", "text": f"q{n}"}]} for n in range(40)]
    for number in range(30):
        history.append({"role": "toolResult", "toolCallId": f"c{number}", "content": [{"type": "text", "text": "ok"}]})
        history.append({"role": "user", "content": [{"type": "text", "text": f"r{number}"}]})
    options: dict[str, Any] = {"stripAssistantThinking": True, "maxMessages": 50, "roles": ["user", "assistant"]}
    expected, findings = _staged(history, options)
    diagnostics: list[Diagnostic] = []
    assert chat_history(history, {"id": "h", "options": options}, diagnostics)[0] == expected
    assert [(d.level, d.code, d.message) for d in diagnostics] == findings
    assert [message for _level, _code, message in findings] == [
        "Filtered 30 chat-history message(s) by role.",
        "Trimmed chat history from 70 to 50 message(s) by maxMessages.",
    ]


def _turn(call_id: str = "c1") -> list[Any]:
    """The usual assistant turn: a thinking part, a text part of ``type`` and ``text`` alone, a tool call."""
    return [
        {"type": "thinking", "thinking": "Let me read main.py.", "thinkingSignature": "sig"},
        {"type": "text", "text": "I will read ünï 😀"},  # 18 UTF-16 units
        {"type": "toolCall", "id": call_id, "name": "read", "arguments": {"path": "main.py"}},
    ]


def test_the_usual_stripped_assistant_turn_is_stripped_measured_and_paired_whole() -> None:
    """The walk takes a thinking part, a text part of two keys and a tool call with a string id and
    name as a whole: the copy keeps the message's key order and drops the thinking part alone, the
    size is the preview's, the call pairs with its result, and the host's message is not changed."""
    message = {"role": "assistant", "content": _turn(), "api": "x", "timestamp": 1}
    result = {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]}
    walk = _scan([message, result], strip=True, measure=True, collect=True)
    stripped = walk.messages[0]
    assert stripped == {"role": "assistant", "content": _turn()[1:], "api": "x", "timestamp": 1}
    assert list(stripped) == list(message) and len(message["content"]) == 3
    assert walk.sizes == [preview_len(stripped), 2] and walk.sizes[0] == 18 + 1 + len("[toolCall: read]")
    assert (walk.blocks, walk.changed, walk.dropped) == (1, 1, 0)
    assert walk.pairs is not None and not walk.pairs.dangling(0)
    for text in ("", "plain"):  # an empty text adds no part and no "\n"
        content = _turn()
        content[1]["text"] = text
        walk = _scan([{"role": "assistant", "content": content}], strip=True, measure=True, collect=False)
        assert walk.sizes == [preview_len(walk.messages[0])]


def test_an_unusual_stripped_assistant_turn_hands_over_to_the_part_loop() -> None:
    """Each near miss of the usual shape is read part by part and gives what the strip, the preview
    and the repair give stage by stage: an id under another key or not a string, a text part with a
    third key (an id), a name that is no string, parts out of order, two thinking parts or none, subclasses."""

    def variants() -> list[list[Any]]:
        out: list[list[Any]] = []
        for change in range(11):
            content = _turn()
            if change == 0:
                del content[2]["id"]
                content[2]["toolCallId"] = "c1"
            elif change == 1:
                content[2]["id"] = ""
                content[2]["callId"] = "c1"
            elif change == 2:
                content[1]["id"] = "c1"  # the text part carries the id, the call another
                content[2]["id"] = "c2"
            elif change == 3:
                content[2]["name"] = 3
            elif change == 4:
                content = [content[1], content[0], content[2]]
            elif change == 5:
                content = [content[0], content[0], content[2]]
            elif change == 6:
                content[1] = _Part(content[1])
                content[1]["id"] = "c1"
                content[2]["id"] = "c2"
            elif change == 7:
                content[0] = _Part(content[0])
            elif change == 8:
                content[2]["type"] = "text"
                content[2]["text"] = "x"
            elif change == 9:
                content[0] = {"type": "image", "data": "..."}  # no thinking part: nothing to strip
            out.append(content)  # change 10: the usual shape itself
        return out

    for content in variants():
        messages = [
            {"role": "assistant", "content": content, "timestamp": 1},
            {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]},
        ]
        for options in (
            {"stripAssistantThinking": True, "roles": ["assistant", "toolResult"], "maxChars": 10_000},
            {"stripAssistantThinking": True, "roles": ["assistant", "toolResult"], "maxChars": 12},
            {"stripAssistantThinking": True, "maxChars": 30},
        ):
            diagnostics: list[Diagnostic] = []
            kept, _roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
            expected, findings = _staged(messages, options)
            assert kept == expected, (content, options)
            assert [(d.level, d.code, d.message) for d in diagnostics] == findings


def _one_text_part_messages() -> list[Any]:
    """Messages of one text part: the usual ones (taken whole by the forward walk) and their near
    misses (a role measured whole, an id under another key or empty, a subclass, a lone surrogate)."""
    part = {"type": "text", "text": "ünï 😀"}  # 6 UTF-16 units
    return [
        {"role": "user", "content": [{"type": "text", "text": "plain"}], "timestamp": 1},
        {"role": "assistant", "content": [dict(part)]},
        {"role": "assistant", "content": [{"type": "text", "text": "a\ud800😀"}]},  # a lone surrogate: 4 units
        {"role": "assistant", "content": [{"type": "text", "text": ""}]},
        {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]},
        {"role": "toolResult", "id": "c2", "content": [dict(part)]},
        {"role": "toolResult", "toolCallId": "", "callId": "c3", "content": [{"type": "text", "text": "ok"}]},
        {"role": "toolResult", "toolCallId": 4, "content": [{"type": "text", "text": "ok"}]},
        {"role": "bashExecution", "command": "ls", "output": "a.txt", "content": [{"type": "text", "text": "x"}]},
        {"role": "branchSummary", "summary": "so far", "content": [{"type": "text", "text": "x"}]},
        {"role": "user", "content": [_Part(part)]},
        {"role": "user", "content": [{"type": "text", "text": "x", "textSignature": "s"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "x", "id": "c4"}]},  # a text part that carries an id
        {"role": "toolResult", "toolCallId": "c4", "content": [{"type": "text", "text": "ok"}]},
        {"role": "assistant", "content": [_Part({"type": "text", "id": "c5"})]},  # its ``get`` answers a text
        {"role": "toolResult", "toolCallId": "c5", "content": [{"type": "text", "text": "ok"}]},
    ]


def test_the_forward_walk_measures_and_pairs_a_message_of_one_text_part_as_the_stages_do() -> None:
    """The forward walk keeps a message of one usual text part at once: its size is the preview's
    UTF-16 length (astral characters two units, a lone surrogate one), a tool result's id is read
    under ``toolCallId`` or, failing a non-empty string there, its other keys; a role whose preview
    adds text (``bashExecution``, the summaries) is measured whole."""
    messages = _one_text_part_messages()
    walk = _scan(messages, strip=True, measure=True, collect=True)
    assert walk.messages == messages and all(a is b for a, b in zip(walk.messages, messages, strict=True))
    assert walk.sizes == [preview_len(message) for message in messages]
    assert walk.sizes[1:4] == [6, 4, 0] and walk.sizes[8] > 1 and walk.sizes[9] > 1
    assert walk.roles == roles_of(messages)
    assert walk.pairs is not None and walk.pairs.tested_results == ["c1", "c2", "c3", None, "c4", "c5"]
    assert not walk.pairs.dangling(len(messages) - 4)  # the last results pair with the text parts' ids
    calls = [{"role": "assistant", "content": _turn(call_id)} for call_id in ("c1", "c2", "c3")]
    history = [*calls, *messages]
    for options in (
        {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult", "bashExecution"], "maxChars": 10_000},
        {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult"], "maxChars": 20},
        {"roles": ["assistant", "toolResult", "branchSummary"], "maxChars": 12},
        {"stripAssistantThinking": True, "maxChars": 40},
    ):
        diagnostics: list[Diagnostic] = []
        kept, roles = chat_history(history, {"id": "h", "options": options}, diagnostics)
        expected, findings = _staged(history, options)
        assert kept == expected, options
        assert [(d.level, d.code, d.message) for d in diagnostics] == findings
        if roles is not None:
            assert roles == roles_of(kept)


def test_the_usual_and_the_unusual_stripped_turns_are_counted_together() -> None:
    """The strip's finding counts the usual turns (stripped whole) and the others (part by part) in
    one sum: blocks and messages."""
    usual = {"role": "assistant", "content": _turn("c1")}
    doubled = {"role": "assistant", "content": [_turn()[0], _turn()[0], {"type": "text", "text": "x"}]}
    only_thinking = {"role": "assistant", "content": [_turn()[0]]}
    result = {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]}
    walk = _scan([usual, doubled, only_thinking, result], strip=True, measure=True, collect=True)
    assert (walk.blocks, walk.changed, walk.dropped) == (4, 3, 1)
    assert [m["content"] for m in walk.messages] == [_turn("c1")[1:], [{"type": "text", "text": "x"}], result["content"]]
    assert walk.sizes == [preview_len(m) for m in walk.messages]
    assert walk.pairs is not None and not walk.pairs.dangling(0)


class _Message(dict):  # type: ignore[type-arg]
    """A message of a dict subclass: the walk's whole-turn paths take exact dicts only."""


def _two_part_turns() -> list[list[Any]]:
    """The two-part stripped turns of real histories: a thinking part then a text part of ``type`` and
    ``text`` alone (a final answer), or then a tool call with a non-empty string id and a string name."""
    thinking, text, call = _turn("c1")
    return [[dict(thinking), dict(text)], [dict(thinking), dict(call)]]


def test_the_two_part_stripped_turns_are_stripped_measured_and_paired_whole() -> None:
    """[thinking, text] and [thinking, toolCall] are taken as wholes by the forward walk: the copy keeps
    the message's key order and drops the thinking part alone, the size is the preview's (an empty
    text counts nothing), the call pairs with its result, and the host's messages are not changed."""
    answer, call = ({"role": "assistant", "content": content, "api": "x", "timestamp": 1} for content in _two_part_turns())
    result = {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]}
    empty = {"role": "assistant", "content": [_turn()[0], {"type": "text", "text": ""}]}
    messages = [call, result, answer, empty]
    walk = _scan(messages, strip=True, measure=True, collect=True)
    assert [m["content"] for m in walk.messages] == [[_turn("c1")[2]], result["content"], [_turn()[1]], [{"type": "text", "text": ""}]]
    assert list(walk.messages[0]) == list(call) and list(walk.messages[2]) == list(answer)
    assert len(call["content"]) == 2 and len(answer["content"]) == 2 and len(empty["content"]) == 2
    assert walk.sizes == [preview_len(m) for m in walk.messages] == [len("[toolCall: read]"), 2, 18, 0]
    assert (walk.blocks, walk.changed, walk.dropped) == (3, 3, 0)
    assert walk.pairs is not None and walk.pairs.tested_calls == ["c1"] and not walk.pairs.dangling(0)
    assert walk.pairs.dangling(1)  # the result alone: its call is cut


def test_a_near_miss_of_a_two_part_stripped_turn_hands_over_to_the_part_loop() -> None:
    """Each near miss of the two-part turns is read part by part and gives what the strip, the preview
    and the repair give stage by stage: a text part with a third key (an id) or a text that is no
    string, a call id under another key, empty or no string, a name that is no string, parts out of
    order, two thinking parts, another second part, subclasses of a part or of the message."""

    def variants() -> list[tuple[list[Any], bool]]:
        out: list[tuple[list[Any], bool]] = []
        for change in range(16):
            answer, call = _two_part_turns()
            subclassed = False
            if change == 0:
                answer[1]["id"] = "c1"
                content = answer
            elif change == 1:
                answer[1]["text"] = None
                content = answer
            elif change == 2:
                answer[1] = _Part(answer[1])
                answer[1]["id"] = "c1"
                content = answer
            elif change == 3:
                del call[1]["id"]
                call[1]["toolCallId"] = "c1"
                content = call
            elif change == 4:
                call[1]["id"] = ""
                call[1]["callId"] = "c1"
                content = call
            elif change == 5:
                call[1]["id"] = 4
                content = call
            elif change == 6:
                call[1]["name"] = None
                content = call
            elif change == 7:
                content = [call[1], call[0]]
            elif change == 8:
                content = [call[0], dict(call[0])]
            elif change == 9:
                content = [call[0], {"type": "image", "data": "..."}]
            elif change == 10:
                content = [_Part(call[0]), call[1]]
            elif change == 11:
                content = [call[0], _Part(call[1])]
            elif change == 12:
                content, subclassed = call, True
            elif change == 13:
                content = [{"type": "image"}, call[1]]  # no thinking part: nothing to strip
            elif change == 14:
                content = answer  # the usual shapes themselves
            else:
                content = call
            out.append((content, subclassed))
        return out

    for content, subclassed in variants():
        message: dict[str, Any] = {"role": "assistant", "content": content, "timestamp": 1}
        messages = [
            _Message(message) if subclassed else message,
            {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]},
        ]
        for options in (
            {"stripAssistantThinking": True, "roles": ["assistant", "toolResult"], "maxChars": 10_000},
            {"stripAssistantThinking": True, "roles": ["assistant", "toolResult"], "maxChars": 2},
            {"stripAssistantThinking": True, "maxChars": 30},
        ):
            diagnostics: list[Diagnostic] = []
            kept, roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
            expected, findings = _staged(messages, options)
            assert kept == expected, (content, options)
            assert [type(m) for m in kept] == [type(m) for m in expected]
            assert [(d.level, d.code, d.message) for d in diagnostics] == findings
            if roles is not None:
                assert roles == roles_of(kept)


def _repaired_by_a_full_walk(messages: list[Any]) -> tuple[list[Any], list[str]]:
    """§8.6's repair as one walk over every message (what the repair did before it read only the
    messages the ids name): the reference the positioned repair must give, findings included."""
    pairs = _scan(messages, False, False, True).pairs
    assert pairs is not None
    call_ids, result_ids = pairs.ids(0)

    def keep_result(message: dict[str, Any]) -> bool:
        result_id = _first_id(message, _RESULT_ID_KEYS)
        return result_id is not None and result_id in call_ids

    def dangling_call(part: Any) -> bool:
        return _first_id(part, _PART_ID_KEYS) not in result_ids

    out, calls, results, empty = _strip_tool_calls(messages, keep_result, dangling_call)
    if not (calls or results or empty):
        return messages, []
    tail = f", and dropped {empty} empty message(s)." if empty else "."
    return out, [
        f"Repaired tool history after chat-history filtering: removed {calls} dangling tool call(s), "
        f"dropped {results} dangling tool result message(s){tail}"
    ]


@settings(max_examples=400, deadline=None)
@given(st.lists(_MESSAGE, max_size=14), st.integers(min_value=0, max_value=14))
def test_the_repair_reads_only_the_messages_the_ids_name_and_gives_the_full_walk(messages: list[Any], first: int) -> None:
    """The repair changes or drops only the messages at the positions the walk's ids name (a dangling
    result, a message with a dangling call) and keeps every other message as it is: the same list as
    a walk of every message, the same findings, for any newest part of a walked list, and for the
    positions of a walk from the newest back."""
    first = min(first, len(messages))
    newest = messages[first:]
    expected, counts = _repaired_by_a_full_walk(newest)
    forward = _scan(messages, False, False, True).pairs
    backward = _scan(reversed(newest), False, False, True, None, (None, None)).pairs
    for pairs, start, newest_first in ((forward, first, False), (None, 0, False), (backward, 0, True)):
        diagnostics: list[Diagnostic] = []
        repaired = _repair_tool_pairs(newest, diagnostics, "h", None, pairs, start, newest_first=newest_first)
        assert repaired == expected and [type(m) for m in repaired] == [type(m) for m in expected]
        assert [d.message for d in diagnostics] == counts
        kept = [m for m in repaired if any(m is n for n in newest)]
        assert all(any(m is n for n in expected) or not isinstance(m, dict) for m in kept)


def test_a_cut_that_splits_one_pair_repairs_that_pair_alone() -> None:
    """maxMessages cutting between a call and its result in a long history (forward walk and newest
    first): the result is dropped, every other message is the host's own object, in order."""
    history: list[Any] = []
    for turn in range(30):
        history.append({"role": "user", "content": [{"type": "text", "text": f"q{turn}"}]})
        history.append({"role": "assistant", "content": _turn(f"c{turn}")})
        history.append({"role": "toolResult", "toolCallId": f"c{turn}", "content": [{"type": "text", "text": "ok"}]})
    for max_messages in (88, 22):  # more than half kept (forward walk), then the newest few (newest first)
        options = {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult"], "maxMessages": max_messages}
        diagnostics: list[Diagnostic] = []
        kept, _roles = chat_history(history, {"id": "h", "options": options}, diagnostics)
        tail = history[len(history) - max_messages :]
        assert tail[0]["role"] == "toolResult" and tail[1]["role"] == "user"
        assert all(a is b for a, b in zip(kept[0::3], tail[1::3], strict=True))  # the user messages
        assert len(kept) == max_messages - 1
        assert diagnostics[-1].message == (
            "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
            "dropped 1 dangling tool result message(s)."
        )
    # roles without toolResult: every call dangles, every turn loses its call
    options = {"roles": ["user", "assistant"], "maxChars": 10_000}
    kept, _roles = chat_history(history, {"id": "h", "options": options}, [])
    assert kept == _staged(history, options)[0] == _repaired_by_a_full_walk([m for m in history if m["role"] != "toolResult"])[0]
    assert all(len(m["content"]) == 2 for m in kept if m["role"] == "assistant")


def test_a_repair_after_a_newest_first_walk_cut_by_max_chars_is_the_stages_repair() -> None:
    """Newest first, maxChars cutting a message the walk had read for ids hands the repair no ids (it
    reads the kept messages itself, oldest first); cut anywhere, a dangling pair is repaired as the
    stages repair it."""
    history: list[Any] = []
    for turn in range(12):
        history.append({"role": "user", "content": [{"type": "text", "text": f"q{turn}"}]})
        history.append({"role": "assistant", "content": _turn(f"c{turn}")})
        history.append({"role": "toolResult", "toolCallId": f"c{turn}", "content": [{"type": "text", "text": "ok"}]})
    repaired = 0
    for max_chars in range(1, 240):
        options = {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult"], "maxMessages": 14, "maxChars": max_chars}
        diagnostics: list[Diagnostic] = []
        kept, _roles = chat_history(history, {"id": "h", "options": options}, diagnostics)
        expected, findings = _staged(history, options)
        assert kept == expected, max_chars
        assert [(d.level, d.code, d.message) for d in diagnostics] == findings
        repaired += any(d.code == codes.HISTORY_TOOL_REPAIR for d in diagnostics)
    assert repaired > 10


def test_max_chars_keeps_the_newest_within_the_budget_of_the_count_asked() -> None:
    """``_kept_within`` reads the newest ``count`` sizes: all of the list uncopied, or its newest part."""
    sizes = [9, 5, 4, 3]
    assert _kept_within(sizes, 4, 21) == 4 and _kept_within(sizes, 4, 20) == 3
    assert _kept_within(sizes, 2, 100) == 2 and _kept_within(sizes, 2, 12) == 2
    assert _kept_within(sizes, 2, 6) == 1 and _kept_within(sizes, 2, 1) == 1
    assert _kept_within(sizes, 3, 11) == 2 and _kept_within(sizes, 3, 12) == 3


class _Message(dict):  # type: ignore[type-arg]
    """A message whose missing keys read as a value of their own: the walk reads a dict subclass by
    ``get`` (as the stages do), never by subscript."""

    def __missing__(self, key: Any) -> Any:
        return "user" if key == "role" else [{"type": "text", "text": "missing"}]


def _missing_key_messages() -> list[Any]:
    """Exact dicts the forward walk's usual shapes read by subscript, each lacking one key it reads
    (a missing key must answer as ``get``'s None: a near miss for the general walk), and a subclass."""

    def turn(part: int, key: str) -> dict[str, Any]:
        content = _turn("c9")
        del content[part][key]
        if part == 1:
            content[part]["txt"] = "x"  # still two keys
        return {"role": "assistant", "content": content}

    return [
        {"content": [{"type": "text", "text": "no role"}]},
        {"role": "user"},
        {"role": "assistant"},
        {"role": "toolResult", "toolCallId": "c9"},
        {"role": "user", "content": [{"type": "text", "value": "no text"}]},
        {"role": "user", "content": [{"text": "no type", "kind": "text"}]},
        turn(0, "type"),
        turn(1, "text"),
        turn(1, "type"),
        turn(2, "type"),
        turn(2, "id"),
        turn(2, "name"),
        {"role": "assistant", "content": _turn("c9")},
        {"role": "toolResult", "toolCallId": "c9", "content": [{"type": "text", "text": "ok"}]},
        _Message(timestamp=1),
    ]


def test_a_usual_shape_missing_a_key_it_reads_is_walked_as_the_stages_walk_it() -> None:
    """The forward walk reads an exact dict's role and content, and the usual shapes' parts, by
    subscript: a missing key is a near miss (the message goes to the general walk), never an error,
    and the result, sizes, roles and findings are those of the stages; a dict subclass is read by
    ``get`` (its ``__missing__`` is not consulted)."""
    messages = _missing_key_messages()
    walk = _scan(messages, strip=False, measure=True, collect=True)
    assert walk.messages == messages
    assert walk.sizes == [preview_len(message) for message in messages]
    assert walk.roles == roles_of(messages)
    for options in (
        {"stripAssistantThinking": True, "roles": ["user", "assistant", "toolResult", ""], "maxChars": 10_000},
        {"stripAssistantThinking": True, "maxChars": 10_000},
        {"stripAssistantThinking": True, "roles": ["assistant", "toolResult"], "maxChars": 25},
        {"roles": ["user", "assistant", "toolResult"], "maxChars": 10_000},
    ):
        diagnostics: list[Diagnostic] = []
        kept, roles = chat_history(messages, {"id": "h", "options": options}, diagnostics)
        expected, findings = _staged(messages, options)
        assert kept == expected, options
        assert [(d.level, d.code, d.message) for d in diagnostics] == findings
        if roles is not None:
            assert roles == roles_of(kept)


class _Assistant(dict):  # type: ignore[type-arg]
    """A message whose own ``get`` answers ``assistant`` for its role: the strip reads the role by
    ``get``, the role filters the stored one (``role_of``)."""

    def get(self, key: Any, default: Any = None) -> Any:
        return "assistant" if key == "role" else super().get(key, default)


def _cut_part() -> list[Any]:
    """32 older messages of every kind the strip counts: usual turns, thinking-only answers (dropped),
    two thinking parts, no content, a content that is no list, a part that is no dict."""
    think = {"type": "thinking", "thinking": "t"}
    shapes: list[Any] = [
        {"role": "user", "content": [{"type": "text", "text": "q"}]},
        {"role": "assistant", "content": [dict(think), {"type": "text", "text": "a"}]},
        {"role": "assistant", "content": [dict(think)]},
        {"role": "assistant", "content": [dict(think), dict(think)]},
        {"role": "assistant"},
        {"role": "assistant", "content": "plain"},
        {"role": "assistant", "content": ["text", dict(think)]},
        {"role": "user", "content": "plain"},
    ]
    return [dict(shape) for _ in range(4) for shape in shapes]


def test_the_older_messages_max_messages_cuts_are_counted_as_the_stages_count_them() -> None:
    """A history whose 32 oldest messages maxMessages cuts: when every one is an exact dict the role
    filters keep, only the assistant ones are read (picked in C) for the strip's counts, and the
    findings are the stages'; a dict subclass there, or a role the filters drop, counts them all."""
    newest = [
        {"role": "user", "content": [{"type": "text", "text": f"q{n}"}]} if n % 2 else
        {"role": "assistant", "content": [{"type": "text", "text": f"a{n}"}]}
        for n in range(168)
    ]  # fmt: skip
    options: dict[str, Any] = {"includeSummaries": False, "roles": ["user", "assistant"], "stripAssistantThinking": True,
                               "maxMessages": 150, "maxChars": 10**8}  # fmt: skip
    for variant in range(3):
        older = _cut_part()
        if variant == 1:
            older[5] = _Assistant(role="user", content=[{"type": "thinking", "thinking": "t"}])
        elif variant == 2:
            older[0] = {"role": "branchSummary", "summary": "s", "content": []}
        history = older + newest
        for opts in (options, {**options, "stripAssistantThinking": False}):
            expected, findings = _staged(history, opts)
            diagnostics: list[Diagnostic] = []
            assert chat_history(history, {"id": "h", "options": opts}, diagnostics)[0] == expected
            assert [(d.level, d.code, d.message) for d in diagnostics] == findings, (variant, opts)
            if variant == 0 and opts is options:
                assert findings[0][2] == (
                    "Stripped 20 assistant thinking block(s) from 16 chat-history message(s) and dropped 8 empty assistant message(s)."
                )
