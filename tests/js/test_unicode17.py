"""Differential test: forgec's Unicode answers against what Node 20.20.2 (Unicode 17) was measured doing.

``tests/js/unicode17_vectors.txt`` and the runtime tables in ``forgec/js/unicode17.txt`` were both
written by ``scripts/gen_unicode17.mjs`` running in the reference engine itself.  Here forgec's *regex
engine* (the pattern it emits for the installed ``regex`` release), its case maps, trim and group-name
rules are run over every code point and compared with those recordings.  Run with the oldest and the
newest ``regex`` release pyproject allows, and with PyICU blocked (``.ci/run``): the answers must not
move.  Scans of the whole code space are expensive (~0.1-0.3 s a property), so each property is
scanned once in full without ``i``; under ``iu`` only the characters case folding can touch (every
member of every measured case class) can differ from the plain class, and those are scanned for every
property, plus a full scan of a few large properties under ``iu``.
"""

from __future__ import annotations

import json
import os
from array import array
from functools import cache
from pathlib import Path

import pytest

from forgec.compile.macros.casemap import js_lower, js_upper
from forgec.js import unicode as u17
from forgec.js.regex import JSRegexError, compile_js, syntax_error
from forgec.js.values import js_trim, js_trim_end, js_trim_start

VECTORS = Path(__file__).with_name("unicode17_vectors.txt")
TOP = 0x10FFFF
Ranges = list[tuple[int, int]]


@cache
def _vectors() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("\t")
        out[key] = value
    return out


def _recorded(key: str) -> Ranges:
    return list(u17._decode_ranges(_vectors()[key]))


def _norm(ranges: Ranges) -> Ranges:
    return list(u17.merge_ranges(ranges))


def _union(a: Ranges, b: Ranges) -> Ranges:
    return _norm([*a, *b])


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    return list(u17.intersect_ranges(a, b))


def _complement(a: Ranges) -> Ranges:
    return list(u17.complement_ranges(a))


# --- subjects: every code point once, lone surrogates never forming a pair (as the generator does) ---
_BLOCKS = ((0, 0xD7FF), (0xDC00, 0xDFFF), (0xD800, 0xDBFF), (0xE000, TOP))


@cache
def _full() -> tuple[str, array[int]]:
    cps = array("I", (c for lo, hi in _BLOCKS for c in range(lo, hi + 1)))
    return cps.tobytes().decode("utf-32-le", "surrogatepass"), cps


@cache
def _units() -> tuple[str, array[int]]:
    """Every UTF-16 unit once (for patterns without ``u``, which match units)."""
    cps = array("I", (c for lo, hi in _BLOCKS if hi <= 0xFFFF for c in range(lo, hi + 1)))
    cps.extend(range(0xE000, 0x10000))
    return cps.tobytes().decode("utf-32-le", "surrogatepass"), cps


@cache
def _foldable() -> Ranges:
    """Every character that has a case-insensitive equivalent under ``iu``."""
    table = u17.fold_map(True)
    return _norm([(c, c) for pair in table.items() for c in pair])


@cache
def _foldable_subject() -> tuple[str, array[int]]:
    cps = array("I", (c for lo, hi in _foldable() for c in range(lo, hi + 1)))
    return cps.tobytes().decode("utf-32-le", "surrogatepass"), cps


def _members(cls: str, flags: str, subject: tuple[str, array[int]]) -> Ranges:
    """The code points of ``subject`` forgec's engine matches with the one-character class ``cls``."""
    text, cps = subject
    pattern = compile_js(f"(?:{cls})+", "g" + flags)
    view = pattern.view(text)
    assert len(view) == len(text)  # the subject never forms a pair: one view index per code point
    out: Ranges = []
    for m in pattern.iter_view(view, timeout=None):
        i = m.start
        while i < m.end:
            j = i + 1
            while j < m.end and cps[j] == cps[j - 1] + 1:
                j += 1
            out.append((cps[i], cps[j - 1]))
            i = j
    return _norm(out)


def _show(ranges: Ranges) -> str:
    return " ".join(f"{lo:04X}-{hi:04X}" if lo != hi else f"{lo:04X}" for lo, hi in ranges[:12])


def _assert_same(got: Ranges, want: Ranges, what: str) -> None:
    if got != want:
        extra = _intersect(got, _complement(want))
        missing = _intersect(want, _complement(got))
        pytest.fail(f"{what}: forgec also matches [{_show(extra)}], misses [{_show(missing)}]")


# --- the properties -----------------------------------------------------------------------------
_GC_LEAVES = [k[3:] for k in u17._records() if k.startswith("gc.")]
_GC_ALL = [*_GC_LEAVES, *u17._GC_GROUPS]
_SCRIPTS = sorted(set(u17._names("sc").values()))
_BINARIES = sorted(set(u17._names("bin").values()))
PROPERTIES = [
    *(f"gc={n}" for n in _GC_ALL),
    *(f"sc={s}" for s in _SCRIPTS),
    *(f"scx={s}" for s in _SCRIPTS),
    *_BINARIES,
]


def _table(prop: str) -> Ranges:
    kind, _, value = prop.rpartition("=")
    return list(u17.property_ranges(kind, value))


def test_version_is_written_once_and_matches_the_reference_env() -> None:
    assert u17.UNICODE_VERSION == "17.0"
    assert u17._records()["unicode"] == _vectors()["unicode"] == u17.UNICODE_VERSION
    assert u17._records()["icu"] == u17.ICU_VERSION
    cases = os.environ.get("FORGEC_SHARED_CASES")
    shared = Path(cases).parent if cases else Path(__file__).resolve().parents[3] / "shared" / "oracle" / "cases"
    env = shared / "REFERENCE_ENV.json"
    if not env.is_file():
        pytest.skip("the reference environment record is not here")
    recorded = json.loads(env.read_text(encoding="utf-8"))
    assert (recorded["unicode"], recorded["icu"]) == (u17.UNICODE_VERSION, u17.ICU_VERSION)


def test_the_scripts_new_in_unicode_17_are_accepted() -> None:
    new = {"Sidt": "Sidetic", "Tols": "Tolong_Siki", "Tayo": "Tai_Yo", "Berf": "Beria_Erfe"}
    for short, long in new.items():
        for name in (short, long):
            assert u17.canonical_name("sc", name) == long
            assert syntax_error(f"\\p{{sc={name}}}", "u") is None, name
            assert syntax_error(f"\\p{{scx={name}}}", "u") is None, name
        assert _members(f"\\p{{sc={short}}}", "u", _full()) == _table(f"sc={long}") != []


@pytest.mark.parametrize("kind", ["gc", "sc", "bin"])
def test_every_accepted_name_parses_in_every_spelling(kind: str) -> None:
    names = sorted(u17._names(kind))
    assert names
    for name in names:
        spellings = {
            "gc": [f"\\p{{{name}}}", f"\\p{{gc={name}}}", f"\\P{{General_Category={name}}}", f"[\\p{{{name}}}]"],
            "sc": [f"\\p{{sc={name}}}", f"\\p{{Script={name}}}", f"\\p{{scx={name}}}",
                   f"[\\P{{Script_Extensions={name}}}]"],
            "bin": [f"\\p{{{name}}}", f"[^\\P{{{name}}}]"],
        }[kind]
        for source in spellings:
            assert syntax_error(source, "u") is None, source


def test_the_names_v8_refuses_are_refused() -> None:
    refused = _vectors()["refused"].split()
    assert len(refused) >= 9
    for name in refused:
        message = syntax_error(f"\\p{{{name}}}", "u")
        assert message is not None and message.endswith("Invalid property name"), name


@pytest.mark.parametrize("prop", PROPERTIES)
def test_property_members_over_every_code_point(prop: str) -> None:
    """``\\p{prop}`` with ``u`` matches exactly the recorded members, whatever ``regex`` is installed."""
    _assert_same(_members(f"\\p{{{prop}}}", "u", _full()), _table(prop), f"\\p{{{prop}}}/u")


@pytest.mark.parametrize("prop", ["Any", "ASCII", "Assigned"])
def test_derived_binaries_match_the_recording(prop: str) -> None:
    assert _table(prop) == _recorded(f"bin.{prop}")
    _assert_same(_members(f"\\p{{{prop}}}", "u", _full()), _recorded(f"bin.{prop}"), prop)


@pytest.mark.parametrize("prop", ["gc=L", "gc=Lu", "gc=Cn", "sc=Latin", "sc=Greek", "Cased", "Alphabetic", "Any"])
def test_negated_properties_over_every_code_point(prop: str) -> None:
    _assert_same(_members(f"\\P{{{prop}}}", "u", _full()), _complement(_table(prop)), f"\\P{{{prop}}}/u")


@pytest.mark.parametrize("prop", PROPERTIES)
def test_case_insensitive_property_closure(prop: str) -> None:
    """``\\p{prop}`` and ``\\P{prop}`` under ``iu``: what ``i`` adds, measured, over every foldable character."""
    plain = _table(prop)
    foldable = _foldable()
    want = _intersect(_union(plain, _recorded(f"iu.{prop}")), foldable)
    _assert_same(_members(f"\\p{{{prop}}}", "iu", _foldable_subject()), want, f"\\p{{{prop}}}/iu")
    nwant = _intersect(_union(_complement(plain), _recorded(f"niu.{prop}")), foldable)
    _assert_same(_members(f"\\P{{{prop}}}", "iu", _foldable_subject()), nwant, f"\\P{{{prop}}}/iu")
    # characters without case equivalents are what they are without `i`
    assert not _intersect(_recorded(f"iu.{prop}"), _complement(foldable))


@pytest.mark.parametrize("prop", ["gc=Lu", "gc=Ll", "sc=Latin", "Cased", "Lowercase"])
def test_case_insensitive_property_over_every_code_point(prop: str) -> None:
    want = _union(_table(prop), _recorded(f"iu.{prop}"))
    _assert_same(_members(f"\\p{{{prop}}}", "iu", _full()), want, f"\\p{{{prop}}}/iu")


_ESCAPES = {
    "s.u": ("\\s", "u"), "w.iu": ("\\w", "iu"), "W.iu": ("\\W", "iu"), "cw.iu": ("[\\w]", "iu"),
    "ncw.iu": ("[^\\w]", "iu"), "cW.iu": ("[\\W]", "iu"), "ncW.iu": ("[^\\W]", "iu"), "w.u": ("\\w", "u"),
    "W.u": ("\\W", "u"), "d.iu": ("\\d", "iu"), "D.iu": ("\\D", "iu"), "dot.u": (".", "u"), "dot.su": (".", "su"),
}
_UNIT_ESCAPES = {"s": ("\\s", ""), "w.i": ("\\w", "i"), "W.i": ("\\W", "i"), "cW.i": ("[\\W]", "i"),
                 "ncW.i": ("[^\\W]", "i")}


@pytest.mark.parametrize("key", sorted(_ESCAPES))
def test_class_escapes_over_every_code_point(key: str) -> None:
    cls, flags = _ESCAPES[key]
    _assert_same(_members(cls, flags, _full()), _recorded(key), f"/{cls}/{flags}")


@pytest.mark.parametrize("key", sorted(_UNIT_ESCAPES))
def test_class_escapes_over_every_utf16_unit(key: str) -> None:
    cls, flags = _UNIT_ESCAPES[key]
    _assert_same(_members(cls, flags, _units()), _recorded(key), f"/{cls}/{flags}")


def test_word_boundaries_under_iu() -> None:
    """``/^.\\b/iu`` and ``/^.\\B/iu`` after a full stop, for every code point: one scan of ``.c.c.c…``
    (a full stop is never a word character, so the boundary after it is decided by ``c`` alone), runs
    of ``\\.\\b[^]`` matched at once so there are few matches to walk."""
    text, cps = _full()
    subject = "".join("." + ch for ch in text)
    for key, source in (("b.iu", "(?:\\.\\b[^])+"), ("B.iu", "(?:\\.\\B[^])+")):
        pattern = compile_js(source, "giu")
        view = pattern.view(subject)
        assert len(view) == len(subject)
        got = _norm([(cps[m.start // 2], cps[m.end // 2 - 1]) for m in pattern.iter_view(view, timeout=None)])
        # the recording skips lone surrogates (the generator's probe strings cannot hold one alone)
        _assert_same(_intersect(got, _complement([(0xD800, 0xDFFF)])), _recorded(key), key)


@pytest.mark.parametrize("unicode", [True, False], ids=["iu", "i"])
def test_case_classes_match_each_other_and_nothing_else(unicode: bool) -> None:
    """Every measured case class: a literal of its smallest member matches exactly the class (``iu``:
    over every foldable character; ``i``: over every UTF-16 unit)."""
    table = u17.fold_map(unicode)
    classes: dict[int, list[int]] = {}
    for c, rep in table.items():
        classes.setdefault(rep, [rep]).append(c)
    subject = _foldable_subject() if unicode else _units()
    flags = "iu" if unicode else "i"
    reps = sorted(classes)
    assert len(reps) > 1000
    # one pattern per class would be thousands of scans: an alternation of single literals, one group
    # per class, tells which class each matched character belongs to
    text, cps = subject
    for start in range(0, len(reps), 200):
        chunk = reps[start : start + 200]
        esc = (lambda c: f"\\u{{{c:x}}}") if unicode else (lambda c: f"\\u{c:04x}")
        pattern = compile_js("|".join(f"({esc(r)})" for r in chunk), "g" + flags)
        view = pattern.view(text)
        found: dict[int, list[int]] = {r: [] for r in chunk}
        for m in pattern.iter_view(view, timeout=None):
            groups = m.groups()
            index = next(i for i, g in enumerate(groups) if g is not None)
            found[chunk[index]].append(cps[m.start])
        for r in chunk:
            assert sorted(found[r]) == sorted(set(classes[r])), f"class of U+{r:04X}"


def test_lone_characters_have_no_case_partner() -> None:
    """A character outside every measured class matches only itself under ``iu`` (sampled: every 97th
    code point, and the neighbours of every class member)."""
    foldable = _foldable()
    samples = {c for c in range(0, TOP + 1, 97)} | {c + d for lo, hi in foldable for c in (lo, hi) for d in (-1, 1)}
    samples = {c for c in samples if 0 <= c <= TOP and not 0xD800 <= c <= 0xDFFF and not u17.in_ranges(c, tuple(foldable))}
    text = "".join(chr(c) for c in sorted(samples))
    for c in sorted(samples)[:: max(1, len(samples) // 400)]:
        pattern = compile_js(f"\\u{{{c:x}}}", "giu")
        assert [m.start for m in pattern.finditer(text, timeout=None)] == [sorted(samples).index(c)], hex(c)


# --- strings ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("upper", [True, False], ids=["toUpperCase", "toLowerCase"])
def test_case_maps_of_every_code_point(upper: bool) -> None:
    """``upper``/``lower`` (macros and filters) give V8's mapping for every code point, never Python's
    own (whose Unicode version is the interpreter's)."""
    fn = js_upper if upper else js_lower
    key = "upper" if upper else "lower"
    single = u17._decode_map(u17._records()[key])
    multi = {int(s, 36): "".join(chr(int(x, 36)) for x in t.split("."))
             for s, _, t in (item.partition(":") for item in u17._records()[f"{key}.multi"].split())}
    wrong = []
    for c in range(TOP + 1):
        if 0xD800 <= c <= 0xDFFF or c == 0x3A3:
            continue
        want = multi.get(c) or (chr(single[c]) if c in single else chr(c))
        if fn(chr(c)) != want:
            wrong.append(f"U+{c:04X}")
    assert not wrong, wrong[:20]
    # lone surrogates are left alone, as V8 leaves them
    assert fn("\ud800x\udfff") == ("\ud800X\udfff" if upper else "\ud800x\udfff")


def test_final_sigma_sets_match_the_probes() -> None:
    cased, ignorable = u17.final_sigma_sets()
    # ICU skips a Case_Ignorable character first, so the cased set it reads is Cased minus those
    effective_cased = _intersect(list(cased), _complement(list(ignorable)))
    _assert_same(effective_cased, _recorded("sigma.cased"), "cased (Final_Sigma)")
    _assert_same(list(ignorable), _recorded("sigma.ignorable"), "case-ignorable (Final_Sigma)")


def test_final_sigma_samples() -> None:
    for item in _vectors()["sigma.samples"].split("\t"):
        source, lower, upper = json.loads(item)
        assert js_lower(source) == lower, source
        assert js_upper(source) == upper, source


@pytest.mark.parametrize(("key", "fn", "strip"), [("trim", js_trim, "both"), ("trimStart", js_trim_start, "start"),
                                                  ("trimEnd", js_trim_end, "end")])
def test_trim_sets_over_every_unit(key: str, fn: object, strip: str) -> None:
    assert callable(fn)
    got = _norm([(c, c) for c in range(0x10000) if fn(chr(c)) == ""])
    _assert_same(got, _recorded(key), key)
    # and only the ends are touched
    assert fn("\u3000a\u3000b\u3000") == {"both": "a\u3000b", "start": "a\u3000b\u3000", "end": "\u3000a\u3000b"}[strip]


def test_group_name_identifier_characters_of_every_code_point() -> None:
    """``is_id_start``/``is_id_part`` (what the V8 parser port asks) hold exactly the recorded sets: the
    sets they are built from equal the recording, and each function agrees with its set at every edge."""
    not_measured = [(0x3E, 0x3E), (0xD800, 0xDFFF)]  # ">" ends a name; the generator skips surrogates
    derived = {
        "id.start": _norm([*u17.property_ranges("", "ID_Start"), (0x24, 0x24), (0x5F, 0x5F)]),
        "id.part": _norm([*u17.property_ranges("", "ID_Continue"), (0x24, 0x24)]),
    }
    for key, fn in (("id.start", u17.is_id_start), ("id.part", u17.is_id_part)):
        ranges = _intersect(derived[key], _complement(_norm(not_measured)))
        _assert_same(ranges, _recorded(key), key)
        edges = {c for lo, hi in [*ranges, *_recorded(key)] for c in (lo - 1, lo, hi, hi + 1)} | set(range(0, TOP, 251))
        for c in sorted(e for e in edges if 0 <= e <= TOP and e != 0x3E):
            assert fn(c) == (not 0xD800 <= c <= 0xDFFF and u17.in_ranges(c, tuple(ranges))), (key, hex(c))


def test_group_names_in_the_parser_at_every_range_edge() -> None:
    """The V8 parser accepts ``(?<X>)`` exactly at the recorded characters (every edge of every range
    of both sets, literal and escaped, with and without ``u``)."""
    for key, prefix in (("id.start", ""), ("id.part", "a")):
        ranges = _recorded(key)
        edges = {c for lo, hi in ranges for c in (lo - 1, lo, hi, hi + 1)}
        for c in sorted(e for e in edges if 0 <= e <= TOP and e != 0x3E and not 0xD800 <= e <= 0xDFFF):
            inside = u17.in_ranges(c, tuple(ranges))
            for source, flags in ((f"(?<{prefix}\\u{{{c:x}}}>)", ""), (f"(?<{prefix}{chr(c)}>)", "u")):
                if c < 0x80 and flags == "u" and chr(c) in "\\>":
                    continue
                accepted = syntax_error(source, flags) is None
                assert accepted == inside, (key, hex(c), flags)


def test_properties_refuse_to_compile_without_u() -> None:
    # without `u`, \p is an identity escape: "p{L}" literally (no table consulted)
    pattern = compile_js("\\p{L}", "")
    assert pattern.test("p{L}") and not pattern.test("A")
    with pytest.raises(JSRegexError):
        compile_js("\\p{Sidt}", "u")


def test_icu_is_really_blocked_when_asked() -> None:
    """``FORGEC_BLOCK_ICU=1`` (tests/conftest.py) makes ``import icu`` fail, as on a machine without
    PyICU; .ci/run runs this module and the regex vectors that way."""
    if os.environ.get("FORGEC_BLOCK_ICU") != "1":
        pytest.skip("PyICU is not blocked in this run")
    with pytest.raises(ImportError):
        import icu  # noqa: F401
