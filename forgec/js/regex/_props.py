"""``\\p{…}`` classes: the reference's Unicode 17 members, matched at the speed of ``regex``'s own tables.

The members of a property come from :mod:`forgec.js.unicode` (measured in Node 20.20.2).  Writing them
out as explicit ranges is exact but slow to match: ``regex`` tests a class's members one by one, so
``\\p{L}`` (684 ranges) costs about 2 µs per character where its built-in ``\\p{L}`` costs 0.1 µs.  So a
property is emitted as ``regex``'s built-in one *corrected* to Unicode 17: the installed release's
members are measured once per process (one scan of the code space, ~5 ms a property), and the
characters it has but Unicode 17 lacks are excluded with a lookahead, those it lacks are added as
ranges.  Whatever the installed release (its tables are Unicode 15.1 in ``regex`` 2024.5, 18 in 2026
releases), the result is Unicode 17 exactly; a name the release does not know is written out in full.
Case-insensitive classes never use this: their case closure is explicit anyway (:mod:`._casefold`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache

from forgec.js.unicode import TOP, Ranges, complement_ranges, intersect_ranges, property_ranges

from . import _casefold as cf

__all__ = ["Builtin", "builtin_property", "property_members"]


@dataclass(frozen=True, slots=True)
class Builtin:
    """``regex``'s ``text`` (``\\p{…}`` or ``\\P{…}``) minus ``removed``, plus ``added``: Unicode 17."""

    text: str
    removed: cf.Ranges
    added: cf.Ranges


def property_members(kind: str, value: str, negated: bool) -> cf.Ranges:
    """The Unicode 17 code points of ``\\p{kind=value}`` (``\\P`` when ``negated``), as ranges."""
    ranges = list(property_ranges(kind, value))
    return cf.complement(ranges, TOP) if negated else ranges


@cache
def _codespace() -> str:
    """Every code point once, in order (surrogates included: a Python string never pairs them)."""
    return array("I", range(TOP + 1)).tobytes().decode("utf-32-le", "surrogatepass")


def _regex_name(kind: str, value: str) -> str:
    """The same property in ``regex``'s syntax (canonical names, which every release spells alike)."""
    from forgec.js import unicode

    if kind in ("", "gc") and value in unicode.gc_names():
        return f"gc={unicode.canonical_name('gc', value)}"
    if kind in ("sc", "scx"):
        return f"{kind}={unicode.canonical_name('sc', value)}"
    return unicode.canonical_name("bin", value)


@cache
def _installed_members(name: str) -> Ranges | None:
    """What the installed ``regex`` release's ``\\p{name}`` matches, or None if it rejects the name."""
    import regex

    try:
        pattern = regex.compile(f"\\p{{{name}}}+", regex.VERSION0)
    except regex.error:
        return None
    return tuple((m.start(), m.end() - 1) for m in pattern.finditer(_codespace()))


def _minus(a: Ranges | cf.Ranges, b: Ranges | cf.Ranges) -> cf.Ranges:
    """Ranges of ``a`` not in ``b`` (both sorted and merged)."""
    return list(intersect_ranges(a, complement_ranges(b)))


@cache
def builtin_property(kind: str, value: str, negated: bool) -> Builtin | None:
    """``\\p{kind=value}`` (``\\P`` when ``negated``) as a corrected built-in, or None when the installed
    ``regex`` does not know the name (then the members are written out)."""
    name = _regex_name(kind, value)
    installed = _installed_members(name)
    if installed is None:
        return None
    wanted = property_ranges(kind, value)
    extra = _minus(installed, wanted)  # the release has them, Unicode 17 does not
    missing = _minus(wanted, installed)  # Unicode 17 has them, the release does not
    if negated:  # \P{…} is the complement: what one side lacks the other has
        return Builtin(f"\\P{{{name}}}", missing, extra)
    return Builtin(f"\\p{{{name}}}", extra, missing)
