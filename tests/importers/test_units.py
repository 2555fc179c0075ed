"""Behaviours import-regex.md verified against pi-forge with synthetic presets (C4-C10, E2-E18)."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.importers.sillytavern import convert_preset, import_preset, iso_timestamp
from forgec.importers.sillytavern.preset import file_name_of, stack_id_of
from forgec.importers.sillytavern.regex_scripts import parse_find_regex, summarize
from forgec.importers.sillytavern.report import cell


def preset(prompts: list[Any], order: list[Any], **extra: Any) -> dict[str, Any]:
    return {"prompts": prompts, "prompt_order": [{"character_id": 1, "order": order}], **extra}


def block(identifier: Any, content: Any, role: Any = "system", **extra: Any) -> dict[str, Any]:
    return {"identifier": identifier, "name": str(identifier), "role": role, "content": content, **extra}


def run(raw: Any, character_id: Any = None, name: str = "p.json") -> Any:
    return import_preset(raw, character_id, file_name=name, now_ms=0)


def entry(identifier: Any, enabled: Any = True) -> dict[str, Any]:
    return {"identifier": identifier, "enabled": enabled}


# --- C8 names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "file_name"),
    [("/a/b/My Preset.JSON", "My Preset"), ("x.json.json", "x.json"), (".json", "imported"), ("dir/", "dir")],
)
def test_file_name(source: str, file_name: str) -> None:
    assert file_name_of(source) == file_name


@pytest.mark.parametrize(
    ("file_name", "stack_id"),
    [("Uploaded Writer", "uploaded-writer"), ("x.json", "x-json"), ("--A__b--", "a__b"), ("Ünïcode 名前", "n-code"),
     ("【明月秋青】", "imported"), ("TGbreak😺V3.1.1", "tgbreak-v3-1-1")],
)  # fmt: skip
def test_stack_id(file_name: str, stack_id: str) -> None:
    assert stack_id_of(file_name) == stack_id


def test_file_name_with_trailing_newline_keeps_json() -> None:
    # JavaScript's `$` does not match before a final newline (E13).
    assert file_name_of("x.json\n") == "x.json\n"


def test_uploaded_writer() -> None:
    raw = preset([block("main", "Hi")], [entry("main")], preset_name="Writer")
    result = convert_preset(raw, "Uploaded Writer.json", character_id=1, now_ms=0)
    assert result.stack["id"] == "uploaded-writer"
    assert result.stack["name"] == "Writer"
    assert result.stack["import"]["sourceFile"] == "Uploaded Writer"
    assert "- **Source file**: Uploaded Writer.json" in result.report


def test_blank_preset_name_still_names_the_stack() -> None:
    raw = preset([block("main", "Hi")], [entry("main")], preset_name="  ", name="Other")
    result = convert_preset(raw, character_id=1, now_ms=0)
    assert result.stack["name"] == "  "
    assert result.stack["import"]["sourceFile"] == "Other"


def test_converted_at() -> None:
    assert iso_timestamp(1773476813999) == "2026-03-14T08:26:53.999Z"
    assert iso_timestamp(0) == "1970-01-01T00:00:00.000Z"


def test_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1773476813")
    result = import_preset(preset([block("main", "Hi")], [entry("main")]), 1)
    assert result.stack["import"]["convertedAt"] == "2026-03-14T08:26:53.000Z"


# --- C4 / E3 / E4 selection and malformed shapes ---------------------------------------------------


def test_two_orders() -> None:
    raw = {
        "prompts": [block("a", "A"), block("b", "B")],
        "prompt_order": [
            {"character_id": 1, "order": [entry("a")]},
            {"character_id": 2, "order": [entry("a"), entry("b")]},
        ],
    }
    assert len(run(raw, 1).stack["items"]) == 1
    assert len(run(raw, 2).stack["items"]) == 2
    assert run(raw).error == "Multiple character configs found: [1, 2]. Choose a character_id and retry."
    assert run(raw, 3).error == "Multiple character configs found: [1, 2]. Choose a character_id and retry."


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ([], "Preset root must be a JSON object."),
        ({"prompt_order": []}, "Preset has no prompts array."),
        ({"prompts": [], "prompt_order": []}, "Preset has no prompts array."),
        ({"prompts": "", "prompt_order": []}, "Preset has no prompts array."),
        ({"prompts": [block("a", "x")]}, "Preset has no prompt_order entries. Choose a character_id and retry."),
        ({"prompts": 5, "prompt_order": []}, "Preset has no prompt_order entries. Choose a character_id and retry."),
        ({"prompts": 5, "prompt_order": [{"order": []}]}, "Preset prompts must be an array."),
        ({"prompts": [None], "prompt_order": [{"order": []}]}, "Preset prompts[0] is null."),
        ({"prompts": [1], "prompt_order": [None]}, "Preset prompt_order[0] is null."),
        ({"prompts": [1], "prompt_order": [{}, None]}, "Preset prompt_order[1] is null."),
        ({"prompts": [1], "prompt_order": [0]}, "Multiple character configs found: []. Choose a character_id and retry."),
        ({"prompts": [1], "prompt_order": [False, ""]},
         "Multiple character configs found: [, ]. Choose a character_id and retry."),
        ({"prompts": [1], "prompt_order": {"a": 1}}, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": [{"order": 5}]}, "Preset prompt_order[0].order must be an array."),
        ({"prompts": [1], "prompt_order": [{"order": [None]}]}, "Preset prompt_order[0].order[0] is null."),
        (preset([block("a", 5)], [entry("a")]), "Preset prompts[0].content must be a string."),
        (preset([block("a", 0)], [entry("a")]), "Preset prompts[0].content must be a string."),
        (preset([block("a", "x", role=3)], [entry("a")]), "Preset prompts[0].role must be a string."),
        # a content problem in a later item is reported before a role problem in an earlier one
        (preset([block("a", "x", role=3), block("b", [1])], [entry("a"), entry("b")]),
         "Preset prompts[1].content must be a string."),
    ],
)  # fmt: skip
def test_errors(raw: Any, error: str) -> None:
    assert run(raw).error == error


def test_null_after_match_is_harmless() -> None:
    raw = {"prompts": [block("a", "x")], "prompt_order": [{"character_id": 1, "order": [entry("a")]}, None]}
    assert run(raw, 1).error is None


def test_one_entry_array_like_prompt_order() -> None:
    raw = {
        "prompts": [block("a", "x")],
        "prompt_order": {"length": 1, "0": {"character_id": 7, "order": [entry("a")]}},
    }
    assert run(raw).stack["import"]["characterId"] == 7
    one_char = run({"prompts": [block("a", "x")], "prompt_order": "x"})
    assert "- **Character ID**: undefined" in one_char.report
    assert "characterId" not in one_char.stack["import"]


def test_string_character_id_selected_directly_and_as_sole_entry() -> None:
    raw = {"prompts": [block("a", "x")], "prompt_order": [{"character_id": "100000", "order": [entry("a")]}]}
    assert run(raw).stack["import"]["characterId"] == "100000"
    assert run(raw, "100000").error is None
    assert (
        run(raw, 100000).error
        == "Multiple character configs found: [100000]. Choose a character_id and retry."
    )


def test_string_prompts_and_order_walk_by_code_point() -> None:
    result = run({"prompts": "😀a", "prompt_order": [{"character_id": 1, "order": "😀a"}]}, 1)
    assert "- **Total prompts in source**: 3" in result.report
    assert "- **Items in prompt_order**: 3" in result.report
    # each prompt character is stored under the absent key; the order entries find it
    assert result.error is None


# --- C5 / E7 / E14 prompt map ----------------------------------------------------------------------


def test_map_keys_are_javascript_values() -> None:
    raw = preset([{"identifier": 1, "role": "system", "content": "one"}], [entry("1"), entry(1), entry(True)])
    result = run(raw, 1)
    assert [i["content"] for i in result.stack["items"]] == ["one"]
    assert "- `1` (referenced in prompt_order but not found in prompts)" in result.report
    assert "- `true` (referenced in prompt_order but not found in prompts)" in result.report


def test_last_duplicate_wins_and_order_index_counts_found_entries() -> None:
    raw = preset(
        [block("a", "first"), block("a", "second", role="user"), block("b", "B")],
        [entry("zz"), entry("a"), entry("yy"), entry("b"), entry("a", False)],
    )
    result = run(raw, 1)
    items = result.stack["items"]
    assert [i["id"] for i in items] == ["1", "2", "3"]
    assert [i["source"]["orderIndex"] for i in items] == [0, 1, 2]
    assert items[0]["role"] == "user" and items[0]["content"] == "second"
    assert "- **Items in prompt_order**: 5" in result.report
    assert "| 3 | a | a | 3 | user | ✗ | block |" in result.report


def test_no_identifier_on_both_sides() -> None:
    result = run(preset([{"role": "system", "content": "x", "name": "N"}], [{"enabled": True}]), 1)
    assert "previousId" not in result.stack["items"][0]["source"]
    assert "| 1 | — | N | 1 | system | ✓ | block |" in result.report


# --- C6 / E6 / E9 / E12 items ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "cleaned", "comments", "trims"),
    [
        ("{{// x {{trim}} }}keep", "}}keep", 1, 1),
        ("{{trim}}{{// c }}keep", "keep", 1, 1),
        ("{{{{// c}}trim}}keep", "keep", 1, 0),
        ("{{tr{{//c}}im}}k", "k", 1, 0),
        ("{{ TRIM }}a{{//c}}\n\n\n\nb", "a\n\nb", 1, 1),
    ],
)
def test_comment_and_trim_removal(content: str, cleaned: str, comments: int, trims: int) -> None:
    result = run(preset([block("a", content)], [entry("a")]), 1)
    assert result.stack["items"][0]["content"] == cleaned
    if comments:
        assert f"- **Comments stripped**: {comments} ST comment blocks removed" in result.report
    if trims:
        assert f"- **Trim markers removed**: {trims} {{{{trim}}}} markers" in result.report
    else:
        assert "Trim markers removed" not in result.report


def test_crlf_runs_are_kept_and_js_trim() -> None:
    result = run(preset([block("a", "\ufeffx\r\n\r\n\r\n\r\ny\n\n\n\nz\x1c")], [entry("a")]), 1)
    assert result.stack["items"][0]["content"] == "x\r\n\r\n\r\n\r\ny\n\nz\x1c"


def test_enabled_values_and_counts() -> None:
    prompts = [block(n, n) for n in "abcdef"] + [{"identifier": "chatHistory", "marker": True}]
    order = [{"identifier": "a"}, entry("b", None), entry("c", 0), entry("d", ""), entry("e", False), entry("f", "no"),
             entry("chatHistory", 0)]  # fmt: skip
    result = run(preset(prompts, order), 1)
    assert "- 5 items disabled in prompt_order" in result.report
    assert [i.get("enabled", "absent") for i in result.stack["items"]] == [
        "absent",
        None,
        0,
        "",
        False,
        "no",
        0,
    ]
    assert result.report.count("| ✗ |") == 1
    assert result.stack["items"][-1]["name"] == "Chat History"


def test_markers() -> None:
    prompts = [
        {"identifier": i, "marker": True, "name": i} for i in ("worldInfoBefore", "custom", "chatHistory")
    ]
    result = run(preset(prompts, [entry("worldInfoBefore"), entry("custom"), entry("chatHistory")]), 1)
    assert result.stack["items"] == [
        {"kind": "slot", "id": "3", "name": "chatHistory", "enabled": True, "slot": "chat-history",
         "source": {"previousId": "chatHistory", "name": "chatHistory"}}
    ]  # fmt: skip
    assert "- 1 marker items" in result.report


def test_roles() -> None:
    prompts = [block("a", "x", role=" User "), block("b", "y", role="tool"), block("c", "z", role="")]
    result = run(preset(prompts, [entry("a"), entry("b"), entry("c")]), 1)
    assert [i["role"] for i in result.stack["items"]] == ["user"]
    assert "- 2 items with empty or missing content" in result.report


# --- E5 / E13 lastUserMessage ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "option", "handled"),
    [
        ("x {{ lastUserMessage }}", True, False),
        ("{{\u00a0lastUserMessage}}", True, False),
        ("{{\ufefflastUserMessage}}", True, False),
        ("{{\x1clastUserMessage}}", False, False),
        ("x {{lastUserMessage-x}}", True, False),
        ("{{LASTUSERMESSAGE}}", True, True),
        ("{{lastUserMessageé}}", True, True),
        ("{{lastUserMessage_x}}", False, False),
        ("{{laſtUserMessage}}", False, False),
        ("{{// see {{lastUserMessage}} }} keep", False, False),
    ],
)
def test_last_user_message(content: str, option: bool, handled: bool) -> None:
    prompts = [block("a", content), {"identifier": "chatHistory", "marker": True}]
    result = run(preset(prompts, [entry("chatHistory"), entry("a")]), 1)
    slot = result.stack["items"][0]
    assert ("options" in slot) == option
    assert ("Auto-detected `{{lastUserMessage}}`" in result.report) == option
    assert ("`{{lastUserMessage}}` → handled by pi-forge runtime" in result.report) == handled


def test_last_user_message_in_marker_and_role_less_item() -> None:
    prompts = [block("t", "{{lastUserMessage}}", role="tool"), {"identifier": "chatHistory", "marker": True}]
    assert run(preset(prompts, [entry("chatHistory"), entry("t")]), 1).stack["items"][0]["options"] == {
        "includeLastUserMessage": False
    }


def test_kelvin_sign_is_not_pick() -> None:
    result = run(
        preset([block("a", "{{pic\u212a}} {{random}}{{pick}}{{pick}}{{if}}{{if}}{{random}}")], [entry("a")]),
        1,
    )
    assert "- **`{{random}}`** (2 occurrences)" in result.report
    lines = [line for line in result.report.splitlines() if line.startswith("- **`{{")]
    assert [line.split("`")[1] for line in lines] == ["{{random}}", "{{pick}}", "{{if}}"]


def test_constructor_is_an_ordinary_name() -> None:
    result = run(preset([block("a", "{{constructor}}{{__proto__}}")], [entry("a")]), 1)
    assert "Macros needing manual migration" not in result.report


# --- C9 / E10 / E11 / E17 regex scripts ------------------------------------------------------------


def scripts(*items: Any) -> dict[str, Any]:
    return {"regex_scripts": list(items)}


@pytest.mark.parametrize(
    ("find", "outcome"),
    [
        ("/x/ggy", "duplicate regex flag: g"),
        ("/x/yg", "unsupported regex flag: y"),
        ("/x/Gg", "unsupported regex flag: G"),
        ("/x/😀", "unsupported regex flag: 😀"),
        ("/x/gimsu", ("x", "gimsu")),
        ("/abc", "could not parse regex literal"),
        ("/a\\/", "could not parse regex literal"),
        ("//g", "empty regex pattern"),
        ("/<\\/loom_record>/s", ("<\\/loom_record>", "s")),
        ("  [\\s\\S]*  ", ("[\\s\\S]*", "")),
        ("/(/g", "regex failed to compile: Invalid regular expression: /(/g: Unterminated group"),
    ],
)
def test_parse_find_regex(find: str, outcome: Any) -> None:
    assert parse_find_regex(find) == outcome


def test_classification_example() -> None:
    summary = summarize(
        scripts(
            {"scriptName": "S", "findRegex": "/\\[([^\\]]+)\\]/g", "replaceString": "**{{match}}**/$0/$1",
             "trimStrings": ["[", "]"], "placement": [1, 2, 6], "minDepth": 0, "maxDepth": 4, "substituteRegex": 1,
             "promptOnly": True},
        )
    )  # fmt: skip
    rule = summary.rules[0]
    assert rule["replace"] == "**$&**/$&/$1"
    assert rule["roles"] == ["user", "assistant"]
    assert (rule["minDepth"], rule["maxDepth"], rule["flags"]) == (0, 4, "g")
    assert summary.scripts[0].warnings == [
        "converted SillyTavern {{match}} to JavaScript $&",
        "converted SillyTavern-style $0 full match to JavaScript $&",
        "reasoning placement is preserved as metadata; use stripAssistantThinking or manual rules for thinking content",
        "substituteRegex is preserved as metadata but dynamic find-regex macro substitution is not executed",
        "placement Reasoning (6) is preserved as metadata but not directly mapped",
    ]
    assert list(rule) == ["id", "name", "enabled", "stage", "effect", "pattern", "replace", "source", "flags",
                          "trimStrings", "roles", "minDepth", "maxDepth"]  # fmt: skip


def test_normalisation_examples() -> None:
    summary = summarize(
        scripts(
            {"findRegex": "x", "promptOnly": True, "placement": ["2", True, 6, "abc", None, 9], "substituteRegex": True,
             "trimStrings": "x\r\ny\n\nz", "minDepth": "3", "maxDepth": "0x10"},
            {"findRegex": "x", "promptOnly": True, "placement": [1, 1, 2, 2, 0, 0, 1.5, -0.0], "minDepth": -1,
             "maxDepth": 2.5, "trimStrings": ["", "q", 7], "replaceString": "   "},
        )
    )  # fmt: skip
    first, second = (s.rule["source"]["sillytavern"] for s in summary.scripts)
    assert first["placement"] == [2, 1, 6, 9]
    assert first["placementNames"] == ["AI Output (2)", "User Input (1)", "Reasoning (6)", "unknown (9)"]
    assert first["trimStrings"] == ["x", "y", "z"]
    assert (first["substituteRegex"], first["minDepth"], first["maxDepth"]) == (1, 3, 16)
    assert summary.scripts[0].rule["roles"] == ["user", "assistant"]
    assert second["placement"] == [1, 1, 2, 2, 0, 0, 1.5, 0]
    assert second["minDepth"] == -1 and "minDepth" not in summary.scripts[1].rule and "maxDepth" not in second
    assert second["trimStrings"] == ["q"] and second["replaceString"] == ""
    assert summary.scripts[1].rule["replace"] == ""
    assert sum("unknown (1.5)" in w for w in summary.scripts[1].warnings) == 1
    assert sum("MD Display (0)" in w for w in summary.scripts[1].warnings) == 3


def test_notes_names_and_ids() -> None:
    summary = summarize(
        scripts(
            None,
            {"findRegex": "x", "promptOnly": True},
            {"scriptName": "Plain", "findRegex": "x", "promptOnly": True},
            {"scriptName": "Plain", "findRegex": "x", "promptOnly": True},
            {"scriptName": "plain", "findRegex": "x", "promptOnly": True},
            {"script_name": "old", "scriptName": "new", "name": "plain", "findRegex": "x", "promptOnly": True},
            {"scriptName": "中文脚本", "findRegex": "x", "promptOnly": True, "disabled": True},
            {"findRegex": "   ", "promptOnly": True},
            {"findRegex": "x", "promptOnly": True, "markdownOnly": True, "disabled": True},
            {"findRegex": "x", "markdownOnly": True},
            {"findRegex": "x"},
            {"findRegex": "x", "disabled": True},
            {"findRegex": "x", "disabled": "true", "promptOnly": 1},
            {"findRegex": "x", "promptOnly": True, "placement": [3]},
        )
    )  # fmt: skip
    cells = [(s.name, s.mode, s.converted_cell) for s in summary.scripts]
    assert cells == [
        ("regex-2", "prompt-only", "yes: st-regex-2"),
        ("Plain", "prompt-only", "yes: st-plain"),
        ("Plain", "prompt-only", "yes: st-plain-2"),
        ("plain", "prompt-only", "yes: st-plain-3"),
        ("old", "prompt-only", "yes: st-old"),
        ("中文脚本", "disabled", "yes: st"),
        ("regex-8", "prompt-only", "missing findRegex"),
        ("regex-9", "disabled", "mixed prompt/display script requires review"),
        ("regex-10", "markdown-only", "not prompt-only"),
        ("regex-11", "unspecified", "not prompt-only"),
        ("regex-12", "disabled", "disabled non-prompt script"),
        ("regex-13", "unspecified", "not prompt-only"),
        ("regex-14", "prompt-only", "placement has no pi-forge runtime mapping"),
    ]
    assert summary.scripts[5].rule["enabled"] is False
    assert (summary.total, summary.enabled, summary.disabled, summary.converted) == (13, 10, 3, 6)


def test_no_rule_means_no_regex_key() -> None:
    raw = preset(
        [block("a", "x")], [entry("a")], extensions=scripts({"findRegex": "/foo/y", "promptOnly": True})
    )
    result = run(raw, 1)
    assert "regex" not in result.stack
    assert "- **Converted to pi-forge rules**: 0" in result.report
    assert "| regex-1 | yes | prompt-only | unsupported regex flag: y | - | /foo/y | - |" in result.report


# --- C10 cell ---------------------------------------------------------------------------------------


def test_cell() -> None:
    assert cell("  ") == "-"
    assert cell(None) == "-"
    assert cell(" a \n\t b|c ") == "a b\\|c"
    assert cell("a" * 96) == "a" * 96
    assert cell("a" * 97) == "a" * 93 + "..."
    assert cell("😀" * 48) == "😀" * 48
    assert cell("a" * 92 + "😀" + "b" * 10) == "a" * 92 + "..."  # forgec deviation E15a
    assert cell("p|q" * 40) == ("p|q" * 40)[:93].replace("|", "\\|") + "..."


def test_names_behavior() -> None:
    for value, line in [(1, "names (ST value 1)"), (2.0, "nonames (ST value 2)"), ("1", "default (ST value 1)"),
                        (True, "default (ST value true)"), (None, "default (ST value ?)")]:  # fmt: skip
        result = run(preset([block("a", "x")], [entry("a")], names_behavior=value), 1)
        assert f"- **Names behavior**: {line}" in result.report
