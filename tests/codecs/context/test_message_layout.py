"""A long history's message objects are laid out one after another when a context is loaded
(``context._lay_out_messages``), and nothing a context holds or a compile reports changes by it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs import context as context_codec
from forgec.codecs.context import LAY_OUT_MESSAGES, load_context
from forgec.report import compile_report

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
BASE = json.loads((CASES / "history-roles-toolresult" / "context.json").read_text(encoding="utf-8"))
STACK = CASES / "example-default" / "stack.json"


def _history(count: int) -> list[dict[str, Any]]:
    """``count`` messages of pi's usual kinds, each with parts of its own (allocated between the messages)."""
    out: list[dict[str, Any]] = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            out.append({"role": "user", "content": [{"type": "text", "text": f"question {i}"}], "timestamp": i})
        elif kind == 1:
            out.append(
                {
                    "role": "assistant",
                    "content": [{"type": "thinking", "thinking": f"t{i}"}, {"type": "text", "text": f"answer {i}"}],
                    "api": "a",
                    "provider": "p",
                    "model": "m",
                    "usage": {"input": 1, "output": 2, "cost": {"total": 0}},
                    "stopReason": "stop",
                    "timestamp": i,
                }
            )
        else:
            out.append({"role": "custom", "customType": "x", "content": f"note {i}", "display": True, "timestamp": i})
    return out


def _data(count: int) -> dict[str, Any]:
    data = json.loads(json.dumps(BASE))
    data["messages"] = _history(count)
    return data


@pytest.fixture
def no_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Loads as before the layout: the threshold above any history here."""
    monkeypatch.setattr(context_codec, "LAY_OUT_MESSAGES", 1 << 30)
    yield


def _loaded_views(source: Any) -> tuple[str, Any]:
    context = load_context(source)
    return json.dumps(context.data, ensure_ascii=False), repr(context.runtime())


@pytest.mark.parametrize("count", [LAY_OUT_MESSAGES - 1, LAY_OUT_MESSAGES, 3 * LAY_OUT_MESSAGES + 1])
def test_long_history_laid_out_holds_the_same_data(count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From a dict, a large file (the full reader) and a file under 1 MiB (the direct path): the same
    data, key order included, and the same runtime as a load without the layout."""
    data = _data(count)
    path = tmp_path / "context.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    large = tmp_path / "large.json"
    large.write_text(json.dumps(data, indent=40), encoding="utf-8")  # past 1 MiB: the full reader
    assert large.stat().st_size >= (1 << 20) or count < LAY_OUT_MESSAGES
    laid_out = [_loaded_views(source) for source in (data, path, large)]
    monkeypatch.setattr(context_codec, "LAY_OUT_MESSAGES", 1 << 30)
    assert laid_out == [_loaded_views(source) for source in (data, path, large)]


_SPREAD_SCRIPT = """
import json, statistics, sys
from itertools import pairwise
from forgec.codecs import context as context_codec
from forgec.codecs.context import LAY_OUT_MESSAGES, load_context
sys.path.insert(0, sys.argv[1])
from test_message_layout import _data
def spread(messages):
    return statistics.median(abs(id(b) - id(a)) for a, b in pairwise(messages))
data = _data(3 * LAY_OUT_MESSAGES)
context_codec.LAY_OUT_MESSAGES = 1 << 30
scattered = spread(load_context(data).data["messages"])
context_codec.LAY_OUT_MESSAGES = LAY_OUT_MESSAGES
print(json.dumps([spread(load_context(data).data["messages"]), scattered]))
"""


def test_long_history_messages_sit_next_to_each_other() -> None:
    """The copies are made one after another: in a fresh interpreter (whose heap has no holes for them
    to fill), consecutive messages are a dict's size apart, where the deep copy leaves each message's
    parts between them (CPython: ``id`` is the address; fails without the layout)."""
    out = subprocess.run(
        [sys.executable, "-c", _SPREAD_SCRIPT, str(Path(__file__).parent)], capture_output=True, text=True, check=True
    )
    laid_out, scattered = json.loads(out.stdout)
    assert laid_out <= 128 < scattered


def test_dict_source_roles_interned(no_layout: None) -> None:
    """A context given as data is laid out too: a role built at run time (no interned object) is
    replaced by the interned string of its text (fails without the layout on this path)."""
    data = _data(LAY_OUT_MESSAGES)
    for message in data["messages"]:
        message["role"] = "".join(message["role"])  # a new string object for each message
    assert load_context(data).data["messages"][0]["role"] is not sys.intern("user")
    context_codec.LAY_OUT_MESSAGES = LAY_OUT_MESSAGES
    messages = load_context(data).data["messages"]
    assert messages == data["messages"]
    assert {id(m["role"]) for m in messages if m["role"] == "user"} == {id(sys.intern("user"))}


def test_short_history_left_as_it_is() -> None:
    data = {"messages": _history(LAY_OUT_MESSAGES - 1)}
    messages = data["messages"]
    context_codec._lay_out_messages(data)
    assert data["messages"] is messages


def test_only_exact_dicts_are_copied() -> None:
    """Each exact dict becomes an equal dict of its own (same key order, same value objects); anything
    else (a dict subclass, a value the validator would refuse) stays the object it was."""

    class Message(dict[str, Any]):
        pass

    odd = Message(role="user", content="x")
    messages: list[Any] = [*_history(LAY_OUT_MESSAGES), odd, "text", None]
    data = {"messages": messages}
    context_codec._lay_out_messages(data)
    new = data["messages"]
    assert new is not messages and len(new) == len(messages)
    for before, after in zip(messages[:LAY_OUT_MESSAGES], new[:LAY_OUT_MESSAGES], strict=True):
        assert type(after) is dict and after is not before and after == before
        assert list(after) == list(before) and all(after[key] is before[key] for key in before if key != "role")
    assert new[-3] is odd and new[-2:] == ["text", None]


def test_compile_of_a_laid_out_context_reports_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long history compiles to the same report, sources and all, with and without the layout."""
    data = _data(LAY_OUT_MESSAGES + 7)
    laid_out = compile_report(STACK, load_context(data)).to_report()
    monkeypatch.setattr(context_codec, "LAY_OUT_MESSAGES", 1 << 30)
    plain = compile_report(STACK, load_context(data)).to_report()
    assert json.dumps(laid_out, ensure_ascii=False) == json.dumps(plain, ensure_ascii=False)
    assert len(laid_out["messages"]["sources"]) >= LAY_OUT_MESSAGES + 7


def test_roles_of_a_parsed_file_share_one_string_each(tmp_path: Path, no_layout: None) -> None:
    """Parsed from a file, each message's role is a string of its own; laid out, every message of a
    role holds the interned string of that text (equal text, one object), and other values and
    roles that are no string stay as they were (fails without the interning)."""
    data = _data(LAY_OUT_MESSAGES + 1)
    data["messages"][5]["role"] = 7
    del data["messages"][6]["role"]
    path = tmp_path / "context.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    parsed = load_context(path).data["messages"]
    assert len({id(m["role"]) for m in parsed if m.get("role") == "assistant"}) > 1
    context_codec.LAY_OUT_MESSAGES = LAY_OUT_MESSAGES
    messages = load_context(path).data["messages"]
    assert json.dumps(messages) == json.dumps(parsed)
    for role in ("user", "assistant", "custom"):
        assert {id(m["role"]) for m in messages if m.get("role") == role} == {id(sys.intern(role))}
    assert messages[5]["role"] == 7 and "role" not in messages[6]
