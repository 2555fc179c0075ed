"""A second-sight ByteCache keeps a key only from its second put (the macro parse and replay caches).

A stream of texts seen once (a stack file no call read before) must not fill the cache; a text that
comes back is kept as before.
"""

from __future__ import annotations

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
