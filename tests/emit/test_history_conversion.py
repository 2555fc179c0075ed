"""Host conversion (payloads.md §2) and the shared transform (§4) as seen in the four bodies."""

from __future__ import annotations

from forgec.emit import Prompt, emit_body

from .scenarios import (
    CLAUDE,
    GEMINI,
    GPT,
    OPENROUTER,
    PNG,
    assistant,
    bodies,
    call,
    result,
    text,
    thinking,
    user,
)

# --- §2 host conversion ----------------------------------------------------------------------------


def test_custom_message_with_display_false_is_sent_as_user() -> None:
    custom = {"role": "custom", "customType": "memo", "content": "note", "display": False, "details": {"a": 1}}
    b = bodies([custom])
    assert b["anthropic-messages"]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "note", "cache_control": {"type": "ephemeral"}}]}
    ]
    assert b["google-generative-ai"]["contents"] == [{"role": "user", "parts": [{"text": "note"}]}]
    assert b["openai-completions"]["messages"][1] == {"role": "user", "content": [{"type": "text", "text": "note"}]}
    assert b["openai-responses"]["input"][1] == {"role": "user", "content": [{"type": "input_text", "text": "note"}]}


def test_custom_message_with_parts_keeps_images() -> None:
    custom = {"role": "custom", "customType": "memo", "content": [text("see"), PNG], "display": True}
    b = bodies([custom])
    assert b["google-generative-ai"]["contents"][0]["parts"] == [
        {"text": "see"},
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
    ]


def test_bash_execution_variants_reach_the_body() -> None:
    base = {"role": "bashExecution", "command": "make", "timestamp": 1}
    cases = [
        ({**base, "output": "ok", "exitCode": 0}, "Ran `make`\n```\nok\n```"),
        ({**base, "output": "", "exitCode": None}, "Ran `make`\n(no output)"),
        ({**base, "output": "x", "exitCode": 2, "cancelled": True}, "Ran `make`\n```\nx\n```\n\n(command cancelled)"),
        ({**base, "output": "x", "truncated": True}, "Ran `make`\n```\nx\n```"),
        (
            {**base, "output": "x", "exitCode": 1, "truncated": True, "fullOutputPath": "/tmp/f"},
            "Ran `make`\n```\nx\n```\n\nCommand exited with code 1\n\n[Output truncated. Full output: /tmp/f]",
        ),
    ]
    for message, expected in cases:
        contents = bodies([message])["google-generative-ai"]["contents"]
        assert contents == [{"role": "user", "parts": [{"text": expected}]}], message
    excluded = {**base, "output": "x", "excludeFromContext": True}
    assert bodies([excluded, user("q")])["google-generative-ai"]["contents"] == [
        {"role": "user", "parts": [{"text": "q"}]}
    ]


def test_unknown_roles_are_dropped() -> None:
    b = bodies([{"role": "note", "content": "x"}, user("q")])
    assert len(b["google-generative-ai"]["contents"]) == 1


# --- §4 own versus foreign turns ---------------------------------------------------------------------


def test_partial_identity_match_is_foreign() -> None:
    who = {**CLAUDE, "model": "claude-opus-4"}
    turn = assistant([thinking("plan", "sig"), text("hi", textSignature="ts")], who=who)
    msgs = bodies([user("q"), turn])["anthropic-messages"]["messages"]
    assert msgs[1]["content"] == [{"type": "text", "text": "plan"}, {"type": "text", "text": "hi"}]


def test_redacted_thinking_own_and_foreign() -> None:
    redacted = {"type": "thinking", "thinking": "", "redacted": True, "thinkingSignature": "opaque=="}
    own = bodies([user("q"), assistant([redacted, text("a")])])["anthropic-messages"]["messages"][1]
    assert own["content"] == [{"type": "redacted_thinking", "data": "opaque=="}, {"type": "text", "text": "a"}]
    foreign = assistant([redacted, text("a")], who=GPT)
    b = bodies([user("q"), foreign])
    assert b["anthropic-messages"]["messages"][1]["content"] == [{"type": "text", "text": "a"}]
    # on the GPT target the GPT turn is own: the redacted part is kept, and its signature is a reasoning item
    # only if it parses; "opaque==" does not, so the request fails (payloads.md §8)
    assert isinstance(b["openai-responses"], str)


def test_signed_blank_thinking_on_own_turn_is_replayed_by_anthropic() -> None:
    turn = assistant([thinking("", "sig-1"), text("a")])
    content = bodies([user("q"), turn])["anthropic-messages"]["messages"][1]["content"]
    assert content[0] == {"type": "thinking", "thinking": "", "signature": "sig-1"}


def test_unsigned_thinking_on_own_anthropic_turn_becomes_text() -> None:
    turn = assistant([thinking("musing"), thinking("  "), text("a")])
    content = bodies([user("q"), turn])["anthropic-messages"]["messages"][1]["content"]
    assert content == [{"type": "text", "text": "musing"}, {"type": "text", "text": "a"}]


def test_whitespace_signature_is_unsigned_for_anthropic() -> None:
    turn = assistant([thinking("musing", " \n"), text("a")])
    content = bodies([user("q"), turn])["anthropic-messages"]["messages"][1]["content"]
    assert content[0] == {"type": "text", "text": "musing"}


def test_foreign_thinking_becomes_text_everywhere_else() -> None:
    turn = assistant([thinking("plan", "sig"), text("Sure.")])
    b = bodies([user("q"), turn])
    assert b["google-generative-ai"]["contents"][1] == {"role": "model", "parts": [{"text": "plan"}, {"text": "Sure."}]}
    assert b["openai-completions"]["messages"][2] == {"role": "assistant", "content": "planSure."}
    items = b["openai-responses"]["input"]
    assert [i["content"][0]["text"] for i in items[2:4]] == ["plan", "Sure."]
    assert [i["id"] for i in items[2:4]] == ["msg_pi_1", "msg_pi_1_1"]


def test_foreign_tool_call_loses_thought_signature() -> None:
    turn = assistant([call("c1", thoughtSignature="c2lnbmF0dXJl")], who=CLAUDE)
    contents = emit_body("google-generative-ai", Prompt("", [user("q"), turn, result("c1", [text("r")])], None, None))
    assert contents["contents"][1]["parts"] == [{"functionCall": {"name": "read", "args": {"path": "a.txt"}}}]


# --- §4 pass 2: dangling calls, failed turns, orphan results ---------------------------------------


def test_dangling_calls_are_answered_before_the_next_user_message() -> None:
    messages = [user("q"), assistant([call("c1"), call("c2", "bash")]), result("c2", [text("ok")], "bash"),
                user("next", ts=4000)]
    msgs = bodies(messages)["anthropic-messages"]["messages"]
    assert msgs[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c2", "content": "ok", "is_error": False},
        {"type": "tool_result", "tool_use_id": "c1", "content": "No result provided", "is_error": True},
    ]
    comp = bodies(messages)["openai-completions"]["messages"]
    assert comp[4] == {"role": "tool", "content": "No result provided", "tool_call_id": "c1"}


def test_dangling_calls_at_the_end_are_answered() -> None:
    b = bodies([user("q"), assistant([call("c1")])])
    last = b["anthropic-messages"]["messages"][-1]
    assert last == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "c1",
                "content": "No result provided",
                "is_error": True,
                "cache_control": {"type": "ephemeral"},
            }
        ],
    }
    assert b["openai-responses"]["input"][-1] == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": "No result provided",
    }


def test_errored_turn_with_calls_is_dropped_and_leaves_no_synthetic_result() -> None:
    messages = [user("q"), assistant([text("x"), call("c1")], stop="error"), user("again", ts=4000)]
    b = bodies(messages)
    assert [m["role"] for m in b["anthropic-messages"]["messages"]] == ["user", "user"]
    # the section-2 history still had a tool call: Chat Completions sends tools: []
    assert b["openai-completions"]["tools"] == []


def test_aborted_turn_flushes_pending_calls_first() -> None:
    messages = [user("q"), assistant([call("c1")]), assistant([text("half")], ts=3000, stop="aborted")]
    msgs = bodies(messages)["anthropic-messages"]["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert msgs[2]["content"][0]["content"] == "No result provided"


def test_orphan_tool_results_are_kept() -> None:
    messages = [user("q"), result("ghost", [text("boo")])]
    b = bodies(messages)
    assert b["anthropic-messages"]["messages"][1]["content"][0]["tool_use_id"] == "ghost"
    assert b["openai-responses"]["input"][-1] == {"type": "function_call_output", "call_id": "ghost", "output": "boo"}


def test_content_null_fails_the_estimate() -> None:
    # pi-ai's token estimate iterates a user message's content before the transform replaces null
    # with []: every target fails (recorded with Pi 0.83.0, tests/emit/payload_shapes.json.gz)
    b = bodies([{"role": "user", "content": None, "timestamp": 1}, user("q")])
    assert set(b.values()) == {"content is not iterable"}


def test_content_null_becomes_empty_where_the_estimate_skips_it() -> None:
    # a later assistant turn's usage anchors the estimate, so only the transform reads the message
    anchor = assistant([text("ok")], usage={"input": 5, "output": 5, "cacheRead": 0, "cacheWrite": 0,
                                             "totalTokens": 10})
    b = bodies([{"role": "user", "content": None, "timestamp": 1}, anchor, user("q")])
    assert len(b["anthropic-messages"]["messages"]) == 2
    assert len(b["google-generative-ai"]["contents"]) == 2  # no parts: skipped
    assert b["openai-completions"]["messages"][1:] == [
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "q"},
    ]
    assert len(b["openai-responses"]["input"]) == 3


def test_own_turns_of_each_target() -> None:
    for who, api in ((GEMINI, "google-generative-ai"), (OPENROUTER, "openai-completions")):
        turn = assistant([thinking("deep", "reasoning"), text("A")], who=who)
        body = emit_body(api, Prompt("", [user("q"), turn], None, None))
        if api == "google-generative-ai":
            # "reasoning" is 9 characters: not a usable base64 signature
            assert body["contents"][1]["parts"] == [{"thought": True, "text": "deep"}, {"text": "A"}]
        else:
            assert body["messages"][1] == {"role": "assistant", "content": "A", "reasoning": "deep"}

