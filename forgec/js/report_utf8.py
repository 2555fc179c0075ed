""":func:`forgec.js.values.dumps_report` written straight to UTF-8 bytes, for documents printed whole.

``forgec import-silly --format json`` prints a document of over a megabyte (a converted preset's
prompt texts).  Written as a ``str`` it was quoted through UTF-8 bytes, decoded back, joined into one
string (four bytes a character as soon as one emoji is in it) and encoded again by the output stream
(after click's ANSI scan): three passes over the document that the bytes never needed.
:func:`dumps_report_utf8` returns exactly ``dumps_report(doc).encode("utf-8")`` -- the output never
holds a surrogate (``JSON.stringify`` escapes lone ones), so the encoding is always defined -- and
writes only plain JSON data itself (``dict`` with ``str`` keys, ``list``, ``str``, ``int``, ``float``,
``bool``, ``None``, nested less than :data:`_MAX_DEPTH` levels); any other value (``UNDEFINED``, a
tuple, a non-plain object, a deeper document) hands the whole document to ``dumps_report``.

A string of :data:`_LONG` characters or more is escaped on its UTF-8 bytes: when its only control
characters are tab, newline and carriage return, the escapes ``json.encoder.encode_basestring`` (what
``JSON.stringify`` writes for them) would write are five ``bytes.replace`` calls -- no ASCII byte occurs
inside a multi-byte sequence -- each a C pass that copies nothing when the character is absent.
"""

from __future__ import annotations

from json.encoder import encode_basestring as _encode_basestring
from typing import Any

from forgec.js.values import dumps_report, json_quote

__all__ = ["dumps_report_utf8"]

#: from this length on a string is escaped on its UTF-8 bytes (shorter ones: ``json_quote``, encoded)
_LONG = 64
#: every byte but the control characters other than tab, newline and carriage return: what is left of
#: a long text's bytes once these are deleted is its rare controls, and a text holding one takes
#: ``json_quote`` (the encoder writes ``\\b``, ``\\f`` and ``\\u00xx`` for them).  Deleting everything
#: else writes (nearly) nothing: a quarter faster than deleting the controls and comparing lengths.
_ALL_BUT_RARE_CONTROLS = bytes(c for c in range(0x100) if c >= 0x20 or c in (0x09, 0x0A, 0x0D))
#: how deep the writer goes before handing the document to ``dumps_report`` (which has no limit)
_MAX_DEPTH = 200
_SAFE_INT = 2**53
#: a newline and the indentation of each level (two spaces a level, as ``dumps_report``)
_BREAKS = tuple(b"\n" + b"  " * level for level in range(_MAX_DEPTH + 2))
_MEMBER_BREAKS = tuple(b"," + brk for brk in _BREAKS)
_OPEN_OBJECT = tuple(b"{" + brk for brk in _BREAKS)
_OPEN_ARRAY = tuple(b"[" + brk for brk in _BREAKS)
_CLOSE_OBJECT = tuple(brk + b"}" for brk in _BREAKS)
_CLOSE_ARRAY = tuple(brk + b"]" for brk in _BREAKS)
#: object keys already written, with their ``": "`` (a document repeats a dozen names thousands of
#: times), bounded so that documents with ever-new keys cannot grow it far
_KEYS: dict[str, bytes] = {}
_KEYS_MAX = 4096
#: per nesting level, the members after an object's first as written before their value: the member
#: break, the quoted key and ``": "`` (one piece a member instead of two), bounded per level
_MEMBERS: tuple[dict[str, bytes], ...] = tuple({} for _ in _BREAKS)
_MEMBERS_MAX = 1024


class _Unusual(Exception):
    """A value the bytes writer leaves to ``dumps_report`` (which writes or refuses it)."""


def dumps_report_utf8(doc: Any) -> bytes:
    """``dumps_report(doc).encode("utf-8")``, without building the ``str``."""
    out: list[bytes] = []
    try:
        _write(doc, out, 0)
    except (_Unusual, RecursionError):
        return dumps_report(doc).encode("utf-8")
    out.append(b"\n")
    return b"".join(out)


def quote_utf8(text: str) -> bytes:
    """``json_quote(text).encode("utf-8")``: the JSON string literal ``JSON.stringify`` writes."""
    if len(text) < _LONG:
        return json_quote(text).encode("utf-8")
    out: list[bytes] = []
    _quote_long(text, out)
    return b"".join(out)


def _quote_long(text: str, out: list[bytes]) -> None:
    """Append the literal of a long ``text`` to ``out`` (three parts: the text is not copied again)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: json_quote escapes it as V8 does
        out.append(json_quote(text).encode("utf-8"))
        return
    if data.translate(None, _ALL_BUT_RARE_CONTROLS):
        out.append(json_quote(text).encode("utf-8"))
        return
    out.append(b'"')
    out.append(
        data.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
        .replace(b"\r", b"\\r").replace(b"\t", b"\\t")
    )  # fmt: skip
    out.append(b'"')


def _key(key: Any) -> bytes:
    """The quoted ``key`` and ``": "``, remembered when short."""
    if type(key) is not str:
        raise _Unusual
    written = json_quote(key).encode("utf-8") + b": "
    if len(key) <= 64 and len(_KEYS) < _KEYS_MAX:
        _KEYS[key] = written
    return written


def _member(key: Any, level: int) -> bytes:
    """The member break of ``level``, the quoted ``key`` and ``": "``, remembered when short."""
    written = _MEMBER_BREAKS[level] + (_KEYS.get(key) or _key(key))
    members = _MEMBERS[level]
    if len(key) <= 64 and len(members) < _MEMBERS_MAX:
        members[key] = written
    return written


def _write(value: Any, out: list[bytes], depth: int) -> None:
    """Append ``value`` at nesting ``depth`` (its members indented one level deeper).

    A short string is quoted by the C encoder directly when it is ASCII (``json_quote`` does the
    same after its own test; the call is a tenth of a microsecond, thousands of times a document)."""
    kind = type(value)
    if kind is str:
        if len(value) < _LONG:
            out.append(json_quote(value).encode("utf-8"))
        else:
            _quote_long(value, out)
    elif kind is dict:
        if not value:
            out.append(b"{}")
            return
        if depth >= _MAX_DEPTH:
            raise _Unusual
        inner = depth + 1
        members = _MEMBERS[inner]
        first = True
        for key in sorted(value):
            child = value[key]
            if first:
                out.append(_OPEN_OBJECT[inner])
                out.append(_KEYS.get(key) or _key(key))
                first = False
            else:
                out.append(members.get(key) or _member(key, inner))
            # the commonest members written here, as the call below would write them
            kind = type(child)
            if kind is str and len(child) < _LONG:
                out.append(
                    _encode_basestring(child).encode() if child.isascii() else json_quote(child).encode("utf-8")
                )
            elif kind is bool:
                out.append(b"true" if child else b"false")
            elif kind is int and -_SAFE_INT < child < _SAFE_INT:
                out.append(b"%d" % child)
            else:
                _write(child, out, inner)
        out.append(_CLOSE_OBJECT[depth])
    elif kind is list:
        if not value:
            out.append(b"[]")
            return
        if depth >= _MAX_DEPTH:
            raise _Unusual
        inner = depth + 1
        separator = _OPEN_ARRAY[inner]
        element = _MEMBER_BREAKS[inner]
        for child in value:
            out.append(separator)
            separator = element
            if type(child) is str and len(child) < _LONG:
                out.append(
                    _encode_basestring(child).encode() if child.isascii() else json_quote(child).encode("utf-8")
                )
            else:
                _write(child, out, inner)
        out.append(_CLOSE_ARRAY[depth])
    elif kind is bool:
        out.append(b"true" if value else b"false")
    elif value is None:
        out.append(b"null")
    elif kind is int or kind is float:
        out.append(dumps_report(value)[:-1].encode("ascii"))  # JavaScript's number text, or null
    else:
        raise _Unusual
