"""Content-keyed caches of loaded documents, bounded by bytes, handing out private copies.

A host that compiles turn after turn, the conformance runner, the golden-file plugin and the
language server read the same stack file again and again; loading it (JSON parse, shape checks,
normalisation, validation, regex configuration) is a third of a compile.  :class:`ByteCache` keeps
the results keyed by the *content* that produced them -- the file's bytes themselves, never its
name or modification time -- so a hit is exactly what a fresh load would give.

Nothing mutable is ever shared: an entry holds the loaded values as a :mod:`marshal` blob (plain
JSON data -- ``dict``, ``list``, ``str``, numbers, ``bool``, ``None`` -- round-trips exactly,
dictionary order, lone surrogates, ``-0.0`` and shared sub-objects included), and every hit
unmarshals a new copy, which costs a fraction of parsing and checking the text again.  The
caller may mutate what it gets; the cache cannot see it.

Each cache is bounded by the bytes its entries hold (key bytes + blob + text); the least recently
used entries go first.  ``capacity = 0`` turns a cache off (the benchmark's ``--no-cache``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["ByteCache"]

V = TypeVar("V")


class ByteCache(Generic[V]):
    """A least-recently-used map bounded by the byte sizes its callers declare per entry.

    Thread-safe (the language server loads from worker threads).  ``get`` moves a hit to the
    most recent end; ``put`` evicts from the oldest end until the total fits ``capacity``; an
    entry larger than a quarter of the capacity is not stored at all (it would flush the rest).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        #: counters for tests and ``--profile`` runs
        self.hits = 0
        self.misses = 0

    @property
    def size(self) -> int:
        """The bytes the entries hold now (as declared to :meth:`put`)."""
        return self._size

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        if size > self.capacity // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= old[1]
            self._entries[key] = (value, size)
            self._size += size
            while self._size > self.capacity:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._size -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0
            self.hits = self.misses = 0
