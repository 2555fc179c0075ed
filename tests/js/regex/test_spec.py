"""Spec vectors: import-regex A3/E1 (compile decisions), A5.3–A5.6, B0; compile-core §16.2, §16.3, §16.10."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.js.regex import (
    JSRegexError,
    compile_js,
    expand_js_replacement,
    prepass_dollar_zero,
    transform_string,
)

CAT = "\U0001f63a"


def run(pattern: str, flags: str, text: str, replace: str, **kw: object) -> tuple[str, int]:
    return transform_string(compile_js(pattern, flags), text, replace, **kw)  # type: ignore[arg-type]


def error(pattern: str, flags: str = "") -> str:
    with pytest.raises(JSRegexError) as info:
        compile_js(pattern, flags)
    return str(info.value)


# --- compile-core §16.10: one test per row of the RegExp reason table ------------------------------
REASONS = [
    ("Unterminated group", [("(", ""), ("(?:", ""), ("(?<=a", "")]),
    ("Unterminated character class", [("[", "")]),
    ("Unmatched ')'", [(")", ""), ("a)", "")]),
    ("Nothing to repeat", [("*", ""), ("+a", ""), ("a**", ""), ("a++", ""), ("?", ""), ("{1}", ""),
                           ("^*", ""), ("\\b+", "")]),
    ("Invalid quantifier", [("(?<=a)*", ""), ("(?=a)*", "u")]),
    ("numbers out of order in {} quantifier", [("a{2,1}", "")]),
    ("Range out of order in character class", [("[b-a]", ""), ("[\U0001f600-\U0001f63a]", "")]),
    ("Invalid character class", [("[\\w-a]", "u")]),
    ("Invalid group", [("(?i)a", ""), ("(?P<n>a)", ""), ("(?#c)", ""), ("(?>a)", ""), ("(?", "")]),
    ("Invalid capture group name", [("(?<1>x)", ""), ("(?<a-b>x)", "")]),
    ("Duplicate capture group name", [("(?<a>x)(?<a>y)", ""), ("(?<a>x)|(?<a>y)", "")]),
    ("Invalid named capture referenced", [("\\k<b>(?<a>x)", ""), ("(?<n>a)\\k<x>", ""), ("\\k<a>", "u")]),
    ("Invalid named reference", [("(?<a>x)\\k", ""), ("\\k", "u")]),
    ("\\ at end of pattern", [("\\", ""), ("a\\", "")]),
    ("Invalid property name", [("\\p{Foo}", "u"), ("\\p{L", "u"), ("\\p", "u")]),
    ("Invalid property name in character class", [("[\\p{Foo}]", "u")]),
    ("Invalid escape", [("\\e", "u"), ("\\1", "u"), ("\\x1", "u"), ("\\-", "u")]),
    ("Invalid Unicode escape", [("\\u{110000}", "u"), ("\\u{1", "u"), ("\\c", "u"), ("\\c1", "u")]),
    ("Lone quantifier brackets", [("{", "u"), ("}", "u"), ("]", "u")]),
    ("Incomplete quantifier", [("a{1", "u"), ("a{,5}", "u")]),
    ("Invalid decimal escape", [("\\00", "u")]),
]


@pytest.mark.parametrize(("reason", "examples"), REASONS, ids=[r for r, _ in REASONS])
def test_reason_table_row(reason: str, examples: list[tuple[str, str]]) -> None:
    for pattern, flags in examples:
        assert error(pattern, flags) == f"Invalid regular expression: /{pattern}/{flags}: {reason}"


def test_message_shape_flags_in_gimsu_order_and_source_unescaped() -> None:
    assert error("a/b(", "ig") == "Invalid regular expression: /a/b(/gi: Unterminated group"
    assert error("(\n", "usmig") == "Invalid regular expression: /(\n/gimsu: Unterminated group"


@pytest.mark.parametrize("pattern", ["x{,5}", "a{1", "{", "]", "[]", "[^]", "\\cJ", "\\k<x>", "(?<$x>a)", "\\1",
                                     "\\p{L}", "\\u{2}", "[\\d-z]", "(?<=a+)b", "\\8", "\\c1", "(?=a)*"])
def test_annex_b_forms_accepted_without_u(pattern: str) -> None:
    compile_js(pattern, "")


def test_e1_u_accepts() -> None:
    compile_js("\\p{L}", "u")
    compile_js("[]", "u")
    compile_js("[^]", "u")


def test_invalid_flags() -> None:
    with pytest.raises(JSRegexError):
        compile_js("x", "gg")


def test_pattern_attributes() -> None:
    p = compile_js("(?<n>a)(b)", "ig")
    assert (p.source, p.flags, p.global_, p.group_count, p.group_names) == ("(?<n>a)(b)", "gi", True, 2, {"n": 1})
    assert compile_js("(?<n>a)(b)", "gi") is p  # cached


# --- A5.3 maxChars ---------------------------------------------------------------------------------
def test_max_chars_window() -> None:
    assert run("b", "g", "bbbb", "B", max_chars=2) == ("bbBB", 2)


def test_max_chars_exact_cut_splits_pair() -> None:
    assert run("b", "g", f"x{CAT}b", "B", max_chars=2) == (f"x{CAT}B", 1)
    assert run(".", "g", f"x{CAT}b", "$&", max_chars=2) == (f"x{CAT}b", 2)
    assert run(".", "gu", f"x{CAT}b", "$&", max_chars=2) == (f"x{CAT}b", 2)
    assert run("[^a]", "g", f"x{CAT}b", "-", max_chars=2) == ("x\ud83d--", 2)


# --- A5.4 native replacement -----------------------------------------------------------------------
def test_prepass() -> None:
    assert prepass_dollar_zero("[$0]") == "[$&]"
    assert prepass_dollar_zero("[$$0]") == "[$$0]"
    assert prepass_dollar_zero("$$$0") == "$$$&"
    assert prepass_dollar_zero("$00$01") == "$00$01"
    assert prepass_dollar_zero("$0\u0661") == "$&\u0661"  # only ASCII digits extend a $0
    assert prepass_dollar_zero("$0\n$0") == "$&\n$&"


def _scanned_prepass(template: str) -> str:
    """A5.4 step 1 as the table words it, character by character (the reference for the fast one)."""
    out: list[str] = []
    i, n = 0, len(template)
    while i < n:
        if template.startswith("$$", i):
            out.append("$$")
            i += 2
        elif template.startswith("$0", i) and not (i + 2 < n and "0" <= template[i + 2] <= "9"):
            out.append("$&")
            i += 2
        else:
            out.append(template[i])
            i += 1
    return "".join(out)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="$0019&a<>\u0661\n", max_size=14))
def test_prepass_is_the_character_scan(template: str) -> None:
    assert prepass_dollar_zero(template) == _scanned_prepass(template)
    assert prepass_dollar_zero(template) == _scanned_prepass(template)  # remembered: the same answer


def test_native_token_vector() -> None:
    tpl = "[$1|$2|$3|$10|$01|$00|$0|$&|$$|$`|$'|$<n>]"
    assert run("(a)(b)", "", "xaby", tpl) == ("x[a|b|$3|a0|a|$00|ab|ab|$|x|y|$<n>]y", 1)
    assert run("(a)", "", "a", "$1$2")[0] == "a$2"
    assert run("(a)", "", "a", "$12")[0] == "a2"
    assert run("(?<n>a)(b)", "", "ab", "[$<n>|$<m>|$<n]")[0] == "[a||$<n]"
    assert run("(a)|(b)", "g", "ab", "[$2]")[0] == "[][b]"
    assert run("(a)|b", "g", "ab", "\\n$1")[0] == "\\na\\n"


def test_expand_js_replacement_direct() -> None:
    assert expand_js_replacement("$2-$1-$3", "ab", 1, "xaby", ["a", None]) == "-a-$3"


# --- A5.5 trimStrings ------------------------------------------------------------------------------
def test_trim_vectors() -> None:
    assert run("\\[([^\\]]+)\\]", "g", "Status: [OK]", "**$&**/$1", trim_strings=["[", "]"]) == \
        ("Status: **OK**/OK", 1)
    assert run("X", "", "aXb", "[$0]", trim_strings=["zzz"]) == ("a[X]b", 1)
    tpl = "[$1|$2|$3|$10|$01|$00|$0|$&|$$|$`|$'|$<n>]"
    assert run("(a)(b)", "", "xaby", tpl, trim_strings=["zz"])[0] == "x[a|b|||$01|$00|ab|ab|$|x|y|]y"


# --- A5.6 counting ---------------------------------------------------------------------------------
def test_counting() -> None:
    assert run("x*", "g", "abc", "-") == ("-a-b-c-", 4)
    assert run("a", "g", "aaa", "a") == ("aaa", 3)
    assert run("a", "", "aaa", "b") == ("baa", 1)
    assert run("q", "g", "aaa", "b") == ("aaa", 0)
    assert run("x*", "gu", CAT, "-") == (f"-{CAT}-", 2)  # the reference hangs here; forgec terminates


# --- B0 / §16.2 ------------------------------------------------------------------------------------
def test_utf16_units_without_u() -> None:
    assert run(".", "g", f"a{CAT}b", "$&")[1] == 4
    assert run(".", "gu", f"a{CAT}b", "$&")[1] == 3
    assert run("[^a]", "g", f"a{CAT}b", "-")[0] == "a---"
    assert run("[^a]", "gu", f"a{CAT}b", "-")[0] == "a--"
    assert run("x*", "g", CAT, "-")[0] == "-\ud83d-\ude3a-"
    assert run("(?:)", "g", CAT + "b", "|")[0] == "|\ud83d|\ude3a|b|"
    assert run("(?:)", "gu", "a" + CAT, "|")[0] == f"|a|{CAT}|"
    assert run("^..$", "", CAT, "X")[1] == 1
    assert run("^.$", "", CAT, "X")[1] == 0
    assert run("\\ude3a", "u", CAT, "X")[1] == 0
    assert run("^[\\ud83d\\ude3a]$", "u", CAT, "X")[1] == 1
    assert run("^[\\ud83d\\ude3a]$", "", CAT, "X")[1] == 0


@pytest.mark.parametrize(("p", "flags", "text", "hit"), [
    ("s", "i", "\u017f", 0), ("s", "iu", "\u017f", 1), ("k", "i", "\u212a", 0), ("k", "iu", "\u212a", 1),
    ("\u00df", "i", "\u1e9e", 0), ("\u00df", "iu", "\u1e9e", 1), ("\u03c3", "i", "\u03c2", 1),
    ("\u00b5", "i", "\u039c", 1), ("I", "iu", "\u0131", 0), ("\u00df", "iu", "ss", 0),
    ("[a-z]", "i", "\u212a", 0), ("[^k]", "i", "\u212a", 1), ("\U00010428", "i", "\U00010400", 0),
    ("\U00010428", "iu", "\U00010400", 1),
])
def test_case_insensitive(p: str, flags: str, text: str, hit: int) -> None:
    assert run(p, flags, text, "X")[1] == hit


def test_class_escapes_dot_anchors() -> None:
    assert run("\\d", "g", "1\u0663", "X")[1] == 1
    assert run("\\bé", "g", "é é", "X")[1] == 0
    assert run("a\\b", "i", "a\u017f", "X")[1] == 1
    assert run("a\\b", "iu", "a\u017f", "X")[1] == 0
    assert run("\\W", "giu", "S\u017f", "X")[1] == 0
    assert run("\\s", "g", "\ufeff\u00a0\x1c\x85\u180e", "X")[1] == 2
    assert run("a.b", "", "a\rb", "X")[1] == 0
    assert run("foo$", "", "foo\n", "X")[1] == 0
    assert run("^b", "gm", "a\rb\u2028b\u0085b", "X")[1] == 2


def test_captures_reset_and_backreferences() -> None:
    assert run("(?:(a)|b)+", "", "ab", "[$1]")[0] == "[]"
    assert run("(?:(a)|(b))+", "", "ab", "[$1|$2]")[0] == "[|b]"
    assert run("(a|(b))+", "", "ba", "[$1|$2]")[0] == "[a|]"
    assert run("(z)((a+)?(b+)?(c))*", "", "zaacbbbcac", "$1,$2,$3,$4,$5")[0] == "z,ac,a,,c"
    assert compile_js("(a*)*", "").search("b").group(1) is None  # type: ignore[union-attr]
    assert compile_js("(a*)+", "").search("b").group(1) == ""  # type: ignore[union-attr]
    assert run("(a)?b\\1", "", "b", "X")[1] == 1
    assert run("\\1(a)", "", "aa", "[$&]")[0] == "[a]a"
    assert run("(?<=(\\d+)(\\d+))$", "", "1053", "[$1|$2]")[0] == "1053[1|053]"
    assert run("(?<=\\1(a))b", "", "aab", "X")[1] == 1


def test_annex_b_meanings() -> None:
    assert run("\\k<x>", "", "k<x>", "X")[0] == "X"
    assert run("\\1", "", "\x01", "X")[0] == "X"
    assert run("\\8", "", "8", "X")[0] == "X"
    assert run("\\c1", "", "\\c1", "X")[0] == "X"
    assert run("[]a]", "", "]a]", "X")[1] == 0
    assert run("x{,5}", "", "x{,5}", "X")[0] == "X"
    assert run("^\\u{2}$", "", "uu", "X")[0] == "X"
