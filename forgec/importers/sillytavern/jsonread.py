"""Reading a preset file the way Node does: UTF-8 with U+FFFD for bad bytes, then ``JSON.parse`` (E2).

Parsing is :func:`forgec.js.json.loads` (the team's V8-exact parser): JavaScript's acceptance
(no ``NaN``/``Infinity``, a BOM is an error) and V8's error messages.  The read errors carry
Node's ``fs`` messages, which the importer embeds in ``Failed to read or parse <path>: <reason>``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgec.js.json import JSONParseError, loads
from forgec.js.json_utf8 import loads_utf8

__all__ = ["JsonParseError", "parse_json", "read_json", "read_text"]

JsonParseError = JSONParseError


def parse_json(text: str) -> Any:
    """``JSON.parse(text)``; raises :class:`JsonParseError` whose ``str`` is V8's message."""
    return loads(text)


def read_text(path: Path) -> str:
    """``fs.readFileSync(path, "utf8")``; raises ``OSError`` whose ``args[0]`` is Node's message
    (:func:`forgec.source.read.node_error_text`, the one copy of Node's ``fs`` texts)."""
    return _decode(_read_bytes(path))


def read_json(path: Path) -> Any:
    """``JSON.parse(fs.readFileSync(path, "utf8"))``: :func:`read_text` then :func:`parse_json`, parsed
    from the file's bytes (:func:`forgec.js.json_utf8.loads_utf8`: no four-byte-wide text for a preset
    full of emoji, and the digit-run test on the bytes, not on the text encoded back)."""
    from forgec.source.collector import LARGE_INPUT_CHARS, gc_paused  # loaded by _read_bytes anyway

    data = _read_bytes(path)
    # a preset's values are a tree: the collector would walk the containers as they are made and find nothing
    with gc_paused(len(data), LARGE_INPUT_CHARS):
        return loads_utf8(data)


def _read_bytes(path: Path) -> bytes:
    from forgec.source.read import node_error_text, read_file_bytes

    try:
        return read_file_bytes(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate in the path
        raise OSError(node_error_text(exc, str(path))) from None


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
