"""The chat-history pipeline (compile-core §8.1–§8.9 and §16.14) through ``compile_report``: sources,
diagnostics, texts.

Expected values come from the "Observed"/"Verified" paragraphs of §8.3, §8.6, §8.9, §16.14 and the
conformance notes on chat history; the rest restate the rule texts with minimal inputs.
"""

from __future__ import annotations

import json
from typing import Any

from forgec.report import compile_report

from .spec_history import observed_history


def _report(items: list[dict[str, Any]], messages: list[Any], **stack: Any) -> dict[str, Any]:
    doc = {"schemaVersion": 1, "id": "audit", "items": items, **stack}
    return compile_report(doc, {"messages": messages}).to_report()


def _slot(options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"kind": "slot", "id": "h", "slot": "chat-history", **extra}
    if options is not None:
        item["options"] = options
    return item


def _run(options: dict[str, Any], messages: list[Any] | None = None) -> tuple[list[Any], list[dict[str, Any]]]:
    report = _report([_slot(options)], observed_history() if messages is None else messages)
    return report["messages"]["messages"], report["messages"]["diagnostics"]


def test_observed_roles_filter() -> None:
    out, diags = _run({"roles": ["user", "assistant"]})
    assert [m["role"] for m in out] == ["user", "assistant", "assistant", "user"]
    assert out[1]["content"] == [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "a1"}]
    assert diags == [
        {"level": "info", "message": "Filtered 4 chat-history message(s) by role.", "itemId": "h"},
        {
            "level": "info",
            "message": "Repaired tool history after chat-history filtering: removed 2 dangling tool call(s), "
            "dropped 0 dangling tool result message(s), and dropped 1 empty message(s).",
            "itemId": "h",
        },
    ]


def test_observed_max_messages_then_repair() -> None:
    out, diags = _run({"maxMessages": 4.0})  # §0.3: 4.0 is an integer
    assert [m["role"] for m in out] == ["assistant", "branchSummary", "user"]
    assert [d["message"] for d in diags] == [
        "Trimmed chat history from 9 to 4 message(s) by maxMessages.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
    ]


def test_observed_max_chars() -> None:
    out, diags = _run({"maxChars": 5})
    assert [m["role"] for m in out] == ["branchSummary", "user"]
    assert [d["message"] for d in diags] == ["Trimmed chat history from 9 to 2 message(s) by maxChars."]


def test_invalid_limits_are_ignored_silently() -> None:
    for options in ({"maxMessages": 2.5}, {"maxMessages": True}, {"maxChars": "5"}, {"maxChars": 0}, {"maxMessages": -1}):
        out, diags = _run(options)
        assert len(out) == 9 and diags == [], options


def test_max_chars_counts_utf16_units_and_stops_at_first_overflow() -> None:
    """§8.3 step 6 / §0.7: an emoji is 2 units; no skipping to smaller older messages."""
    messages = [
        {"role": "user", "content": "a"},
        {"role": "user", "content": "bbbbbbbbbb"},
        {"role": "user", "content": "😺😺"},
        {"role": "user", "content": "😺"},
    ]
    out, diags = _run({"maxChars": 6}, messages)
    assert [m["content"] for m in out] == ["😺😺", "😺"]
    assert [d["message"] for d in diags] == ["Trimmed chat history from 4 to 2 message(s) by maxChars."]


def test_max_chars_measures_bash_and_summary_preview_text() -> None:
    """§8.9 previewText: bashExecution adds ``Ran <command>\\n<output>``, summaries add ``summary``."""
    messages = [
        {"role": "user", "content": "old"},
        {"role": "bashExecution", "content": "c", "command": "ls", "output": "o"},  # "cRan ls\no" = 9
    ]
    out, _ = _run({"maxChars": 9}, messages)
    assert len(out) == 1
    out, _ = _run({"maxChars": 12}, messages)
    assert len(out) == 2


def test_pipeline_order_and_messages() -> None:
    """§8.3: last-user → summaries → roles → toolMode → thinking → limits → repair, in this order."""
    out, diags = _run(
        {
            "includeLastUserMessage": False,
            "includeSummaries": False,
            "toolMode": "x",
            "stripAssistantThinking": True,
            "maxMessages": 3,
        }
    )
    assert [d["message"] for d in diags] == [
        "Filtered 2 chat-history message(s) by summary.",
        "Unsupported chat-history toolMode: x.",
        "Stripped 2 assistant thinking block(s) from 2 chat-history message(s) and dropped 1 empty assistant message(s).",
        "Trimmed chat history from 5 to 3 message(s) by maxMessages.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
    ]
    assert [m["role"] for m in out] == ["assistant", "toolResult"]


def test_tool_mode_values() -> None:
    for value, text in ((3, "3"), (None, "null"), ("DROP", "DROP"), ([1, None, [2]], "1,,2")):
        _, diags = _run({"toolMode": value})
        assert [d["message"] for d in diags] == [f"Unsupported chat-history toolMode: {text}."]
        assert diags[0]["level"] == "warning"
    _, diags = _run({"toolMode": "keep"})
    assert diags == []


def test_tool_drop_disables_repair() -> None:
    out, diags = _run({"toolMode": "drop", "maxMessages": 5})
    assert [d["message"] for d in diags] == [
        "Dropped tool history from chat-history: removed 2 tool call(s), dropped 2 tool result message(s), "
        "and dropped 1 empty message(s).",
        "Trimmed chat history from 6 to 5 message(s) by maxMessages.",
    ]
    assert "toolResult" not in [m["role"] for m in out]


def test_tool_drop_keeps_already_empty_content() -> None:
    messages = [{"role": "assistant", "content": []}, {"role": "user", "content": [{"type": "toolCall", "id": "z"}]}]
    out, diags = _run({"toolMode": "drop"}, messages)
    assert out == [{"role": "assistant", "content": []}]
    assert [d["message"] for d in diags] == [
        "Dropped tool history from chat-history: removed 1 tool call(s), dropped 0 tool result message(s), "
        "and dropped 1 empty message(s)."
    ]


def test_observed_tool_pair_repair_with_id_fallbacks() -> None:
    """§8.6 'Observed'."""
    messages = [
        {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "callId": "k1", "name": "a"},
                {"type": "toolCall", "name": "b"},
                {"type": "text", "text": "t", "id": "k3"},
            ],
        },
        {"role": "toolResult", "id": "k1", "content": []},
        {"role": "toolResult", "callId": "k3", "content": []},
        {"role": "toolResult", "toolCallId": "", "id": "k1", "content": []},
        {"role": "toolResult", "content": []},
    ]
    out, diags = _run({"roles": ["assistant", "toolResult"]}, messages)
    assert out[0]["content"] == [
        {"type": "toolCall", "callId": "k1", "name": "a"},
        {"type": "text", "text": "t", "id": "k3"},
    ]
    assert out[1:] == messages[1:4]
    assert [d["message"] for d in diags] == [
        "Repaired tool history after chat-history filtering: removed 1 dangling tool call(s), "
        "dropped 1 dangling tool result message(s)."
    ]


def test_repair_collects_call_ids_from_tool_result_parts() -> None:
    """§8.6 pass 1: parts inside toolResult messages count as call ids."""
    messages = [
        {"role": "toolResult", "toolCallId": "r1", "content": [{"type": "text", "text": "x", "toolCallId": "r1"}]},
    ]
    out, diags = _run({"roles": ["toolResult"]}, messages)
    assert out == messages and diags == []


def test_verified_array_roles() -> None:
    """§16.14 'Verified': role ``["toolResult"]`` is a tool result for repair, drop and sources."""
    messages = [
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "x"}]},
        {"role": ["toolResult"], "toolCallId": "c1", "content": "r"},
        {"role": ["toolResult"], "toolCallId": "zz", "content": "r"},
    ]
    report = _report([_slot({"roles": ["assistant", "toolResult"]})], messages)
    assert report["messages"]["messages"] == messages[:2]
    assert [s["role"] for s in report["messages"]["sources"]] == ["assistant", "toolResult"]
    out, diags = _run({"toolMode": "drop"}, messages)
    assert out == []
    assert [d["message"] for d in diags] == [
        "Dropped tool history from chat-history: removed 1 tool call(s), dropped 2 tool result message(s), "
        "and dropped 1 empty message(s)."
    ]


def test_role_reading_strict_vs_string() -> None:
    """§16.14: last-user removal and thinking strip compare strictly; roles filter uses String() with ''."""
    messages = [
        {"role": "user", "content": "keep"},
        {"role": ["user"], "content": "array"},
        {"role": ["assistant"], "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "a"}]},
        {"content": "no role"},
    ]
    out, diags = _run({"includeLastUserMessage": False, "stripAssistantThinking": True}, messages)
    assert [m["content"] for m in out][1:] == [m["content"] for m in messages[2:]]
    assert diags == []
    out, _ = _run({"roles": [""]}, messages)
    assert out == [messages[3]]


def test_sources_and_duplicate_slots() -> None:
    """§8.1, §1.4: two slots each start from the original list; the string "false" allows duplicates."""
    messages = [{"role": "user", "content": "q"}, {"content": "no role"}]
    items = [
        _slot(name=" Hist "),
        {"kind": "block", "id": "mid", "role": "user", "content": "  mid  \n"},
        {"kind": "slot", "id": "h2", "slot": "chat-history", "role": "system", "options": {"roles": ["user"]}},
    ]
    report = _report(items, messages, context={"allowDuplicateChatHistory": "false"})
    msgs = report["messages"]
    assert msgs["sources"] == [
        {"kind": "chat-history", "itemId": "h", "itemName": " Hist ", "slot": "chat-history",
         "historyIndex": 1, "historyCount": 2, "role": "user"},
        {"kind": "chat-history", "itemId": "h", "itemName": " Hist ", "slot": "chat-history",
         "historyIndex": 2, "historyCount": 2, "role": ""},
        {"kind": "stack-item", "itemId": "mid", "role": "user"},
        {"kind": "chat-history", "itemId": "h2", "slot": "chat-history",
         "historyIndex": 1, "historyCount": 1, "role": "user"},
    ]  # fmt: skip
    assert msgs["messages"][2]["content"] == [{"type": "text", "text": "  mid  \n"}]
    report = _report(items, messages)
    assert report["messages"]["diagnostics"] == [
        {"level": "warning", "message": "Skipped duplicate chat-history slot.", "itemId": "h2"}
    ]
    assert len(report["messages"]["messages"]) == 3


def test_implicit_history_untouched_by_history_rules() -> None:
    """§8.1 step 4: no slot → original messages, implicit sources, no history-stage regex."""
    messages = [{"role": "user", "content": "x"}]
    rules = [{"id": "r", "stage": "history", "pattern": "x", "replace": "y"}]
    report = _report([{"kind": "block", "id": "b", "role": "system", "content": "s"}], messages,
                     regex={"rules": rules})  # fmt: skip
    assert report["messages"]["messages"] == messages
    assert report["messages"]["sources"] == [
        {"kind": "implicit-history", "itemName": "Conversation history", "slot": "chat-history",
         "historyIndex": 1, "historyCount": 1, "role": "user"}
    ]  # fmt: skip


def test_synthetic_shapes() -> None:
    """§8.2: exact key order; unknown roles give the user shape; display copied as given."""
    items = [
        {"kind": "block", "id": "a", "role": "assistant", "content": "A"},
        {"kind": "block", "id": "c", "role": "custom", "content": "C"},
    ]
    doc = {"schemaVersion": 1, "id": "audit", "items": items, "defaults": {"syntheticMessagesVisible": "no"}}
    report = compile_report(doc, {"now": "2026-01-01T00:00:00.5Z"}).to_report()
    a, c = report["messages"]["messages"][:2]
    assert json.dumps(a) == json.dumps({
        "role": "assistant", "content": [{"type": "text", "text": "A"}], "api": "unknown",
        "provider": "unknown", "model": "unknown",
        "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": "stop", "timestamp": 1767225600500,
    })  # fmt: skip
    assert json.dumps(c) == json.dumps({
        "role": "custom", "customType": "pi-forge", "content": [{"type": "text", "text": "C"}],
        "display": "no", "details": {"stackId": "audit"}, "timestamp": 1767225600500,
    })  # fmt: skip


def test_last_user_message_with_image_parts() -> None:
    """§8.9 latestUserText: image-only user message gives ``[image]``; blank ones are skipped; untrimmed."""
    items = [{"kind": "block", "id": "b", "role": "system", "content": "<{{lastUserMessage}}>"}]
    cases = [
        ([{"role": "user", "content": [{"type": "image", "data": "AA", "mimeType": "image/png"}]}], "[image]"),
        (
            [
                {"role": "user", "content": [{"type": "text", "text": " hi "}, {"type": "image", "data": "A"}]},
                {"role": "user", "content": [{"type": "text", "text": " \n "}]},
                {"role": "assistant", "content": [{"type": "text", "text": "later"}]},
            ],
            " hi \n[image]",
        ),
        ([{"role": "user", "content": "  "}], ""),
        ([{"role": ["user"], "content": "array role"}], ""),
    ]
    for messages, expected in cases:
        report = _report(items, messages)
        assert report["system"]["prompt"] == f"<{expected}>", messages


def test_content_text_rules() -> None:
    """§8.9 contentText via ``{{lastUserMessage}}``: parts rendered and joined, empty ones dropped."""
    parts = [
        {"type": "text", "text": "a"},
        {"type": "text", "text": 5},
        {"type": "thinking", "thinking": "th"},
        {"type": "toolCall", "name": 7},
        {"type": "toolCall", "name": None},
        {"type": "image"},
        "raw",
        None,
        {"type": "other", "text": "x"},
        {"type": "text", "text": ""},
    ]
    items = [{"kind": "block", "id": "b", "role": "system", "content": "{{json::{{lastUserMessage}}}}"}]
    report = _report(items, [{"role": "user", "content": parts}])
    assert json.loads(report["system"]["prompt"]) == (
        "a\n<thinking>\nth\n</thinking>\n[toolCall: 7]\n[toolCall: unknown]\n[image]"
    )
