"""Parsing a file's UTF-8 bytes with emoji written as escape pairs (docs/performance-log.md, "Stop 26:
the import rows"): the value, its types and key order, or the error with its position, are always
those of the decoded file's text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forgec.js.json
from forgec.js import json_utf8
from forgec.js.json import JSONParseError, loads, loads_decoded
from forgec.js.json_utf8 import loads_utf8, narrow_text

#: characters that meet at the seams: emoji (F0), planes 4-16 (F1-F4, left as they are), BMP text,
#: backslashes, quotes, surrogate escapes written out, controls
_ALPHABET = ["a", " ", "é", "—", "😀", "🎭", "\U0001f9ed", "\U00040000", "\U0010fffd", "\\", '"', "\n", "\x01"]
_CHUNKS = st.lists(
    st.one_of(st.sampled_from(_ALPHABET), st.sampled_from(["\\ud83d", "\\ude00", "\\u", "\\n", "\\\\", "1", "["])),
    max_size=12,
).map("".join)


def _expected(data: bytes) -> object:
    """The value :func:`loads_decoded` gives for the file, or its error as (reason, offset)."""
    try:
        return repr(loads_decoded(data.decode("utf-8", errors="replace"), data))
    except JSONParseError as error:
        return (error.reason, error.offset)


def _actual(data: bytes) -> object:
    try:
        return repr(loads_utf8(data))
    except JSONParseError as error:
        return (error.reason, error.offset)


@settings(max_examples=500, deadline=None)
@given(st.lists(_CHUNKS, min_size=1, max_size=4), st.sampled_from(["string", "key", "raw"]), st.integers(0, 400))
def test_same_value_or_error_as_the_decoded_text(chunks: list[str], where: str, padding: int) -> None:
    """Random text -- valid strings, escapes cut by an emoji, emoji outside strings -- in a string, a
    key, or bare in the document; padding moves the emoji bound."""
    if where == "string":
        text = "[" + ", ".join(f'"{chunk}"' for chunk in chunks) + "]"
    elif where == "key":
        text = "{" + ", ".join(f'"{chunk}": {i}' for i, chunk in enumerate(chunks)) + "}"
    else:
        text = "[" + ", ".join(chunks) + "]"
    data = (text + " " * padding).encode("utf-8", "surrogatepass")
    assert _actual(data) == _expected(data)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.one_of(st.integers(-(2**60), 2**60), st.text(st.sampled_from(_ALPHABET), max_size=20), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(st.sampled_from(_ALPHABET), max_size=5), inner, max_size=4)),
    max_leaves=15,
))  # fmt: skip
def test_valid_documents(value: object) -> None:
    data = json.dumps(value, ensure_ascii=False).encode("utf-8") + b" " * 300
    assert _actual(data) == _expected(data)


@pytest.mark.parametrize(
    "data",
    [
        '["😀", "a🎭b", {"🧭": "x😀😀y"}]'.encode(),
        '"\\ud83d😀"'.encode(),  # an escaped high surrogate right before an emoji: two characters
        '"😀\\ude00"'.encode(),  # an emoji right before an escaped low surrogate
        '"\U00040000😀\U0010fffd"'.encode(),  # F1-F4 sequences stay as they are
    ],
)
def test_narrowed_documents(data: bytes) -> None:
    data += b" " * 1000
    assert narrow_text(data) is not None
    assert repr(loads_utf8(data)) == repr(loads(data.decode("utf-8")))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        # a backslash right before an emoji: invalid, and its escaped form would not be
        ('"\\😀"'.encode(), "Unexpected token"),
        ('"\\u😀abc"'.encode(), "Bad Unicode escape"),
        ("[😀]".encode(), "Unexpected token"),
        # bytes that are not UTF-8 around or in an emoji: Node's U+FFFD, then V8's verdict
        (b'["\xf0\x9f\x98"]', None),
        (b'["\xe2\x82\xf0\x9f\x98\x80"]', None),
        (b'["\xf0\x80\x80\x80"]', None),  # overlong
        (b'["\xf0\x9f\x98\x80\x80"]', None),  # a stray continuation byte after it
        (b'["\xf0"]', None),
        ("\ufeff[\"😀\"]".encode(), "Unexpected token"),
    ],
)
def test_handed_to_the_decoded_text(data: bytes, reason: str | None) -> None:
    data += b" " * 300
    if b"\\" in data or b"\xef\xbb\xbf" in data or b"[\xf0" in data:
        pass  # narrowing may apply; the C scanner refuses, and the decoded text explains
    else:
        assert narrow_text(data) is None
    expected = _expected(data)
    assert _actual(data) == expected
    if reason is not None:
        assert isinstance(expected, tuple) and expected[0].startswith(reason)


def test_backslash_before_an_emoji_is_never_narrowed() -> None:
    assert narrow_text('"\\\\😀"'.encode() + b" " * 300) is None  # conservative: even an escaped one


def test_emoji_bound() -> None:
    """Past one F0 byte per 128 bytes the file is decoded whole (same value)."""
    dense = json.dumps(["😀" * 50], ensure_ascii=False).encode()
    assert narrow_text(dense) is None
    assert repr(loads_utf8(dense)) == repr(loads(dense.decode()))
    sparse = dense + b" " * 128 * 51
    assert narrow_text(sparse) is not None
    assert repr(loads_utf8(sparse)) == repr(loads(dense.decode()))


def test_no_emoji_parses_the_decoded_text() -> None:
    assert narrow_text(b'{"a": "\xc3\xa9"}') is None
    assert loads_utf8(b'{"a": "\xc3\xa9"}') == {"a": "é"}


def test_escape_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forgec.js.json, "_ORJSON", None)  # the narrow text's path, not orjson's
    monkeypatch.setattr(forgec.js.json, "_ORJSON_LOOKED", True)
    monkeypatch.setattr(json_utf8, "_ESCAPES", {})
    monkeypatch.setattr(json_utf8, "_ESCAPES_MAX", 1)
    data = '["😀🎭😀🎭"]'.encode() + b" " * 1000
    assert loads_utf8(data) == ["😀🎭😀🎭"]
    assert len(json_utf8._ESCAPES) == 1


def test_escaped_text_holds_the_same_characters() -> None:
    text = narrow_text('["a😀b"]'.encode() + b" " * 300)
    assert text is not None and text.startswith('["a\\ud83d\\ude00b"]') and text.isascii()
