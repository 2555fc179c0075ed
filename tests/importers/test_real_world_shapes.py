"""Shapes met in real community presets, rebuilt as one synthetic preset with our own text.

``data/real-world-shapes.json`` gathers what a survey of public SillyTavern presets turned up that
the 13 shared fixtures do not show (see docs/import-silly.md, *Tested against*):

* an order ``enabled`` stored as the *string* ``"False"`` (JS-truthy: the item stays enabled and is
  not counted as disabled, the block keeps the raw string);
* a ``chatHistory`` entry disabled in the order (the slot keeps ``enabled: false``, shows ``✗``,
  and is not counted);
* toggle prompts that only hold ``{{setvar::name::multi-line value}}{{trim}}``;
* ``{{### ...}}`` "read me" blocks (not comments: they stay), and comment-only prompts;
* extension macros with hyphens (``{{qm-long-term-memory}}``: detected, in neither table);
* ``character_id`` stored as the string ``"100000"`` next to the number ``100001``;
* regex scripts with an escaped ``\\|`` in ``findRegex`` (cell escaping) and with unescaped ``/``
  inside the literal (only the last unescaped ``/`` closes it).

Every expected value below is derived by hand from import-regex.md (C4-C10, E3-E9), not copied
from forgec's output.
"""

from __future__ import annotations

import json

import pytest

from forgec.importers.sillytavern import ImportResult, convert_preset
from forgec.importers.sillytavern.regex_scripts import parse_find_regex
from forgec.js.values import UNDEFINED

from .conftest import DATA

RAW = json.loads((DATA / "real-world-shapes.json").read_text("utf-8"))
NOW = 1773476813000  # 2026-03-14T08:26:53.000Z

EXPECTED_REPORT = """\
# SillyTavern Import Report: real-world-shapes

- **Source file**: presets/real-world-shapes.json
- **Character ID**: 100001
- **Output stack ID**: real-world-shapes
- **Names behavior**: default (ST value -1)
- **Total prompts in source**: 9
- **Items in prompt_order**: 9
- **Converted items**: 6

- **Comments stripped**: 1 ST comment blocks removed
- **Trim markers removed**: 3 {{trim}} markers (ST formatting hint)

## Skipped items

- 1 marker items (charDescription, worldInfo, etc.) — handled by Pi/ST runtime, not needed in prompt stack
- 2 items with empty or missing content
- 1 items disabled in prompt_order

## SillyTavern regex scripts

- **Total scripts**: 2
- **Enabled scripts**: 1
- **Disabled scripts**: 1
- **Prompt-only**: 1
- **Markdown-only / display-only**: 0
- **Prompt + markdown mixed**: 0
- **Converted to pi-forge rules**: 1

| Script | Enabled | Mode | Converted | Warnings | Find regex | Replacement preview |
|--------|---------|------|-----------|----------|------------|---------------------|
| Tag \\| pipe notes | no | disabled | mixed prompt/display script requires review | - | /\\[Notes:\\s*(.*?)\\s*\\\\|\\s*(.*?)\\]/gm | <b>$1</b> |
| Strip tags | yes | prompt-only | yes: st-strip-tags | - | /<\\s*u\\s*>\\|<\\s*/\\s*u\\s*>/gs | - |

pi-forge does not run SillyTavern markdown rewriting, DOM/browser automation, CSS/HTML decoration, toasts, \
embedded JavaScript, or UI panel behavior.
Enabled and disabled prompt-only deterministic regex scripts were converted to `regex.rules` with \
`stage: "history"`, `effect: "outgoing"`, JavaScript replacement syntax, and preserved SillyTavern metadata \
under `source.sillytavern`. History-stage depth is relative to the filtered chat history inserted at the \
`chat-history` slot, matching SillyTavern's chat-relative depth, and rules do not touch the compiled system \
prompt. Use `stage: "compiled"` manually for global prompt transforms.
Markdown-only, mixed prompt/markdown, unspecified, invalid, or unsupported regex scripts remain report-only \
and require manual review.

## Auto-populated variables

These ST built-in macros were auto-populated as static variables with placeholder values:

- `char` = `{{char}}` — replace with your character/persona name
- `user` = `{{user}}` — replace with your character/persona name

Edit `stack.variables` in the stack JSON or web editor to set real values.

## Handled macros

- `{{char}}` → auto-populated as static variable
- `{{user}}` → auto-populated as static variable
- `{{setvar}}` → handled as a turn variable by default, with {{setvar::session::name::value}} for session scope
- `{{getvar}}` → handled with turn -> session -> static lookup

## Item mapping

| # | ST Identifier | ST Name | pi-forge ID | Role | Enabled | Kind |
|---|--------------|---------|-------------|------|---------|------|
| 1 | main | Main | 1 | system | ✓ | block |
| 2 | vars | Vars Init | 2 | system | ✓ | block |
| 3 | readme | 📖 Read me | 3 | system | ✗ | block |
| 5 | mem | Memory | 5 | system | ✓ | block |
| 8 | chatHistory | Chat History | 8 | — | ✗ | slot |
| 9 | jailbreak | Post | History | 9 | system | ✓ | block |

## General notes

- 1 ST comment blocks and 3 TRIM markers were stripped during import.
- All items are assigned sequential numeric IDs. Original SillyTavern identifiers are preserved in \
`source.previousId`.
- Marker items for world info, character description, persona, scenario, and dialogue examples are omitted \
— these are handled by the SillyTavern frontend and have no direct pi-forge equivalent.
- The stack is set with `autoActivate: false`. Use `/preset use real-world-shapes` to activate.

## Suggested next steps

1. Set real values for auto-populated variables by editing `stack.variables`.
2. Review items with migration-needed macros and rewrite for pi-forge's macro system.
3. Consider adding a `variables` slot for template variable visibility.
4. Run `/preset validate real-world-shapes` to check for issues."""


def convert(character_id: object = 100001) -> ImportResult:
    return convert_preset(
        RAW, "presets/real-world-shapes.json", "presets/real-world-shapes.json", character_id, now_ms=NOW
    )


def test_report_is_exact() -> None:
    result = convert()
    assert result.error is None
    assert result.report == EXPECTED_REPORT


def test_items() -> None:
    stack = convert().stack
    assert stack is not None
    assert stack["name"] == "Shapes Seen In The Wild"
    assert stack["variables"] == {"char": "{{char}}", "user": "{{user}}"}
    items = {item["id"]: item for item in stack["items"]}
    assert list(items) == ["1", "2", "3", "5", "8", "9"]
    # a setvar-only toggle keeps its (multi-line) macro once {{trim}} is gone
    assert items["2"]["content"] == "{{setvar::tone::dry\nand short}}"
    # `{{###` is not a comment: the block stays, disabled in the order
    assert items["3"]["content"] == "{{### notes for humans 🪶 }}"
    assert items["3"]["enabled"] is False
    # the string "False" is kept as is (JS-truthy, so not counted as disabled)
    assert items["5"] == {
        "kind": "block",
        "id": "5",
        "name": "Memory",
        "enabled": "False",
        "role": "system",
        "content": "{{qm-long-term-memory}}",
        "source": {"previousId": "mem", "previousName": "Memory", "orderIndex": 4},
    }
    # a chat-history entry disabled in the order: the slot is disabled, never given options
    assert items["8"] == {
        "kind": "slot",
        "id": "8",
        "name": "Chat History",
        "enabled": False,
        "slot": "chat-history",
        "source": {"previousId": "chatHistory", "name": "Chat History"},
    }
    # an in-chat prompt (injection_position 1) is flattened at its order position
    assert items["9"]["source"] == {
        "previousId": "jailbreak",
        "previousName": "Post | History",
        "orderIndex": 8,
    }
    assert stack["import"]["characterId"] == 100001


def test_regex_rule() -> None:
    stack = convert().stack
    assert stack is not None
    assert stack["regex"] == {
        "schemaVersion": 1,
        "rules": [
            {
                "id": "st-strip-tags",
                "name": "Strip tags",
                "enabled": True,
                "stage": "history",
                "effect": "outgoing",
                "pattern": "<\\s*u\\s*>|<\\s*/\\s*u\\s*>",
                "replace": "",
                "source": {
                    "sillytavern": {
                        "scriptName": "Strip tags",
                        "findRegex": "/<\\s*u\\s*>|<\\s*/\\s*u\\s*>/gs",
                        "replaceString": "",
                        "trimStrings": [],
                        "placement": [1, 2],
                        "placementNames": ["User Input (1)", "AI Output (2)"],
                        "promptOnly": True,
                        "markdownOnly": False,
                        "substituteRegex": 0,
                    }
                },
                "flags": "gs",
                "roles": ["user", "assistant"],
            }
        ],
    }


def test_string_character_id_next_to_a_number() -> None:
    ids_error = "Multiple character configs found: [100000, 100001]. Choose a character_id and retry."
    # no id: two entries; the number 100000 never equals the string "100000" (C4, E4)
    assert convert(UNDEFINED).error == ids_error
    assert convert(100000).error == ids_error
    # called directly with the string, the string entry is selected and printed raw
    result = convert("100000")
    assert result.error is None and result.stack is not None
    assert [item["source"]["previousId"] for item in result.stack["items"]] == ["main"]
    assert result.stack["import"]["characterId"] == "100000"
    assert "- **Character ID**: 100000\n" in (result.report or "")


# findRegex literals written like the ones in public presets; Node 20's `new RegExp` accepts each
# (checked with node), so they must convert, split at the last unescaped `/` (C9, E1).
@pytest.mark.parametrize(
    ("find", "pattern", "flags"),
    [
        # an unescaped `/` inside the literal and alternations of tags
        ("/<\\s*u\\s*>|<\\s*/\\s*u\\s*>|<medium>[\\s\\S]*?<\\/medium>/gs",
         "<\\s*u\\s*>|<\\s*/\\s*u\\s*>|<medium>[\\s\\S]*?<\\/medium>", "gs"),
        ("/<image_Tag>[\\s\\S]*?</image_Tag>|<god>[\\s\\S]*?</god>/gm",
         "<image_Tag>[\\s\\S]*?</image_Tag>|<god>[\\s\\S]*?</god>", "gm"),
        # `\!` is an identity escape outside `u` mode (Annex B)
        ("/\\s?<(?!\\!--)(?:\"[^\"]*\"|'[^']*'|[^'\">])*>/g", "\\s?<(?!\\!--)(?:\"[^\"]*\"|'[^']*'|[^'\">])*>", "g"),
        # variable-length lookbehinds with typographic quotes, anchored with `m`
        ("/(?<![\"'“”‘’]\\s*)(?<!^\\s*)—(?=[a-zA-Z])/gm", "(?<![\"'“”‘’]\\s*)(?<!^\\s*)—(?=[a-zA-Z])", "gm"),
        # greedy wrappers around a lazy capture, used to keep only a summary
        ("/^[\\s\\S]*?((?:<(?:summary|char_setting)>[\\s\\S]*?<\\/(?:summary|char_setting)>\\s*)+)[\\s\\S]*$/gs",
         "^[\\s\\S]*?((?:<(?:summary|char_setting)>[\\s\\S]*?<\\/(?:summary|char_setting)>\\s*)+)[\\s\\S]*$", "gs"),
        # a code fence and a literal `{` that is not a quantifier
        ("/```md\\n--- Info Box ---\\n[\\s\\S]*?```\\n+/g", "```md\\n--- Info Box ---\\n[\\s\\S]*?```\\n+", "g"),
        ("/\\{\\{[^}]*}}|{note}/", "\\{\\{[^}]*}}|{note}", ""),
    ],
)  # fmt: skip
def test_real_world_find_regex_literals_convert(find: str, pattern: str, flags: str) -> None:
    assert parse_find_regex(find) == (pattern, flags)
