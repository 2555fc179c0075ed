"""SillyTavern regex scripts, classification and conversion (import-regex.md C9, E1, E10, E11, E15d, E17).

Expected values are the spec's verified examples.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.importers.sillytavern.regex_scripts import parse_find_regex, summarize


def one(**script: Any) -> Any:
    summary = summarize({"regex_scripts": [{"promptOnly": True, "findRegex": "x", **script}]})
    assert summary is not None
    return summary.scripts[0]


def meta(script: Any) -> dict[str, Any]:
    return script.rule["source"]["sillytavern"]


# --- Parsing findRegex ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("find", "outcome"),
    [
        ("/api", "could not parse regex literal"),  # a bare pattern that starts with / is rejected too
        ("/", "could not parse regex literal"),
        ("//", "empty regex pattern"),
        ("/a\\\\/g", ("a\\\\", "g")),  # even number of backslashes: the slash closes
        ("/a/b/c/gi", ("a/b/c", "gi")),  # the last unescaped slash closes
        ("/<\\/summary>/s", ("<\\/summary>", "s")),
        ("  /x/g  ", ("x", "g")),
        ("  a b  ", ("a b", "")),  # leading/trailing spaces of a bare pattern are lost
        ("/x/", ("x", "")),
        ("/x/gimsu", ("x", "gimsu")),
        ("/x/ig", ("x", "ig")),
        ("/x/gg", "duplicate regex flag: g"),
        ("/x/igI", "unsupported regex flag: I"),
        ("/x/d", "unsupported regex flag: d"),
        ("/x/v", "unsupported regex flag: v"),
    ],
)
def test_parse(find: str, outcome: Any) -> None:
    assert parse_find_regex(find) == outcome


@pytest.mark.parametrize(
    ("pattern", "flags", "reason"),
    [
        ("(?i)x", "", "Invalid group"),
        ("a++", "", "Nothing to repeat"),
        ("(?P<n>x)", "", "Invalid group"),
        ("(?#c)", "", "Invalid group"),
        ("(?i:a)", "", "Invalid group"),
        ("(?<a>x)|(?<a>y)", "", "Duplicate capture group name"),
        ("(?<n>a)\\k<x>", "", "Invalid named capture referenced"),
        ("x\\", "", "\\ at end of pattern"),
        ("\\p{Foo}", "u", "Invalid property name"),
        ("\\-", "u", "Invalid escape"),
        ("[\\d-z]", "u", "Invalid character class"),
        ("(", "ig", "Unterminated group"),
    ],
)
def test_rejected_by_javascript(pattern: str, flags: str, reason: str) -> None:
    # E1: "Everything up to and including `/<flags>: ` is exact"; flags print in the order gimsu
    find = f"/{pattern}/{flags}" if flags else pattern
    ordered = "".join(f for f in "gimsu" if f in flags)
    assert parse_find_regex(find) == (
        f"regex failed to compile: Invalid regular expression: /{pattern}/{ordered}: {reason}"
    )


@pytest.mark.parametrize(
    "find",
    ["x{,5}", "a{1", "{", "]", "[]", "[^]", "\\cJ", "\\k<x>", "(?<$x>a)", "\\1", "\\p{L}", "\\u{2}", "[\\d-z]",
     "(?<=a+)b", "/\\p{L}/u", "/" + "(" * 300 + "a" + ")" * 300 + "/"],
)  # fmt: skip
def test_accepted_by_javascript(find: str) -> None:
    assert isinstance(parse_find_regex(find), tuple)


def test_compile_message_keeps_slashes_and_line_breaks() -> None:
    # E1: `a/b(` prints as `/a/b(/`; a line break stays a line break
    assert parse_find_regex("/a/b(/") == "regex failed to compile: Invalid regular expression: /a/b(/: Unterminated group"
    assert parse_find_regex("/a\nb(/") == "regex failed to compile: Invalid regular expression: /a\nb(/: Unterminated group"


# --- Classification and the rule object (E10) ----------------------------------------------------------


def test_replacement_rewrites() -> None:
    script = one(replaceString="$0 {{ MATCH }} $$0 $01 $00")
    assert script.rule["replace"] == "$& $& $$& $01 $00"
    assert script.warnings == [
        "converted SillyTavern {{match}} to JavaScript $&",
        "converted SillyTavern-style $0 full match to JavaScript $&",
    ]
    assert meta(script)["replaceString"] == "$0 {{ MATCH }} $$0 $01 $00"


@pytest.mark.parametrize("value", ["   ", 5, None, ["a"]])
def test_blank_or_non_string_replacement_is_empty(value: Any) -> None:
    script = one(replaceString=value)
    assert script.rule["replace"] == "" and meta(script)["replaceString"] == "" and script.warnings == []


def test_find_regex_metadata_is_raw_and_flags_only_when_non_empty() -> None:
    script = one(findRegex="  /x/  ")
    assert meta(script)["findRegex"] == "  /x/  "
    assert script.rule["pattern"] == "x" and "flags" not in script.rule


def test_depth_examples() -> None:
    script = one(minDepth="3", maxDepth="-1")
    assert meta(script)["minDepth"] == 3 and script.rule["minDepth"] == 3
    assert "maxDepth" not in meta(script) and "maxDepth" not in script.rule
    script = one(minDepth=True, maxDepth=False)  # no ordering check
    assert (script.rule["minDepth"], script.rule["maxDepth"]) == (1, 0)
    assert (meta(script)["minDepth"], meta(script)["maxDepth"]) == (1, 0)
    script = one(minDepth=-1, maxDepth="0x10")
    assert meta(script)["minDepth"] == -1 and "minDepth" not in script.rule and script.rule["maxDepth"] == 16
    script = one(minDepth=-2, maxDepth=None)
    assert "minDepth" not in meta(script) and "maxDepth" not in meta(script)
    assert list(meta(script)) == ["scriptName", "findRegex", "replaceString", "trimStrings", "placement",
                                  "placementNames", "promptOnly", "markdownOnly", "substituteRegex"]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "stored", "warns"),
    [(True, 1, True), (0.5, 0.5, True), ("x", 0, False), (None, 0, False), (0, 0, False), (" 2 ", 2, True),
     (False, 0, False)],
)  # fmt: skip
def test_substitute_regex(value: Any, stored: Any, warns: bool) -> None:
    script = one(substituteRegex=value)
    assert meta(script)["substituteRegex"] == stored
    assert (
        "substituteRegex is preserved as metadata but dynamic find-regex macro substitution is not executed"
        in script.warnings
    ) == warns


def test_non_array_placement_gives_no_roles() -> None:
    script = one(placement="2")
    assert meta(script)["placement"] == [] and meta(script)["placementNames"] == []
    assert "roles" not in script.rule


def test_placement_without_usable_values_is_absent() -> None:
    script = one(placement=["abc", None, ""])
    assert script.rule is not None and "roles" not in script.rule and meta(script)["placement"] == []


def test_placement_examples() -> None:
    script = one(placement=["2", True, 6, "abc", None, 9], substituteRegex=True)
    assert meta(script)["placement"] == [2, 1, 6, 9]
    assert script.rule["roles"] == ["user", "assistant"]
    assert script.warnings == [
        "reasoning placement is preserved as metadata; use stripAssistantThinking or manual rules for thinking content",
        "substituteRegex is preserved as metadata but dynamic find-regex macro substitution is not executed",
        "placement Reasoning (6) is preserved as metadata but not directly mapped",
        "placement unknown (9) is preserved as metadata but not directly mapped",
    ]
    labels = one(placement=[0, 1, 2, 3, 5, 6, 4, -1, 1e21]).rule["source"]["sillytavern"]["placementNames"]
    assert labels == ["MD Display (0)", "User Input (1)", "AI Output (2)", "Slash Commands (3)", "World Info (5)",
                      "Reasoning (6)", "unknown (4)", "unknown (-1)", "unknown (1e+21)"]  # fmt: skip


@pytest.mark.parametrize("placement", [[5], [0, 3, 6], ["3"]])
def test_placement_without_user_or_ai_output_is_not_converted(placement: list[Any]) -> None:
    script = one(placement=placement)
    assert script.rule is None and script.note == "placement has no pi-forge runtime mapping"
    assert script.warnings == []  # E15e: a script gets either a note or warnings


def test_trim_strings_on_rule_only_when_non_empty() -> None:
    assert "trimStrings" not in one(trimStrings=["", 5]).rule
    assert one(trimStrings="a\r\n\r\nb").rule["trimStrings"] == ["a", "b"]
    assert meta(one(trimStrings=5))["trimStrings"] == []


def test_names_and_ids() -> None:
    summary = summarize({"regex_scripts": [
        {"promptOnly": True, "findRegex": "x", "scriptName": "!!!"},
        {"promptOnly": True, "findRegex": "x", "scriptName": "!!!"},
        {"promptOnly": True, "findRegex": "x", "script_name": "", "scriptName": "  ", "name": "Fallback"},
        {"promptOnly": True, "findRegex": "x", "script_name": 5, "scriptName": " Spaced Name "},
        {"promptOnly": True, "findRegex": "x", "scriptName": "Prompt Cleaner"},
        {"promptOnly": True, "findRegex": "x", "scriptName": "Disabled Script", "disabled": True},
    ]})  # fmt: skip
    assert summary is not None
    assert [(s.name, s.rule_id) for s in summary.scripts] == [
        ("!!!", "st"), ("!!!", "st-2"), ("Fallback", "st-fallback"), (" Spaced Name ", "st-spaced-name"),
        ("Prompt Cleaner", "st-prompt-cleaner"), ("Disabled Script", "st-disabled-script"),
    ]  # fmt: skip
    assert summary.scripts[3].rule["name"] == " Spaced Name "  # the untrimmed value
    assert summary.scripts[5].rule["enabled"] is False
    assert "targets" not in summary.scripts[0].rule


def test_ids_skip_to_first_free_suffix() -> None:
    summary = summarize({"regex_scripts": [
        {"promptOnly": True, "findRegex": "x", "scriptName": "a-2"},
        {"promptOnly": True, "findRegex": "x", "scriptName": "a"},
        {"promptOnly": True, "findRegex": "x", "scriptName": "A"},
    ]})  # fmt: skip
    assert summary is not None
    assert [s.rule_id for s in summary.scripts] == ["st-a-2", "st-a", "st-a-3"]


def test_notes_do_not_consume_ids() -> None:
    summary = summarize({"regex_scripts": [
        {"findRegex": "x", "scriptName": "A"},
        {"promptOnly": True, "findRegex": "x", "scriptName": "A"},
    ]})  # fmt: skip
    assert summary is not None
    assert [s.converted_cell for s in summary.scripts] == ["not prompt-only", "yes: st-a"]


def test_counters() -> None:
    summary = summarize({"regex_scripts": [
        {"promptOnly": True, "markdownOnly": True, "findRegex": "x"},
        {"promptOnly": True, "findRegex": "x"},
        {"markdownOnly": True, "findRegex": "x"},
        {"findRegex": "x"},
        {"findRegex": "x", "disabled": True, "promptOnly": True},
        {"findRegex": "x", "disabled": 1},
        None,
    ]})  # fmt: skip
    assert summary is not None
    counts = (summary.total, summary.enabled, summary.disabled, summary.prompt_only, summary.markdown_only,
              summary.mixed, summary.unspecified, summary.converted)  # fmt: skip
    assert counts == (6, 5, 1, 1, 1, 1, 2, 2)
    assert [s.mode for s in summary.scripts] == [
        "prompt+markdown", "prompt-only", "markdown-only", "unspecified", "disabled", "unspecified"
    ]  # fmt: skip


def test_raw_index_names_after_dropped_elements() -> None:
    # E17: `[null, {findRegex: "x", promptOnly: true}]` gives the script `regex-2` and the rule `st-regex-2`
    summary = summarize({"regex_scripts": [None, {"findRegex": "x", "promptOnly": True}]})
    assert summary is not None
    assert (summary.scripts[0].name, summary.scripts[0].rule_id, summary.total) == ("regex-2", "st-regex-2", 1)
