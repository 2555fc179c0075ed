"""The fingerprint's orjson writer (:func:`forgec.fingerprint._plain_bytes`, with the ``[speed]`` extra).

When orjson is in use and :func:`forgec.fingerprint._check_plain` vouches for a value, ``sha256_v1`` hashes
orjson's sorted-keys text instead of :func:`forgec.fingerprint.canonical_json`'s: the two must be the same
bytes for every value orjson is given, and every value it would write otherwise (NaN, integral floats,
dataclasses, dates, enums, UUIDs, lone surrogates, subclasses) must be refused before or by orjson.
Runs only where orjson is installed (the compiled CI run installs it).
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forgec.js.json as fj
from forgec.fingerprint import FingerprintError, _plain_bytes, canonical_json, sha256_v1
from forgec.js.json import dumps_sorted, orjson_in_use, use_orjson

pytest.importorskip("orjson")


pytestmark = pytest.mark.usefixtures("orjson_on")  # every test here: orjson in use (tests/conftest.py)


def _digest(value: Any) -> str:
    try:
        return sha256_v1(value)
    except FingerprintError as error:
        return f"error: {error}"


def _same(value: Any) -> bytes | None:
    """``_plain_bytes(value)``; when it answers, assert it is ``canonical_json(value)``'s UTF-8 bytes, and
    that ``sha256_v1`` gives the same digest (or error) with orjson in use and not."""
    fast = _plain_bytes(value)
    if fast is not None:
        assert fast == canonical_json(value).encode("utf-8")
    digest = _digest(value)
    saved = fj._ORJSON
    fj._ORJSON = None
    try:
        assert _digest(value) == digest
    finally:
        fj._ORJSON = saved
    return fast


def test_every_character_in_a_string_and_a_key() -> None:
    """Each code point but the surrogates, as a value and in a key, written as the encoder writes it
    (the C0 controls escaped as ``\\n`` or ``\\u001f``, ``"`` and ``\\``; U+2028/9 and DEL as they are)."""
    for start in range(0, 0x110000, 0x2000):
        chars = [chr(c) for c in range(start, min(start + 0x2000, 0x110000)) if not 0xD800 <= c <= 0xDFFF]
        if not chars:
            continue
        value = {"items": [{"kind": "block", "content": c, "name": "x" + c} for c in chars]}
        assert _same(value) is not None
        keys = {c: 1 for c in chars if c < "\ue000"}
        if keys:
            assert _same(keys) is not None


def test_a_stack_of_blocks() -> None:
    items: list[dict[str, Any]] = [
        {"kind": "block", "id": f"item-{i}", "role": "user", "content": f'say "{i}"\t\\ é 😀 \x00', "enabled": i % 2 == 0}
        for i in range(100)
    ]
    stack = {"schemaVersion": 1, "id": "s", "variables": {"b": 2.5, "a": None}, "items": items, "mode": "replace"}
    assert _same(stack) is not None


@pytest.mark.parametrize(
    "value",
    [
        float("nan"),
        float("inf"),
        1.0,
        -0.0,
        1e16,
        1e-5,
        2**53,
        -(2**53),
        2**64,
        "\ud800",
        {"a": "x\udfffy"},
        {"\ue000": 1, "\uffff": 2},
        {1: "x"},
        datetime.date(2020, 1, 1),
        uuid.UUID(int=1),
        [b"bytes"],
    ],
)
def test_values_the_runtime_writes_otherwise_are_refused(value: Any) -> None:
    """What orjson would write but not as ``canonicalJson`` does never reaches it, or it refuses it."""
    assert _plain_bytes(value) is None


class _Colour(enum.Enum):
    RED = "red"


class _Text(str):
    pass


class _Number(int):
    pass


@dataclasses.dataclass
class _Point:
    x: int


@pytest.mark.parametrize(
    "value",
    [_Colour.RED, {"c": _Colour.RED}, _Text("x"), [_Text("x")], _Number(3), [_Number(3)], _Point(1), {"p": [_Point(1)]}],
)
def test_types_orjson_knows_and_the_runtime_does_not(value: Any) -> None:
    """Enums, dataclasses and subclasses of ``str``/``int`` (orjson writes them all) take the usual path."""
    assert _plain_bytes(value) is None
    _same(value)


def test_a_key_of_a_str_subclass() -> None:
    """The check lets a ``str`` subclass through as a key (the encoder writes its text); orjson refuses
    it or writes the same text."""
    _same({_Text("k"): 1, "a": [_Text("b") == "b"]})


def test_floats_the_check_lets_through_are_written_alike() -> None:
    for value in (0.0001, 0.00010000000000000002, 0.1, 1 / 3, 123456789012345.67, 999999999999999.9, 9999999999999998.5 - 0.5 + 0.25):
        _same([value, -value])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_value(value: Any) -> None:
    _same(value)


def test_off_when_orjson_is_not_in_use() -> None:
    use_orjson(False)
    assert not orjson_in_use()
    assert dumps_sorted({"a": 1}) is None
    assert sha256_v1({"b": [1, "x"], "a": 0.5}) == sha256_v1({"a": 0.5, "b": [1, "x"]})
