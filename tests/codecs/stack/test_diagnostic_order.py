"""Loader diagnostic order (compile-core.md §10.2–§10.5 and §13.1): the exact order of loader
diagnostics when many problems coexist, which raw shape checks repeat in validation, and the normalised stack they leave.

Every expected list below is derived statement by statement from the spec text (the step numbers are
quoted next to each group)."""

from __future__ import annotations

import json
from typing import Any

from forgec.codecs.stack import load_stack_data
from forgec.diagnostics import to_pi_list

HISTORY = {"kind": "slot", "id": "h", "slot": "chat-history"}


def _pi(raw: Any, file_name: str = "s.json") -> list[tuple[str, str, str | None]]:
    loaded = load_stack_data(json.dumps(raw), file_name)
    return [(d["level"], d["message"], d.get("itemId")) for d in to_pi_list(loaded.diagnostics)]


def E(message: str, item: str | None = None) -> tuple[str, str, str | None]:
    return ("error", message, item)


def W(message: str, item: str | None = None) -> tuple[str, str, str | None]:
    return ("warning", message, item)


def test_everything_wrong_at_once_in_spec_order() -> None:
    raw = {
        "id": "  bad id!  ",
        "type": "x",
        "name": 1,
        "description": 2,
        "autoActivate": "yes",
        "mode": "x",
        "defaults": {"syntheticMessagesVisible": "false", "unresolvedMacroPolicy": None},
        "context": {"allowDuplicateChatHistory": 1},
        "variables": {"b": 1, "10": 2, "a": "ok", "2": True},
        "items": [
            5,
            {"kind": "weird", "id": 7, "name": 1, "enabled": "y", "role": "bot", "tags": ["a", 2], "source": 1},
            {"kind": "slot", "id": " s ", "slot": "  ", "options": 3},
            {
                "kind": "slot",
                "id": "h",
                "slot": "chat-history",
                "options": {"maxMessages": 0, "toolMode": "x", "roles": [1], "includeSummaries": "y"},
            },
            {"kind": "block", "id": "s", "role": "user"},
        ],
        "state": {"a": 1},
        "tools": {"allow": ["a", 1, " "], "deny": ["b"]},
        "skills": 5,
        "regex": 3,
        "schemaVersion": 2,
    }
    loaded = load_stack_data(json.dumps(raw), "my stack.json")
    got = [(d["level"], d["message"], d.get("itemId")) for d in to_pi_list(loaded.diagnostics)]
    assert got == [
        # §10.3 raw checks, first run (id is a non-blank string: no raw id error)
        E('Stack type must be "pi-forge.prompt-stack" when provided.'),
        E("Stack name must be a string when provided."),
        E("Stack description must be a string when provided."),
        E("Stack autoActivate must be a boolean when provided."),
        E('Stack mode must be "append", "prepend", or "replace" when provided.'),
        E("defaults.syntheticMessagesVisible must be a boolean when provided."),
        E('defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.'),
        E("context.allowDuplicateChatHistory must be a boolean when provided."),
        # 9: object order, integer-like names first
        E("Stack variable 2 must be a string."),
        E("Stack variable 10 must be a string."),
        E("Stack variable b must be a string."),
        # 10: item 1 is not an object (skipped here); item 2 has no string id -> item-2
        E('Item 2 kind must be "block" or "slot".', "item-2"),
        E("Item 2 id must be a non-empty string.", "item-2"),
        E("Item name must be a string when provided.", "item-2"),
        E("Item enabled must be a boolean when provided.", "item-2"),
        E("Invalid role: bot", "item-2"),
        E("Item tags must be an array of strings when provided.", "item-2"),
        E("Item source must be an object when provided.", "item-2"),
        E("Slot name must be a non-empty string.", "s"),
        E("Slot options must be an object when provided.", "s"),
        E("Block content must be a string.", "s"),
        # §10.4 normalisation: id, schemaVersion, items, state, then fields (tools, skills, regex)
        E(
            "Stack id bad id! must start with a letter or number and contain only letters, numbers, dots, "
            "underscores, and hyphens; falling back to my stack."
        ),
        W("Missing or unsupported schemaVersion; assuming 1."),
        E("Item 1 must be an object.", "item-1"),
        ("info", "state is no longer supported and was ignored; use stack.variables and template variable macros instead.", None),
        E("tools.allow[1] must be a non-empty string."),
        E("tools.allow[2] must be a non-empty string."),
        E("tools policy must use either allow or deny, not both."),
        E("skills policy must be an object when provided."),
        W("regex must be an object when provided."),
        # §10.5 step 1: the raw checks again; only the raw-kept objects and the blank slot repeat
        E("defaults.syntheticMessagesVisible must be a boolean when provided."),
        E('defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.'),
        E("context.allowDuplicateChatHistory must be a boolean when provided."),
        E("Slot name must be a non-empty string.", "s"),
        # §10.5 step 3, item by item
        W("Enabled block has no role and will be ignored.", "7"),
        W("Unsupported slot:   ", "s"),
        W("chat-history option includeSummaries should be a boolean.", "h"),
        E("chat-history option roles must be an array of strings.", "h"),
        E('chat-history option toolMode must be "keep" or "drop".', "h"),
        E("chat-history option maxMessages must be a positive integer.", "h"),
        E("Duplicate item id: s", "s"),
    ]
    assert loaded.stack["id"] == "my stack"
    assert "type" not in loaded.stack and "regex" not in loaded.stack and "skills" not in loaded.stack
    assert loaded.stack["tools"] == {"allow": ["a"]}
    assert loaded.stack["variables"] == {"a": "ok"}
    assert loaded.stack["items"][0] == {"kind": "block", "id": "item-1", "enabled": False, "content": ""}
    assert loaded.stack["items"][2] == {"kind": "slot", "id": "s", "slot": "  "}


def test_missing_slot_name_repeats_and_is_unsupported_with_trailing_space() -> None:
    # §10.3 slot check; §10.5 step 1 (became "") and step 3 ("Unsupported slot: " with a trailing space)
    assert _pi({"schemaVersion": 1, "id": "s", "items": [HISTORY, {"kind": "slot", "id": "x", "slot": 4}]}) == [
        E("Slot name must be a non-empty string.", "x"),
        E("Slot name must be a non-empty string.", "x"),
        W("Unsupported slot: ", "x"),
    ]


def test_whitespace_only_file_stem_fires_both_id_errors() -> None:
    # §10.5 step 1 degenerate case, then step 2; no rawId so no "falling back" error (§10.4 step 1)
    assert _pi({"schemaVersion": 1, "items": [HISTORY]}, " .json") == [
        E("Stack id must be a non-empty string."),
        E("Stack id must be a non-empty string."),
        E("Stack id must not be empty."),
    ]


def test_non_string_stack_id_reported_once_and_stem_used() -> None:
    loaded = load_stack_data(json.dumps({"schemaVersion": 1, "id": 5, "items": [HISTORY]}), "a.b.json")
    assert [d.message for d in loaded.diagnostics] == ["Stack id must be a non-empty string."]
    assert loaded.stack["id"] == "a.b"


def test_null_counts_as_present_for_every_optional_stack_field() -> None:
    # §0.1 / §10.2: "a null value is present"
    raw = {"schemaVersion": 1, "id": "s", "type": None, "name": None, "description": None, "autoActivate": None,
           "mode": None, "defaults": None, "context": None, "variables": None, "items": [HISTORY]}
    assert _pi(raw) == [
        E('Stack type must be "pi-forge.prompt-stack" when provided.'),
        E("Stack name must be a string when provided."),
        E("Stack description must be a string when provided."),
        E("Stack autoActivate must be a boolean when provided."),
        E('Stack mode must be "append", "prepend", or "replace" when provided.'),
        E("Stack defaults must be an object when provided."),
        E("Stack context must be an object when provided."),
        E("Stack variables must be an object when provided."),
    ]


def test_unresolved_macro_policy_uses_string_conversion() -> None:
    # §10.3 step 7: String(["keep"]) == "keep" passes, null fails; the raw object is kept so it repeats
    ok = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "defaults": {"unresolvedMacroPolicy": ["keep"]}}
    assert _pi(ok) == []
    bad = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "defaults": {"unresolvedMacroPolicy": {}}}
    message = 'defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.'
    assert _pi(bad) == [E(message), E(message)]


def test_variable_names_in_js_key_order() -> None:
    # §0.5 key order: canonical array indices (<= 4294967294) ascending, then insertion order
    names = ["b", "4294967295", "2", "01", "1", "-1", "4294967294", "0"]
    raw = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "variables": {n: 0 for n in names}}
    order = ["0", "1", "2", "4294967294", "b", "4294967295", "01", "-1"]
    assert _pi(raw) == [E(f"Stack variable {n} must be a string.") for n in order]


def test_item_role_messages_use_string_conversion() -> None:
    items = [HISTORY, {"kind": "block", "id": "a", "role": ["user"], "content": ""},
             {"kind": "block", "id": "b", "role": {}, "content": ""},
             {"kind": "block", "id": "c", "role": None, "content": ""},
             {"kind": "block", "id": "d", "role": 1.0, "content": ""}]
    got = _pi({"schemaVersion": 1, "id": "s", "items": items})
    assert got[:4] == [
        E("Invalid role: user", "a"),
        E("Invalid role: [object Object]", "b"),
        E("Invalid role: null", "c"),
        E("Invalid role: 1", "d"),
    ]
    # normalised role is absent, so validation only warns about the role-less enabled blocks
    assert got[4:] == [W("Enabled block has no role and will be ignored.", i) for i in "abcd"]


def test_regex_null_is_present_and_warned_once() -> None:
    # §10.4 step 5 (non-object -> warning, absent) and §10.6 (absent -> nothing)
    for value in (None, [], "x", 1):
        loaded = load_stack_data(json.dumps({"schemaVersion": 1, "id": "s", "items": [HISTORY], "regex": value}), "s.json")
        assert [d.message for d in loaded.diagnostics] == ["regex must be an object when provided."]
        assert "regex" not in loaded.stack


def test_root_not_object_gives_fallback_then_validation() -> None:
    # §10.4 root; §10.2 step 5 needs an object, so default.json gets no warning
    loaded = load_stack_data("[]", "default.json")
    assert [(d.level, d.message) for d in loaded.diagnostics] == [
        ("error", "Prompt stack root must be a JSON object."),
        ("warning", "No enabled chat-history slot found; Pi chat context will be appended at the end."),
    ]
    assert loaded.stack == {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "default",
                            "name": "default.json", "items": []}


def test_default_json_warning_comes_last_and_null_counts_as_present() -> None:
    warning = W('default.json no longer auto-activates by filename; set "autoActivate": true to keep auto-activating this stack.')
    raw = {"schemaVersion": 1, "id": "d", "items": []}
    assert _pi(raw, "default.json") == [
        W("No enabled chat-history slot found; Pi chat context will be appended at the end."),
        warning,
    ]
    assert _pi({**raw, "items": [HISTORY], "autoActivate": None}, "default.json") == [
        E("Stack autoActivate must be a boolean when provided."),
    ]
    assert _pi({**raw, "items": [HISTORY], "autoActivate": False}, "default.json") == []
    assert _pi({**raw, "items": [HISTORY]}, "Default.json") == []
