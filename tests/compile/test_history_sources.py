"""History sources and roles read in bulk: the same records the per-message helpers give, for every
kind of message the host may send (plain, missing role, null role, non-string roles, non-objects)."""

from __future__ import annotations

import sys
from itertools import islice
from types import FunctionType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.compile import assemble
from forgec.compile.assemble import (
    _FEW_MESSAGES,
    _NUMBERS_KEPT,
    _history_numbers,
    _history_sources,
    compile_messages,
)
from forgec.compile.passes.history import chat_history_pipeline
from forgec.model.messages import role_of, roles_of
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.resources import compiled_modules

_ROLES = st.one_of(
    st.sampled_from(["user", "assistant", "toolResult", "custom", "", "branchSummary", "narrator"]),
    st.just(1.0),
    st.none(),
    st.integers(),
    st.booleans(),
    st.lists(st.sampled_from(["user", "x"]), max_size=2),
)
_MESSAGE = st.one_of(
    st.builds(lambda role: {"role": role, "content": []}, _ROLES),
    st.just({"content": "no role"}),
    st.sampled_from([None, "text", 3, ["user"]]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_MESSAGE, max_size=12))
def test_roles_of_is_role_of_for_every_message(messages: list[Any]) -> None:
    assert roles_of(messages) == [role_of(m) for m in messages]


@settings(max_examples=200, deadline=None)
@given(st.lists(_MESSAGE, max_size=12), st.booleans())
def test_history_sources_match_the_per_message_records(messages: list[Any], named: bool) -> None:
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h"}
    if named:
        head["itemName"] = "History"
    head["slot"] = "chat-history"
    expected = [
        {**head, "historyIndex": i, "historyCount": len(messages), "role": role_of(m)} for i, m in enumerate(messages, 1)
    ]
    got = _history_sources(head, messages)
    assert got == expected
    assert [list(s) for s in got] == [list(s) for s in expected]  # key order is output
    assert len({id(s) for s in got}) == len(got)  # one record each: callers may change them


@settings(max_examples=200, deadline=None)
@given(st.lists(_MESSAGE, max_size=12))
def test_history_sources_from_roles_read_before(messages: list[Any]) -> None:
    """The records built from roles the pipeline handed on are the records built from the messages
    (the per-role templates answer a role given as text exactly as one read from the message)."""
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    got = _history_sources(head, messages, roles_of(messages))
    assert got == _history_sources(head, messages)
    assert [list(s) for s in got] == [list(s) for s in _history_sources(head, messages)]


def test_history_sources_are_never_shared() -> None:
    """Records of one role are copies of one template: changing one (a caller may) changes no other
    record, and no record of a later compile."""
    messages = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}, {"content": "c"}, {"role": None}]
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    first = _history_sources(head, messages)
    first[0]["role"] = "changed"
    first[0]["extra"] = True
    first[2]["role"] = "changed"
    assert first[1] == {**head, "historyIndex": 2, "historyCount": 4, "role": "user"}
    assert first[3] == {**head, "historyIndex": 4, "historyCount": 4, "role": ""}
    again = _history_sources(head, messages)
    assert [s["role"] for s in again] == ["user", "user", "", ""]
    assert all("extra" not in s for s in again)


def test_history_sources_read_a_non_string_role_as_javascript_does() -> None:
    """``True``, ``1`` and ``1.0`` are equal dict keys in Python but three different role texts."""
    messages = [{"role": True}, {"role": 1}, {"role": 1.0}, {"role": "1"}, {"role": 1.5}]
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    assert [s["role"] for s in _history_sources(head, messages)] == ["true", "1", "1", "1", "1.5"]


def test_implicit_history_sources_keep_their_key_order() -> None:
    messages = [{"role": "user", "content": "a"}, {"role": 5, "content": "b"}]
    result = compile_messages({"items": []}, Runtime(messages=messages), VariableStore())
    assert result.sources == [
        {"kind": "implicit-history", "itemName": "Conversation history", "slot": "chat-history",
         "historyIndex": 1, "historyCount": 2, "role": "user"},
        {"kind": "implicit-history", "itemName": "Conversation history", "slot": "chat-history",
         "historyIndex": 2, "historyCount": 2, "role": "5"},
    ]  # fmt: skip
    assert [list(s) for s in result.sources] == [
        ["kind", "itemName", "slot", "historyIndex", "historyCount", "role"]
    ] * 2


@pytest.mark.parametrize("length", [0, 1, 2, 255, 256, 257, 3_000, _NUMBERS_KEPT - 1, _NUMBERS_KEPT, _NUMBERS_KEPT + 1, _NUMBERS_KEPT + 40])
def test_history_numbers_count_from_one_past_the_kept_ints(length: int) -> None:
    """``historyIndex`` values come from shared ints as far as they are kept, then from ``count``:
    the first ``length`` values ``count(1)`` gives, for any length and in any order of lengths asked."""
    for asked in (length, 5, length):
        assert list(islice(_history_numbers(asked), asked)) == list(range(1, asked + 1))


def test_history_indexes_past_the_kept_ints() -> None:
    """A history longer than the shared ints: the records past them still number on by one."""
    messages = [{"role": "user"}] * (_NUMBERS_KEPT + 3)
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    sources = _history_sources(head, messages)
    assert [s["historyIndex"] for s in sources[-5:]] == list(range(_NUMBERS_KEPT - 1, _NUMBERS_KEPT + 4))
    assert [s["historyIndex"] for s in sources[:3]] == [1, 2, 3]


_SLOT_OPTIONS: list[Any] = [
    "absent", None, {}, [], "text", 0, True, {"unknown": 1}, {"maxMessages": None}, {"roles": []},
    {"maxMessages": 2}, {"includeLastUserMessage": False}, {"toolMode": "bad"},
]  # fmt: skip


@pytest.mark.parametrize("options", _SLOT_OPTIONS)
def test_a_slot_without_options_inserts_the_pipelines_result(options: Any) -> None:
    """A chat-history slot with no options skips the pipeline's copy of the history (the compile
    reads the host's list itself); every options value, empty or not, compiles to exactly what the
    pipeline returns, with its findings, and never hands out or changes the host's list."""
    messages: list[Any] = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}]},
        {"role": "toolResult", "toolCallId": "c1", "content": "r"},
        {"content": "no role"},
        {"role": "user", "content": "b"},
    ]
    host = list(messages)
    item: dict[str, Any] = {"kind": "slot", "id": "h", "slot": "chat-history"}
    if options != "absent":
        item["options"] = options
    expected_diagnostics: list[Any] = []
    expected = chat_history_pipeline(list(messages), item, expected_diagnostics, pointer=("items", 0))
    result = compile_messages({"items": [item]}, Runtime(messages=messages), VariableStore())
    assert result.messages == expected
    assert [m is e for m, e in zip(result.messages, expected, strict=True)] == [True] * len(expected)
    assert result.diagnostics == expected_diagnostics
    assert [s["role"] for s in result.sources] == [role_of(m) for m in expected]
    assert result.messages is not messages
    result.messages.append("added")
    result.messages[0] = "replaced"
    assert messages == host and all(m is h for m, h in zip(messages, host, strict=True))

def _records(add: Any, messages: list[Any], roles: list[str] | None) -> list[dict[str, Any]]:
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "itemName": "History", "slot": "chat-history"}
    template = {**head, "historyIndex": 0, "historyCount": len(messages), "role": ""}
    sources: list[dict[str, Any]] = [{"kind": "stack-item"}]  # records are appended after what is there
    if add(sources, template, messages, roles) is False:
        return []
    assert template == {**head, "historyIndex": 0, "historyCount": len(messages), "role": ""}  # not changed
    return sources


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE, max_size=30), st.booleans())
def test_the_short_history_loop_builds_what_the_c_loops_build(messages: list[Any], given_roles: bool) -> None:
    """``_add_few_history_sources`` (a loop per message, for short histories) either builds exactly the
    records of ``_add_many_history_sources`` -- values, key order, one object each -- or appends
    nothing and answers False, for messages with no dict, unusual, missing, null or unhashable roles."""
    from forgec.compile.assemble import _add_few_history_sources, _add_many_history_sources

    roles = roles_of(messages) if given_roles else None
    few = _records(_add_few_history_sources, messages, roles)
    many = _records(_add_many_history_sources, messages, roles)
    usual = {"user", "assistant", "toolResult", "custom", "bashExecution", "branchSummary", "compactionSummary"}
    readable = all(
        isinstance(m, dict) and ((m.get("role") is None and not given_roles) or (type(m.get("role")) is str and m["role"] in usual))
        for m in messages
    )
    if not readable:
        assert few == [] or few == many  # handed over (nothing appended), or the same records
        return
    assert few == many
    assert [list(s) for s in few] == [list(s) for s in many]
    assert len({id(s) for s in few}) == len(few)


def test_histories_either_side_of_the_short_loop_limit_give_the_per_message_records() -> None:
    from forgec.compile import assemble

    head: dict[str, Any] = {"kind": "implicit-history", "itemName": "Conversation history", "slot": "chat-history"}
    kinds = ["user", "assistant", "toolResult", None, "custom", "narrator", 7]
    for size in (0, 1, assemble._FEW_MESSAGES - 1, assemble._FEW_MESSAGES, assemble._FEW_MESSAGES + 1, 60):
        for odd in (False, True):
            messages: list[Any] = [{"role": kinds[i % (7 if odd else 5)]} for i in range(size)]
            if odd and size:
                messages[-1] = "not a message"
            expected = [
                {**head, "historyIndex": i, "historyCount": size, "role": role_of(m)} for i, m in enumerate(messages, 1)
            ]
            got = _history_sources(head, messages)
            assert got == expected
            assert [list(s) for s in got] == [list(s) for s in expected]



@pytest.mark.parametrize(
    "refused", ["not a message", None, {"role": "narrator"}, {"role": ["user"]}, {"role": 1.0}]
)
def test_the_short_history_loop_takes_back_what_it_appended(refused: Any) -> None:
    """The one-pass loop appends records as it reads the roles: a refusal after some messages (here
    the fourth: no dict, an unknown, unhashable or non-string role) must leave ``sources`` exactly as
    the caller handed it over, and the general way then builds the records."""
    from forgec.compile.assemble import _add_few_history_sources

    messages: list[Any] = [{"role": "user"}, {"role": "assistant"}, {}, refused, {"role": "user"}]
    earlier = {"kind": "stack-item", "role": "user"}
    template = {"kind": "implicit-history", "historyIndex": 0, "historyCount": 5, "role": ""}
    for roles in (None, ["user", "assistant", "", "narrator", "user"]):  # roles read before: a name refuses
        sources: list[dict[str, Any]] = [earlier]
        assert _add_few_history_sources(sources, template, messages, roles) is False
        assert len(sources) == 1 and sources[0] is earlier
        assert template == {"kind": "implicit-history", "historyIndex": 0, "historyCount": 5, "role": ""}
    head = {"kind": "implicit-history"}
    expected = [{**head, "historyIndex": i, "historyCount": 5, "role": role_of(m)} for i, m in enumerate(messages, 1)]
    assert _history_sources(head, messages) == expected


# --- the long-history records, both ways (C map passes; the compiled build's one loop) -----------

_LONG = st.lists(_MESSAGE, min_size=_FEW_MESSAGES + 1, max_size=_FEW_MESSAGES + 40)


@pytest.mark.parametrize("native", [False, True])
@settings(max_examples=150, deadline=None)
@given(messages=_LONG, before=st.integers(0, 3), handed=st.booleans())
def test_long_history_sources_match_the_per_message_records_both_ways(
    native: bool, messages: list[Any], before: int, handed: bool
) -> None:
    """A history past the short loop's length, with the records built by the C map passes and by the
    one-loop way the compiled build takes (reached here through the module flag in the pure build):
    the same records, in key order, each its own dict; records already in the list stay, and a
    message the fast way refuses (no dict, an unhashable or unusual role) hands the whole history
    over to ``roles_of``'s way with nothing left behind."""
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    expected = [
        {**head, "historyIndex": i, "historyCount": len(messages), "role": role_of(m)} for i, m in enumerate(messages, 1)
    ]
    earlier = [{"kind": "item", "n": n} for n in range(before)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assemble, "NATIVE_RECORD_LOOP", native)
        sources = list(earlier)
        assemble._add_history_sources(sources, head, messages, roles_of(messages) if handed else None)
    assert sources[:before] == earlier
    got = sources[before:]
    assert got == expected
    assert [list(s) for s in got] == [list(s) for s in expected]
    assert len({id(s) for s in got}) == len(got)


def test_the_native_record_loop_is_taken_exactly_in_the_compiled_build() -> None:
    """``NATIVE_RECORD_LOOP`` is True only where the loop is compiled (as Python it costs more than the
    C map passes it replaces)."""
    compiled = "compile/assemble.py" in compiled_modules()
    assert assemble.NATIVE_RECORD_LOOP is compiled
    assert assemble.NATIVE_RECORD_LOOP is not isinstance(assemble._copy_role_records_natively, FunctionType)


def _role_records(template: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    by_role = assemble._role_templates(template, ["user", "assistant"])
    by_role[None] = template
    return by_role


def test_the_native_record_loop_numbers_with_the_shared_ints() -> None:
    """The one loop stores the kept int objects themselves (no new int per record above 256) and
    copies each record (changing one changes no template)."""
    template: dict[str, Any] = {"kind": "chat-history", "historyIndex": 0, "historyCount": 600, "role": ""}
    roles: list[Any] = ["user", None, "assistant"] * 200
    numbers = assemble._history_number_list(len(roles))
    sources: list[dict[str, Any]] = []
    assert assemble._copy_role_records_natively(sources, _role_records(template), roles, numbers)
    assert [s["historyIndex"] for s in sources] == list(range(1, 601))
    assert all(s["historyIndex"] is numbers[i] for i, s in enumerate(sources, 1))
    assert [s["role"] for s in sources[:3]] == ["user", "", "assistant"]
    sources[0]["role"] = "changed"
    assert sources[3]["role"] == "user" and template["role"] == ""


def test_the_native_record_loop_picks_the_same_record_by_identity_or_by_look_up() -> None:
    """The one loop tests the three usual roles by identity before it looks a role up: a role equal to
    one of them but another object (not interned) gets the same record, and a usual role whose record
    is missing is still refused."""
    template: dict[str, Any] = {"kind": "chat-history", "historyIndex": 0, "historyCount": 8, "role": ""}
    by_role = assemble._role_templates(template, ["user", "assistant", "toolResult", "custom"])
    built = ["".join(("us", "er")), "".join(("assist", "ant")), "".join(("tool", "Result"))]
    assert all(role is not sys.intern(role) for role in built)
    roles: list[Any] = ["user", "assistant", "toolResult", "custom", *built, "user"]
    numbers = assemble._history_number_list(len(roles))
    sources: list[dict[str, Any]] = []
    assert assemble._copy_role_records_natively(sources, by_role, roles, numbers)
    assert [s["role"] for s in sources] == [*roles[:4], "user", "assistant", "toolResult", "user"]
    assert [s["historyIndex"] for s in sources] == list(range(1, 9))
    without_tools = {role: record for role, record in by_role.items() if role != "toolResult"}
    assert not assemble._copy_role_records_natively([], without_tools, ["user", "toolResult"], numbers)


@pytest.mark.parametrize("native", [False, True])
def test_the_record_ways_refuse_a_role_without_a_record(native: bool) -> None:
    """Both ways: a role with no record answers False (the map passes: ``TypeError`` from copying
    ``None``), an unhashable role ``TypeError``; the caller takes back what was appended."""
    template: dict[str, Any] = {"kind": "chat-history", "historyIndex": 0, "historyCount": 3, "role": ""}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assemble, "NATIVE_RECORD_LOOP", native)
        try:
            refused = not assemble._copy_role_records([], _role_records(template), ["user", "narrator", "user"])
        except TypeError:
            refused = True
        assert refused
        with pytest.raises(TypeError):
            assemble._copy_role_records([], _role_records(template), ["user", ["user"]])


def test_a_history_past_the_kept_ints_takes_the_map_passes_in_any_build() -> None:
    """Past the shared ints the one loop has no int to store: the map passes number on with
    ``count`` (same records)."""
    messages = [{"role": "assistant"}] * (_NUMBERS_KEPT + 2)
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assemble, "NATIVE_RECORD_LOOP", True)
        sources = _history_sources(head, messages)
    assert [s["historyIndex"] for s in sources[-3:]] == [_NUMBERS_KEPT, _NUMBERS_KEPT + 1, _NUMBERS_KEPT + 2]
    assert sources[-1]["role"] == "assistant"


class _OwnGet(dict):  # type: ignore[type-arg]
    """A message whose own ``get`` answers something else: the records read the stored item."""

    def get(self, key: Any, default: Any = None) -> Any:
        return "narrator"


@pytest.mark.parametrize("native", [False, True])
def test_the_stored_roles_are_read_as_dict_get_reads_them(native: bool) -> None:
    """Both ways read ``dict.get(message, "role")``: the native loop takes exact dicts only and hands a
    history with a dict subclass to the ``map`` pass (which reads the stored item, not the subclass's
    ``get``); a message that is no dict raises ``TypeError`` either way."""
    plain: list[Any] = [{"role": "user"}, {}, {"role": None}, {"role": 3}, {"role": ["x"]}]
    mixed: list[Any] = [*plain, _OwnGet(role="assistant"), _OwnGet()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assemble, "NATIVE_RECORD_LOOP", native)
        assert assemble._stored_roles(plain) == ["user", None, None, 3, ["x"]]
        assert assemble._stored_roles(mixed) == ["user", None, None, 3, ["x"], "assistant", None]
        with pytest.raises(TypeError):
            assemble._stored_roles([*plain, "text"])
    assert assemble._stored_roles_natively(plain) == ["user", None, None, 3, ["x"]]
    assert assemble._stored_roles_natively(mixed) is None
    assert assemble._stored_roles_natively([{"role": "user"}, None]) is None


def test_a_subclassed_message_in_a_long_history_keeps_its_stored_role() -> None:
    """Through the whole record building, both ways: a subclass's own ``get`` is not what the
    record's role comes from (``role_of`` reads the stored item)."""
    messages: list[Any] = [{"role": "user"}] * (_FEW_MESSAGES + 3) + [_OwnGet(role="assistant")]
    head: dict[str, Any] = {"kind": "chat-history", "itemId": "h", "slot": "chat-history"}
    for native in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(assemble, "NATIVE_RECORD_LOOP", native)
            sources = _history_sources(head, messages)
        assert [s["role"] for s in sources] == [role_of(m) for m in messages]
        assert sources[-1]["role"] == "assistant"
