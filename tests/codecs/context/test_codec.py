"""The context codec: every corpus context loads, every rule of context-format.md rejects, YAML works."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.context import ContextError, load_context, parse_instant
from forgec.resources import schema_path

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
CONTEXT_FILES = sorted(CASES.glob("*/context.json"))

# context-format.md, *Full example*
FULL_EXAMPLE: dict[str, Any] = {
    "$comment": "Turn 3 of a small coding session.",
    "now": "2026-03-14T09:26:53+01:00",
    "timezone": "UTC",
    "cwd": "/home/dev/project",
    "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "api": "anthropic-messages"},
    "baseSystemPrompt": "You are an expert coding assistant operating inside pi.",
    "appendSystemPrompt": "Prefer small, reviewable changes.",
    "thinkingLevel": "medium",
    "tools": [
        {
            "name": "read",
            "description": "Read a file.",
            "snippet": "Read file contents",
            "guidelines": ["Use read to examine files instead of cat or sed."],
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
        {
            "name": "bash",
            "description": "Run a command.",
            "snippet": "Execute bash commands",
            "guidelines": [],
        },
        {"name": "deploy", "description": "Deploy the branch.", "snippet": None, "guidelines": []},
        {
            "name": "grep",
            "description": "Search files.",
            "snippet": "Search file contents",
            "guidelines": ["Prefer grep over bash for searching."],
            "active": False,
        },
    ],
    "skills": [
        {
            "name": "code-review",
            "description": "Review a diff for regressions.",
            "filePath": "/home/dev/.pi/agent/skills/code-review/SKILL.md",
            "baseDir": "/home/dev/.pi/agent/skills/code-review",
            "disableModelInvocation": False,
        }
    ],
    "contextFiles": [
        {"path": "/home/dev/project/AGENTS.md", "content": "# Rules\n\n- Run `npm test`.", "x": 1}
    ],
    "variables": {"topic": "rate limiting", "attempts": 2, "flags": ["brief", "technical"]},
    "messages": [
        {
            "role": "compactionSummary",
            "summary": "Earlier.",
            "tokensBefore": 48213,
            "timestamp": 1773476001000,
        },
        {"role": "user", "content": "Can you look at README.md?", "timestamp": 1773476002000},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Summarize it in one line."},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            ],
            "timestamp": 1773476008000,
        },
    ],
}


@pytest.mark.parametrize("path", CONTEXT_FILES, ids=lambda p: p.parent.name)
def test_every_corpus_context_loads(path: Path) -> None:
    context = load_context(path)
    runtime = context.runtime()
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert runtime.options["selectedTools"] == [
        t["name"] for t in raw.get("tools", []) if t.get("active", True)
    ]
    assert runtime.base_system_prompt == raw.get("baseSystemPrompt", "")


def test_full_example_runtime() -> None:
    runtime = load_context(copy.deepcopy(FULL_EXAMPLE)).runtime()
    assert runtime.options["selectedTools"] == ["read", "bash", "deploy"]
    assert runtime.options["toolSnippets"] == {"read": "Read file contents", "bash": "Execute bash commands"}
    assert runtime.options["promptGuidelines"] == ["Use read to examine files instead of cat or sed."]
    assert runtime.latest_user_message == "Summarize it in one line.\n[image]"
    assert runtime.options["appendSystemPrompt"] == "Prefer small, reviewable changes."
    assert runtime.options["contextFiles"] == [
        {"path": "/home/dev/project/AGENTS.md", "content": "# Rules\n\n- Run `npm test`."}
    ]
    assert list(runtime.options) == [
        "cwd", "selectedTools", "toolSnippets", "promptGuidelines", "appendSystemPrompt", "contextFiles", "skills",
    ]  # fmt: skip
    from forgec.compile.slots.helpers import format_local_date, format_local_time

    assert format_local_date(runtime.now_ms, runtime.time_zone) == "2026-03-14"
    assert format_local_time(runtime.now_ms, runtime.time_zone) == "08:26:53"


def test_defaults() -> None:
    context = load_context({})
    runtime = context.runtime()
    assert runtime.now_ms == 1767225600000
    assert runtime.time_zone == "UTC"
    assert runtime.options == {
        "cwd": "/home/dev/project",
        "selectedTools": [],
        "toolSnippets": {},
        "promptGuidelines": [],
        "contextFiles": [],
        "skills": [],
    }
    assert runtime.model is None and runtime.latest_user_message is None and runtime.base_system_prompt == ""
    assert context.thinking_level == "off"
    assert context.finalize_messages is None
    assert context.session_variables == {}


def test_tool_defaults_and_payload_view() -> None:
    context = load_context({"tools": [{"name": "bash"}, {"name": "off", "active": False}]})
    assert context.tools[0] == {
        "name": "bash",
        "description": "",
        "snippet": None,
        "guidelines": [],
        "active": True,
        "parameters": {"type": "object", "properties": {}},
    }
    assert [t["name"] for t in context.active_tools] == ["bash"]


def test_empty_snippet_gives_no_entry() -> None:
    # compile-core §16.4: "", null and a missing snippet give no toolSnippets entry
    tools = [{"name": "deploy", "snippet": ""}, {"name": "nul", "snippet": None}, {"name": "abs"}]
    assert load_context({"tools": tools}).runtime().options["toolSnippets"] == {}


def test_inactive_tools_do_not_contribute() -> None:
    tools = [{"name": "grep", "snippet": "s", "guidelines": ["g"], "active": False}]
    options = load_context({"tools": tools}).runtime().options
    assert (
        options["selectedTools"] == [] and options["toolSnippets"] == {} and options["promptGuidelines"] == []
    )


def test_guidelines_passed_verbatim() -> None:
    tools = [{"name": "a", "guidelines": [" x ", "x"]}, {"name": "b", "guidelines": ["x"]}]
    assert load_context({"tools": tools}).runtime().options["promptGuidelines"] == [" x ", "x", "x"]


def test_latest_user_message() -> None:
    messages = [{"role": "user", "content": "first"}, {"role": "user", "content": "  "}]
    assert load_context({"messages": messages}).runtime().latest_user_message == "first"
    assert (
        load_context({"messages": messages, "latestUserMessage": None}).runtime().latest_user_message is None
    )
    assert (
        load_context({"messages": messages, "latestUserMessage": " x "}).runtime().latest_user_message
        == " x "
    )


def test_null_append_is_absent() -> None:
    assert "appendSystemPrompt" not in load_context({"appendSystemPrompt": None}).runtime().options


def test_now_offset_selects_instant_only() -> None:
    # context-format.md: "2026-07-04T23:05:09-04:00" renders as 2026-07-05 / 03:05:09 under UTC
    from forgec.compile.slots.helpers import format_local_date, format_local_time

    runtime = load_context({"now": "2026-07-04T23:05:09-04:00"}).runtime()
    assert format_local_date(runtime.now_ms, "UTC") == "2026-07-05"
    assert format_local_time(runtime.now_ms, "UTC") == "03:05:09"
    tokyo = load_context({"now": "2026-07-04T23:05:09-04:00", "timezone": "Asia/Tokyo"}).runtime()
    assert format_local_time(tokyo.now_ms, tokyo.time_zone) == "12:05:09"


def test_parse_instant() -> None:
    assert parse_instant("2026-01-01T00:00:00Z") == 1767225600000
    assert parse_instant("2026-01-01T00:00:00.1239Z") == 1767225600123
    assert parse_instant("2026-01-01T01:00+01:00") == 1767225600000
    for bad in ("2026-01-01T00:00:00", "2026-01-01", "2026-01-32T00:00:00Z", "2026-01-01T25:00:00Z", "soon"):
        assert parse_instant(bad) is None


# (context, the field the message must name) — one entry per rule of context-format.md
INVALID: list[tuple[Any, str]] = [
    ([], "JSON object"),
    ({"timeZone": "UTC"}, "timeZone"),
    ({"now": 5}, "now"),
    ({"now": "2026-01-01T00:00:00"}, "now"),
    ({"now": "tomorrow"}, "now"),
    ({"timezone": ""}, "timezone"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
    ({"timezone": 1}, "timezone"),
    ({"cwd": None}, "cwd"),
    ({"baseSystemPrompt": 1}, "baseSystemPrompt"),
    ({"appendSystemPrompt": ["a"]}, "appendSystemPrompt"),
    ({"model": {}}, "model"),
    ({"model": {"provider": "p", "id": "i"}}, "api"),
    ({"model": {"provider": "p", "id": 1, "api": "a"}}, "model.id"),
    ({"model": "anthropic"}, "model"),
    ({"tools": {}}, "tools"),
    ({"tools": ["read"]}, "tools[0]"),
    ({"tools": [{"name": "a", "label": "A"}]}, "label"),
    ({"tools": [{"snippet": "x"}]}, "name"),
    ({"tools": [{"name": 1}]}, "tools[0].name"),
    ({"tools": [{"name": "a", "snippet": 1}]}, "tools[0].snippet"),
    ({"tools": [{"name": "a", "guidelines": None}]}, "tools[0].guidelines"),
    ({"tools": [{"name": "a", "guidelines": ["ok", 2]}]}, "tools[0].guidelines[1]"),
    ({"tools": [{"name": "a", "active": 0}]}, "tools[0].active"),
    ({"tools": [{"name": "a", "active": "no"}]}, "tools[0].active"),
    ({"tools": [{"name": "a", "description": None}]}, "tools[0].description"),
    ({"tools": [{"name": "a", "parameters": []}]}, "tools[0].parameters"),
    ({"skills": [{"name": "s", "description": "d"}]}, "filePath"),
    ({"skills": [{"name": "s", "description": None, "filePath": "f"}]}, "skills[0].description"),
    ({"skills": "none"}, "skills"),
    ({"contextFiles": [{"path": "p"}]}, "content"),
    ({"contextFiles": [{"path": 1, "content": ""}]}, "contextFiles[0].path"),
    ({"variables": []}, "variables"),
    ({"messages": {}}, "messages"),
    ({"messages": ["hi"]}, "messages[0]"),
    ({"finalizeMessages": None}, "finalizeMessages"),
    ({"finalizeMessages": [1]}, "finalizeMessages[0]"),
    ({"latestUserMessage": 3}, "latestUserMessage"),
    ({"thinkingLevel": "extreme"}, "thinkingLevel"),
    ({"thinkingLevel": None}, "thinkingLevel"),
]


@pytest.mark.parametrize(("data", "field"), INVALID, ids=[f"{i}-{f}" for i, (_, f) in enumerate(INVALID)])
def test_invalid_context_rejected(data: Any, field: str) -> None:
    with pytest.raises(ContextError) as info:
        load_context(data)
    assert field in str(info.value)


def test_unknown_field_suggestion() -> None:
    with pytest.raises(ContextError, match='did you mean "timezone"'):
        load_context({"timeZone": "UTC"})


def test_error_carries_path_and_pointer(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text('{"tools": [{"name": "a", "active": "no"}]}', encoding="utf-8")
    with pytest.raises(ContextError) as info:
        load_context(path)
    assert info.value.path == str(path)
    assert info.value.pointer == ("tools", 0, "active")
    assert str(info.value).startswith(str(path) + ": tools[0].active must be true or false")


def test_bad_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text('{"now": NaN}', encoding="utf-8")
    with pytest.raises(ContextError, match=r"ctx\.json:1:9: FG001 \[error\] Failed to parse JSON: Unexpected token 'N'"):
        load_context(path)
    path.write_text('{"now": ', encoding="utf-8")
    with pytest.raises(ContextError, match=r"FG001 \[error\] Failed to parse JSON: Unexpected end of JSON input"):
        load_context(path)
    with pytest.raises(ContextError, match=r"FG002 \[error\] cannot read the context file: ENOENT: no such file"):
        load_context(tmp_path / "missing.json")


def test_yaml_context(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text(
        "now: 2026-03-14T09:26:53+01:00\n"
        "timezone: Europe/Berlin\n"
        "tools:\n"
        "  - name: read\n"
        "    snippet: Read file contents\n"
        "  - {name: grep, active: false}\n"
        "variables: {attempts: 2, ratio: 0.5, flag: yes}\n"
        "messages:\n"
        "  - role: user\n"
        "    content: Hello\n",
        encoding="utf-8",
    )
    context = load_context(path)
    runtime = context.runtime()
    assert runtime.options["selectedTools"] == ["read"]
    assert runtime.now_ms == 1773476813000
    assert runtime.latest_user_message == "Hello"
    assert context.session_variables == {"attempts": 2, "ratio": 0.5, "flag": "yes"}
    assert type(context.session_variables["attempts"]) is int


def test_yaml_errors(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yml"
    path.write_text("tools: [\n", encoding="utf-8")
    with pytest.raises(ContextError, match=r"ctx\.yml:2:1: FG003 \[error\] Failed to parse YAML"):
        load_context(path)
    path.write_text("tools:\n  - name: a\n    active: 1\n", encoding="utf-8")
    with pytest.raises(ContextError, match=r"tools\[0\]\.active"):
        load_context(path)


def test_caller_dict_not_mutated() -> None:
    data = {"tools": [{"name": "a"}]}
    load_context(data)
    assert data == {"tools": [{"name": "a"}]}


def test_builtin_sample() -> None:
    context = load_context(None)
    runtime = context.runtime()
    assert runtime.options["selectedTools"] == ["read", "bash", "edit", "write"]
    assert runtime.options["contextFiles"] and runtime.options["skills"] and runtime.model
    assert runtime.latest_user_message == "Fix it and keep the change small."
    assert context.source is None


def _schema_validator() -> Any:
    import jsonschema

    schema = json.loads(schema_path("context").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", [*CONTEXT_FILES[:1], None], ids=["corpus", "sample"])
def test_schema_accepts_valid(path: Path | None) -> None:
    from forgec.codecs.context import sample_context_path

    source = sample_context_path() if path is None else path
    assert not list(_schema_validator().iter_errors(json.loads(source.read_text(encoding="utf-8"))))


def test_schema_agrees_on_corpus() -> None:
    validator = _schema_validator()
    for path in CONTEXT_FILES:
        assert not list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))), path


# the schema cannot know which zone names exist; everything else it rejects too
@pytest.mark.parametrize("data", [d for d, _ in INVALID if d != {"timezone": "Mars/Olympus"}])
def test_schema_rejects_invalid(data: Any) -> None:
    assert list(_schema_validator().iter_errors(data))
