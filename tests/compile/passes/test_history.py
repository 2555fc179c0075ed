"""The chat-history pipeline and text helpers against the observed examples of compile-core.md §8."""

from __future__ import annotations

from typing import Any

from forgec.compile.passes.history import (
    chat_history_pipeline,
    content_text,
    latest_user_text,
    preview_text,
    role_of,
)
from forgec.diagnostics import Diagnostic

from .spec_history import observed_history


def _run(options: dict[str, Any], messages: list[Any] | None = None) -> tuple[list[Any], list[str]]:
    diagnostics: list[Diagnostic] = []
    item = {"kind": "slot", "id": "h", "slot": "chat-history", "options": options}
    out = chat_history_pipeline(messages if messages is not None else observed_history(), item, diagnostics)
    assert all(d.item_id == "h" for d in diagnostics)
    return out, [d.message for d in diagnostics]


def test_roles_filter_then_repair() -> None:
    out, diags = _run({"roles": ["user", "assistant"]})
    assert [content_text(m["content"]) for m in out] == [
        "q1",
        "<thinking>\nt\n</thinking>\na1",
        "<thinking>\nonly thinking here.......\n</thinking>",
        "q2",
    ]
    assert diags == [
        "Filtered 4 chat-history message(s) by role.",
        "Repaired tool history after chat-history filtering: removed 2 dangling tool call(s), "
        "dropped 0 dangling tool result message(s), and dropped 1 empty message(s).",
    ]


def test_max_messages_repairs_orphaned_result() -> None:
    out, diags = _run({"maxMessages": 4})
    assert [m["role"] for m in out] == ["assistant", "branchSummary", "user"]
    assert diags == [
        "Trimmed chat history from 9 to 4 message(s) by maxMessages.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
    ]


def test_max_chars_keeps_newest_and_stops_at_first_overflow() -> None:
    out, diags = _run({"maxChars": 5})
    assert [m["role"] for m in out] == ["branchSummary", "user"]
    assert diags[0] == "Trimmed chat history from 9 to 2 message(s) by maxChars."


def test_max_chars_always_keeps_newest_message() -> None:
    out, diags = _run({"maxChars": 1}, [{"role": "user", "content": "long text"}])
    assert len(out) == 1 and diags == []


def test_invalid_limits_are_ignored() -> None:
    out, diags = _run({"maxMessages": 2.5, "maxChars": True})
    assert len(out) == 9 and diags == []
    out, _ = _run({"maxMessages": 3.0})
    assert len(out) == 3


def test_strip_thinking_counts_and_drops() -> None:
    out, diags = _run({"stripAssistantThinking": True})
    assert diags == [
        "Stripped 2 assistant thinking block(s) from 2 chat-history message(s) "
        "and dropped 1 empty assistant message(s)."
    ]
    assert len(out) == 8
    # shallow copy with content replaced in place
    assert list(out[2]) == ["role", "content"]
    assert [p["type"] for p in out[2]["content"]] == ["text", "toolCall"]


def test_tool_drop_has_no_repair() -> None:
    out, diags = _run({"toolMode": "drop", "roles": ["user", "assistant", "toolResult"]})
    assert diags == [
        "Filtered 2 chat-history message(s) by role.",
        "Dropped tool history from chat-history: removed 2 tool call(s), dropped 2 tool result message(s), "
        "and dropped 1 empty message(s).",
    ]
    assert [m["role"] for m in out] == ["user", "assistant", "assistant", "user"]


def test_unsupported_tool_mode_texts() -> None:
    for value, text in (("x", "x"), (3, "3"), (None, "null")):
        _, diags = _run({"toolMode": value})
        assert diags == [f"Unsupported chat-history toolMode: {text}."]
    assert _run({"toolMode": "keep"})[1] == []


def test_include_last_user_and_summaries() -> None:
    out, diags = _run({"includeLastUserMessage": False, "includeSummaries": False})
    assert [m["role"] for m in out][-1] == "assistant"
    assert diags == ["Filtered 2 chat-history message(s) by summary."]


def test_roles_filter_disabled_by_non_string_or_empty() -> None:
    for roles in ([], ["user", 3]):
        out, diags = _run({"roles": roles})
        assert len(out) == 9 and diags == []


def test_repair_id_fallbacks() -> None:
    """§8.6 observed: ids under callId/toolCallId, text parts carrying ids, id-less results."""
    messages = [
        {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "callId": "k1"},
                {"type": "toolCall"},
                {"type": "text", "text": "x", "id": "k3"},
            ],
        },
        {"role": "toolResult", "id": "k1"},
        {"role": "toolResult", "callId": "k3"},
        {"role": "toolResult", "toolCallId": "", "id": "k1"},
        {"role": "toolResult"},
        {"role": "user", "content": "go"},
    ]
    out, diags = _run({"roles": ["assistant", "toolResult", "user"]}, messages)
    assert diags == [
        "Repaired tool history after chat-history filtering: removed 1 dangling tool call(s), "
        "dropped 1 dangling tool result message(s)."
    ]
    assert len(out) == 5
    assert len(out[0]["content"]) == 2


def test_role_as_array_reads_as_string() -> None:
    messages = [{"role": ["toolResult"], "toolCallId": "zz"}, {"role": "user", "content": "u"}]
    out, _ = _run({"toolMode": "drop"}, messages)
    assert [role_of(m) for m in out] == ["user"]


def test_text_helpers() -> None:
    assert preview_text({"role": "bashExecution", "content": "c", "command": "ls", "output": "o"}) == "cRan ls\no"
    assert preview_text({"role": "bashExecution"}) == "Ran \n"
    assert preview_text({"role": "branchSummary", "summary": "s"}) == "s"
    parts = [
        {"type": "thinking", "thinking": "th"},
        {"type": "text", "text": "ans"},
        {"type": "toolCall", "name": "read"},
        {"type": "image"},
        {"type": "toolCall"},
        None,
        {"type": "text", "text": ""},
    ]
    assert content_text(parts) == "<thinking>\nth\n</thinking>\nans\n[toolCall: read]\n[image]\n[toolCall: unknown]"
    assert content_text(5) == ""


def test_latest_user_text() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": " first "}]},
        {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
        {"role": "user", "content": "  \n "},
    ]
    assert latest_user_text(messages) == " first "
    assert latest_user_text([{"role": "user", "content": [{"type": "image"}]}]) == "[image]"
    assert latest_user_text([]) is None
    assert latest_user_text([{"role": ["user"], "content": "x"}]) is None


# --- the fused walk (docs/performance-log.md "Stop 23: the 50,000-message history rows") -------------


def test_preview_len_is_the_utf16_length_of_the_preview_text() -> None:
    from forgec.js.values import js_len
    from forgec.model.messages import preview_len

    parts: list[Any] = [
        {"type": "text", "text": "a😀b"},  # an astral character counts two units
        {"type": "text", "text": ""},  # empty: no part, no separator
        {"type": "thinking", "thinking": "ü"},
        {"type": "toolCall", "name": "read"},
        {"type": "toolCall"},  # "[toolCall: unknown]"
        {"type": "toolCall", "name": 5},
        {"type": "image"},
        {"type": "other"},
        None,
        {"type": "text", "text": "a\ud800"},  # a lone surrogate is one unit
    ]
    messages: list[Any] = [
        {"role": "assistant", "content": parts},
        {"role": "user", "content": parts[:1]},
        {"role": "bashExecution", "content": parts[:2], "command": "ls", "output": None},
        {"role": "compactionSummary", "content": parts[3:5], "summary": "so far"},
        {"role": ["user"], "content": "plain 😀"},
        {"content": parts[6:]},
        "not a message",
    ]
    assert [preview_len(m) for m in messages] == [js_len(preview_text(m)) for m in messages]
    # hand-counted: "a😀b" (4) + "\n" + "<thinking>\nü\n</thinking>" (24) + "\n" + "[toolCall: read]" (16)
    assert preview_len({"role": "assistant", "content": parts[:4]}) == 4 + 1 + 24 + 1 + 16


def test_well_paired_history_is_returned_without_a_copy_of_any_message() -> None:
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read"}]},
        {"role": "toolResult", "toolCallId": "c1", "content": "ok"},
    ]
    out, diags = _run({"roles": ["user", "assistant", "toolResult"], "maxChars": 1000}, history)
    assert diags == []
    assert all(a is b for a, b in zip(out, history, strict=True))


def test_max_chars_trim_after_strip_repairs_the_trimmed_list() -> None:
    # the walk collected the ids of all four messages; maxChars then cuts the call away, so the
    # repair must read the kept messages again and drop the result whose call is gone
    history = [
        {"role": "user", "content": "x" * 50},
        {
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": "t"}, {"type": "toolCall", "id": "c1", "name": "read"}],
        },
        {"role": "toolResult", "toolCallId": "c1", "content": "done"},
        {"role": "user", "content": "thanks"},
    ]
    options = {"roles": ["user", "assistant", "toolResult"], "stripAssistantThinking": True, "maxChars": 12}
    out, diags = _run(options, history)
    assert out == [{"role": "user", "content": "thanks"}]
    assert diags == [
        "Stripped 1 assistant thinking block(s) from 1 chat-history message(s).",
        "Trimmed chat history from 4 to 2 message(s) by maxChars.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
    ]
