"""Pausing CPython's cyclic garbage collector while a large input is read or compiled.

Why: parsing a 10,000–50,000-message context creates a million containers in one go, and a compile
of such a history builds a new list of every message (several times: the pipeline's copy, the
history-stage result, the compiled list) and a source record per message.  Every 700 allocations
the collector examines the young objects -- including those growing lists, a visit per element each
time -- and every few rounds it walks the older generations, which hold the host's whole
conversation (hundreds of thousands of containers).  None of that finds garbage: JSON data is a
tree, and a compile makes no reference cycles that outlive it.  Measured, collections were about
half of a large parse or compile (docs/performance.md, *Fresh inputs* and *Scale*).

So :func:`gc_paused` turns the collector off for the duration and puts it back as it was.  It is a
counted, locked pause: nested and concurrent pauses (the language server and the web editor run
compiles on threads; a compile may read a file) re-enable the collector only when the last one
leaves, and only if it was enabled when the first one came in -- a host that runs with the
collector off keeps it off.  Small inputs (below the caller's threshold) are left alone: they
allocate too little for the collector to matter, and the pause should not surprise anyone who does
not need it.

The first allocation after the pause runs one young collection; it finds the objects made during
the pause that are still alive and tracked -- a few dozen, but among them the compiled lists, whose
every element it visits (about 2 ms at 50,000 messages).  That is the collector's price for those
lists, paid once instead of on every 700 allocations.
"""

from __future__ import annotations

import gc
import threading
from types import TracebackType

__all__ = ["LARGE_COMPILE", "LARGE_INPUT_CHARS", "gc_paused"]

#: JSON text from this many characters up is parsed with the collector paused
LARGE_INPUT_CHARS = 1 << 20
#: messages plus items from which a compile runs with the collector paused
LARGE_COMPILE = 2_000

_lock = threading.Lock()
_depth = 0
_restore = False


class _Pause:
    """The context manager :func:`gc_paused` returns for a large input (one shared instance)."""

    __slots__ = ()

    def __enter__(self) -> None:
        global _depth, _restore
        with _lock:
            if _depth == 0:
                _restore = gc.isenabled()
                if _restore:
                    gc.disable()
            _depth += 1

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        global _depth
        with _lock:
            _depth -= 1
            if _depth == 0 and _restore:
                gc.enable()


class _NoPause:
    """What a small input gets: nothing happens."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        return None


_PAUSE = _Pause()
_NO_PAUSE = _NoPause()


def gc_paused(size: int, threshold: int) -> _Pause | _NoPause:
    """``with gc_paused(len(text), LARGE_INPUT_CHARS):`` -- the collector is off inside when
    ``size`` is at least ``threshold`` (a shared object each way: no allocation per call)."""
    return _PAUSE if size >= threshold else _NO_PAUSE
