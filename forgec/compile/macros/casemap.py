"""``upper``/``lower`` with the reference's Unicode version (compile-core.md §0.8).

The reference runs on Node 20.20.2 with ICU 78.2 (Unicode 17.0); Python's ``str.upper``/``str.lower``
use the Unicode of the running interpreter (14.0 on 3.11, 15.1 on 3.13, 16.0 on 3.14), so they are
only used for ASCII text.  Everything else is translated with V8's own ``toUpperCase``/``toLowerCase``
of every code point, measured in that Node (:func:`forgec.js.unicode.case_map`), plus the one context
rule of the root locale, Final_Sigma: a capital sigma becomes ``ς`` when a cased letter precedes it and
none follows, case-ignorable characters skipped on both sides (ICU's ``ucase_toFullLower``).
Lone surrogates are left alone, as V8 leaves them.
"""

from __future__ import annotations

from forgec.js.unicode import case_map, final_sigma_sets, in_ranges

__all__ = ["js_lower", "js_upper"]

_SIGMA = "\u03a3"


def js_upper(text: str) -> str:
    """``String.prototype.toUpperCase`` (locale-independent full mapping, Unicode 17)."""
    if text.isascii():
        return text.upper()
    return text.translate(case_map(True))


def js_lower(text: str) -> str:
    """``String.prototype.toLowerCase`` (final-sigma aware full mapping, Unicode 17)."""
    if text.isascii():
        return text.lower()
    lowered = text.translate(case_map(False))
    if _SIGMA not in text:
        return lowered
    # Σ maps to σ alone; it is the only character whose lower case depends on its neighbours, and it
    # maps to one character, so its position in ``lowered`` is found by counting what precedes it
    out: list[str] = []
    table = case_map(False)
    for i, ch in enumerate(text):
        if ch == _SIGMA and _final_sigma(text, i):
            out.append("\u03c2")
        else:
            out.append(table.get(ord(ch), ch))
    return "".join(out)


def _final_sigma(text: str, at: int) -> bool:
    """Final_Sigma at ``text[at]``: preceded by a cased letter, not followed by one (ignorables skipped)."""
    cased, ignorable = final_sigma_sets()

    def cased_neighbour(indices: range) -> bool:
        for i in indices:
            c = ord(text[i])
            if in_ranges(c, ignorable):
                continue
            return in_ranges(c, cased)
        return False

    return cased_neighbour(range(at - 1, -1, -1)) and not cased_neighbour(range(at + 1, len(text)))
