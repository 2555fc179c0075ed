"""The shared steps: host conversion (§2), thinking clamp and output cap (§3), transform (§4)."""

from __future__ import annotations

import pytest

from forgec.codecs.catalog import clamp_thinking_level, default_catalog
from forgec.emit import active_tools
from forgec.emit.convert import (
    PayloadError,
    bash_execution_text,
    context_estimate,
    convert_to_llm,
    estimate_message_tokens,
    sanitize_surrogates,
    short_hash,
    transform_messages,
)

from .scenarios import CLAUDE, GPT, assistant, call, result, text, thinking, user

CATALOG = default_catalog()
CLAUDE_MODEL = CATALOG.default_for("anthropic-messages")
GPT_MODEL = CATALOG.default_for("openai-responses")


def test_short_hash_reference_vectors() -> None:
    assert short_hash("abc") == "y0biex7f9bbh"
    assert short_hash("") == "k4n83c7h0j2b"


def test_sanitize_surrogates_drops_only_lone_units() -> None:
    assert sanitize_surrogates("a\ud83d\ude00b") == "a\ud83d\ude00b"
    assert sanitize_surrogates("a\ud83db\ude00c") == "abc"


def test_sanitize_surrogates_returns_clean_text_itself() -> None:
    # the fast paths (ASCII, then one search for any surrogate) hand back the very same object
    for value in ("plain ascii", "ünïcödé 😀 and \u4e2d", ""):
        assert sanitize_surrogates(value) is value
    assert sanitize_surrogates("\ud800") == ""
    assert sanitize_surrogates("x\udfff") == "x"
    # pi-ai calls ``text.replace``: anything but a string fails there with V8's text
    with pytest.raises(PayloadError, match=r"^text\.replace is not a function$"):
        sanitize_surrogates(7)


def test_bash_execution_text_example() -> None:
    message = {"role": "bashExecution", "command": "npm test", "output": "1 failing", "exitCode": 1}
    assert bash_execution_text(message) == "Ran `npm test`\n```\n1 failing\n```\n\nCommand exited with code 1"


def test_bash_execution_variants() -> None:
    base = {"role": "bashExecution", "command": "ls"}
    assert bash_execution_text({**base, "output": "", "exitCode": 0}) == "Ran `ls`\n(no output)"
    assert bash_execution_text({**base, "cancelled": True, "exitCode": 2}) == (
        "Ran `ls`\n(no output)\n\n(command cancelled)"
    )
    assert bash_execution_text(
        {**base, "output": "x", "exitCode": None, "truncated": True, "fullOutputPath": "/tmp/o"}
    ) == "Ran `ls`\n```\nx\n```\n\n[Output truncated. Full output: /tmp/o]"
    assert bash_execution_text({**base, "exitCode": -1}).endswith("Command exited with code -1")


def test_convert_to_llm_roles() -> None:
    messages = [
        {"role": "custom", "customType": "note", "content": "hi", "display": True, "timestamp": 1},
        {"role": "branchSummary", "summary": "S", "timestamp": 2},
        {"role": "compactionSummary", "summary": "C", "timestamp": 3},
        {"role": "bashExecution", "command": "ls", "excludeFromContext": True, "timestamp": 4},
        {"role": "somethingElse", "timestamp": 5},
        user("u"),
    ]
    out = convert_to_llm(messages)
    assert out[0] == {"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1}
    assert out[1]["content"][0]["text"] == (
        "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nS</summary>"
    )
    assert out[2]["content"][0]["text"] == (
        "The conversation history before this point was compacted into the following summary:\n\n"
        "<summary>\nC\n</summary>"
    )
    assert out[3] is messages[5]
    assert len(out) == 4


@pytest.mark.parametrize(
    ("api", "levels"),
    [
        ("anthropic-messages", ["off", "minimal", "low", "medium", "high", "high", "high"]),
        ("google-generative-ai", ["off", "minimal", "low", "medium", "high", "high", "high"]),
        ("openai-completions", ["off", "minimal", "low", "medium", "high", "high", "high"]),
        ("openai-responses", ["off", "low", "low", "medium", "high", "high", "high"]),
    ],
)
def test_thinking_level_clamp(api: str, levels: list[str]) -> None:
    model = CATALOG.default_for(api)
    requested = ["off", "minimal", "low", "medium", "high", "xhigh", "max"]
    assert [clamp_thinking_level(model, level) for level in requested] == levels


def test_estimate_per_message() -> None:
    assert estimate_message_tokens(user("abcde")) == 2
    assert estimate_message_tokens(user([text("abcd"), {"type": "image", "data": "x", "mimeType": "image/png"}])) == 1201
    # assistant: text + thinking + tool call name + JSON.stringify(arguments)
    message = assistant([text("ab"), thinking("cd"), call("c1", "read", {"p": 1})])
    assert estimate_message_tokens(message) == 4  # 2 + 2 + 4 + 7 = 15 chars
    assert estimate_message_tokens(assistant([{"type": "toolCall", "id": "x", "name": "ab"}])) == 3  # 2 + 9
    assert estimate_message_tokens(user("😀")) == 1  # two UTF-16 units


def test_estimate_with_and_without_usage_anchor() -> None:
    usage = {"input": 1, "output": 2, "cacheRead": 3, "cacheWrite": 4, "totalTokens": 0}
    anchored = [user("x" * 40, ts=1), assistant([text("y")], usage=usage, ts=2), user("z" * 8, ts=3)]
    assert context_estimate("S" * 400, anchored, []) == 10 + 2
    # a newer message before the assistant turn disables the anchor: characters are counted
    newer_first = [user("x" * 40, ts=5), assistant([text("y")], usage=usage, ts=2), user("z" * 8, ts=3)]
    tools = active_tools([{"name": "t"}])
    tools_json = '[{"name":"t","label":"t","description":"","parameters":{"type":"object","properties":{}}}]'
    expected = 10 + 1 + 2 + 100 + -(-len(tools_json) // 4)
    assert context_estimate("S" * 400, newer_first, tools) == expected
    # failed turns never anchor
    failed = [user("x" * 40, ts=1), assistant([text("y")], usage=usage, ts=2, stop="error")]
    assert context_estimate("", failed, []) == 10 + 1


def test_missing_usage_throws_like_pi_ai() -> None:
    message = assistant([text("y")])
    del message["usage"]
    with pytest.raises(PayloadError):
        context_estimate("", [user("x"), message], [])


def test_transform_foreign_turn_and_repair() -> None:
    messages = [
        user("q"),
        assistant([thinking("plan", "sig"), text("a", textSignature="t"), call("call|1")], who=GPT),
        result("call|1", [text("r")]),
        assistant([call("c2"), call("c3")], who=CLAUDE, ts=4000),
        result("c3", [text("ok")]),
        assistant([text("boom")], stop="error", ts=5000),
        user("next", ts=6000),
    ]
    from forgec.emit.ids import anthropic_id

    out = transform_messages(messages, CLAUDE_MODEL, anthropic_id)
    foreign = out[1]["content"]
    assert foreign[0] == {"type": "text", "text": "plan"}
    assert foreign[1] == {"type": "text", "text": "a"}
    assert foreign[2]["id"] == "call_1"
    assert out[2]["toolCallId"] == "call_1"
    # own turn kept as is; c2 unanswered -> synthetic result before the next assistant turn
    assert out[3] is not messages[3] or out[3] == messages[3]
    assert out[4]["toolCallId"] == "c3"
    assert out[5] == {
        "role": "toolResult",
        "toolCallId": "c2",
        "toolName": "read",
        "content": [{"type": "text", "text": "No result provided"}],
        "isError": True,
    }
    assert [m["role"] for m in out] == ["user", "assistant", "toolResult", "assistant", "toolResult", "toolResult", "user"]


def test_own_turn_keeps_signed_thinking_and_drops_blank() -> None:
    message = assistant([thinking("t", "sig"), thinking("   "), {"type": "thinking", "thinking": "", "redacted": True}])
    out = transform_messages([message], CLAUDE_MODEL)
    assert [p.get("thinkingSignature") for p in out[0]["content"]] == ["sig", None]
    foreign = transform_messages([message], GPT_MODEL)
    assert foreign[0]["content"] == [{"type": "text", "text": "t"}]


def test_an_object_where_a_tool_call_id_belongs_is_looked_up_as_javascript_does() -> None:
    """pi-ai keys its id map by identity for objects: no Python ``unhashable`` error reaches a body."""
    from forgec.emit import Prompt, build_payloads

    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}  # fmt: skip
    messages = [
        {"role": "user", "content": "q", "timestamp": 1},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}],
         "provider": "x", "model": "y", "api": "openai-completions", "usage": usage, "stopReason": "toolUse", "timestamp": 2},
        {"role": "toolResult", "toolCallId": {"a": 1}, "toolName": "read", "content": [{"type": "text", "text": "r"}],
         "isError": False, "timestamp": 3},
    ]  # fmt: skip
    for entry in build_payloads(Prompt("S", messages)).values():
        assert "unhashable" not in entry.get("error", "")
