"""The one walk of the chat-history pipeline (``_scan``): what it records of a list answers for any
newest part of it (maxMessages and maxChars keep the newest messages) exactly as a walk of that part
alone would, and the roles it hands the source records are :func:`role_of` of what it returns."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.compile.passes.history import _scan, chat_history, chat_history_pipeline
from forgec.model.messages import roles_of

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
