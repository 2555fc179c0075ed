"""The direct reading path of context files gives what the full reader gives, or leaves the file to it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs import context as context_codec
from forgec.codecs.context import ContextError, load_context

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
BASE = json.loads((CASES / "history-roles-toolresult" / "context.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _direct_on() -> Iterator[None]:
    assert context_codec.DIRECT_READ
    yield
    context_codec.DIRECT_READ = True


def _view(path: Path) -> Any:
    try:
        context = load_context(path)
    except ContextError as error:
        return ("refused", str(error), error.code, error.position, [(d.message, d.pointer, d.span) for d in error.problems])
    return (json.dumps(context.data, ensure_ascii=False), repr(context.runtime()), context.now_ms, context.source)


def _full(path: Path) -> Any:
    context_codec.DIRECT_READ = False
    try:
        return _view(path)
    finally:
        context_codec.DIRECT_READ = True


def test_every_corpus_context_reads_as_the_full_reader_reads_it() -> None:
    contexts = sorted(CASES.glob("*/context.json"))
    assert len(contexts) > 100
    for path in contexts:
        assert _view(path) == _full(path), path


def test_unusual_files_are_left_to_the_full_reader(tmp_path: Path) -> None:
    text = json.dumps(BASE, indent=2)
    variants = [
        text,
        text.replace('"cwd"', '"c\\u0077d"'),
        text.replace("{", '{"cwd": "/first",', 1),
        text.replace("{", '{"bogus": 1,', 1),
        "\ufeff" + text,
        text + " x",
        text.replace('"timezone": "UTC"', '"timezone": 5'),
        text.replace('"timezone": "UTC"', '"timezone": NaN'),
        text.replace('"timezone": "UTC"', '"timezone": "Mars/Olympus"'),
        "{}",
        "[]",
        '{"now": 12',
        '{"tools": [{"name": "t", "active": "no"}]}',
        '{"variables": {"a": ' + "[" * 600 + "]" * 600 + "}}",
    ]
    for index, variant in enumerate(variants):
        path = tmp_path / f"v{index}.json"
        path.write_text(variant, encoding="utf-8")
        assert _view(path) == _full(path), variant[:80]
    bad_utf8 = tmp_path / "bad.json"
    bad_utf8.write_bytes(b'{"cwd": "\xff"}')
    assert _view(bad_utf8) == _full(bad_utf8)


def test_nothing_is_shared_between_two_loads(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(BASE), encoding="utf-8")
    first, second = load_context(path), load_context(path)
    first.data["tools"].clear()
    first.data["messages"][0]["content"] = "mutated"
    assert second.data["tools"] and "mutated" not in json.dumps(second.data)
