"""``dumps_report_utf8`` (docs/performance-log.md, "Stop 25: the SillyTavern import rows") against
``dumps_report(doc).encode("utf-8")``, the text it stands in for, on random documents mixing every
character class the escapes care about, every value kind, and the values it leaves to ``dumps_report``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from forgec.js import report_utf8
from forgec.js.report_utf8 import dumps_report_utf8, quote_utf8
from forgec.js.values import HOLE, UNDEFINED, JSNonPlainObject, dumps_report, json_quote

_PIECES = (
    "a", "Zz", " ", "\n", "\r\n", "\t", '"', "\\", "\\n", "é", "日本", "\u2028", "\x7f", "\U0001f600",
    "\x00", "\x1b", "\x08", "\x0c", "\x1f", "\ud83d\ude00", "\ud800", "\udfff", "x" * 50,
)  # fmt: skip
_KEYS = ("id", "name", "content", "", "Ünïcode", "a\nb", "10", "2", "\ud800", "z" * 80)


def _text(rng: random.Random, controls: bool) -> str:
    pool = _PIECES if controls else _PIECES[:14]
    size = rng.choice((0, 1, 5, 63, 64, 65, 200, 1500))
    return "".join(rng.choice(pool) for _ in range(size))[: max(size, 1) * 3]


def _value(rng: random.Random, depth: int, controls: bool) -> Any:
    roll = rng.random()
    if depth > 5 or roll < 0.45:
        return rng.choice((
            _text(rng, controls), _text(rng, controls), rng.randrange(-10**6, 10**6), True, False, None,
            0.5, -0.0, 1e21, 1.5e-7, float("nan"), float("inf"), 2**53, 2**53 + 1, -(2**60), 2**1100,
        ))  # fmt: skip
    if roll < 0.75:
        return {rng.choice(_KEYS) + rng.choice(("", "x")): _value(rng, depth + 1, controls) for _ in range(rng.randrange(0, 6))}
    return [_value(rng, depth + 1, controls) for _ in range(rng.randrange(0, 6))]


@pytest.mark.parametrize("seed", range(300))
def test_random_documents_are_the_encoded_report(seed: int) -> None:
    rng = random.Random(seed)
    doc = _value(rng, 0, controls=seed % 3 == 0)
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")


@pytest.mark.parametrize("seed", range(200))
def test_long_strings_quote_as_json_quote(seed: int) -> None:
    rng = random.Random(seed)
    pool = _PIECES if seed % 2 else _PIECES[:14]  # half without rare control characters or surrogates
    text = "".join(rng.choice(pool) for _ in range(rng.randrange(60, 1500)))
    assert quote_utf8(text) == json_quote(text).encode("utf-8")
    assert dumps_report_utf8({"k": text, "l": [text]}) == dumps_report({"k": text, "l": [text]}).encode("utf-8")


@pytest.mark.parametrize("text", ["x" * 63, "x" * 64, "é" * 64, '"' * 64, "\\" * 64, "\n" * 64, "\x0c" * 64, "\ud800" * 64])
def test_at_the_threshold(text: str) -> None:
    assert quote_utf8(text) == json_quote(text).encode("utf-8")


@pytest.mark.parametrize(
    "doc",
    [
        {"a": UNDEFINED, "b": 1},  # a member JSON.stringify skips
        [UNDEFINED, HOLE, 1],  # elements it prints as null
        {"t": (1, 2)},  # a tuple
        {"d": JSNonPlainObject("Date", "2026-03-14T08:26:53.000Z")},  # a Date (toJSON)
        {"m": JSNonPlainObject("Map")},  # another non-plain object
        {"f": len},  # a function member
    ],
)
def test_unusual_values_take_dumps_report(doc: Any) -> None:
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")


def test_deep_documents_take_dumps_report() -> None:
    doc: Any = "leaf"
    for level in range(report_utf8._MAX_DEPTH + 50):
        doc = {"k": doc} if level % 2 else [doc]
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")


@pytest.mark.parametrize("doc", [{1: "a", "b": 2}, {1: "a"}, [{None: 1}]])
def test_keys_that_are_not_strings_fail_as_dumps_report_does(doc: Any) -> None:
    with pytest.raises(Exception) as expected:
        dumps_report(doc)
    with pytest.raises(expected.type):
        dumps_report_utf8(doc)


def test_the_key_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_utf8, "_KEYS", {})
    doc = {f"key-{i}": i for i in range(report_utf8._KEYS_MAX + 100)}
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")
    assert len(report_utf8._KEYS) <= report_utf8._KEYS_MAX


def test_the_member_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Members after an object's first are remembered per level with their break and key; a
    document of ever-new keys fills each level's cache to its bound and is still written exactly."""
    monkeypatch.setattr(report_utf8, "_MEMBERS", tuple({} for _ in report_utf8._MEMBERS))
    doc = {"outer": {f"key-{i}": [i, {"k": "v", f"n{i}": "é"}] for i in range(report_utf8._MEMBERS_MAX + 100)}}
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")
    assert all(len(members) <= report_utf8._MEMBERS_MAX for members in report_utf8._MEMBERS)
    assert dumps_report_utf8(doc) == dumps_report(doc).encode("utf-8")  # written again from the caches
