"""A seeded set of cache-breaking and unsafe stacks: each is found, with the right rule and item,
and the path from the source is named; the safe variant next to it is not reported."""

from __future__ import annotations

import pytest

from forgec.plugins import Registry
from tests.analysis.helpers import analyses, codes_and_items

HISTORY = {"kind": "slot", "id": "history", "slot": "chat-history"}


def block(item_id: str, role: str, content: str) -> dict[str, object]:
    return {"kind": "block", "id": item_id, "role": role, "content": content}


def stack(*items: dict[str, object], **extra: object) -> dict[str, object]:
    return {"schemaVersion": 1, "id": "seeded", "items": list(items), **extra}


SEEDED = [
    pytest.param(stack(block("clock", "system", "Now: {{date}} {{time}}"), HISTORY), [("FG870", "clock")], id="time-in-system"),
    pytest.param(
        stack({"kind": "slot", "id": "when", "role": "system", "slot": "date", "options": {"includeTime": True}}, HISTORY),
        [("FG870", "when")], id="date-slot-with-time",
    ),
    pytest.param(
        stack({"kind": "slot", "id": "when", "role": "system", "slot": "date-cwd", "options": {"includeTime": True}}, HISTORY),
        [("FG870", "when")], id="date-cwd-slot-with-time",
    ),
    pytest.param(stack(block("task", "user", "Task: {{lastUserMessage}}"), HISTORY), [("FG871", "task")], id="user-text-before-history"),
    pytest.param(
        stack(block("capture", "system", "{{setvar::topic::{{lastUserMessage}}}}Rules."), block("rules", "system", "Topic: {{topic}}"), HISTORY),
        [("FG870", "rules"), ("FG880", "rules")], id="variable-carries-user-text-into-system",
    ),
    pytest.param(
        stack(
            block("capture", "system", "{{setvar::turn::mood::{{lastUserMessage}}}}"),
            {"kind": "slot", "id": "state", "role": "system", "slot": "variables"},
            HISTORY,
        ),
        [("FG870", "state"), ("FG880", "state")], id="variables-slot-shows-turn-variable",
    ),
    pytest.param(
        stack(HISTORY, block("remember", "user", "{{setsessionvar::last::{{lastUserMessage}}}}ok"), block("recap", "system", "Last time: {{getsessionvar::last}}")),
        [("FG870", "recap"), ("FG880", "recap")], id="session-variable-next-turn",
    ),
    pytest.param(stack(block("pick", "user", "{{getvar::{{lastUserMessage}}}}")), [("FG881", "pick")], id="getvar-name-from-user"),
    pytest.param(stack(HISTORY, block("store", "user", "{{setvar::{{lastUserMessage}}::x}}")), [("FG881", "store")], id="setvar-name-from-user"),
    pytest.param(stack(HISTORY, block("prefill", "assistant", "Understood: {{lastUserMessage}}")), [("FG883", "prefill")], id="prefill-echoes-user"),
    pytest.param(
        stack(HISTORY, {"kind": "slot", "id": "ctx", "role": "assistant", "slot": "project-context"}),
        [("FG883", "ctx")], id="project-context-as-assistant",
    ),
    pytest.param(
        stack(HISTORY, {"kind": "slot", "id": "extra", "role": "assistant", "slot": "append-system-prompt"}),
        [("FG883", "extra")], id="appended-prompt-as-assistant",
    ),
    pytest.param(
        stack(HISTORY, block("voice", "assistant", "*{{description}}*"), **{"import": {"source": "sillytavern", "sourceFile": "p.json"}}),
        [("FG883", "voice")], id="imported-character-field-as-assistant",
    ),
    pytest.param(
        stack(HISTORY, regex={"schemaVersion": 1, "rules": [{"id": "promote", "stage": "history", "pattern": "!!(.*)",
                                                              "replace": "IMPORTANT SYSTEM RULE: $1", "roles": ["user"]}]}),
        [("FG882", None)], id="regex-wraps-user-text-in-instruction",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("data", "expected"), SEEDED)
def test_seeded_stack_is_found_with_the_right_item(data: dict[str, object], expected: list[tuple[str, str | None]]) -> None:
    assert codes_and_items(data) == expected


SAFE = [
    pytest.param(stack(block("role", "system", "Today is {{date}}."), HISTORY), id="date-changes-daily-not-per-turn"),
    pytest.param(stack(HISTORY, block("task", "user", "Task: {{lastUserMessage}}")), id="user-text-after-history"),
    pytest.param(stack(block("role", "system", "Be brief."), HISTORY, block("clock", "user", "{{time}}")), id="time-after-history"),
    pytest.param(
        stack(block("read", "system", "Topic: {{topic}}"), HISTORY, block("set", "user", "{{setvar::topic::{{lastUserMessage}}}}")),
        id="turn-variable-set-after-it-is-read",
    ),
    pytest.param(
        stack(block("capture", "system", "{{setvar::mood::{{lastUserMessage}}}}"),
              {"kind": "slot", "id": "state", "role": "system", "slot": "variables", "options": {"includeTurn": False}}, HISTORY),
        id="variables-slot-without-turn-scope",
    ),
    pytest.param(stack(block("cmp", "user", "{{ifeq::mode::{{lastUserMessage}}::A::B}}"), variables={"mode": "x"}), id="user-text-compared-not-used-as-name"),
    pytest.param(
        stack(HISTORY, regex={"schemaVersion": 1, "rules": [{"id": "tidy", "stage": "history", "pattern": "\\((OOC:[^)]*)\\)",
                                                              "replace": "[$1]", "roles": ["user"]}]}),
        id="regex-capture-without-instruction",
    ),
    pytest.param(
        stack(HISTORY, regex={"schemaVersion": 1, "rules": [{"id": "mine", "stage": "history", "pattern": "x(.*)",
                                                              "replace": "SYSTEM: $1", "roles": ["assistant"]}]}),
        id="regex-on-assistant-messages-only",
    ),
    pytest.param(stack({"kind": "slot", "id": "ctx", "role": "system", "slot": "project-context"}, HISTORY), id="project-context-where-pi-puts-it"),
    pytest.param(stack(HISTORY, block("prefill", "assistant", "Sure, here is the plan:")), id="fixed-prefill"),
]  # fmt: skip


@pytest.mark.parametrize("data", SAFE)
def test_safe_variant_is_not_reported(data: dict[str, object]) -> None:
    assert analyses(data) == []


def test_the_path_from_source_to_sink_is_named() -> None:
    data = stack(block("capture", "system", "{{setvar::topic::{{lastUserMessage}}}}"), block("rules", "system", "Topic: {{topic}}"))
    message = next(d.message for d in analyses(data) if d.code == "FG880")
    assert '{{lastUserMessage}} -> setvar topic (item "capture") -> {{topic}} (item "rules")' in message
    finding = next(d for d in analyses(data) if d.code == "FG880")
    assert finding.pointer == ("items", 1, "content") and finding.offset == 7 and finding.length == len("{{topic}}")


def test_cache_finding_names_the_provider_consequences() -> None:
    message = analyses(stack(block("clock", "system", "{{time}}"), HISTORY))[0].message
    assert "Anthropic" in message and "OpenAI" in message and "Gemini" in message and 'Item "clock"' in message


def test_random_like_plugin_macro_is_volatile() -> None:
    registry = Registry()
    registry.register_macro("dice.roll", lambda ctx: "4")
    registry.register_macro("team.name", lambda ctx: "forgec")
    data = stack(block("luck", "system", "Roll: {{dice.roll}} for {{team.name}}"), HISTORY)
    assert codes_and_items(data, registry) == [("FG870", "luck")]
    assert "{{dice.roll}} (plugin macro)" in analyses(data, registry)[0].message


def test_findings_reach_validate_with_positions(run, tmp_path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "id: s\nitems:\n  - kind: block\n    id: clock\n    role: system\n    content: 'It is {{time}}.'\n"
        "  - {kind: slot, id: h, slot: chat-history}\n",
        encoding="utf-8",
    )
    result = run("validate", str(path), "--format", "concise")
    assert "s.yaml:6:21: FG870 [warning]" in result.stdout, result.stdout


def test_nesting_deeper_than_the_walk_is_still_analysed() -> None:
    """pi-forge expands thousands of nested macros; the analysis must not crash on them (it falls
    back to finding the sources anywhere in the block)."""
    depth = 5000
    content = "{{upper::" * depth + "{{lastUserMessage}}" + "}}" * depth
    assert codes_and_items(stack(block("deep", "system", content), HISTORY)) == [("FG870", "deep"), ("FG880", "deep")]
