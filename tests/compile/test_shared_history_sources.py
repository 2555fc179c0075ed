"""A long history's source records are shared, read-only, by every compile of it from its second on.

What must hold: the shared records are exactly the records the per-message rule gives (§1.4: the
item's members, ``historyIndex``, ``historyCount``, the role as ``role_of`` reads it), a compile
whose template or roles differ in any way gets records of its own, a first sight makes plain
records, and no result can change a record another result holds."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from forgec.compile import assemble
from forgec.compile.assemble import SHARED_HISTORY, _history_sources, shared_history_sources
from forgec.js.values import UNDEFINED, dumps_report
from forgec.model.messages import role_of
from forgec.model.source_record import SourceRecord

_CYCLE = ["user", "assistant", "toolResult", "assistant", "custom", "bashExecution", "branchSummary",
          "compactionSummary"]
_HEAD: dict[str, Any] = {"kind": "chat-history", "itemId": "chat-history", "itemName": "Chat History",
                         "slot": "chat-history"}


@pytest.fixture(autouse=True)
def _no_shared_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no records kept from another test."""
    monkeypatch.setattr(assemble, "_shared", None)
    monkeypatch.setattr(assemble, "_seen", None)


def _history(length: int = SHARED_HISTORY, roles: list[Any] | None = None) -> list[Any]:
    roles = roles or _CYCLE
    return [{"role": roles[i % len(roles)], "content": [], "timestamp": i} for i in range(length)]


def _expected(head: dict[str, Any], history: list[Any]) -> list[dict[str, Any]]:
    """The records by the rule itself, one dict literal per message."""
    return [{**head, "historyIndex": i, "historyCount": len(history), "role": role_of(m)}
            for i, m in enumerate(history, 1)]


def _twice(head: dict[str, Any], history: list[Any]) -> list[dict[str, Any]]:
    """The records of a second compile of ``history`` (the first one's are plain, and equal)."""
    first = _history_sources(head, history)
    second = _history_sources(head, history)
    assert _types_and_order(first) == _types_and_order(second)
    return second


def _types_and_order(records: list[dict[str, Any]]) -> list[list[tuple[str, type, Any]]]:
    return [[(key, type(value), value) for key, value in record.items()] for record in records]


def test_a_long_history_gets_plain_records_then_read_only_ones_equal_to_the_rule() -> None:
    history = _history(SHARED_HISTORY + 7)
    first = _history_sources(_HEAD, history)
    assert _types_and_order(first) == _types_and_order(_expected(_HEAD, history))
    assert all(type(record) is dict for record in first)  # a first sight: plain records
    second = _history_sources(_HEAD, history)
    assert _types_and_order(second) == _types_and_order(_expected(_HEAD, history))
    assert all(type(record) is SourceRecord for record in second)
    assert not any(one is two for one, two in zip(first, second, strict=True))


def test_later_compiles_of_the_same_history_get_the_same_record_objects() -> None:
    history = _history()
    second = _twice(_HEAD, history)
    third = _history_sources(dict(_HEAD), [dict(message) for message in history])  # equal, not identical
    fourth = _history_sources(_HEAD, history)
    assert len(second) == len(third) == len(fourth) == len(history)
    assert all(a is b is c for a, b, c in zip(second, third, fourth, strict=True))
    assert second is not third  # each compile has its own list


def test_a_history_seen_between_two_compiles_of_another_is_a_first_sight_again() -> None:
    one, other = _history(), _history(SHARED_HISTORY + 1)
    _history_sources(_HEAD, one)
    _history_sources(_HEAD, other)
    assert all(type(record) is dict for record in _history_sources(_HEAD, one))


def test_a_shorter_history_keeps_plain_records() -> None:
    history = _history(SHARED_HISTORY - 1)
    got = _history_sources(_HEAD, history)
    assert got == _expected(_HEAD, history)
    assert all(type(record) is dict for record in got)
    assert assemble._shared is None


@pytest.mark.parametrize(
    "change",
    ["one role", "a missing role", "one message more", "one message less", "the item's name", "the item's id"],
)
def test_anything_the_records_hold_changed_gives_new_records(change: str) -> None:
    history = _history(SHARED_HISTORY + 10)
    head = dict(_HEAD)
    first = _twice(head, history)
    history = [dict(message) for message in history]
    if change == "one role":
        history[1234]["role"] = "user" if history[1234]["role"] != "user" else "assistant"
    elif change == "a missing role":
        del history[77]["role"]
    elif change == "one message more":
        history.append({"role": "user", "content": []})
    elif change == "one message less":
        history.pop()
    elif change == "the item's name":
        head["itemName"] = "Chat history"
    else:
        head["itemId"] = "history"
    second = _twice(head, history)
    assert _types_and_order(second) == _types_and_order(_expected(head, history))
    assert all(type(record) is SourceRecord for record in second)
    assert not any(one is two for one, two in zip(first, second, strict=False))


@pytest.mark.parametrize("first_name, second_name", [(1, True), (1, 1.0), (0, False), ("1", 1), (None, UNDEFINED)])
def test_equal_values_of_other_types_are_other_records(first_name: Any, second_name: Any) -> None:
    """``1 == True == 1.0`` in Python, but the reports print ``1``, ``true`` and ``1``: keyed by type too."""
    history = _history()
    first = _twice({**_HEAD, "itemName": first_name}, history)
    second = _twice({**_HEAD, "itemName": second_name}, history)
    assert type(first[0]["itemName"]) is type(first_name)
    assert type(second[0]["itemName"]) is type(second_name)
    assert first[0] is not second[0]


def test_a_member_that_could_change_is_never_shared() -> None:
    """An item name that is an object or a list (a raw stack) is held by every record: plain records."""
    history = _history()
    for name in ({"text": "History"}, ["History"]):
        got = _twice({**_HEAD, "itemName": name}, history)
        assert got == _expected({**_HEAD, "itemName": name}, history)
        assert all(type(record) is dict for record in got)


@pytest.mark.parametrize("odd", ["narrator", 1, None, "", ["user"], True])
def test_an_unusual_role_gives_the_records_of_the_general_way(odd: Any) -> None:
    history = _history()
    history[500] = {"role": odd, "content": []}
    got = _twice(_HEAD, history)
    assert _types_and_order(got) == _types_and_order(_expected(_HEAD, history))
    shared = odd in (None, "")  # a missing, null or empty role is the template's own ""
    assert all(type(record) is (SourceRecord if shared else dict) for record in got)


def test_a_message_that_is_no_object_gives_the_records_of_the_general_way() -> None:
    history: list[Any] = _history()
    history[3] = "not a message"
    assert _types_and_order(_twice(_HEAD, history)) == _types_and_order(_expected(_HEAD, history))


def test_roles_named_by_the_history_pass_share_too() -> None:
    """The history pipeline hands its ``role_of`` names on (``""`` for a missing role)."""
    history = _history()
    del history[9]["role"]
    names = [role_of(message) for message in history]
    template = {**_HEAD, "historyIndex": 0, "historyCount": len(history), "role": ""}
    assert shared_history_sources(template, names) is None  # a first sight: the caller makes plain ones
    got = shared_history_sources(template, names)
    assert got is not None and got is shared_history_sources(template, list(names))
    assert _types_and_order(got) == _types_and_order(_expected(_HEAD, history))


def test_a_shared_record_cannot_be_changed() -> None:
    record = _twice(_HEAD, _history())[0]
    before = dict(record)
    changes = [
        lambda: record.__setitem__("role", "x"),
        lambda: record.__delitem__("role"),
        lambda: record.update(role="x"),
        lambda: record.update({"role": "x"}),
        lambda: record.pop("role"),
        lambda: record.pop("nothing", None),
        lambda: record.popitem(),
        lambda: record.setdefault("extra", 1),
        lambda: record.clear(),
        lambda: record.__ior__({"role": "x"}),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="cannot be changed; dict\\(record\\)"):
            change()
    assert record == before and list(record) == list(before)


def test_a_copy_of_a_shared_record_is_a_plain_dict_to_change() -> None:
    record = _twice(_HEAD, _history())[5]
    for made in (dict(record), record.copy(), copy.copy(record), copy.deepcopy(record), record | {}):
        assert type(made) is dict
        assert list(made.items()) == list(record.items())
        made["role"] = "changed"
    assert record["role"] == _CYCLE[5]
    report = copy.deepcopy({"sources": [record]})
    assert type(report["sources"][0]) is dict


def test_a_shared_record_reads_and_prints_as_a_dict() -> None:
    records = _twice(_HEAD, _history())
    plain = _expected(_HEAD, _history())
    assert json.dumps(records) == json.dumps(plain)
    assert dumps_report({"sources": records}) == dumps_report({"sources": plain})
    assert repr(records[0]) == repr(plain[0])
    assert isinstance(records[0], dict) and records[0] == plain[0]
    again = pickle.loads(pickle.dumps(records[:3]))
    assert again == plain[:3] and type(again[0]) is SourceRecord


def test_two_compiles_of_one_loaded_context_share_the_records_and_report_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib.resources import files

    from forgec.codecs.context import load_context
    from forgec.report import compile_report

    data = json.loads(files("forgec.samples").joinpath("context.json").read_text(encoding="utf-8"))
    data["messages"] = [{"role": "user", "content": f"turn {i}", "timestamp": 1_700_000_000_000 + i}
                        if i % 2 == 0 else
                        {"role": "assistant", "content": [{"type": "text", "text": f"reply {i}"}], "api": "anthropic-messages",
                         "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop",
                         "timestamp": 1_700_000_000_000 + i,
                         "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                   "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}}
                        for i in range(SHARED_HISTORY + 100)]
    context = load_context(data)
    stack = {"id": "s", "name": "S", "items": [
        {"id": "sys", "kind": "block", "role": "system", "content": "Be brief."},
        {"id": "chat-history", "name": "Chat History", "kind": "slot", "slot": "chat-history"},
        {"id": "tail", "kind": "block", "role": "user", "content": "Sum it up."},
    ]}
    first = compile_report(stack, context).to_report()
    second = compile_report(stack, context).to_report()
    third = compile_report(stack, context).to_report()
    assert all(type(record) is dict for record in first["messages"]["sources"])
    one, two = second["messages"]["sources"], third["messages"]["sources"]
    assert one is not two and len(one) == SHARED_HISTORY + 101
    assert all(a is b for a, b in zip(one[:-1], two[:-1], strict=True))  # the history's records
    assert type(one[-1]) is dict and one[-1] is not two[-1]  # the stack item's: per compile
    with pytest.raises(TypeError):
        one[0]["role"] = "assistant"
    monkeypatch.setattr(assemble, "SHARED_HISTORY", 10**9)
    plain = compile_report(stack, context).to_report()
    assert all(type(record) is dict for record in plain["messages"]["sources"])
    assert dumps_report(plain) == dumps_report(first) == dumps_report(second) == dumps_report(third)
