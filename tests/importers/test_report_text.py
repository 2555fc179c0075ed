"""The whole report and stack for one synthetic preset, byte for byte (import-regex.md C6-C10, E5, E9,
E12, E15c, E15e), plus report details no public case pins (E8, E9, E15a, E15f, E16, E18).

The expected report is written out from the C10 template; nothing here was copied from forgec's output.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.importers.sillytavern import import_preset
from forgec.importers.sillytavern.report import cell

NOW_MS = 1773476813999  # E15c: 2026-03-14T09:26:53.9999+01:00

PRESET: dict[str, Any] = {
    "preset_name": "Writer",
    "names_behavior": 2,
    "prompts": [
        {"identifier": "main", "name": "Main", "role": "system",
         "content": "Hello {{char}} and {{user}}.\n\n\n\nBye{{// note}}{{trim}}"},
        {"identifier": "worldInfoBefore", "name": "World Info (before)", "system_prompt": True, "marker": True},
        {"identifier": "chatHistory", "marker": True},
        {"identifier": "jb", "name": "JB", "role": "user", "content": "{{random::a,b}} {{lastUserMessage}}"},
    ],
    "prompt_order": [
        {"character_id": 100001, "order": [
            {"identifier": "main", "enabled": True},
            {"identifier": "worldInfoBefore", "enabled": True},
            {"identifier": "chatHistory", "enabled": True},
            {"identifier": "jb", "enabled": False},
            {"identifier": "ghost", "enabled": True},
        ]},
    ],
    "extensions": {"regex_scripts": [
        {"scriptName": "Clean", "findRegex": "/a|b/g", "replaceString": "<{{match}}>", "promptOnly": True,
         "placement": [2]},
        {"scriptName": "Display", "findRegex": "x", "replaceString": "  ", "markdownOnly": True},
    ]},
}  # fmt: skip

REPORT = """# SillyTavern Import Report: My Preset

- **Source file**: /x/My Preset.json
- **Character ID**: 100001
- **Output stack ID**: my-preset
- **Names behavior**: nonames (ST value 2)
- **Total prompts in source**: 4
- **Items in prompt_order**: 5
- **Converted items**: 3

- **Comments stripped**: 1 ST comment blocks removed
- **Trim markers removed**: 1 {{trim}} markers (ST formatting hint)

## Skipped items

- 1 marker items (charDescription, worldInfo, etc.) — handled by Pi/ST runtime, not needed in prompt stack
- 1 items disabled in prompt_order

## ⚠️ Missing identifiers in prompts array

- `ghost` (referenced in prompt_order but not found in prompts)

## SillyTavern regex scripts

- **Total scripts**: 2
- **Enabled scripts**: 2
- **Disabled scripts**: 0
- **Prompt-only**: 1
- **Markdown-only / display-only**: 1
- **Prompt + markdown mixed**: 0
- **Converted to pi-forge rules**: 1

| Script | Enabled | Mode | Converted | Warnings | Find regex | Replacement preview |
|--------|---------|------|-----------|----------|------------|---------------------|
| Clean | yes | prompt-only | yes: st-clean | converted SillyTavern {{match}} to JavaScript $& | /a\\|b/g | <{{match}}> |
| Display | yes | markdown-only | not prompt-only | - | x | - |

Conversion warnings:
- Clean: converted SillyTavern {{match}} to JavaScript $&

pi-forge does not run SillyTavern markdown rewriting, DOM/browser automation, CSS/HTML decoration, toasts, \
embedded JavaScript, or UI panel behavior.
Enabled and disabled prompt-only deterministic regex scripts were converted to `regex.rules` with \
`stage: "history"`, `effect: "outgoing"`, JavaScript replacement syntax, and preserved SillyTavern metadata under \
`source.sillytavern`. History-stage depth is relative to the filtered chat history inserted at the `chat-history` \
slot, matching SillyTavern's chat-relative depth, and rules do not touch the compiled system prompt. Use \
`stage: "compiled"` manually for global prompt transforms.
Markdown-only, mixed prompt/markdown, unspecified, invalid, or unsupported regex scripts remain report-only and \
require manual review.

## Auto-populated variables

These ST built-in macros were auto-populated as static variables with placeholder values:

- `char` = `{{char}}` — replace with your character/persona name
- `user` = `{{user}}` — replace with your character/persona name

Edit `stack.variables` in the stack JSON or web editor to set real values.

## ⚠️ Macros needing manual migration

These ST macros appear in the preset but have no direct pi-forge equivalent:

- **`{{random}}`** (1 occurrence) — precompute or rewrite manually with simple pi-forge conditionals when applicable

## Handled macros

- `{{char}}` → auto-populated as static variable
- `{{user}}` → auto-populated as static variable
- `{{lastUserMessage}}` → handled by pi-forge runtime (chat-history slot)

## Item mapping

| # | ST Identifier | ST Name | pi-forge ID | Role | Enabled | Kind |
|---|--------------|---------|-------------|------|---------|------|
| 1 | main | Main | 1 | system | ✓ | block |
| 3 | chatHistory | Chat History | 3 | — | ✓ | slot |
| 4 | jb | JB | 4 | user | ✗ | block |

## General notes

- Auto-detected `{{lastUserMessage}}` in post-history content. `chat-history` slot set with \
`includeLastUserMessage: false`.
- 1 ST comment blocks and 1 TRIM markers were stripped during import.
- All items are assigned sequential numeric IDs. Original SillyTavern identifiers are preserved in \
`source.previousId`.
- Marker items for world info, character description, persona, scenario, and dialogue examples are omitted — \
these are handled by the SillyTavern frontend and have no direct pi-forge equivalent.
- The stack is set with `autoActivate: false`. Use `/preset use my-preset` to activate.

## Suggested next steps

1. Set real values for auto-populated variables by editing `stack.variables`.
2. Review items with migration-needed macros and rewrite for pi-forge's macro system.
3. Consider adding a `variables` slot for template variable visibility.
4. Run `/preset validate my-preset` to check for issues."""

STACK: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "pi-forge.prompt-stack",
    "id": "my-preset",
    "name": "Writer",
    "autoActivate": False,
    "mode": "replace",
    "variables": {"char": "{{char}}", "user": "{{user}}"},
    "context": {"allowDuplicateChatHistory": False},
    "regex": {"schemaVersion": 1, "rules": [
        {"id": "st-clean", "name": "Clean", "enabled": True, "stage": "history", "effect": "outgoing",
         "pattern": "a|b", "replace": "<$&>",
         "source": {"sillytavern": {
             "scriptName": "Clean", "findRegex": "/a|b/g", "replaceString": "<{{match}}>", "trimStrings": [],
             "placement": [2], "placementNames": ["AI Output (2)"], "promptOnly": True, "markdownOnly": False,
             "substituteRegex": 0}},
         "flags": "g", "roles": ["assistant"]},
    ]},
    "items": [
        {"kind": "block", "id": "1", "name": "Main", "enabled": True, "role": "system",
         "content": "Hello {{char}} and {{user}}.\n\nBye",
         "source": {"previousId": "main", "previousName": "Main", "orderIndex": 0}},
        {"kind": "slot", "id": "3", "name": "Chat History", "enabled": True, "slot": "chat-history",
         "source": {"previousId": "chatHistory"}, "options": {"includeLastUserMessage": False}},
        {"kind": "block", "id": "4", "name": "JB", "enabled": False, "role": "user",
         "content": "{{random::a,b}} {{lastUserMessage}}",
         "source": {"previousId": "jb", "previousName": "JB", "orderIndex": 3}},
    ],
    "import": {"source": "sillytavern", "sourceFile": "My Preset", "characterId": 100001,
               "convertedAt": "2026-03-14T08:26:53.999Z"},
}  # fmt: skip


def test_whole_report_and_stack() -> None:
    result = import_preset(PRESET, 100001, file_name="/x/My Preset.json", now_ms=NOW_MS)
    assert result.error is None
    assert result.report == REPORT
    assert result.stack == STACK
    # key order is part of the output (C8, C9 *Rule object*)
    assert list(result.stack) == list(STACK)
    assert [list(i) for i in result.stack["items"]] == [list(i) for i in STACK["items"]]
    assert list(result.stack["regex"]["rules"][0]) == list(STACK["regex"]["rules"][0])


def _minimal(**extra: Any) -> dict[str, Any]:
    return {
        "prompts": [{"identifier": "a", "role": "system", "content": "x"}],
        "prompt_order": [{"order": [{"identifier": "a"}]}],
        **extra,
    }


def test_header_has_two_empty_lines_when_nothing_was_stripped() -> None:
    raw = _minimal()
    raw["prompt_order"][0]["order"][0]["enabled"] = True
    report = import_preset(raw, file_name="p.json", now_ms=0).report
    assert "- **Converted items**: 1\n\n\n## Item mapping" in report
    assert "## Skipped items" not in report and "## General notes\n\n- All items" in report


def test_absent_order_enabled_counts_as_disabled_but_shows_a_tick() -> None:
    # C6 "Absent values are omitted ...": no `enabled` key, counted as order-disabled, shown as ✓
    result = import_preset(_minimal(), file_name="p.json", now_ms=0)
    assert "enabled" not in result.stack["items"][0]
    assert "\n\n\n## Skipped items\n\n- 1 items disabled in prompt_order\n\n## Item mapping" in result.report
    assert "| 1 | a | — | 1 | system | ✓ | block |" in result.report


@pytest.mark.parametrize(
    ("value", "shown"),
    [(1, "names (ST value 1)"), (1.0, "names (ST value 1)"), (2, "nonames (ST value 2)"), ("1", "default (ST value 1)"),
     (True, "default (ST value true)"), (-1, "default (ST value -1)"), (0, "default (ST value 0)"),
     (None, "default (ST value ?)"), ([1, 2], "default (ST value 1,2)"), ({"a": 1}, "default (ST value [object Object])"),
     ("", "default (ST value )")],
)  # fmt: skip
def test_names_behavior_line(value: Any, shown: str) -> None:
    report = import_preset(_minimal(names_behavior=value), file_name="p.json", now_ms=0).report
    assert f"\n- **Names behavior**: {shown}\n" in report


def test_absent_names_behavior() -> None:
    report = import_preset(_minimal(), file_name="p.json", now_ms=0).report
    assert "\n- **Names behavior**: default (ST value ?)\n" in report


def test_item_mapping_name_cells() -> None:
    # E9: empty string -> empty cell, whitespace printed as is, 0 -> 0, false -> false, object -> [object Object]
    names = ["", "  ", 0, False, {"k": 1}, None]
    prompts = [{"identifier": f"p{i}", "name": n, "role": "system", "content": "x"} for i, n in enumerate(names)]
    order = [{"identifier": f"p{i}", "enabled": True} for i in range(len(names))]
    report = import_preset({"prompts": prompts, "prompt_order": [{"order": order}]}, file_name="p.json", now_ms=0).report
    rows = [t for t in report.split("\n") if t.startswith("| ") and t.endswith(" | block |")]
    assert [r.split(" | ")[2] for r in rows] == ["", "  ", "0", "false", "[object Object]", "—"]
    assert rows[0] == "| 1 | p0 |  | 1 | system | ✓ | block |"


def test_last_user_message_note_without_a_slot_and_only_first_slot_gets_option() -> None:
    # E5: with no chat-history slot the note is still printed; only the first slot gets the option
    no_slot = {"prompts": [{"identifier": "a", "role": "system", "content": "{{lastUserMessage}}"}],
               "prompt_order": [{"order": [{"identifier": "a"}]}]}  # fmt: skip
    result = import_preset(no_slot, file_name="p.json", now_ms=0)
    assert "- Auto-detected `{{lastUserMessage}}` in post-history content." in result.report
    two = {"prompts": [{"identifier": "chatHistory", "marker": True, "content": "{{lastUserMessage}}"}],
           "prompt_order": [{"order": [{"identifier": "chatHistory"}, {"identifier": "chatHistory"}]}]}  # fmt: skip
    items = import_preset(two, file_name="p.json", now_ms=0).stack["items"]
    assert items[0]["options"] == {"includeLastUserMessage": False} and "options" not in items[1]


def test_macro_names_are_case_insensitive_with_display_names() -> None:
    content = "{{CHAR}} {{MesExamplesRaw}} {{WIBEFORE}} {{AnchorAfter}} {{SelectedTools}} {{ActiveModel}} {{DATE}}"
    raw = {"prompts": [{"identifier": "a", "role": "system", "content": content}],
           "prompt_order": [{"order": [{"identifier": "a"}]}]}  # fmt: skip
    report = import_preset(raw, file_name="p.json", now_ms=0).report
    assert "- **`{{mesExamplesRaw}}`** (1 occurrence) — ST character dialogue examples — add inline or as context file if needed" in report
    assert "- **`{{wiBefore}}`** (1 occurrence) — ST world info — no pi-forge equivalent; merge relevant lore into static blocks" in report
    assert "- **`{{anchorAfter}}`** (1 occurrence) — ST extension injection point — no pi-forge equivalent" in report
    assert "- `{{selectedTools}}` → handled as comma-separated active tool names after stack tool policy" in report
    assert "- `{{activeModel}}` → handled as provider/model when available" in report
    assert "- `{{date}}` → handled natively by pi-forge" in report
    assert "- `char` = `{{char}}`" in report


def test_macro_detection_needs_a_name_right_after_the_braces() -> None:
    # C7: `{{ char }}` with a space is not detected; `{{//` is a comment, not a macro
    raw = {"prompts": [{"identifier": "a", "role": "system", "content": "{{ char }} {{ random }} {{-x}} {{9}}"}],
           "prompt_order": [{"order": [{"identifier": "a"}]}]}  # fmt: skip
    result = import_preset(raw, file_name="p.json", now_ms=0)
    assert "variables" not in result.stack
    assert "## Handled macros" not in result.report and "Macros needing manual migration" not in result.report


def test_variables_key_order_is_char_then_user() -> None:
    raw = {"prompts": [{"identifier": "a", "role": "system", "content": "{{user}} then {{char}}"}],
           "prompt_order": [{"order": [{"identifier": "a"}]}]}  # fmt: skip
    result = import_preset(raw, file_name="p.json", now_ms=0)
    assert list(result.stack["variables"]) == ["char", "user"]
    assert result.report.index("- `{{user}}` → auto") < result.report.index("- `{{char}}` → auto")


def test_migration_ties_keep_first_seen_order_across_items() -> None:
    # E18 example split over two items, plus a marker whose content is scanned too
    prompts = [
        {"identifier": "a", "role": "system", "content": "{{random}}{{pick}}{{pick}}"},
        {"identifier": "worldInfoAfter", "marker": True, "content": "{{if}}{{if}}"},
        {"identifier": "b", "role": "tool", "content": "{{random}}"},
    ]
    order = [{"identifier": "a"}, {"identifier": "worldInfoAfter"}, {"identifier": "b"}]
    report = import_preset({"prompts": prompts, "prompt_order": [{"order": order}]}, file_name="p.json", now_ms=0).report
    found = [t.split("`")[1] for t in report.split("\n") if t.startswith("- **`{{")]
    assert found == ["{{random}}", "{{pick}}", "{{if}}"]
    assert "(2 occurrences)" in report and "(1 occurrence)" not in report


def test_constructor_in_any_case_gives_no_line() -> None:
    # E16 forgec deviation: `constructor` and `__proto__` are ordinary names in neither table
    raw = {"prompts": [{"identifier": "a", "role": "system", "content": "{{Constructor}}{{constructor}}{{__PROTO__}}"}],
           "prompt_order": [{"order": [{"identifier": "a"}]}]}  # fmt: skip
    report = import_preset(raw, file_name="p.json", now_ms=0).report
    assert "function Object" not in report and "## ⚠️ Macros" not in report and "## Handled macros" not in report


def test_cell_details() -> None:
    # C10 / E15a: whitespace set is JavaScript's (U+FEFF and U+2028 collapse, U+001C does not)
    assert cell("a\ufeff\u2028b\x1cc") == "a b\x1cc"
    assert cell(5) == "-"
    assert cell("😀" * 49) == "😀" * 46 + "..."  # forgec deviation: the orphaned high surrogate is dropped
    assert cell("a|" * 60) == ("a|" * 60)[:93].replace("|", "\\|") + "..."


def test_regex_section_without_warnings_or_conversions() -> None:
    # E15e layout when no script has warnings and none converted; E17 rows
    raw = _minimal(extensions={"regex_scripts": [
        {"scriptName": "S", "findRegex": "/abc", "promptOnly": True},
        {"findRegex": "   ", "promptOnly": True, "disabled": True},
        {"findRegex": "x", "promptOnly": True, "markdownOnly": True, "disabled": True},
    ]})  # fmt: skip
    report = import_preset(raw, file_name="p.json", now_ms=0).report
    expected = """## SillyTavern regex scripts

- **Total scripts**: 3
- **Enabled scripts**: 1
- **Disabled scripts**: 2
- **Prompt-only**: 1
- **Markdown-only / display-only**: 0
- **Prompt + markdown mixed**: 0
- **Converted to pi-forge rules**: 0

| Script | Enabled | Mode | Converted | Warnings | Find regex | Replacement preview |
|--------|---------|------|-----------|----------|------------|---------------------|
| S | yes | prompt-only | could not parse regex literal | - | /abc | - |
| regex-2 | no | disabled | missing findRegex | - | - | - |
| regex-3 | no | disabled | mixed prompt/display script requires review | - | x | - |

pi-forge does not run SillyTavern markdown rewriting, DOM/browser automation, CSS/HTML decoration, toasts, \
embedded JavaScript, or UI panel behavior.
Markdown-only, mixed prompt/markdown, unspecified, invalid, or unsupported regex scripts remain report-only and \
require manual review.

## Item mapping"""
    assert expected in report


def test_unspecified_line_and_empty_script_list() -> None:
    report = import_preset(_minimal(extensions={"regex_scripts": [{"findRegex": "x"}]}), file_name="p.json",
                           now_ms=0).report  # fmt: skip
    assert "- **Prompt + markdown mixed**: 0\n- **Enabled with unspecified mode**: 1\n- **Converted" in report
    # only non-object elements: total 0, no section
    for extensions in ({"regex_scripts": [None, 5, "s", [1]]}, {"regex_scripts": {}}, [], "x"):
        assert "## SillyTavern regex scripts" not in import_preset(
            _minimal(extensions=extensions), file_name="p.json", now_ms=0
        ).report
