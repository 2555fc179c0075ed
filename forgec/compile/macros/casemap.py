"""``upper``/``lower`` with the reference's Unicode version (compile-core.md §0.8).

The reference runs on Node 20.20.2 with ICU 78.2 (Unicode 17.0, §16); Python 3.11's ``str.upper`` /
``str.lower`` use Unicode 14.0.  The full case mappings agree except for the case pairs added in
Unicode 15–17, which Python leaves unchanged.  Measured against ``toUpperCase``/``toLowerCase`` in
that Node over every code point: exactly the 55 simple pairs below differ (no special casing, no
character that Python maps *to* one of them), so translating them after Python's own mapping gives
V8's result.
"""

from __future__ import annotations

__all__ = ["js_lower", "js_upper"]


def _pairs() -> list[tuple[int, int]]:
    """(upper, lower) pairs new since Unicode 14.0."""
    pairs = [
        (0xA7DC, 0x019B),  # Latin capital lambda with stroke
        (0xA7CB, 0x0264),  # Latin capital ram's horn
        (0x1C89, 0x1C8A),  # Cyrillic capital tje
        (0xA7CC, 0xA7CD),
        (0xA7CE, 0xA7CF),
        (0xA7D2, 0xA7D3),
        (0xA7D4, 0xA7D5),
        (0xA7DA, 0xA7DB),
    ]
    pairs += [(cp, cp + 0x20) for cp in range(0x10D50, 0x10D66)]  # Garay
    pairs += [(cp, cp + 0x1B) for cp in range(0x16EA0, 0x16EB9)]  # Beria Erfe
    return pairs


_TO_UPPER = {lower: upper for upper, lower in _pairs()}
_TO_LOWER = {upper: lower for upper, lower in _pairs()}


def js_upper(text: str) -> str:
    """``String.prototype.toUpperCase`` (locale-independent full mapping, Unicode 17)."""
    if text.isascii():
        return text.upper()
    return text.upper().translate(_TO_UPPER)


def js_lower(text: str) -> str:
    """``String.prototype.toLowerCase`` (final-sigma aware full mapping, Unicode 17)."""
    if text.isascii():
        return text.lower()
    return text.lower().translate(_TO_LOWER)
