"""Unsaved text in place of files: what an editor holds counts as the file, for one block of code.

A language server lints what the user is typing, not what was last saved, and must never write it
to disk to do so.  Every file forgec reads from a user goes through
:func:`forgec.source.read.read_file_bytes`, which asks :func:`overlaid` first; :func:`overlay`
puts a mapping of paths to texts in force for a ``with`` block.  The mapping lives in a
:class:`~contextvars.ContextVar`, so two threads (or two servers in one test process) never see
each other's buffers, and outside a ``with`` block reading costs one ``ContextVar.get``.

Only the *contents* of files are overlaid: a folder listing still comes from the disk, so a buffer
for a file that was never saved is not part of its folder until it is.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["overlaid", "overlay"]

_OVERLAY: ContextVar[dict[str, bytes] | None] = ContextVar("forgec_source_overlay", default=None)


def _key(path: str | os.PathLike[str]) -> str:
    """One spelling per file: absolute, symbolic links resolved, as the listings resolve them."""
    return os.path.realpath(os.fspath(path))


@contextmanager
def overlay(texts: Mapping[str, str]) -> Iterator[None]:
    """Read ``texts`` (path -> unsaved text) instead of those files inside the block."""
    encoded = {_key(path): text.encode("utf-8", errors="surrogatepass") for path, text in texts.items()}
    token = _OVERLAY.set(encoded)
    try:
        yield
    finally:
        _OVERLAY.reset(token)


def overlaid(path: str | os.PathLike[str]) -> bytes | None:
    """The bytes in force for ``path`` (an editor's unsaved text), or ``None``: read the disk."""
    texts = _OVERLAY.get()
    if not texts:
        return None
    try:
        return texts.get(_key(path))
    except (OSError, ValueError):  # a NUL in the path: the disk read reports it
        return None
