"""The bounded-by-bytes LRU behind the stack cache (forgec.codecs.stack.ByteCache)."""

from __future__ import annotations

from forgec.codecs.stack import ByteCache


def test_hit_miss_and_counters() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    assert cache.get("a") is None
    cache.put("a", "A", 10)
    assert cache.get("a") == "A"
    assert (cache.hits, cache.misses, len(cache), cache.size) == (1, 1, 1, 10)


def test_eviction_by_size_drops_the_least_recently_used() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    for key in "abcd":
        cache.put(key, key.upper(), 200)
    assert cache.get("a") == "A"  # now the most recent: "b" is the oldest
    cache.put("e", "E", 250)  # 1,050 bytes: one entry must go
    assert cache.get("b") is None
    assert [cache.get(k) for k in "acde"] == ["A", "C", "D", "E"]
    assert cache.size == 850


def test_an_entry_over_a_quarter_of_the_capacity_is_not_kept() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    cache.put("small", "s", 100)
    cache.put("big", "b", 251)
    assert cache.get("big") is None
    assert cache.get("small") == "s"


def test_replacing_a_key_accounts_its_size_once() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    cache.put("a", "1", 100)
    cache.put("a", "2", 150)
    assert (cache.get("a"), cache.size, len(cache)) == ("2", 150, 1)


def test_capacity_zero_keeps_nothing_and_clear_empties() -> None:
    off: ByteCache[str] = ByteCache(0)
    off.put("a", "A", 1)
    assert off.get("a") is None
    cache: ByteCache[str] = ByteCache(100)
    cache.put("a", "A", 10)
    cache.clear()
    assert (cache.get("a"), cache.size) == (None, 0)


def test_sweep_keeps_what_was_used_since_the_last_sweep() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    for key in "abc":
        cache.put(key, key.upper(), 10)
    cache.sweep()  # all three were stored since the (implicit) start
    assert len(cache) == 3
    assert cache.get("b") == "B"
    cache.put("d", "D", 10)
    cache.sweep()  # only "b" (read) and "d" (stored) were used since the last sweep
    assert [cache.get(k) for k in "abcd"] == [None, "B", None, "D"]
    assert cache.size == 20
    cache.sweep()  # "b" and "d" were read again just now
    cache.sweep()  # nothing used in between: everything goes
    assert (len(cache), cache.size) == (0, 0)


def test_an_evicted_key_is_not_remembered_as_used() -> None:
    cache: ByteCache[str] = ByteCache(400)
    for key in "abcd":
        cache.put(key, key.upper(), 100)
    cache.put("e", "E", 100)  # evicts "a", which must not linger in the set of used keys
    assert "a" not in cache._touched and len(cache._touched) == 4
    cache.sweep()
    assert [cache.get(k) for k in "abcde"] == [None, "B", "C", "D", "E"]
    assert cache.size == 400
