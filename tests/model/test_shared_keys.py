"""``key_shared``: a record laid out on a shared key table is the same data as the plain record.

What must hold: the result is a ``dict`` equal to its record, in the same key order, holding the same
value objects; its copies are independent dicts (a change to one, even a new key, shows in no other);
it prints, pickles and copies as the plain dict; records whose keys are no strings come back as they
are.  On CPython the layout itself is checked too (that is the point of the module): a shared-table
dict and its copies are smaller than the plain dict, and stay so through item assignment."""

from __future__ import annotations

import copy
import json
import pickle
import platform
import sys
from typing import Any

import pytest

from forgec.compile.assemble import _history_sources
from forgec.model import shared_keys
from forgec.model.shared_keys import key_shared

_RECORD: dict[str, Any] = {"kind": "chat-history", "itemId": "chat-history", "itemName": "Chat History",
                           "slot": "chat-history", "historyIndex": 0, "historyCount": 3, "role": ""}
_CPYTHON = platform.python_implementation() == "CPython"


def test_equal_same_order_same_objects() -> None:
    value = object()
    record = {**_RECORD, "extra": value}
    shared = key_shared(record)
    assert type(shared) is dict
    assert shared == record
    assert list(shared.items()) == list(record.items())
    assert shared["extra"] is value
    assert shared is not record


def test_the_record_is_not_changed() -> None:
    record = dict(_RECORD)
    before = list(record.items())
    key_shared(record)["role"] = "user"
    assert list(record.items()) == before


def test_copies_are_independent() -> None:
    first = key_shared(_RECORD)
    second = first.copy()
    third = key_shared(_RECORD)
    second["role"] = "assistant"
    second["added"] = 1  # a key the shared table did not have
    del third["slot"]
    assert first == _RECORD
    assert "added" not in first and "added" not in third
    assert list(second) == [*_RECORD, "added"]
    assert list(third) == [key for key in _RECORD if key != "slot"]
    assert key_shared(_RECORD) == _RECORD  # a later record sees none of it either


def test_prints_pickles_and_copies_as_the_plain_dict() -> None:
    shared = key_shared(_RECORD)
    assert json.dumps(shared) == json.dumps(_RECORD)
    assert repr(shared) == repr(_RECORD)
    for again in (pickle.loads(pickle.dumps(shared)), copy.copy(shared), copy.deepcopy(shared), dict(shared)):
        assert type(again) is dict
        assert list(again.items()) == list(_RECORD.items())


def test_keys_that_are_not_strings_keep_the_record() -> None:
    record: dict[Any, Any] = {"kind": "x", 1: "one"}
    assert key_shared(record) is record


def test_the_number_of_tables_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_keys, "_owners", {})
    monkeypatch.setattr(shared_keys, "_MOST_TABLES", 2)
    made = [key_shared({f"key{n}": n}) for n in range(3)]
    assert len(shared_keys._owners) == 2
    assert made[2] == {"key2": 2}
    assert key_shared(made[2]) is made[2]  # the third key tuple: no table, the record itself
    again = {"key0": 5}
    shared = key_shared(again)  # a key tuple that has its table: a new dict on it
    assert shared is not again
    assert shared == again


@pytest.mark.skipif(not _CPYTHON, reason="the layout is CPython's; elsewhere only the data is checked")
def test_the_layout_is_the_shared_table() -> None:
    plain = dict(_RECORD)
    shared = key_shared(_RECORD)
    copied = shared.copy()
    copied["historyIndex"] = 7
    copied["role"] = "user"
    assert sys.getsizeof(shared) < sys.getsizeof(plain)
    assert sys.getsizeof(copied) == sys.getsizeof(shared)


@pytest.mark.skipif(not _CPYTHON, reason="the layout is CPython's; elsewhere only the data is checked")
def test_a_long_history_records_use_the_shared_table() -> None:
    history = [{"role": ("user", "assistant")[n % 2], "content": "x", "timestamp": n} for n in range(100)]
    records = _history_sources({"kind": "chat-history", "itemId": "h", "itemName": "H", "slot": "chat-history"}, history)
    plain = {**records[0]}
    assert [record["historyIndex"] for record in records] == list(range(1, 101))
    assert [record["role"] for record in records] == [message["role"] for message in history]
    assert all(sys.getsizeof(record) < sys.getsizeof(plain) for record in records)
