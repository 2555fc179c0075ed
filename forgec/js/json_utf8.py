"""``JSON.parse(fs.readFileSync(path, "utf8"))`` of a file's bytes, without a four-byte-wide text.

A Python ``str`` is as wide as its widest character: one emoji (U+10000 and up) makes the whole text
four bytes a character.  A 1.7 MB SillyTavern preset with 977 emoji decodes to 6.8 MB, and the UTF-8
decoder first sizes that buffer for as many characters as there are bytes, then shrinks it: glibc
maps such a block afresh on every call and gives it back when it is freed (~1,640 page faults, about
1.2 ms of the 1.7 ms decode, on every import).  The parser never needs that text, only the values in
it.  :func:`loads_utf8` writes each four-byte sequence that starts with ``F0`` (U+10000-U+3FFFF: every
emoji) as its JSON escape pair (``\\ud83d\\ude00``, which the C scanner joins back into the one
character, as it joins any escaped pair), decodes the pieces between them and joins them once: a text
two bytes a character (half the pages), allocated at its exact size.  The values are the ones the
decoded file gives -- every character of a string is the same character -- so the value, its types
and key order are :func:`forgec.js.json.loads_decoded`'s.

The narrow text is only a faster way to a value the file holds.  Whenever it may not be -- a byte that
is not valid UTF-8 (Node replaces it), a backslash right before an emoji (``"\\😀"`` is invalid, its
escaped form would not be), more emoji than :data:`_BYTES_PER_ASTRAL` allows -- or the C scanner does
not parse it (invalid JSON, nested too deeply), the file's own decoded text is parsed as before, so
every error is V8's, at V8's position in the file's text.
"""

from __future__ import annotations

from typing import Any

from forgec.js.json import NOT_PARSED, loads_bytes, loads_decoded, scan_decoded

__all__ = ["loads_utf8", "narrow_text"]

#: the lead byte of U+10000-U+3FFFF in UTF-8 (``F1``-``F4``, planes 4-16, are left as they are)
_LEAD = b"\xf0"
_BACKSLASH = ord("\\")
#: a file with more ``F0`` bytes than one per this many is decoded whole: the Python step per
#: escaped character (~0.5 µs) would cost more than the wide text it saves (~3 ns a byte)
_BYTES_PER_ASTRAL = 128
#: the escape pair of each continuation (the three bytes after ``F0``) met so far; a text uses a few
#: dozen distinct emoji, and the bound keeps a file of ever-new ones from growing it far
_ESCAPES: dict[bytes, str] = {}
_ESCAPES_MAX = 4096


def loads_utf8(data: bytes) -> Any:
    """``loads_decoded(data.decode("utf-8", errors="replace"), data)``: the same value or the same
    :class:`~forgec.js.json.JSONParseError`, parsed from :func:`narrow_text` when it applies (or by
    orjson from ``data`` itself, with no text at all, when it is installed: :func:`~forgec.js.json.loads_bytes`)."""
    value = loads_bytes(data)
    if value is not NOT_PARSED:
        return value
    text = narrow_text(data)
    if text is not None:
        value = scan_decoded(text, data)
        if value is not NOT_PARSED:
            return value
    return loads_decoded(data.decode("utf-8", errors="replace"), data, fast=False)  # orjson declined above


def narrow_text(data: bytes) -> str | None:
    """``data`` decoded (strict UTF-8) with every ``F0`` sequence written as a JSON escape pair, or
    ``None`` when ``data`` holds no ``F0`` byte, too many, a byte that is not UTF-8, or a backslash
    right before one (see the module's documentation).  The text between two emoji is decoded from a
    view of ``data`` (no copy of the bytes)."""
    find = data.find
    at = find(_LEAD)
    if at < 0:
        return None
    budget = len(data) // _BYTES_PER_ASTRAL + 1  # counted as they are met (``bytes.count`` is a slow pass)
    view = memoryview(data)
    escapes = _ESCAPES
    parts: list[str] = []
    start = 0
    try:
        while at >= 0:
            budget -= 1
            if budget < 0 or (at > 0 and data[at - 1] == _BACKSLASH):
                return None
            parts.append(str(view[start:at], "utf-8"))
            tail = data[at + 1 : at + 4]
            escape = escapes.get(tail)
            if escape is None:
                escape = _escape(tail)
                if escape is None:
                    return None
            parts.append(escape)
            start = at + 4
            at = find(_LEAD, start)
        parts.append(str(view[start:], "utf-8"))
    except UnicodeDecodeError:
        return None
    finally:
        view.release()
    return "".join(parts)


def _escape(tail: bytes) -> str | None:
    """The escape pair of ``F0`` + ``tail`` (remembered), or ``None`` when that is no UTF-8 character."""
    try:
        char = (_LEAD + tail).decode("utf-8")
    except UnicodeDecodeError:  # too short, a bad continuation, or an overlong form (F0 80-8F)
        return None
    offset = ord(char) - 0x10000
    escape = f"\\u{0xD800 + (offset >> 10):04x}\\u{0xDC00 + (offset & 0x3FF):04x}"
    if len(_ESCAPES) < _ESCAPES_MAX:
        _ESCAPES[tail] = escape
    return escape
