"""``decode_source(..., prose=True)`` (how the stack loader reads a file) gives the document the plain
reading gives: the same value (types included), text, parse state and diagnostics, for every corpus
file and for the texts where the two JSON readers could part: long digit runs (the hooked decoder),
more integer literals than the counting decoder takes on, invalid JSON (V8's reason and position),
invalid UTF-8, nesting deeper than the C module reads, a byte-order mark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forgec.source import decode_source

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


def _typed(value: Any) -> Any:
    """``value`` with each scalar paired with its type (``1 == 1.0 == True`` must not pass)."""
    if isinstance(value, dict):
        return {key: _typed(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_typed(child) for child in value]
    return (type(value).__name__, value)


def _same_document(raw: bytes) -> None:
    plain = decode_source(raw, "stack.json", "json")
    prose = decode_source(raw, "stack.json", "json", prose=True)
    assert prose.parsed == plain.parsed
    assert prose.text == plain.text
    assert _typed(prose.data) == _typed(plain.data)
    assert [(d.level, d.message, d.code, d.span) for d in prose.diagnostics] == [
        (d.level, d.message, d.code, d.span) for d in plain.diagnostics
    ]
    assert (prose.locator is None) == (plain.locator is None)


def test_every_corpus_file() -> None:
    files = sorted(CASES.glob("*/*.json"))
    assert files
    for path in files:
        _same_document(path.read_bytes())


BIG = 2**53

TEXTS = [
    '{"items": [], "n": 12345678901234567}',  # a 17-digit literal: the float JavaScript holds
    '{"n": 9007199254740993, "m": -9007199254740993, "k": 9007199254740992}',
    '{"a": [' + ", ".join(str(BIG + i) for i in range(400)) + "]}",  # many distinct long literals
    '{"a": [' + ", ".join(str(i) for i in range(5000)) + "]}",  # more integers than the counter takes on
    '{"a": [' + ", ".join(["7"] * 3000) + "]}",  # one literal repeated
    '{"a": 1e400, "b": -0, "c": 0.1, "d": 1E2}',
    '{"a": 1,}',  # invalid: V8's reason
    '{"a": NaN}',
    '{"a": "\\ud800"}',
    "[" * 6000 + "]" * 6000,  # deeper than forgec reads (the V8 scanner decides)
    "[" * 2000 + "1,]" + "]" * 1999,  # deep and invalid
    "\ufeff{}",
    "  ",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_texts_where_the_readers_could_part(text: str) -> None:
    _same_document(text.encode("utf-8", "surrogatepass"))


def test_invalid_utf8_and_a_long_prose_file() -> None:
    _same_document(b'{"id": "a\xff\xfeb", "n": 1234567890123456789}')
    items = [{"kind": "block", "id": f"i{n}", "content": f"text {n} " * 20} for n in range(400)]
    _same_document(json.dumps({"schemaVersion": 1, "items": items, "big": 2**60}).encode())


def test_allow_bom_keeps_the_plain_reading() -> None:
    raw = "\ufeff{\"a\": 1}".encode()
    assert decode_source(raw, "c.json", "json", allow_bom=True, prose=True).data == {"a": 1}
