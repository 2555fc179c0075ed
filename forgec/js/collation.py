"""``String.prototype.localeCompare`` as a sort key (compile-core §16.12), with or without PyICU.

The reference sorts names with V8's ``localeCompare`` under ``en-US``: ICU's root collator (tertiary
strength, normalisation on).  Where PyICU is installed (a dependency on Linux, through the
``pyicu-wheels`` wheels) :func:`locale_key` uses that collator, the measured recipe.  ``pyicu-wheels``
has no macOS wheel and PyICU needs a system ICU to build, so elsewhere (and whenever ``import icu``
fails) :func:`fallback_key` answers instead: a three-level key in the shape of the Unicode Collation
Algorithm that ICU implements --

* primary: symbols, punctuation and separators in the root collation's order (measured in Node
  20.20.2: ``collation_symbols.txt``; controls and format characters it ignores are skipped), then
  digits by value, then letters
  without case or accents (compatibility forms decomposed, the Latin letters that do not decompose
  -- ``ß ø æ œ đ ł ħ ı þ`` … -- placed as the root collation places them), then anything else;
* secondary: the accents (combining marks, strokes), compared only when the primaries tie;
* tertiary: lower case before upper case, then compatibility forms.

It gives ICU's order for the names of every corpus case and for identifier-like names in Latin
letters, digits and ASCII punctuation (tests/compile/slots/test_collation_fallback.py compares it with
ICU); names mixing scripts, or symbols outside ASCII, may order differently (docs/compatibility.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["fallback_key", "icu_available", "locale_key"]

_SYMBOLS = Path(__file__).with_name("collation_symbols.txt")


@cache
def _tables() -> tuple[dict[str, tuple[int, int]], frozenset[str], dict[str, int], dict[str, int]]:
    """The measured tables (``scripts/gen_collation_symbols.mjs``, Node 20.20.2):

    * each symbol, punctuation, separator or control character -> (rank of its primary weight, its
      place among the characters sharing it), in the collator's order;
    * the characters the collator ignores entirely;
    * each combining mark -> its secondary weight's rank (1, 2 …; a base letter's own weight is 0);
    * each Latin letter with a stroke (``ø đ ł ħ``) -> how many mark weights sort below its own."""
    ranks: dict[str, tuple[int, int]] = {}
    ignorable: frozenset[str] = frozenset()
    marks: dict[str, int] = {}
    special: dict[str, int] = {}
    rank = 0
    for line in _SYMBOLS.read_text(encoding="ascii").splitlines():
        head, _, rest = line.partition("\t")
        if head == "#ignorable":
            ignorable = frozenset(chr(int(x, 16)) for x in rest.split())
        elif head == "#marks":
            for weight, group in enumerate(rest.split(), start=1):
                for x in group.split(","):
                    marks[chr(int(x, 16))] = weight
        elif head == "#special":
            for item in rest.split():
                letter, _, before = item.partition("=")
                special[chr(int(letter, 16))] = int(before)
        else:
            for place, x in enumerate(line.split()):  # a line is in the collator's full (tertiary) order
                ranks[chr(int(x, 16))] = (rank, place)
            rank += 1
    return ranks, ignorable, marks, special


#: Latin letters without a canonical decomposition: the letters whose primaries they take.  The root
#: collation sorts ``ø`` as ``o`` plus a secondary weight (measured: ``#special``), ``ß`` as ``ss``,
#: ``æ``/``œ`` as ``ae``/``oe`` with a secondary difference, ``ı`` and ``þ`` after ``i`` and ``z``.
_LETTERS: dict[str, str] = {
    "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ł": "l", "Ł": "l", "ħ": "h", "Ħ": "h",
    "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ı": "i\uffff", "þ": "z\uffff", "Þ": "z\uffff",
}
_LIGATURE = 10_000  # the secondary weight of æ, œ, ß: above every mark's


def fallback_key(text: str) -> tuple[Any, ...]:
    """A three-level collation key approximating ICU's root collator (see the module docstring).

    Like a UCA sort key: the primaries of all characters, then all secondaries (0 for a base
    character, the mark's measured rank for a combining mark), then all tertiaries."""
    ranks, ignorable, marks, special = _tables()
    primary: list[tuple[int, Any]] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for original in text:
        letters = _LETTERS.get(original)
        if letters is not None:
            upper = original != original.lower()
            accent = special[original] + 1 if original in special else _LIGATURE
            for i, letter in enumerate(letters):
                primary.append((2, letter))
                secondary.append(0)
                if i == 0:
                    secondary.append(accent)
                tertiary.append(2 if upper else 0)
            continue
        decomposed = unicodedata.normalize("NFKD", original)
        compat = 1 if decomposed != unicodedata.normalize("NFD", original) else 0
        for ch in decomposed:
            if ch in ignorable:
                continue
            mark = marks.get(ch)
            if mark is not None or unicodedata.combining(ch):
                secondary.append(mark if mark is not None else len(marks) + ord(ch))
                continue
            ranked = ranks.get(ch)
            primary.append((0, ranked[0]) if ranked is not None else _primary(ch))
            secondary.append(0)
            tertiary.append(4 * ranked[1] + compat if ranked is not None else (2 if ch.isupper() else 0) + compat)
    return (primary, secondary, tertiary)


def _primary(ch: str) -> tuple[int, Any]:
    """The primary of a character the symbol table does not hold: a digit, a letter, or other."""
    category = unicodedata.category(ch)
    if category == "Nd":
        return (1, unicodedata.digit(ch, 0))
    if category[0] == "L":
        return (2, ch.lower())
    return (3, ord(ch))


def icu_available() -> bool:
    """Whether PyICU can be imported here (it cannot be on macOS without a system ICU)."""
    try:
        import icu  # noqa: F401
    except ImportError:
        return False
    return True


@cache
def locale_key() -> Callable[[str], Any]:
    """The sort key of ``localeCompare``: ICU's root collator with normalisation on when PyICU is
    importable, else :func:`fallback_key`.  Lone surrogates are compared as U+FFFD, as ICU reads them."""
    try:
        import icu
    except ImportError:
        return fallback_key
    collator = icu.Collator.createInstance(icu.Locale.getRoot())
    collator.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)

    def key(text: str) -> Any:
        try:
            return collator.getSortKey(text)
        except (UnicodeError, icu.ICUError):  # lone surrogates
            return collator.getSortKey(text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace"))

    return key
