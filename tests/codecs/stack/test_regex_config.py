"""The stack loader's regex configuration checks (compile-core.md §10.6) and their place at the end of
§10.5, statement by statement; texts from §10.6 / §13.1, ``RegExp`` reasons from §16.10."""

from __future__ import annotations

import json
from typing import Any

from forgec.codecs.stack import load_stack_data
from forgec.diagnostics import to_pi_list

HISTORY = {"kind": "slot", "id": "h", "slot": "chat-history"}


def _pi(regex: Any, **extra: Any) -> list[tuple[str, str]]:
    raw = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "regex": regex, **extra}
    loaded = load_stack_data(json.dumps(raw), "s.json")
    return [(d["level"], d["message"]) for d in to_pi_list(loaded.diagnostics)]


def test_schema_version_and_rules_shape() -> None:
    assert _pi({"schemaVersion": 2, "rules": "x"}) == [
        ("warning", "Missing or unsupported regex.schemaVersion; assuming 1."),
        ("error", "regex.rules must be an array when provided."),
    ]
    assert _pi({"schemaVersion": 1.0}) == []
    assert _pi({}) == []
    for version in (None, True, "1"):
        assert _pi({"schemaVersion": version, "rules": []}) == [
            ("warning", "Missing or unsupported regex.schemaVersion; assuming 1.")
        ]
    assert _pi({"rules": None}) == [("error", "regex.rules must be an array when provided.")]


def test_every_rule_check_in_order() -> None:
    rules = [
        5,
        {},
        {
            "id": " a ", "enabled": "y", "stage": "compiled", "effect": "finalize", "pattern": "(", "flags": "gig",
            "replace": "{{ MATCH }}", "trimStrings": [1], "roles": ["user"], "targets": ["system", "x", "messages"],
            "maxMessages": 0, "maxChars": 1.5, "minDepth": -1, "maxDepth": "2",
        },
        {"id": "a", "stage": "history", "effect": "finalize", "pattern": "a", "flags": "x"},
        {"id": 3, "stage": "compiled", "pattern": "a)", "flags": "ig", "effect": "both", "minDepth": 2, "maxDepth": 1},
        {"id": "b", "stage": "compiled", "pattern": "a", "flags": 5, "effect": "display", "replace": 5, "roles": "x",
         "targets": "messages"},
        {"id": "c", "stage": ["compiled"], "pattern": "", "effect": None, "enabled": None},
        {"id": "d", "stage": "compiled", "pattern": "[", "flags": ""},
        {"id": "e", "stage": "history", "pattern": "x", "replace": "{{\u3000match\n}}", "minDepth": 0, "maxDepth": 0},
    ]
    a = "Regex rule a"
    assert _pi({"rules": rules}) == [
        ("error", "regex rule 1 must be an object."),
        ("error", "regex rule 2 must have a non-empty id."),
        ("error", 'regex rule 2 stage must be "history" or "compiled".'),
        ("error", "regex rule 2 pattern must be a non-empty string."),
        ("warning", f"{a} enabled must be a boolean when provided."),
        ("warning", f'{a} effect "finalize" rewrites finalized assistant messages and replaces the original model '
                    "output in the stored transcript."),
        ("error", f"{a} has duplicate regex flag: g."),
        ("warning", f"{a} replacement contains SillyTavern {{{{match}}}}; use JavaScript $& or re-import the "
                    "SillyTavern preset to convert it."),
        ("error", f"{a} trimStrings must be an array of strings when provided."),
        ("error", f'{a} effect "finalize" only supports target "messages": system.'),
        ("error", f'{a} target must be "system" or "messages": x.'),
        ("warning", f'{a} effect "finalize" only runs for finalized assistant messages, but roles does not include '
                    '"assistant".'),
        ("error", f"{a} maxMessages must be a positive integer when provided."),
        ("error", f"{a} maxChars must be a positive integer when provided."),
        ("error", f"{a} minDepth must be a non-negative integer when provided."),
        ("error", f"{a} maxDepth must be a non-negative integer when provided."),
        ("error", "Duplicate regex rule id: a."),
        ("warning", f'{a} effect "finalize" rewrites finalized assistant messages and replaces the original model '
                    "output in the stored transcript."),
        ("error", f'{a} effect "finalize" requires stage "compiled".'),
        ("error", f"{a} has unsupported regex flag: x."),
        ("error", "regex rule 5 must have a non-empty id."),
        ("warning", 'regex rule 5 effect "both" is not implemented and will be ignored; use separate outgoing and '
                    "finalize rules."),
        ("error", "regex rule 5 pattern failed to compile: Invalid regular expression: /a)/gi: Unmatched ')'"),
        ("error", "regex rule 5 maxDepth must be greater than or equal to minDepth."),
        ("warning", 'Regex rule b effect "display" is not a runtime effect in pi-forge yet and will be ignored. Use '
                    '"finalize" only when destructive transcript cleanup is intended.'),
        ("error", "Regex rule b flags must be a string when provided."),
        ("error", "Regex rule b replace must be a string when provided."),
        ("error", "Regex rule b roles must be an array of strings when provided."),
        ("error", "Regex rule b targets must be an array of strings when provided."),
        ("warning", "Regex rule c enabled must be a boolean when provided."),
        ("error", 'Regex rule c stage must be "history" or "compiled".'),
        ("error", 'Regex rule c effect must be "outgoing", "display", "both", or "finalize".'),
        ("error", "Regex rule c pattern must be a non-empty string."),
        ("error", "Regex rule d pattern failed to compile: Invalid regular expression: /[/: Unterminated character class"),
        ("warning", "Regex rule e replacement contains SillyTavern {{match}}; use JavaScript $& or re-import the "
                    "SillyTavern preset to convert it."),
    ]


def test_regex_checks_come_after_skills_diagnostics() -> None:
    # §10.5: step 6 (skills) precedes step 7 (regex)
    got = _pi({"schemaVersion": 3}, skills={"deny": ["x"]}, mode="replace")
    assert [level for level, _ in got] == ["info", "warning"]
    assert got[1] == ("warning", "Missing or unsupported regex.schemaVersion; assuming 1.")


def test_finalize_with_assistant_role_and_messages_target_is_clean_but_warned() -> None:
    rule = {"id": "f", "stage": "compiled", "effect": "finalize", "pattern": "x", "roles": ["assistant"],
            "targets": ["messages"], "flags": "gimsu"}
    assert _pi({"schemaVersion": 1, "rules": [rule]}) == [
        ("warning", 'Regex rule f effect "finalize" rewrites finalized assistant messages and replaces the original '
                    "model output in the stored transcript."),
    ]
