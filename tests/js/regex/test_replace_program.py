"""Templates read once (``replace.js_program``/``trim_program``, run by ``pattern._run_program``) expand
exactly as the per-match expanders (``expand_js_replacement`` after the ``$0`` pre-pass, and
``expand_trim_replacement``) on random templates, patterns and texts, and the rule transform gives what
splicing each match's expansion gives."""

from __future__ import annotations

import random

import pytest

from forgec.js.regex import compile_js, transform_prefiltered
from forgec.js.regex.pattern import JSMatch, _expander, _joined, _splice

PIECES = ["$", "$", "$", "&", "`", "'", "0", "1", "2", "9", "<", ">", "d", "a", "nope", "x", "$0", "$$", "$<d>",
          "$<a>", "$1", "$10", "$01", "$00", "$2", "$<", "$>", "é", "\ud83d", "]"]  # fmt: skip
PATTERNS = [
    ("b", "g"),
    ("(b)", "g"),
    ("(?<d>b)(c)?", "g"),
    ("(?<a>b)|(?<d>c)", "g"),
    ("(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", ""),
    ("(?:(b)|c)+", "g"),
    ("x*", "g"),
    ("(?<a>[bc])\\k<a>", "gi"),
    ("\\[(?<inner>[^\\]]+)\\]", "g"),
    ("(\ud83d\ude3a|b)", "gu"),
]
TEXTS = ["abcbcd", "bbccbcdefghijkl", "[OK] [W] b", "", "b\ud83d\ude3a c", "xxb", "BcCb"]
TRIMS = [None, [], ["b"], ["[", "]", ""], ["c", "b"]]


def _reference(pattern_source: str, flags: str, text: str, template: str, trims: list[str] | None) -> tuple[str, int]:
    """The transform as it was: every match a :class:`JSMatch`, expanded by :func:`_expander`."""
    pattern = compile_js(pattern_source, flags)
    view = pattern.view(text)
    found = pattern._scan(view, 10.0)
    if not found:
        return text, 0
    result = _joined(_splice(view, [JSMatch(pattern, m, view) for m in found], _expander(pattern, view, template, trims)))
    if result == text or result == _joined(text):
        return text, len(found)
    return result, len(found)


@pytest.mark.parametrize("seed", range(6))
def test_programs_expand_as_the_expanders(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(400):
        template = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 9)))
        if "$" not in template:
            template += "$" + rng.choice(PIECES)
        source, flags = rng.choice(PATTERNS)
        text = rng.choice(TEXTS)
        trims = rng.choice(TRIMS)
        pattern = compile_js(source, flags)
        got = transform_prefiltered(pattern, text, template, trim_strings=trims, timeout=10.0)
        assert got == _reference(source, flags, text, template, trims), (source, flags, text, template, trims)
        again = transform_prefiltered(pattern, text, template, trim_strings=trims, timeout=10.0)  # the kept program
        assert again == got
        checked += got[1] > 0
    assert checked > 100


@pytest.mark.parametrize(  # the expected texts are the base tree's (stop 26), by the expanders
    ("template", "trims", "expected"),
    [
        ("<$&|$0|$1|$<inner>|$$|$`|$'|$10|$2|$<missing>|$>", ["[", "]", ""],
         "Status: <OK|OK|OK|OK|$|Status: | then [W].||||$> then <W|W|W|W|$|Status: [OK] then |.||||$>."),
        ("<$&|$0|$1|$<inner>|$$|$`|$'|$10|$2|$<missing>|$>", None,
         "Status: <[OK]|[OK]|OK|OK|$|Status: | then [W].|OK0|$2||$> then <[W]|[W]|W|W|$|Status: [OK] then |.|W0|$2||$>."),
    ],
)
def test_the_corpus_template(template: str, trims: list[str] | None, expected: str) -> None:
    pattern = compile_js("\\[(?<inner>[^\\]]+)\\]", "g")
    text = "Status: [OK] then [W]."
    assert transform_prefiltered(pattern, text, template, trim_strings=trims) == (expected, 2)
    assert _reference(pattern.source, "g", text, template, trims) == (expected, 2)


def test_a_pattern_forgets_its_programs_past_the_limit() -> None:
    from forgec.js.regex import pattern as engine

    pattern = compile_js("(b)", "g")
    for n in range(engine._PROGRAMS_KEPT + 5):
        assert transform_prefiltered(pattern, "abc", f"[$1{n}]") == (f"a[b{n}]c", 1)
    assert len(pattern._js_programs) <= engine._PROGRAMS_KEPT


def test_plain_group_values_equal_the_general_loop_on_every_node_vector() -> None:
    """``_group_values`` reads the captures of a pattern that never resets one from ``m.regs`` by group
    number (``_plain_groups``): the same values as the loop by name, on every Node vector."""
    import json
    from pathlib import Path

    from forgec.js.regex import JSRegexError

    here = Path(__file__).parent
    vectors = [v for name in ("vectors.json", "capture_vectors.json")
               for v in json.loads((here / name).read_text(encoding="utf-8")) if "text" in v]  # fmt: skip
    plain = general = 0
    for v in vectors:
        try:
            pattern = compile_js(v["pattern"], v["flags"])
        except JSRegexError:
            continue
        if not pattern.group_count:
            continue
        view = pattern.view(v["text"])
        found = pattern._scan(view, 10.0)
        numbers = pattern._plain_groups
        fast = [pattern._group_values(m, view) for m in found]
        pattern._plain_groups = None
        try:
            slow = [pattern._group_values(m, view) for m in found]
        finally:
            pattern._plain_groups = numbers
        assert fast == slow, (v["pattern"], v["flags"], v["text"])
        plain += numbers is not None and bool(found)
        general += numbers is None
    assert plain > 50 and general > 5
