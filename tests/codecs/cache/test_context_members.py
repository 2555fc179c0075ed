"""Context files read member by member, reusing members whose exact text was read before."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs import context as context_codec
from forgec.codecs.context import CONTEXT_MEMBERS, ContextError, load_context

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
BASE = json.loads((CASES / "history-roles-toolresult" / "context.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _empty_memo() -> Iterator[None]:
    capacity = CONTEXT_MEMBERS.capacity
    CONTEXT_MEMBERS.clear()
    yield
    CONTEXT_MEMBERS.capacity = capacity
    CONTEXT_MEMBERS.clear()


def _uncached(path: Path) -> Any:
    capacity = CONTEXT_MEMBERS.capacity
    CONTEXT_MEMBERS.capacity = 0
    try:
        return _view(path)
    finally:
        CONTEXT_MEMBERS.capacity = capacity


def _view(path: Path) -> Any:
    try:
        context = load_context(path)
    except ContextError as error:
        return ("refused", str(error), [(d.message, d.pointer, d.span) for d in error.problems])
    return (json.dumps(context.data, ensure_ascii=False), repr(context.runtime()), context.now_ms)


def _write(path: Path, data: dict[str, Any], **dumps: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, **dumps), encoding="utf-8")
    return path


def _known(name: str) -> int:
    return sum(entry.known for entry in CONTEXT_MEMBERS._by_name.get(name, []))


def test_a_moving_clock_reuses_every_other_member(tmp_path: Path) -> None:
    for second in range(4):
        path = _write(tmp_path / f"c{second}.json", dict(BASE, now=f"2026-03-14T09:26:0{second}+01:00"))
        assert _view(path) == _uncached(path)
    # a member's value is kept the second time its text is seen; the clock never repeats
    assert _known("tools") == _known("messages") == _known("skills") == 1
    assert _known("now") == 0


def test_every_corpus_context_reads_the_same_twice_and_with_the_memo_off(tmp_path: Path) -> None:
    contexts = sorted(CASES.glob("*/context.json"))
    assert len(contexts) > 100
    for path in contexts:
        cold = _uncached(path)
        assert _view(path) == cold, path
        assert _view(path) == cold, path
        assert _view(path) == cold, path


def test_layouts_the_member_reader_leaves_to_the_full_reader(tmp_path: Path) -> None:
    """Escaped or repeated keys, unknown fields, a BOM, trailing text, bad values: identical results."""
    text = json.dumps(BASE, indent=2)
    variants = [
        text,
        text.replace('"cwd"', '"c\\u0077d"'),
        text.replace("{", '{"cwd": "/first",', 1),
        text.replace("{", '{"bogus": 1,', 1),
        "\ufeff" + text,
        text + " x",
        text + " \n",
        text.replace('"timezone": "UTC"', '"timezone": 5'),
        text.replace('"timezone": "UTC"', '"timezone": NaN'),
        text.replace('"timezone": "UTC"', '"timezone": "Mars/Olympus"'),
        text.replace('"timezone": "UTC"', '"timezone": "UTC" "x"'),
        "{}",
        " { } ",
        "[]",
        '{"now": "2026-01-01T00:00:00Z"}',
        '{"now": "2026-01-01T00:00:00Z" , "cwd" : "/x" }',
        '{"thinkingLevel": "high", "latestUserMessage": null, "finalizeMessages": [{"role": "user"}]}',
        '{"variables": {"a": "1"}, "tools": [{"name": "t", "active": false}]}',
        '{"tools": [{"name": "t", "active": "no"}]}',
        '{"now": 12',
    ]
    for repeat in range(3):
        for index, variant in enumerate(variants):
            path = tmp_path / f"v{index}.json"
            path.write_text(variant, encoding="utf-8")
            assert _view(path) == _uncached(path), (repeat, variant[:80])


def test_a_member_that_becomes_invalid_is_refused_as_without_the_memo(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.json", BASE)
    _view(good)
    _view(good)
    assert _known("tools") == 1
    tools = [dict(tool) for tool in BASE["tools"]]
    tools[1]["guidelines"] = "not a list"
    bad = _write(tmp_path / "bad.json", dict(BASE, tools=tools))
    refused = _view(bad)
    assert refused[0] == "refused"
    assert refused == _uncached(bad)
    assert "tools[1].guidelines must be an array of strings" in refused[1]


def test_numbers_that_only_start_like_a_kept_member_are_read_again(tmp_path: Path) -> None:
    for n in (12, 12, 123, 12):
        path = _write(tmp_path / "n.json", {"variables": {"n": "x"}, "$comment": "c", "now": "2026-01-01T00:00:00Z"})
        path.write_text(path.read_text(encoding="utf-8").replace('"c"', str(n)), encoding="utf-8")
        assert _view(path) == _uncached(path)


def test_nothing_handed_out_is_shared(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.json", BASE)
    load_context(path)
    first = load_context(path)
    second = load_context(path)
    assert _known("tools") == 1
    assert first.data["tools"] is not second.data["tools"]
    assert first.data["messages"][0] is not second.data["messages"][0]
    first.data["tools"][0]["guidelines"].append("mutated")
    first.data["tools"].clear()
    first.data["messages"][0]["content"] = "mutated"
    first.data["skills"].clear()
    first.data["variables"]["x"] = "y"
    third = load_context(path)
    assert json.dumps(third.data) == json.dumps(second.data)
    assert third.data["tools"] and "mutated" not in json.dumps(third.data)


def test_the_memo_is_bounded_by_bytes(tmp_path: Path) -> None:
    CONTEXT_MEMBERS.capacity = 200_000
    for n in range(40):
        data = dict(BASE, baseSystemPrompt="p" * 5_000 + str(n), appendSystemPrompt=str(random.random()))
        path = _write(tmp_path / f"c{n}.json", data)
        assert _view(path) == _uncached(path)
        assert _view(path) == _uncached(path)
        assert CONTEXT_MEMBERS.size <= 200_000
    assert all(len(entries) <= CONTEXT_MEMBERS.per_name for entries in CONTEXT_MEMBERS._by_name.values())
    CONTEXT_MEMBERS.capacity = 40_000  # a member over a quarter of the capacity is never kept
    huge = _write(tmp_path / "huge.json", dict(BASE, baseSystemPrompt="q" * 20_000))
    _view(huge)
    _view(huge)
    assert not any(len(e.text) > 20_000 for e in CONTEXT_MEMBERS._by_name.get("baseSystemPrompt", []))


def test_the_module_exports_what_tests_turn_off() -> None:
    assert context_codec.CONTEXT_MEMBERS is CONTEXT_MEMBERS
