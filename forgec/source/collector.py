"""Pausing CPython's cyclic garbage collector while a large input is read or compiled.

Why: parsing a 10,000–50,000-message context creates a million containers in one go, and a compile
of such a history builds a new list of every message (several times: the pipeline's copy, the
history-stage result, the compiled list) and a source record per message.  Every 700 allocations
the collector examines the young objects -- including those growing lists, a visit per element each
time -- and every few rounds it walks the older generations, which hold the host's whole
conversation (hundreds of thousands of containers).  None of that finds garbage: JSON data is a
tree, and a compile makes no reference cycles that outlive it.  Measured, collections were about
half of a large parse or compile (docs/performance-log.md, *Fresh inputs* and *Scale*).

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
lists, paid once instead of on every 700 allocations -- unless the lists are already older than
that collection: a young collection visits only the youngest generation's containers (what an older
list holds stays alive through the references it counts from outside).  So a large compile fills
lists that :func:`make_spares` made inside an earlier large compile's pause, which the collections
after it moved out of the younger generations while they waited (:func:`spare_list`).
"""

from __future__ import annotations

import gc
from _thread import allocate_lock  # threading.Lock, without importing threading (cold start)
from collections import deque
from types import TracebackType
from typing import Any

__all__ = ["LARGE_COMPILE", "LARGE_INPUT_CHARS", "gc_paused", "make_spares", "spare_list"]

#: JSON text from this many characters up is parsed with the collector paused
LARGE_INPUT_CHARS = 1 << 20
#: messages plus items from which a compile runs with the collector paused
LARGE_COMPILE = 2_000

_lock = allocate_lock()
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


# --- lists made ahead of a large compile ---------------------------------------------------------

#: empty lists waiting for a later large compile (:func:`make_spares`), oldest first
_spares: deque[list[Any]] = deque()
#: how many lists a large compile takes: its message list and its source list
SPARE_LISTS = 2
#: how many large compiles a spare waits before it is handed out: with CPython's default thresholds
#: (700, 10, 10) a generation-1 collection runs at least every 10 young ones, and every large compile
#: runs at least one (the first allocation after its pause), so a spare this old has been through a
#: generation-1 collection and sits in the oldest generation
SPARE_DEPTH = 12


def spare_list() -> list[Any]:
    """A new, empty list for a large compile's result: the oldest one :func:`make_spares` made earlier
    when there is one (no other holder: each is handed out once), else a list made now.

    Why: a collection visits every element of every list of the generations it collects that is
    still alive.  A list made during the compile is young, so the young collection right after the
    compile's pause would visit its 50,000 elements (~1.1 ms, an eighth of the compile); a list made
    inside an earlier pause has left the youngest generation at that pause's collection, so young
    collections skip it.  And a spare kept :data:`SPARE_DEPTH` large compiles has been through a
    generation-1 collection as well, so the generation-1 collection that follows every ~10th compile's
    pause does not walk it either (it did walk the two lists of the report still held, 100,000 scattered
    object headers: 3-4.5 ms, a third of a call, on every ~11th `history-50k` call; stop 30).  Only an
    ordering of allocations: no ``gc`` call, nothing a caller can see; with the collector off, or
    before any collection, a spare is simply a list.
    """
    try:
        return _spares.popleft()  # atomic: two threads never get the same list
    except IndexError:
        return []


def make_spares() -> None:
    """Keep :data:`SPARE_LISTS` × :data:`SPARE_DEPTH` empty lists for the next large compiles (each
    compile takes the oldest two, so each waits :data:`SPARE_DEPTH` compiles).  Called inside a large
    compile's pause, so the collection that follows the pause ages them while they wait."""
    while len(_spares) < SPARE_LISTS * SPARE_DEPTH:  # two threads at once may add a few more: harmless
        _spares.append([])
