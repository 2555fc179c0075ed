"""Behaviour the context reader's speed-ups must keep (docs/performance-log.md, *Compile*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.codecs.context import ContextError, load_context, parse_instant


def test_one_byte_order_mark_is_allowed_a_second_is_the_readers_error(tmp_path: Path) -> None:
    # contexts share forgec.source's reader (same messages as stacks); one leading BOM is allowed
    path = tmp_path / "context.json"
    path.write_bytes(b"\xef\xbb\xbf{}")
    assert load_context(path).data["variables"] == {}
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf{}")
    with pytest.raises(ContextError, match=r"context\.json:1:2: FG001 \[error\] Failed to parse JSON: Unexpected token"):
        load_context(path)


def test_now_is_parsed_once_but_follows_the_data(tmp_path: Path) -> None:
    path = tmp_path / "context.json"
    path.write_text(json.dumps({"now": "2026-03-14T09:26:53+01:00"}), encoding="utf-8")
    context = load_context(path)
    assert context.now_ms == parse_instant("2026-03-14T09:26:53+01:00") == context.runtime().now_ms
    context.data["now"] = "2026-01-01T00:00:00Z"
    assert context.now_ms == parse_instant("2026-01-01T00:00:00Z")


def test_a_file_read_directly_holds_its_source_and_instant_by_position(tmp_path: Path) -> None:
    """The direct reader builds its ``Context`` by position: the fields keep that order, and the
    context equals the keyword-built one, with the instant of its ``now`` (or none without one)."""
    import dataclasses

    from forgec.codecs.context import Context

    assert [f.name for f in dataclasses.fields(Context)] == ["data", "source", "_now"]
    path = tmp_path / "context.json"
    for data, instant in (({"now": "2026-03-14T09:26:53+01:00"}, parse_instant("2026-03-14T09:26:53+01:00")), ({}, None)):
        path.write_text(json.dumps(data), encoding="utf-8")
        context = load_context(str(path))
        assert context == Context(data=context.data, source=str(path))
        assert context.source == str(path)
        assert context._now == (None if instant is None else (data["now"], instant))


def test_first_failing_entry_is_still_named(tmp_path: Path) -> None:
    tools = [{"name": "read"}, {"name": "bash", "guidelines": ["ok", 3]}, {"name": 1}]
    with pytest.raises(ContextError, match=r"tools\[1\]\.guidelines\[1\] must be a string, got 3"):
        load_context({"tools": tools})
    with pytest.raises(ContextError, match=r'skills\[0\] needs a string "filePath"'):
        load_context({"skills": [{"name": "s", "description": "d"}]})
    with pytest.raises(ContextError, match=r'tools\[0\] has an unknown field "nmae"'):
        load_context({"tools": [{"nmae": "x"}]})
    with pytest.raises(ContextError, match=r"variables has a key that is not a string: 1"):
        load_context({"variables": {1: "x"}})
