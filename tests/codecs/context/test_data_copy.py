"""A context given as data is copied (``load_context(dict)``): the context holds data of its own,
equal to what was given (key order too), and everything ``copy.deepcopy`` did that anyone could see
stays as it was -- the types it keeps, the objects it shares within a member, the cycles it copies,
the depth limit's diagnostic.  These tests were written against the deep copy (stop 32) and hold for
the plain-data copier that replaced it for JSON data (``context._copied``), but for the deepest
nesting allowed, which the deep copy could not copy."""

from __future__ import annotations

import copy
import gc
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs import context as context_codec
from forgec.codecs.context import CONTEXT_MAX_DEPTH, LAY_OUT_MESSAGES, ContextError, load_context
from forgec.rules import loader as codes

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
BASE = json.loads((CASES / "adapted-strip-thinking-tools" / "context.json").read_text(encoding="utf-8"))


def _history(count: int) -> list[dict[str, Any]]:
    """``count`` messages of pi's kinds, nested a few levels (parts, tool arguments, usage and cost)."""
    out: list[dict[str, Any]] = []
    for i in range(count):
        if i % 2:
            out.append({"role": "user", "content": [{"type": "text", "text": f"q{i}"}], "timestamp": i})
        else:
            out.append(
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": f"a{i}"},
                        {"type": "toolCall", "id": f"c{i}", "name": "read", "arguments": {"path": "x", "n": [i, 1.5, None, True]}},
                    ],
                    "usage": {"input": 1, "output": 2, "cost": {"total": 0.25}},
                    "stopReason": "toolUse",
                    "timestamp": i,
                }
            )
    return out


def _data(count: int) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["messages"] = _history(count)
    data["variables"] = {"mood": "focused", "nested": {"list": [1, [2, {"k": "v"}]], "flag": False}}
    data["finalizeMessages"] = _history(3)
    data["$comment"] = "kept"
    return data


def _containers(value: Any, into: dict[int, Any]) -> dict[int, Any]:
    """Every ``dict``/``list``/``set``/``tuple`` under ``value`` by id (each visited once)."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, (dict, list, set, tuple)) and id(current) not in into:
            into[id(current)] = current
            stack.extend(current.values() if isinstance(current, dict) else current)
    return into


SIZES = [0, 5, LAY_OUT_MESSAGES - 1, LAY_OUT_MESSAGES, LAY_OUT_MESSAGES + 3]


@pytest.mark.parametrize("count", SIZES)
def test_copy_equals_the_input_in_key_order(count: int) -> None:
    data = _data(count)
    given = json.dumps(data, ensure_ascii=False)
    loaded = load_context(data).data
    for key in ("messages", "variables", "finalizeMessages", "$comment", "model"):
        assert json.dumps(loaded[key], ensure_ascii=False) == json.dumps(data[key], ensure_ascii=False)
    assert json.dumps(data, ensure_ascii=False) == given  # the input is left as it was


@pytest.mark.parametrize("count", SIZES)
def test_copy_shares_no_container_with_the_input(count: int) -> None:
    data = _data(count)
    loaded = load_context(data).data
    given = _containers(data, {})
    held = _containers({key: value for key, value in loaded.items() if key != "$comment"}, {})
    assert not set(given) & set(held)


@pytest.mark.parametrize("count", [5, LAY_OUT_MESSAGES])
def test_changing_the_input_after_the_load_changes_nothing(count: int) -> None:
    data = _data(count)
    context = load_context(data)
    before = json.dumps(context.data, ensure_ascii=False)
    data["messages"][0]["content"][0]["text"] = "changed"
    data["messages"][0]["usage"]["cost"]["total"] = 9
    data["messages"][-1]["content"].append({"type": "text", "text": "more"})
    data["messages"].append({"role": "user", "content": "late"})
    data["variables"]["nested"]["list"][1].append(3)
    data["finalizeMessages"].clear()
    assert json.dumps(context.data, ensure_ascii=False) == before


def test_a_container_given_twice_within_a_member_stays_one_object() -> None:
    """``copy.deepcopy`` keeps aliasing within what it copies (each top-level member on its own), so
    a host that changes one place in ``context.data`` sees the other change too, as before."""
    shared = [1, {"deep": ["x"]}]
    part = {"type": "text", "text": "same"}
    message = {"role": "user", "content": [part, part]}
    data = {"variables": {"a": shared, "b": {"again": shared}}, "messages": [message, message]}
    loaded = load_context(data).data
    variables = loaded["variables"]
    assert variables["a"] is variables["b"]["again"] and variables["a"] is not shared
    assert variables["a"] == shared
    first, second = loaded["messages"]
    assert first is second and first is not message  # below the layout's threshold
    assert first["content"][0] is first["content"][1] and first["content"][0] is not part


def test_aliasing_in_a_long_history() -> None:
    """From ``LAY_OUT_MESSAGES`` messages the layout makes each message a dict of its own, a message
    given twice included; what the messages hold stays shared where it was (as before)."""
    history = _history(LAY_OUT_MESSAGES)
    history[5] = history[3]
    history[7]["content"] = history[9]["content"]
    loaded = load_context({"messages": history}).data["messages"]
    assert loaded[5] is not loaded[3] and loaded[5] == loaded[3]
    assert loaded[5]["content"] is loaded[3]["content"]
    assert loaded[7]["content"] is loaded[9]["content"] and loaded[7]["content"] is not history[9]["content"]
    assert loaded == history


def test_a_container_in_two_members_is_copied_for_each() -> None:
    shared = ["x"]
    loaded = load_context({"variables": {"a": shared}, "messages": [{"role": "user", "content": shared}]}).data
    assert loaded["variables"]["a"] is not loaded["messages"][0]["content"]


def test_host_references_do_not_change_the_copy() -> None:
    """A host that also holds every message and part (more references to each) gets the same copy."""
    history = _history(LAY_OUT_MESSAGES)
    held = [*history, *(part for message in history for part in message["content"])]
    loaded = load_context({"messages": history}).data["messages"]
    assert loaded == history and not set(_containers(loaded, {})) & set(_containers(history, {}))
    assert len(held) > len(history)


def test_a_cycle_of_lists_is_refused_as_too_deep() -> None:
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ContextError) as caught:
        load_context({"variables": {"a": looped}})
    assert caught.value.code == codes.NESTING_TOO_DEEP
    assert caught.value.pointer[:3] == ("variables", "a", 0)


def test_a_cycle_through_other_types_is_copied_as_a_cycle() -> None:
    class Node(dict[str, Any]):
        pass

    node = Node(name="n")
    node["self"] = node
    pair: tuple[list[Any]] = ([],)
    pair[0].append(pair)
    loaded = load_context({"variables": {"node": node, "pair": pair}, "messages": [{"role": "user", "content": [node]}]}).data
    copied = loaded["variables"]["node"]
    assert type(copied) is Node and copied is not node and copied["self"] is copied
    copied_pair = loaded["variables"]["pair"]
    assert type(copied_pair) is tuple and copied_pair is not pair and copied_pair[0][0] is copied_pair
    in_message = loaded["messages"][0]["content"][0]
    assert in_message["self"] is in_message and in_message is not copied


class _Counted:
    """A value that counts its deep copies."""

    copies = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Counted:
        _Counted.copies += 1
        return _Counted()


@pytest.mark.parametrize("count", [2, LAY_OUT_MESSAGES])
def test_values_that_are_not_json_data_are_deep_copied(count: int) -> None:
    """Tuples, sets, subclasses, objects and keys that are not strings: what ``copy.deepcopy`` makes of them."""

    class Message(dict[str, Any]):
        pass

    class Role(str):
        pass

    class Number(int):
        pass

    history: list[Any] = _history(count + 3)
    history[0] = Message(role="user", content="sub")
    history[1]["role"] = Role("user")
    history[-1]["content"] = ("a", ["b"])
    history[-1][7] = {"int key": True}
    history[-1]["tags"] = {1, 2}
    history[-1]["n"] = Number(3)
    counted = _Counted()
    history[-1]["object"] = counted
    history[2][_Counted()] = "an object as a key"
    _Counted.copies = 0
    loaded = load_context({"messages": history, "variables": {"t": ("x",), "o": counted}}).data
    messages = loaded["messages"]
    assert _Counted.copies == 3
    assert type(messages[0]) is Message and messages[0] is not history[0] and messages[0] == history[0]
    assert type(messages[1]["role"]) is Role
    last = messages[-1]
    assert last["content"] == ("a", ["b"]) and last["content"][1] is not history[-1]["content"][1]
    assert last[7] == {"int key": True} and list(last) == list(history[-1])
    assert last["tags"] == {1, 2} and last["tags"] is not history[-1]["tags"]
    assert type(last["n"]) is Number and type(last["object"]) is _Counted
    assert loaded["variables"]["t"] == ("x",)
    assert messages[3:-1] == history[3:-1]
    keys = [key for key in messages[2] if type(key) is _Counted]
    assert len(keys) == 1 and keys[0] not in history[2]  # the key is a copy


def test_list_and_dict_subclasses_keep_their_type() -> None:
    class History(list[Any]):
        pass

    class Variables(dict[str, Any]):
        pass

    history = History(_history(4))
    loaded = load_context({"messages": history, "variables": Variables(a=[1])}).data
    assert type(loaded["messages"]) is History and loaded["messages"] == history
    assert type(loaded["variables"]) is Variables and loaded["variables"] == {"a": [1]}
    long_history = History(_history(LAY_OUT_MESSAGES))
    laid_out = load_context({"messages": long_history}).data["messages"]
    assert type(laid_out) is list and laid_out == long_history  # the layout's list, as before


def _nested(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


def test_too_deep_is_refused_with_the_pointer() -> None:
    with pytest.raises(ContextError) as caught:
        load_context({"variables": {"a": _nested(CONTEXT_MAX_DEPTH)}})
    assert caught.value.code == codes.NESTING_TOO_DEEP
    assert len(caught.value.pointer) == CONTEXT_MAX_DEPTH + 1


@pytest.mark.parametrize("levels", [CONTEXT_MAX_DEPTH - 10, CONTEXT_MAX_DEPTH - 1])
def test_deepest_allowed_nesting_loads(levels: int) -> None:
    """Nesting the limit allows loads, a copy of it (``copy.deepcopy`` needed two frames a level and
    failed with a RecursionError from ~490 levels under a test runner; the plain copy needs one).
    At ``CONTEXT_MAX_DEPTH - 1`` the innermost lists sit at the limit itself."""
    data = {"variables": {"a": _nested(levels)}, "messages": [{"role": "user", "content": _nested(levels - 1)}]}
    loaded = load_context(data).data
    assert loaded["variables"] == data["variables"] and loaded["messages"] == data["messages"]


def test_not_an_object_is_refused() -> None:
    for value in ([], "text", 3, 3.5):
        with pytest.raises(ContextError):
            load_context(value)  # type: ignore[arg-type]


def test_collector_left_as_it_was() -> None:
    assert gc.isenabled()
    load_context(_data(LAY_OUT_MESSAGES))
    assert gc.isenabled()
    gc.disable()
    try:
        load_context(_data(LAY_OUT_MESSAGES))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_long_history_roles_interned_from_data() -> None:
    history = _history(LAY_OUT_MESSAGES)
    for message in history:
        message["role"] = "".join(message["role"])
    loaded = load_context({"messages": history}).data["messages"]
    assert {id(m["role"]) for m in loaded if m["role"] == "user"} == {id(sys.intern("user"))}
    short = load_context({"messages": history[:5]}).data["messages"]
    assert short[1]["role"] is history[1]["role"]  # below the threshold, the given string (as before)



def _refusal(data: Any) -> tuple[str | None, tuple[str | int, ...]]:
    with pytest.raises(ContextError) as caught:
        load_context(data)
    return caught.value.code, caught.value.pointer


def _deep_dicts(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"k": value}
    return value


@pytest.mark.parametrize("count", [1, LAY_OUT_MESSAGES])
def test_the_depth_limit_is_where_it_was(count: int) -> None:
    """A container at depth ``CONTEXT_MAX_DEPTH`` (the context itself at 0) is allowed, one below it
    is refused as nested too deep -- in every member, a message, an unknown member and ``$comment``.
    An unknown member makes each context invalid, so the allowed depth is seen (as the other
    refusal) without copying it (the deep copy could not copy it)."""
    limit = CONTEXT_MAX_DEPTH
    history = _history(count)
    shapes = [
        lambda n: {"variables": {"a": _nested(n - 1)}},  # variables at 1, the lists at 2..n
        lambda n: {"variables": _deep_dicts(n)},
        lambda n: {"messages": [*history[:-1], {"role": "user", "content": _nested(n - 2)}]},
        lambda n: {"messages": history, "finalizeMessages": [{"role": "user", "content": _deep_dicts(n - 2)}]},
        lambda n: {"unknown": _nested(n)},
        lambda n: {"$comment": _nested(n)},
    ]
    for shape in shapes:
        allowed = {"bogus": True, **shape(limit)}
        assert _refusal(allowed) == (None, ("bogus",))  # the unknown member, not the depth
        code, pointer = _refusal({"bogus": True, **shape(limit + 1)})
        assert code == codes.NESTING_TOO_DEEP and len(pointer) == limit + 1


@pytest.mark.parametrize("comment", [["a", {"b": 1}], {"note": ["x"]}])
def test_a_comment_is_kept_as_given(comment: Any) -> None:
    loaded = load_context({"$comment": comment, "messages": _history(LAY_OUT_MESSAGES)}).data
    assert loaded["$comment"] is comment
    assert load_context({"$comment": "text"}).data["$comment"] == "text"


def test_json_data_takes_the_plain_copy() -> None:
    """The plain copy is what loads JSON data (the tests above would pass on the old path too)."""
    for count in (3, LAY_OUT_MESSAGES):
        data = _data(count)
        del data["$comment"]
        copied = context_codec._plain_copy(data)
        assert copied is not None and copied[1] is (count >= LAY_OUT_MESSAGES)
        assert json.dumps(copied[0]) == json.dumps(data)
    held = _history(LAY_OUT_MESSAGES)  # a host holding every message twice over: the ids are counted
    again = list(held)
    assert context_codec._plain_copy({"messages": held}) is not None and again == held


@pytest.mark.parametrize(
    "odd",
    [
        {"variables": {"a": ("x",)}},
        {"variables": {"a": {1: "x"}}},
        {"messages": [{"role": "user", "content": [{1, 2}]}]},
        {"$comment": ["note"]},
        {"variables": {"a": _nested(CONTEXT_MAX_DEPTH)}},
        {"variables": {"a": [1.5, True, None, 2**70, 7]}, 3: "x"},
    ],
)
def test_what_the_plain_copy_leaves_to_the_old_path(odd: dict[Any, Any]) -> None:
    assert context_codec._plain_copy(odd) is None


def test_a_repeated_container_leaves_the_copy_to_the_old_path() -> None:
    part = {"type": "text", "text": "x"}
    assert context_codec._plain_copy({"messages": [{"role": "user", "content": [part, part]}]}) is None
    history = _history(LAY_OUT_MESSAGES)
    history.append(history[0])
    assert context_codec._plain_copy({"messages": history}) is None
    shared = [1]
    assert context_codec._plain_copy({"variables": {"a": shared}, "finalizeMessages": [{"c": shared}]}) is None
