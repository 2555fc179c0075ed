"""Pausing Python's cyclic garbage collector while a large input is read or compiled.

Parsing a 10,000–50,000-message context creates a million containers in one go; the collector
notices the allocations and walks the young (then every) generation again and again, which about
doubles the time (docs/performance.md, *Fresh inputs*).  None of those objects form a cycle that
needs the collector -- JSON data is a tree -- so it is paused for the duration and restored after.
Small inputs are left alone: for them a pause costs more than it saves.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["LARGE_HISTORY", "LARGE_INPUT_CHARS", "gc_paused"]

#: Inputs from this many characters up are parsed with the collector paused.
LARGE_INPUT_CHARS = 1 << 20
#: Compiles of a context with this many messages or more run with the collector paused.
LARGE_HISTORY = 5_000


@contextmanager
def gc_paused(size: int, threshold: int = LARGE_INPUT_CHARS) -> Iterator[None]:
    """Run the block with the cyclic collector disabled when ``size`` is at least ``threshold``;
    re-enable it afterwards only if this call disabled it (so nested pauses, and a host that runs
    with the collector off, keep their setting)."""
    if size < threshold or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
