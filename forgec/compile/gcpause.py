"""Pausing CPython's cyclic garbage collector around one large compile.

Why: a compile of a 50,000-message history builds a new list of every message (several times: the
pipeline's copy, the history-stage result, the compiled list) and a source record per message.
Every 700 allocations the collector examines the young objects -- including those growing lists, a
visit per element each time -- and every few rounds it walks the older generations, which hold the
host's whole conversation (hundreds of thousands of containers).  None of that finds garbage: a
compile makes no reference cycles that outlive it.  Measured at 50,000 messages, collections were
about half of the compile (``benchmarks/bench_scale.py``, docs/performance.md "Scale").

So :func:`gc_paused` turns the collector off for the duration of a large compile and puts it back
as it was.  It is a counted, locked pause: nested and concurrent compiles (the language server and
the web editor run compiles on threads) re-enable the collector only when the last one leaves, and
only if it was enabled when the first one came in -- a caller that disabled it keeps it disabled.
Small compiles (below :data:`LARGE_INPUT`) are left alone: they allocate too little for the
collector to matter, and the pause should not surprise anyone who does not need it.
"""

from __future__ import annotations

import gc
import threading
from types import TracebackType

__all__ = ["LARGE_INPUT", "gc_paused"]

#: messages plus items from which a compile pauses the collector
LARGE_INPUT = 2_000

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


def gc_paused(size: int) -> _Pause | _NoPause:
    """``with gc_paused(len(messages) + len(items)):`` -- the collector is off inside for large sizes."""
    return _PAUSE if size >= LARGE_INPUT else _NO_PAUSE
