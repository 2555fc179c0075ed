"""The reference's Unicode: every Unicode-dependent answer forgec gives comes from here.

pi-forge runs on Node 20.20.2, whose V8 uses ICU 78.2 and so Unicode 17.0.  Python's ``unicodedata``
(Unicode 14 on 3.11, 15.1 on 3.13…), the ``regex`` module (whatever release pip resolves: Unicode 16,
17 or 18) and PyICU (the ICU of its wheel) each bring their own version, so none of them may answer a
question whose result the reference's output depends on.  This module reads ``unicode17.txt``, a table
measured in that Node by ``scripts/gen_unicode17.mjs`` (a ``RegExp``, ``toUpperCase`` … per code
point, nothing copied from a UCD file), and answers from it:

* the ``\\p{…}`` names V8 accepts and the code points of each (:func:`property_ranges`);
* the case-insensitive equivalence of ``i`` (UTF-16 units) and ``iu`` (code points) (:func:`fold_map`);
* ``String.prototype.toUpperCase``/``toLowerCase`` (:func:`case_map`, :func:`final_sigma_sets`);
* the identifier characters of group names (:func:`is_id_start`, :func:`is_id_part`).

:data:`UNICODE_VERSION` is the one place the version is written (docs/compatibility.md quotes it; a
test holds the data file to it).  The file is read on first use only: a cold ``forgec validate``
never loads it (tests/cli/test_cold_imports.py), and each record is decoded when first asked for.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

__all__ = [
    "ICU_VERSION",
    "UNICODE_VERSION",
    "Ranges",
    "binary_names",
    "canonical_name",
    "case_map",
    "complement_ranges",
    "final_sigma_sets",
    "fold_map",
    "gc_names",
    "in_ranges",
    "intersect_ranges",
    "is_id_part",
    "is_id_start",
    "merge_ranges",
    "nonu_canonical_map",
    "property_ranges",
    "script_names",
]

#: the Unicode version of the reference engine (Node 20.20.2, ICU 78.2): the one place it is written
UNICODE_VERSION = "17.0"
#: the ICU release the tables were measured with
ICU_VERSION = "78.2"

TOP = 0x10FFFF
Ranges = tuple[tuple[int, int], ...]

_DATA = Path(__file__).with_name(f"unicode{UNICODE_VERSION.split('.')[0]}.txt")

#: general-category groups: unions of the leaf categories the file holds (UCD PropertyValueAliases)
_GC_GROUPS = {
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"),
    "LC": ("Lu", "Ll", "Lt"),
    "M": ("Mn", "Mc", "Me"),
    "N": ("Nd", "Nl", "No"),
    "P": ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"),
    "S": ("Sm", "Sc", "Sk", "So"),
    "Z": ("Zs", "Zl", "Zp"),
    "C": ("Cc", "Cf", "Cs", "Co", "Cn"),
}


@cache
def _records() -> dict[str, str]:
    """The file's ``key -> encoded value`` records (decoded lazily, one at a time)."""
    records: dict[str, str] = {}
    for line in _DATA.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("\t")
        records[key] = value
    if records.get("unicode") != UNICODE_VERSION:  # pragma: no cover - a packaging mistake
        raise RuntimeError(f"{_DATA.name} holds Unicode {records.get('unicode')}, not {UNICODE_VERSION}")
    return records


def _decode_ranges(text: str) -> Ranges:
    """``gap length-1 gap length-1 …`` in base 36 (see the generator) to ``((lo, hi), …)``."""
    numbers = [int(x, 36) for x in text.split()]
    out: list[tuple[int, int]] = []
    prev = -1
    for i in range(0, len(numbers), 2):
        lo = prev + 1 + numbers[i]
        prev = lo + numbers[i + 1]
        out.append((lo, prev))
    return tuple(out)


def _decode_map(text: str) -> dict[int, int]:
    """Runs ``start count stride delta`` (base 36) to ``{code point: mapped code point}``."""
    numbers = [int(x, 36) for x in text.split()]
    out: dict[int, int] = {}
    for i in range(0, len(numbers), 4):
        start, count, stride, delta = numbers[i : i + 4]
        for k in range(count):
            c = start + k * stride
            out[c] = c + delta
    return out


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sort ``ranges`` and merge the overlapping and adjacent ones."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def complement_ranges(ranges: Iterable[tuple[int, int]], top: int = TOP) -> Ranges:
    """The code points 0..``top`` not in ``ranges`` (sorted and merged)."""
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= top:
        out.append((nxt, top))
    return tuple(out)


def intersect_ranges(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> Ranges:
    """The code points in both ``a`` and ``b`` (each sorted and merged)."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


@cache
def _ranges(key: str) -> Ranges:
    return _decode_ranges(_records()[key])


@cache
def _names(kind: str) -> dict[str, str]:
    """Accepted name -> canonical name, for ``gc``, ``sc`` (also scx) or ``bin``."""
    pairs = (item.partition("=") for item in _records()[f"names.{kind}"].split())
    return {alias: canonical for alias, _, canonical in pairs}


def canonical_name(kind: str, value: str) -> str:
    """The canonical spelling of an accepted name: the short general category (``Lu``, ``L``), the long
    script name (``Latin``) or the long binary property name (``Alphabetic``)."""
    return _names(kind)[value]


def gc_names() -> frozenset[str]:
    """The General_Category values V8 accepts (``\\p{Lu}``, ``\\p{gc=Lu}``, ``\\p{General_Category=Lu}``)."""
    return frozenset(_names("gc"))


def script_names() -> frozenset[str]:
    """The Script (and Script_Extensions) values V8 accepts."""
    return frozenset(_names("sc"))


def binary_names() -> frozenset[str]:
    """The lone property names V8 accepts besides general categories (binary properties)."""
    return frozenset(_names("bin"))


@cache
def property_ranges(kind: str, value: str) -> Ranges:
    """The code points of ``\\p{kind=value}`` (``kind`` ``gc``, ``sc``, ``scx``, or ``""`` for a lone
    name: a general category or a binary property), as sorted, merged ranges.

    ``KeyError`` for a name V8 rejects (the parser never asks for one)."""
    if kind in ("gc", "") and value in _names("gc"):
        short = _names("gc")[value]
        leaves = _GC_GROUPS.get(short, (short,))
        return merge_ranges([r for leaf in leaves for r in _ranges(f"gc.{leaf}")])
    if kind in ("sc", "scx"):
        script = _names("sc")[value]
        records = _records()
        key = f"scx.{script}" if kind == "scx" and f"scx.{script}" in records else f"sc.{script}"
        return _ranges(key)
    if kind == "":
        prop = _names("bin")[value]
        if prop == "Any":
            return ((0, TOP),)
        if prop == "ASCII":
            return ((0, 0x7F),)
        if prop == "Assigned":
            return complement_ranges(_ranges("gc.Cn"))
        return _ranges(f"bin.{prop}")
    raise KeyError(f"{kind}={value}")


def in_ranges(c: int, ranges: Ranges) -> bool:
    """Whether ``c`` lies in sorted ``ranges`` (binary search)."""
    i = bisect_right(ranges, (c, TOP + 1)) - 1
    return i >= 0 and ranges[i][1] >= c


# --- case-insensitive matching -------------------------------------------------------------------


@cache
def fold_map(unicode: bool) -> dict[int, int]:
    """Every character with case-insensitive equivalents -> the smallest member of its class.

    Two characters match each other under ``iu`` (code points) or ``i`` (UTF-16 units) exactly when
    they map to the same value (a character absent from the map is alone).  Measured in V8 for
    literals, classes and backreferences alike; the representative itself is forgec's choice."""
    return _decode_map(_records()["fold.u" if unicode else "fold.nonu"])


@cache
def nonu_canonical_map() -> dict[int, int]:
    """ECMAScript's non-``u`` ``Canonicalize``: one unit's ``toUpperCase`` unless that is several units
    or maps a non-ASCII unit to ASCII (units it leaves alone are absent)."""
    return _decode_map(_records()["canon.nonu"])


# --- String.prototype.toUpperCase / toLowerCase ---------------------------------------------------


@cache
def case_map(upper: bool) -> dict[int, str]:
    """``str.translate`` table of ``toUpperCase`` (``upper``) or ``toLowerCase`` for one code point
    taken alone (Final_Sigma, the one context rule of the root locale, is :func:`final_sigma_sets`)."""
    key = "upper" if upper else "lower"
    table: dict[int, str] = {c: chr(m) for c, m in _decode_map(_records()[key]).items()}
    for item in _records()[f"{key}.multi"].split():
        source, _, target = item.partition(":")
        table[int(source, 36)] = "".join(chr(int(x, 36)) for x in target.split("."))
    return table


@cache
def final_sigma_sets() -> tuple[Ranges, Ranges]:
    """``(cased, case_ignorable)`` as ICU's Final_Sigma test reads them: a character is skipped when it
    is Case_Ignorable (even if also Cased), else it counts as a cased letter when it is Cased."""
    ignorable = property_ranges("", "Case_Ignorable")
    cased = property_ranges("", "Cased")
    return cased, ignorable


# --- identifiers (RegExp group names) -------------------------------------------------------------


def is_id_start(c: int) -> bool:
    """V8's ``IsIdentifierStart``: ID_Start, ``$`` or ``_`` (a lone surrogate never)."""
    return c in (0x24, 0x5F) or (not 0xD800 <= c <= 0xDFFF and in_ranges(c, property_ranges("", "ID_Start")))


def is_id_part(c: int) -> bool:
    """V8's ``IsIdentifierPart``: ID_Continue (ZWNJ and ZWJ are members since Unicode 15.1) or ``$``."""
    return c == 0x24 or (not 0xD800 <= c <= 0xDFFF and in_ranges(c, property_ranges("", "ID_Continue")))
