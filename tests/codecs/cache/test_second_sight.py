"""A second-sight ByteCache keeps a key only from its second put (the macro parse and replay caches).

A stream of texts seen once (a stack file no call read before) must not fill the cache; a text that
comes back is kept as before.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

from forgec.codecs.stack import ByteCache


def test_a_key_put_once_is_not_kept_and_one_put_twice_is() -> None:
    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    cache.put("a", "first", 10)
    assert cache.get("a") is None and len(cache) == 0
    cache.put("a", "second", 10)
    assert cache.get("a") == "second"
    cache.put("a", "third", 10)  # a key held is replaced at once
    assert cache.get("a") == "third"


def test_clear_forgets_what_was_seen_once() -> None:
    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    cache.put("a", "x", 10)
    cache.clear()
    cache.put("a", "x", 10)
    assert cache.get("a") is None


def test_a_plain_cache_keeps_a_key_at_its_first_put() -> None:
    cache: ByteCache[str] = ByteCache(1_000)
    cache.put("a", "x", 10)
    assert cache.get("a") == "x"


def test_the_seen_once_set_is_bounded() -> None:
    cache: ByteCache[int] = ByteCache(1 << 30, second_sight=True)
    for number in range(70_000):
        cache.put(f"text {number}", number, 1)
    assert len(cache._seen_once) <= 1 << 16
    assert len(cache) == 0


def test_get_or_mark_is_get_then_a_first_sight_mark() -> None:
    """One locked call answering as :meth:`get` and then marking a first sight as a first put would, counters included."""
    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    assert cache.get_or_mark("a") == (None, False)  # a first sight: marked, a put would be dropped
    assert cache.get_or_mark("a") == (None, True)  # seen: the next put keeps it
    assert (cache.hits, cache.misses, len(cache)) == (0, 2, 0)
    cache.put("a", "x", 10)
    assert cache.get_or_mark("a") == ("x", True)
    assert (cache.hits, cache.misses) == (1, 2)
    cache.put("b", "y", 10)  # a first put marks too
    assert cache.get_or_mark("b") == (None, True)
    plain: ByteCache[str] = ByteCache(1_000)
    assert plain.get_or_mark("c") == (None, True)
    plain.put("c", "z", 10)
    assert plain.get_or_mark("c") == ("z", True)


def test_get_or_mark_touches_a_hit_for_the_sweep_and_the_lru() -> None:
    cache: ByteCache[str] = ByteCache(40)
    cache.put("a", "x", 10)
    cache.put("b", "y", 10)
    cache.sweep()  # both were touched: both stay, the touched set starts again
    assert cache.get_or_mark("a") == ("x", True)
    cache.sweep()  # "b" was not read since the last sweep
    assert cache.held() == ["a"]
    cache.put("c", "z", 10)
    assert cache.get_or_mark("a") == ("x", True)  # "a" becomes the most recent
    cache.put("d", "w", 10)
    cache.put("e", "v", 10)
    cache.put("f", "u", 10)  # over 40 bytes: the least recent ("c") goes first
    assert cache.held() == ["a", "d", "e", "f"]


def test_the_seen_once_set_stays_bounded_through_get_or_mark() -> None:
    cache: ByteCache[int] = ByteCache(1 << 30, second_sight=True)
    for number in range(70_000):
        cache.get_or_mark(f"text {number}")
    assert len(cache._seen_once) <= 1 << 16


def _in_thread(call: Any) -> list[Any]:
    """``call()`` on another thread; its result, or nothing if it did not return within 5 s (it blocked)."""
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(5)
    return out


def test_a_miss_takes_no_lock_and_a_hit_waits_for_it() -> None:
    """A first sight (the usual answer for a new block) is answered without the lock; a hit, which
    reorders the LRU and notes the key for the sweep, still takes it."""
    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    cache.put("held", "x", 10)
    cache.put("held", "x", 10)
    with cache._lock:
        assert _in_thread(lambda: cache.get_or_mark("new")) == [(None, False)]
        assert _in_thread(lambda: cache.get_or_mark("new")) == [(None, True)]
        assert cache.misses == 2
        blocked = threading.Thread(target=lambda: cache.get_or_mark("held"), daemon=True)
        blocked.start()
        blocked.join(0.2)
        assert blocked.is_alive()  # waiting for the lock
    blocked.join(5)
    assert not blocked.is_alive() and cache.hits == 1


def test_get_or_mark_from_threads_keeps_the_cache_consistent() -> None:
    """Threads looking up, marking, putting and evicting the same keys: no error, the byte total is
    the sum of what is held, every answer is a value put under its key or a miss."""
    cache: ByteCache[str] = ByteCache(200, second_sight=True)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(3_000):
                key = f"k{rng.randrange(40)}"
                found, keep = cache.get_or_mark(key)
                assert found is None or found == key.upper()
                assert found is None or keep
                if found is None and (keep or rng.random() < 0.5):
                    cache.put(key, key.upper(), rng.randrange(5, 30))
        except BaseException as error:  # reported below, on the main thread
            errors.append(error)

    workers = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    assert cache.size == sum(size for _, size in cache._entries.values()) <= 200
    assert all(value == key.upper() for key, (value, _) in cache._entries.items())


def test_a_key_evicted_before_the_lock_is_taken_is_a_miss() -> None:
    """The lock-free ``in`` saw the key, another thread evicted it before the lock was taken: the
    look-up under the lock finds nothing, and the call answers as the miss it now is."""

    class Evicted(OrderedDict[Any, Any]):
        def __contains__(self, key: object) -> bool:
            return True  # what the lock-free check saw

    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    cache._entries = Evicted()
    assert cache.get_or_mark("gone") == (None, False)
    assert cache.get_or_mark("gone") == (None, True)
    assert (cache.hits, cache.misses) == (0, 2)


def test_a_put_the_caller_knows_was_seen_is_kept_at_once() -> None:
    """``put(..., seen=True)``: another cache's word that the key was seen before (the parse cache takes
    the replay cache's); the key is kept at its first put here, and a mark of its own is dropped."""
    cache: ByteCache[str] = ByteCache(1_000, second_sight=True)
    cache.put("a", "x", 10, seen=True)
    assert cache.get("a") == "x"
    cache.put("b", "y", 10)  # marked only
    cache.put("b", "z", 10, seen=True)
    assert cache.get("b") == "z" and hash("b") not in cache._seen_once
    cache.put("c", "big", 251, seen=True)  # over a quarter of the capacity: never kept
    assert cache.get("c") is None
