"""The runtime built from a context, rule by rule (context-format.md and compile-core.md §16.15(c)):
accepted and rejected values, defaults, how the runtime is built, ``latestUserMessage`` derivation,
``toolSnippets`` / ``promptGuidelines``, and ``now`` parsing (the reference runner accepts what ``new Date(now)``
parses, so V8's date values are the expectations; checked with Node 20)."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.context import ContextError, load_context, parse_instant

MODEL = {"provider": "anthropic", "id": "claude", "api": "anthropic-messages"}


def test_defaults_build_the_documented_runtime() -> None:
    runtime = load_context({}).runtime()
    assert runtime.options == {
        "cwd": "/home/dev/project",
        "selectedTools": [],
        "toolSnippets": {},
        "promptGuidelines": [],
        "contextFiles": [],
        "skills": [],
    }
    assert list(runtime.options) == ["cwd", "selectedTools", "toolSnippets", "promptGuidelines", "contextFiles",
                                     "skills"]
    assert runtime.model is None
    assert runtime.latest_user_message is None
    assert runtime.now_ms == 1767225600000  # 2026-01-01T00:00:00Z
    assert runtime.time_zone == "UTC"
    assert runtime.base_system_prompt == ""
    assert runtime.messages == []
    context = load_context({})
    assert context.thinking_level == "off"
    assert context.finalize_messages is None
    assert context.session_variables == {}


def test_append_system_prompt_key_position_and_null() -> None:
    # options = {cwd, selectedTools, toolSnippets, promptGuidelines, appendSystemPrompt: ?? undefined, ...}
    runtime = load_context({"appendSystemPrompt": ""}).runtime()
    assert list(runtime.options)[4] == "appendSystemPrompt" and runtime.options["appendSystemPrompt"] == ""
    assert "appendSystemPrompt" not in load_context({"appendSystemPrompt": None}).runtime().options


def test_tools_become_selected_snippets_and_guidelines() -> None:
    tools = [
        {"name": "read", "snippet": "Read", "guidelines": ["g1", " g1 "]},
        {"name": "empty", "snippet": "", "guidelines": []},
        {"name": "none", "snippet": None},
        {"name": "off", "snippet": "Off", "guidelines": ["hidden"], "active": False},
        {"name": "bare"},
        {"name": "read", "guidelines": ["g1"]},
        {"name": "read", "snippet": "Again"},
    ]
    runtime = load_context({"tools": tools}).runtime()
    assert runtime.options["selectedTools"] == ["read", "empty", "none", "bare", "read", "read"]
    assert runtime.options["toolSnippets"] == {"read": "Again"}
    assert runtime.options["promptGuidelines"] == ["g1", " g1 ", "g1"]
    active = load_context({"tools": tools}).active_tools
    assert [t["name"] for t in active] == ["read", "empty", "none", "bare", "read", "read"]
    assert active[3] == {"name": "bare", "description": "", "snippet": None, "guidelines": [], "active": True,
                         "parameters": {"type": "object", "properties": {}}}


def test_context_files_drop_other_keys_and_skills_pass_through() -> None:
    skills = [{"name": "s", "description": "d", "filePath": "f", "baseDir": "b", "disableModelInvocation": 1}]
    files = [{"path": "p", "content": "c", "extra": 1}]
    runtime = load_context({"skills": skills, "contextFiles": files}).runtime()
    assert runtime.options["contextFiles"] == [{"path": "p", "content": "c"}]
    assert runtime.options["skills"] == skills


def test_model_is_passed_through_or_none() -> None:
    assert load_context({"model": MODEL}).runtime().model == MODEL
    extra = {**MODEL, "reasoning": True}
    assert load_context({"model": extra}).runtime().model == extra
    assert load_context({"model": None}).runtime().model is None


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([], None),
        ([{"role": "user", "content": "first"}, {"role": "user", "content": " \u3000\n"}], "first"),
        ([{"role": "user", "content": "a"}, {"role": "assistant", "content": [{"type": "text", "text": "b"}]}], "a"),
        (
            [{"role": "user", "content": [
                {"type": "text", "text": "x"},
                {"type": "image", "data": "", "mimeType": "image/png"},
                {"type": "thinking", "thinking": "t"},
                {"type": "toolCall", "id": "1", "name": "read", "arguments": {}},
            ]}],
            "x\n[image]\n<thinking>\nt\n</thinking>\n[toolCall: read]",
        ),
        ([{"role": "user", "content": "  keep spaces  "}], "  keep spaces  "),
        ([{"role": "user", "content": [{"type": "text", "text": " "}]}, {"role": "custom", "content": "c"}], None),
    ],
)
def test_latest_user_message_is_derived(messages: list[Any], expected: str | None) -> None:
    assert load_context({"messages": messages}).runtime().latest_user_message == expected


def test_latest_user_message_given_explicitly() -> None:
    messages = [{"role": "user", "content": "derived"}]
    assert load_context({"messages": messages, "latestUserMessage": None}).runtime().latest_user_message is None
    assert load_context({"messages": messages, "latestUserMessage": ""}).runtime().latest_user_message == ""
    assert load_context({"messages": messages, "latestUserMessage": "x"}).runtime().latest_user_message == "x"


def test_full_example_values_from_the_spec() -> None:
    # context-format.md *Full example*: the stated selectedTools / toolSnippets / promptGuidelines / instant
    tools = [
        {"name": "read", "description": "Read a file.", "snippet": "Read file contents",
         "guidelines": ["Use read to examine files instead of cat or sed."]},
        {"name": "bash", "description": "Run a command.", "snippet": "Execute bash commands", "guidelines": []},
        {"name": "deploy", "description": "Deploy the branch.", "snippet": None, "guidelines": []},
        {"name": "grep", "description": "Search files.", "snippet": "Search file contents",
         "guidelines": ["Prefer grep over bash for searching."], "active": False},
    ]
    messages = [{"role": "user", "content": [{"type": "text", "text": "Summarize it in one line."},
                                             {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}]
    runtime = load_context({"now": "2026-03-14T09:26:53+01:00", "tools": tools, "messages": messages}).runtime()
    assert runtime.options["selectedTools"] == ["read", "bash", "deploy"]
    assert list(runtime.options["toolSnippets"]) == ["read", "bash"]
    assert runtime.options["promptGuidelines"] == ["Use read to examine files instead of cat or sed."]
    assert runtime.latest_user_message == "Summarize it in one line.\n[image]"
    assert runtime.now_ms == 1773476813000  # 2026-03-14T08:26:53Z


@pytest.mark.parametrize(
    ("text", "millis"),
    [
        ("2026-07-04T23:05:09-04:00", 1783220709000),
        ("2026-01-01T00:00:00.1234567Z", 1767225600123),
        ("2026-01-01T24:00:00Z", 1767312000000),
        ("2026-01-01 00:00:00Z", 1767225600000),
        ("2026-01-01T00:00Z", 1767225600000),
        ("+002026-01-01T00:00:00Z", 1767225600000),
        ("-000001-01-01T00:00:00Z", -62198755200000),
        ("0000-01-01T00:00:00Z", -62167219200000),
        ("2026-02-29T00:00:00Z", 1772323200000),
        ("2026-02-30T00:00:00Z", 1772409600000),
        ("2026-04-31T00:00:00Z", 1777593600000),
        ("2026-01-01Z", 1767225600000),
        ("2026-01Z", 1767225600000),
        ("2026Z", 1767225600000),
        ("+275760-09-13T00:00:00Z", 8640000000000000),
        ("2026-01-01T00:00:00.5+05:30", 1767205800500),
    ],
)
def test_now_values_new_date_accepts(text: str, millis: int) -> None:
    assert parse_instant(text) == millis
    assert load_context({"now": text}).runtime().now_ms == millis


@pytest.mark.parametrize(
    "text",
    [
        "2026-01-01T00:00:00",
        "2026-01-01T00:00:00+0100",
        "2026-01-32T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-01-01T24:00:01Z",
        "2026-01-01T23:59:60Z",
        "2026-01-01T00:00:00,5Z",
        "2026-01-01T00:00:00.Z",
        "2026-01-01T10Z",
        "2026-01-01T00:00:00+24:00",
        "-000000-01-01T00:00:00Z",
        "+275760-09-13T00:00:01Z",
        " 2026-01-01T00:00:00Z",
        "2026-01-01+01:00",
    ],
)
def test_now_values_rejected(text: str) -> None:
    assert parse_instant(text) is None
    with pytest.raises(ContextError):
        load_context({"now": text})


@pytest.mark.parametrize(
    "data",
    [
        {"tools": [{"name": "a", "snippet": "x", "label": "a"}]},
        {"tools": [None]},
        {"model": {"provider": "p", "id": "i", "api": None}},
        {"model": []},
        {"model": True},
        {"skills": [{"name": "s", "description": "d", "filePath": None}]},
        {"skills": [None]},
        {"contextFiles": [{"content": "c"}]},
        {"contextFiles": None},
        {"variables": None},
        {"variables": "x"},
        {"messages": None},
        {"messages": [[]]},
        {"finalizeMessages": {}},
        {"cwd": 1},
        {"baseSystemPrompt": None},
        {"timezone": None},
        {"now": None},
        {"thinkingLevel": "OFF"},
        {"thinkingLevel": 1},
        {"latestUserMessage": ["x"]},
        {"Now": "2026-01-01T00:00:00Z"},
        {"tools": [{"name": "a", "parameters": None}]},
        {"tools": [{"name": "a", "active": None}]},
        {"tools": [{"name": "a", "guidelines": "x"}]},
    ],
)
def test_wrong_types_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ContextError):
        load_context(data)


@pytest.mark.parametrize("level", ["off", "minimal", "low", "medium", "high", "xhigh", "max"])
def test_thinking_levels_accepted(level: str) -> None:
    assert load_context({"thinkingLevel": level}).thinking_level == level


def test_comment_may_be_anything_and_variables_keep_any_json() -> None:
    context = load_context({"$comment": {"any": [1]}, "variables": {"n": 2, "l": [1, None], "o": {}, "s": "x"}})
    store = context.variable_store()
    assert store.session == {"n": 2, "l": [1, None], "o": {}, "s": "x"}
    assert store.turn == {} and store.session_dirty is False


def test_the_runtime_is_built_field_by_field_as_named() -> None:
    """``Context.runtime`` passes the ``Runtime`` fields by position (a keyword call cost more): every
    corpus context's runtime equals the one built by name from the same values, and owns its
    ``pi_docs`` (the default factory's fresh copy)."""
    from dataclasses import fields
    from pathlib import Path

    from forgec.model.messages import latest_user_text
    from forgec.model.runtime import PI_DOCS_FALLBACK, Runtime

    assert [f.name for f in fields(Runtime)] == [
        "options", "model", "latest_user_message", "now_ms", "time_zone", "pi_docs", "base_system_prompt", "messages",
    ]
    cases = Path(__file__).resolve().parents[2] / "conformance" / "cases"
    paths = sorted(cases.glob("*/context.json"))
    assert len(paths) > 100
    for path in paths:
        context = load_context(path)
        runtime = context.runtime()
        data = context.data
        named = Runtime(
            options=runtime.options,
            model=data["model"],
            latest_user_message=data["latestUserMessage"] if "latestUserMessage" in data else latest_user_text(data["messages"]),
            now_ms=context.now_ms,
            time_zone=data["timezone"],
            base_system_prompt=data["baseSystemPrompt"],
            messages=data["messages"],
        )
        assert runtime == named, path
        assert runtime.pi_docs == PI_DOCS_FALLBACK and runtime.pi_docs is not PI_DOCS_FALLBACK
        assert runtime.pi_docs is not context.runtime().pi_docs
