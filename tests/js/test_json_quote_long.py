"""``json_quote`` of long texts (the byte-wise path, docs/performance-log.md "Stop 23") against the string
encoder it stands in for, on random texts mixing every character class the escapes care about."""

from __future__ import annotations

import json
import random

import pytest

from forgec.js.values import json_quote

_PIECES = (
    "a", "Zz", " ", "\n", "\r\n", "\t", '"', "\\", "\\n", "é", "日本", "\u2028", "\x7f", "\U0001f600",
    "\x00", "\x1b", "\x08", "\x0c", "\x1f", "\ud83d\ude00", "\ud800", "\udfff", "x" * 50,
)  # fmt: skip


def _expected(text: str) -> str:
    """V8's JSON.stringify text: Python's encoder, then lone surrogates as ``\\udxxx``."""
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    encoded: str = json.encoder.encode_basestring(joined)
    return encoded.encode("utf-8", "backslashreplace").decode("utf-8")


@pytest.mark.parametrize("seed", range(200))
def test_long_texts_quote_as_the_encoder_does(seed: int) -> None:
    rng = random.Random(seed)
    pool = _PIECES if seed % 2 else _PIECES[:14]  # half without control characters or surrogates
    text = "".join(rng.choice(pool) for _ in range(rng.randrange(100, 1500)))
    assert json_quote(text) == _expected(text)


@pytest.mark.parametrize("text", ["x" * 511, "x" * 512, "é" * 512, '"' * 600, "\\" * 600, "\n" * 600])
def test_at_the_threshold(text: str) -> None:
    assert json_quote(text) == _expected(text)
