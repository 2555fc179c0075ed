"""Case-insensitive character sets with JavaScript's two canonicalisations (import-regex B0 items 3–4).

Python's ``IGNORECASE`` (``re`` and ``regex``) folds ``ſ``, the Kelvin sign, ``ẞ``… which V8 does not
without ``u``, and equates ``I``/``ı`` which V8 does not with ``u``.  So forgec never relies on it for
literals and classes: it expands each character or class into the explicit set of characters sharing its
canonical form, using the equivalence classes measured in Node (:func:`forgec.js.unicode.fold_map`:
UTF-16 units without ``u``, code points with it), never a table of the installed ``regex`` or ICU.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache

from forgec.js.unicode import complement_ranges, merge_ranges

from ._unicode_data import fold_map

Ranges = list[tuple[int, int]]


@cache
def _classes(unicode: bool) -> tuple[dict[int, tuple[int, ...]], tuple[tuple[int, ...], ...]]:
    """Map every character with a non-trivial equivalence class to that class (sorted members)."""
    table = fold_map(unicode)
    groups: dict[int, set[int]] = {}
    for ch, key in table.items():
        groups.setdefault(key, {key}).add(ch)
    by_char: dict[int, tuple[int, ...]] = {}
    all_groups: list[tuple[int, ...]] = []
    for members in groups.values():
        t = tuple(sorted(members))
        all_groups.append(t)
        for m in t:
            by_char[m] = t
    return by_char, tuple(all_groups)


def equivalents(ch: int, unicode: bool) -> tuple[int, ...]:
    """All characters that match ``ch`` case-insensitively (including ``ch``)."""
    return _classes(unicode)[0].get(ch, (ch,))


def normalize(ranges: Ranges) -> Ranges:
    """Sort and merge overlapping/adjacent ranges (as a list: callers extend the result)."""
    return list(merge_ranges(ranges))


def close_over_case(ranges: Ranges, unicode: bool) -> Ranges:
    """Add every character whose canonical form equals that of some member (ECMAScript CharacterSetMatcher)."""
    merged = normalize(ranges)
    if not merged:
        return merged
    starts = [lo for lo, _ in merged]
    extra: Ranges = []
    for group in _classes(unicode)[1]:
        for m in group:
            i = bisect_right(starts, m) - 1
            if i >= 0 and merged[i][1] >= m:
                extra.extend((x, x) for x in group)
                break
    return normalize(merged + extra) if extra else merged


def complement(ranges: Ranges, top: int) -> Ranges:
    """The characters 0..top not in ``ranges`` (which must be normalised)."""
    return list(complement_ranges(ranges, top))
