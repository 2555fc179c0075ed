"""The stack loader's field normalisation (compile-core.md §10.4) and validation details (§10.5:
chat-history counting and options, role-less blocks, schemaVersion/state/import), expectations from the
spec text."""

from __future__ import annotations

import json
from typing import Any

from forgec.codecs.stack import load_stack_data
from forgec.diagnostics import to_pi_list

HISTORY = {"kind": "slot", "id": "h", "slot": "chat-history"}
NO_HISTORY = ("warning", "No enabled chat-history slot found; Pi chat context will be appended at the end.", None)
MULTIPLE = ("warning", "Multiple enabled chat-history slots found; only the first will be expanded unless "
            "context.allowDuplicateChatHistory is true.", None)


def _load(raw: Any) -> Any:
    return load_stack_data(json.dumps(raw), "s.json")


def _pi(raw: Any) -> list[tuple[str, str, str | None]]:
    return [(d["level"], d["message"], d.get("itemId")) for d in to_pi_list(_load(raw).diagnostics)]


def _stack(items: list[Any], **fields: Any) -> dict[str, Any]:
    return {"schemaVersion": 1, "id": "s", "items": items, **fields}


def test_allow_duplicate_history_is_read_as_truthy_after_its_raw_errors() -> None:
    two = [HISTORY, {**HISTORY, "id": "h2"}]
    error = ("error", "context.allowDuplicateChatHistory must be a boolean when provided.", None)
    assert _pi(_stack(two, context={"allowDuplicateChatHistory": "yes"})) == [error, error]
    assert _pi(_stack(two, context={"allowDuplicateChatHistory": 0})) == [error, error, MULTIPLE]
    assert _pi(_stack(two, context={"allowDuplicateChatHistory": True})) == []
    assert _pi(_stack(two)) == [MULTIPLE]


def test_disabled_and_untrimmed_history_slots_do_not_count() -> None:
    items = [{**HISTORY, "enabled": False, "options": {"toolMode": "x"}}, {**HISTORY, "id": "h2", "slot": " chat-history"}]
    assert _pi(_stack(items)) == [
        ("error", 'chat-history option toolMode must be "keep" or "drop".', "h"),
        ("warning", "Unsupported slot:  chat-history", "h2"),
        NO_HISTORY,
    ]


def test_history_option_values() -> None:
    good = {"maxMessages": 1.0, "maxChars": 1e300, "toolMode": "drop", "roles": [], "includeSummaries": False}
    assert _pi(_stack([{**HISTORY, "options": good}])) == []
    bad = {"maxMessages": True, "maxChars": "5", "roles": "user", "stripAssistantThinking": None,
           "includeLastUserMessage": 0, "toolMode": None}
    assert _pi(_stack([{**HISTORY, "options": bad}])) == [
        ("warning", "chat-history option includeLastUserMessage should be a boolean.", "h"),
        ("warning", "chat-history option stripAssistantThinking should be a boolean.", "h"),
        ("error", "chat-history option roles must be an array of strings.", "h"),
        ("error", 'chat-history option toolMode must be "keep" or "drop".', "h"),
        ("error", "chat-history option maxMessages must be a positive integer.", "h"),
        ("error", "chat-history option maxChars must be a positive integer.", "h"),
    ]
    # options that are not an object: one raw error, dropped by normalisation, so no option checks
    assert _pi(_stack([{**HISTORY, "options": []}])) == [
        ("error", "Slot options must be an object when provided.", "h")
    ]


def test_role_less_blocks() -> None:
    items = [
        HISTORY,
        {"kind": "block", "id": "a", "content": ""},
        {"kind": "block", "id": "b", "content": "", "enabled": False},
        {"kind": "block", "id": "c", "content": "", "enabled": "no"},
        {"kind": "block", "id": "d", "content": "", "role": ""},
        {"kind": "slot", "id": "e", "slot": "date"},
        {"kind": "block", "id": "f", "content": "", "role": "system"},
    ]
    assert _pi(_stack(items)) == [
        ("error", "Item enabled must be a boolean when provided.", "c"),
        ("error", "Invalid role: ", "d"),
        ("warning", "Enabled block has no role and will be ignored.", "a"),
        ("warning", "Enabled block has no role and will be ignored.", "c"),
        ("warning", "Enabled block has no role and will be ignored.", "d"),
    ]


def test_schema_version_state_import_and_kept_objects() -> None:
    for version in (1, 1.0):
        assert _pi(_stack([HISTORY], schemaVersion=version)) == []
    for version in (True, "1", None, 2):
        assert _pi(_stack([HISTORY], schemaVersion=version)) == [
            ("warning", "Missing or unsupported schemaVersion; assuming 1.", None)
        ]
    for state in ({}, [], None, [1], "x"):
        assert _pi(_stack([HISTORY], state=state)) == []
    loaded = _load(_stack([HISTORY], type="pi-forge.prompt-stack", context={"x": [1]}, defaults={"y": None},
                          description="d", autoActivate=False, mode="replace", name="n", extra=1))
    assert loaded.diagnostics == []
    assert loaded.stack == {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "s", "name": "n",
                            "description": "d", "autoActivate": False, "mode": "replace", "defaults": {"y": None},
                            "context": {"x": [1]}, "items": [HISTORY]}
    assert _load(_stack([HISTORY], **{"import": {"a": 1}})).stack["import"] == {"a": 1}
    assert "import" not in _load(_stack([HISTORY], **{"import": [1]})).stack


def test_items_not_a_list() -> None:
    for items in (None, {}, "x"):
        assert _pi({"schemaVersion": 1, "id": "s", "items": items}) == [
            ("error", "Prompt stack must contain an items array.", None),
            NO_HISTORY,
        ]
    assert _pi({"schemaVersion": 1, "id": "s"}) == [
        ("error", "Prompt stack must contain an items array.", None),
        NO_HISTORY,
    ]


def test_non_object_items_become_disabled_blocks() -> None:
    loaded = _load(_stack([HISTORY, None, [], "x"]))
    assert loaded.stack["items"][1:] == [
        {"kind": "block", "id": f"item-{n}", "enabled": False, "content": ""} for n in (2, 3, 4)
    ]
    assert [(d.message, d.item_id) for d in loaded.diagnostics] == [
        (f"Item {n} must be an object.", f"item-{n}") for n in (2, 3, 4)
    ]


def test_numbers_in_the_validation_stack_print_as_javascript_does() -> None:
    # §16.11: integral values without fraction/exponent, shortest plain decimals, 1e400 -> null, -0 -> 0
    from forgec.js.values import dumps_report

    text = ('{"schemaVersion":1.0,"id":"s","items":[{"kind":"slot","id":"h","slot":"chat-history","options":'
            '{"a":5.0,"b":1e-5,"c":1e400,"d":-0.0,"e":1E2,"f":0.000015,"g":-1e-400,"h":123456789012345678901}}]}')
    report = dumps_report(load_stack_data(text, "s.json").validation()["stack"]["items"][0]["options"])
    assert "".join(report.split()) == (
        '{"a":5,"b":0.00001,"c":null,"d":0,"e":100,"f":0.000015,"g":0,"h":123456789012345680000}'
    )


def test_default_json_that_does_not_parse_gets_only_the_parse_error() -> None:
    loaded = load_stack_data("{", "default.json")
    assert [d["message"] for d in to_pi_list(loaded.diagnostics)] == [
        "Failed to parse JSON: Expected property name or '}' in JSON at position 1"
    ]
    assert loaded.stack["id"] == "default" and loaded.stack["name"] == "default.json"
