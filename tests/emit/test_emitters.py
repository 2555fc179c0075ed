"""The four API builders on scenarios outside the public corpus; expected values from payloads.md."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.catalog import Model, default_catalog
from forgec.emit import Prompt, build_payloads, emit_body
from forgec.emit.convert import short_hash

from .scenarios import (
    GEMINI,
    GPT,
    OPENROUTER,
    PNG,
    TOOLS,
    assistant,
    bodies,
    call,
    result,
    text,
    thinking,
    user,
)

CONVERSATION = [user("hello")]


# --- thinking levels -----------------------------------------------------------------------------


def test_thinking_off_everywhere() -> None:
    b = bodies(CONVERSATION)
    assert b["anthropic-messages"]["thinking"] == {"type": "disabled"}
    assert b["anthropic-messages"]["max_tokens"] == 64000
    assert b["google-generative-ai"]["config"]["thinkingConfig"] == {"thinkingBudget": 0}
    assert b["openai-completions"]["reasoning"] == {"effort": "none"}
    assert b["openai-responses"]["reasoning"] == {"effort": "none"}
    assert "include" not in b["openai-responses"]


@pytest.mark.parametrize(
    ("level", "claude_budget", "gemini_budget", "openrouter", "gpt"),
    [
        ("minimal", 1024, 128, "minimal", "low"),
        ("low", 2048, 2048, "low", "low"),
        ("medium", 8192, 8192, "medium", "medium"),
        ("high", 16384, 32768, "high", "high"),
        ("xhigh", 16384, 32768, "high", "high"),
        ("max", 16384, 32768, "high", "high"),
    ],
)
def test_thinking_levels(level: str, claude_budget: int, gemini_budget: int, openrouter: str, gpt: str) -> None:
    section = build_payloads(Prompt("S", CONVERSATION, None, level))
    anthropic = section["anthropic-messages"]["body"]
    assert anthropic["max_tokens"] == 64000
    assert anthropic["thinking"] == {"type": "enabled", "budget_tokens": claude_budget, "display": "summarized"}
    assert section["google-generative-ai"]["body"]["config"]["thinkingConfig"] == {
        "includeThoughts": True,
        "thinkingBudget": gemini_budget,
    }
    assert section["openai-completions"]["body"]["reasoning"] == {"effort": openrouter}
    responses = section["openai-responses"]
    assert responses["thinkingLevel"] == gpt
    assert responses["body"]["reasoning"] == {"effort": gpt, "summary": "auto"}
    assert responses["body"]["include"] == ["reasoning.encrypted_content"]


# --- output-token caps ---------------------------------------------------------------------------


def _anchored(total: int) -> list[Any]:
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": total}
    return [user("q", ts=1), assistant([text("a")], usage=usage, ts=2), user("abcd", ts=3)]


def test_usage_based_caps() -> None:
    b = bodies(_anchored(990000))
    # estimate = 990000 + ceil(4/4) = 990001
    assert b["anthropic-messages"]["max_tokens"] == 1000000 - 990001 - 4096
    assert b["google-generative-ai"]["config"]["maxOutputTokens"] == 1048576 - 990001 - 4096
    assert b["openai-completions"]["max_completion_tokens"] == 1048576 - 990001 - 4096
    assert b["openai-responses"]["max_output_tokens"] == 16  # max(1, negative) = 1, raised to 16


def test_anthropic_budget_shrinks_with_the_cap() -> None:
    body = build_payloads(Prompt("S", _anchored(990000), None, "high"))["anthropic-messages"]["body"]
    cap = 1000000 - 990001 - 4096
    assert body["max_tokens"] == cap
    assert body["thinking"]["budget_tokens"] == cap - 1024


def test_anthropic_budget_when_max_tokens_below_budget() -> None:
    small = Model("anthropic", "small", "anthropic-messages", context_window=200000, max_tokens=8000, reasoning=True)
    body = emit_body("anthropic-messages", Prompt("S", CONVERSATION, None, "high"), small)
    assert body["max_tokens"] == 8000
    assert body["thinking"]["budget_tokens"] == 8000 - 1024


# --- images --------------------------------------------------------------------------------------


def test_user_images() -> None:
    b = bodies([user([text("look"), PNG])])
    assert b["anthropic-messages"]["messages"][0]["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        "cache_control": {"type": "ephemeral"},
    }
    assert b["google-generative-ai"]["contents"][0]["parts"][1] == {
        "inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}
    }
    assert b["openai-completions"]["messages"][1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="},
    }
    assert b["openai-responses"]["input"][1]["content"][1] == {
        "type": "input_image",
        "detail": "auto",
        "image_url": "data:image/png;base64,iVBORw0KGgo=",
    }


def test_tool_result_images() -> None:
    messages = [
        user("q"),
        assistant([call("c1")], who=GPT),
        result("c1", [PNG]),
    ]
    b = bodies(messages)
    anthropic_result = b["anthropic-messages"]["messages"][2]["content"][0]
    assert anthropic_result["content"] == [
        {"type": "text", "text": "(see attached image)"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
    ]
    contents = b["google-generative-ai"]["contents"]
    assert contents[2] == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "read", "response": {"output": "(see attached image)"}}}],
    }
    assert contents[3] == {
        "role": "user",
        "parts": [{"text": "Tool result image:"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}],
    }
    completions = b["openai-completions"]["messages"]
    assert completions[3] == {"role": "tool", "content": "(see attached image)", "tool_call_id": "c1"}
    assert completions[4]["content"][0] == {"type": "text", "text": "Attached image(s) from tool result:"}
    responses = b["openai-responses"]["input"]
    assert responses[-1] == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": [{"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,iVBORw0KGgo="}],
    }


# --- tool schemas --------------------------------------------------------------------------------


def test_tool_schemas() -> None:
    tools = [*TOOLS, {"name": "read", "description": "Read v2.", "parameters": {"type": "object"}}]
    b = bodies(CONVERSATION, tools=tools)
    anthropic = b["anthropic-messages"]["tools"]
    assert [t["name"] for t in anthropic] == ["read", "bash"]
    assert anthropic[0]["description"] == "Read v2."
    assert anthropic[0]["input_schema"] == {"type": "object", "properties": {}, "required": []}
    assert anthropic[1]["cache_control"] == {"type": "ephemeral"}
    assert anthropic[1]["eager_input_streaming"] is True

    only_first = bodies(CONVERSATION, tools=TOOLS[:1])["anthropic-messages"]["tools"][0]
    assert only_first["input_schema"] == {
        "type": "object",
        "properties": {"path": {"$ref": "#/$defs/path"}},
        "required": ["path"],
    }

    declarations = b["google-generative-ai"]["config"]["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["read", "bash", "read"]
    assert declarations[0]["parametersJsonSchema"] == TOOLS[0]["parameters"]
    assert declarations[1]["parametersJsonSchema"] == {"type": "object", "properties": {}}

    completions = b["openai-completions"]["tools"]
    assert len(completions) == 3
    assert completions[0] == {
        "type": "function",
        "function": {"name": "read", "description": "Read a file.", "parameters": TOOLS[0]["parameters"], "strict": False},
    }
    responses = b["openai-responses"]["tools"]
    assert [t["name"] for t in responses] == ["read", "bash"]
    assert responses[0]["parameters"] == {"type": "object"}


def test_completions_sends_empty_tools_with_tool_history() -> None:
    messages = [user("q"), assistant([call("c1")]), result("c1", [text("r")])]
    assert bodies(messages)["openai-completions"]["tools"] == []
    assert "tools" not in bodies(CONVERSATION)["openai-completions"]


# --- replayed own turns --------------------------------------------------------------------------


def test_responses_replays_own_reasoning_and_ids() -> None:
    reasoning = '{"type":"reasoning","id":"rs_1","summary":[]}'
    turn = assistant(
        [
            thinking("why", reasoning),
            text("one", textSignature='{"v":1,"id":"msg_abc","phase":"final_answer"}'),
            text("two"),
            call("call_1|fc_1", arguments={"b": 1, "a": 2}),
        ],
        who=GPT,
    )
    body = emit_body("openai-responses", Prompt("S", [user("q"), turn, result("call_1|fc_1", [text("r")])], None, None))
    items = body["input"]
    assert items[0] == {"role": "developer", "content": "S"}
    assert items[2] == {"type": "reasoning", "id": "rs_1", "summary": []}
    assert items[3]["id"] == "msg_abc" and items[3]["phase"] == "final_answer"
    assert items[4]["id"] == "msg_pi_1_1"
    assert items[5] == {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "read",
        "arguments": '{"b":1,"a":2}',
    }
    assert items[6] == {"type": "function_call_output", "call_id": "call_1", "output": "r"}
    assert body["prompt_cache_key"] == "01950000-0000-7000-8000-000000000000"
    other = emit_body("openai-responses", Prompt("S", [user("q")], None, None, session_id="abc"))
    assert other["prompt_cache_key"] == "abc"


def test_responses_bad_reasoning_signature_fails() -> None:
    turn = assistant([thinking("why", "not json")], who=GPT)
    section = build_payloads(Prompt("S", [user("q"), turn], None, None))
    assert "error" in section["openai-responses"]
    assert "body" in section["anthropic-messages"]


def test_responses_foreign_ids_are_hashed() -> None:
    messages = [user("q"), assistant([call("call 1|item/1")]), result("call 1|item/1", [text("r")])]
    items = emit_body("openai-responses", Prompt("", messages, None, None))["input"]
    # foreign turn: the item half becomes fc_ + shortHash(item); the result follows the new id
    assert items[1]["call_id"] == "call_1"
    assert items[1]["id"] == "fc_" + short_hash("item/1")
    assert items[2]["call_id"] == "call_1"
    # a different GPT model of the same provider/API: the item id is not sent
    other_gpt = {**GPT, "model": "gpt-4.1"}
    messages = [user("q"), assistant([call("c9|fc_9")], who=other_gpt), result("c9|fc_9", [text("r")])]
    item = emit_body("openai-responses", Prompt("", messages, None, None))["input"][1]
    assert item["call_id"] == "c9"
    assert "id" not in item


def test_completions_own_reasoning_and_long_ids() -> None:
    own = assistant([thinking("because", "reasoning"), text("Hi"), text(" there")], who=OPENROUTER)
    body = emit_body("openai-completions", Prompt("S", [user("q"), own], None, None))
    assert body["messages"][0] == {"role": "system", "content": "S"}
    assert body["messages"][2] == {"role": "assistant", "content": "Hi there", "reasoning": "because"}

    long_id = "call_" + "x" * 40 + "|fc_item"
    messages = [user("q"), assistant([call(long_id)], who=GPT), result(long_id, [text("r")])]
    converted = emit_body("openai-completions", Prompt("", messages, None, None))["messages"]
    expected_id = ("call_" + "x" * 26) + "_" + short_hash(long_id)[:8]
    assert converted[1]["tool_calls"][0]["id"] == expected_id
    assert converted[2]["tool_call_id"] == expected_id
    short = [user("q"), assistant([call("ab|c.d")], who=GPT), result("ab|c.d", [text("r")])]
    assert emit_body("openai-completions", Prompt("", short, None, None))["messages"][1]["tool_calls"][0]["id"] == "ab_c_d"


def test_google_own_turn_signatures() -> None:
    own = assistant(
        [thinking("hm", "c2lnbmF0dXJl"), text("ok", textSignature="not base64!"), call("c1")],
        who=GEMINI,
    )
    contents = emit_body("google-generative-ai", Prompt("", [user("q"), own], None, None))["contents"]
    assert contents[1] == {
        "role": "model",
        "parts": [
            {"thought": True, "text": "hm", "thoughtSignature": "c2lnbmF0dXJl"},
            {"text": "ok"},
            {"functionCall": {"name": "read", "args": {"path": "a.txt"}}},
        ],
    }
    # the dangling call gets pi-ai's synthetic error result
    assert contents[2]["parts"][0]["functionResponse"]["response"] == {"error": "No result provided"}


def test_blank_user_text_only_dropped_by_anthropic() -> None:
    b = bodies([user(""), user("next")])
    assert len(b["anthropic-messages"]["messages"]) == 1
    assert b["google-generative-ai"]["contents"][0] == {"role": "user", "parts": [{"text": ""}]}
    assert b["openai-completions"]["messages"][1] == {"role": "user", "content": ""}
    assert b["openai-responses"]["input"][1] == {"role": "user", "content": [{"type": "input_text", "text": ""}]}


def test_no_system_prompt() -> None:
    b = bodies(CONVERSATION, system="")
    assert "system" not in b["anthropic-messages"]
    assert "systemInstruction" not in b["google-generative-ai"]["config"]
    assert b["openai-completions"]["messages"][0]["role"] == "user"
    assert b["openai-responses"]["input"][0]["role"] == "user"


def test_catalog_model_without_images() -> None:
    catalog = default_catalog()
    blind = Model("acme", "text-only", "openai-completions", context_window=32000, max_tokens=4000)
    body = emit_body("openai-completions", Prompt("", [user([text("see"), PNG, PNG])], None, None), blind, catalog=catalog)
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "see"},
        {"type": "text", "text": "(image omitted: model does not support images)"},
    ]
    assert body["max_completion_tokens"] == 4000


# --- robustness ----------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=6), st.floats(allow_nan=False))
_json = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)
_part = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "thinking", "toolCall", "image", "other"])},
    optional={
        "text": _json, "thinking": _json, "id": _json, "name": _json, "arguments": _json,
        "thinkingSignature": _json, "textSignature": _json, "thoughtSignature": _json, "redacted": _json,
        "data": _json, "mimeType": _json,
    },
)
_message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "toolResult", "custom", "bashExecution", "branchSummary"])},
    optional={
        "content": st.one_of(st.text(max_size=5), st.lists(_part, max_size=3), _json),
        "timestamp": _json, "usage": _json, "stopReason": _json, "provider": st.sampled_from(["openai", "google"]),
        "api": _json, "model": _json, "toolCallId": _json, "toolName": _json, "isError": _json, "summary": _json,
        "command": _json, "output": _json, "exitCode": _json,
    },
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_message, max_size=5), st.sampled_from([None, "off", "minimal", "high", "max", "bogus"]))
def test_malformed_messages_never_raise(messages: list[Any], level: str | None) -> None:
    section = build_payloads(Prompt("S", messages, [{"name": "t"}], level))
    assert set(section) == {"anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"}
    for entry in section.values():
        assert ("body" in entry) != ("error" in entry)


# --- entry points ----------------------------------------------------------------------------------


def test_emit_body_raises_what_compile_payload_returns() -> None:
    from forgec.emit import PayloadError, build_request

    turn = assistant([thinking("why", "not json")], who=GPT)
    result = build_request("openai-responses", Prompt("S", [user("q"), turn], None, None))
    assert result.body is None and result.error
    assert [(d.code, d.level) for d in result.diagnostics] == [("FG801", "error")]
    with pytest.raises(PayloadError) as caught:
        emit_body("openai-responses", Prompt("S", [user("q"), turn], None, None))
    assert str(caught.value) == result.error


def test_malformed_input_becomes_an_error_entry_not_a_traceback() -> None:
    from forgec.emit import build_request

    # an unhashable tool name trips the de-duplication (§5); the failure is reported, never raised
    result = build_request("anthropic-messages", Prompt("", [user("q")], [{"name": ["x"]}], None))
    assert result.body is None and result.error is not None and result.error.startswith("TypeError")


def test_a_model_of_another_api_is_a_usage_error() -> None:
    from forgec.codecs.catalog import CatalogError

    with pytest.raises(CatalogError):
        emit_body("openai-responses", Prompt("", [user("q")], None, None), "anthropic/claude-sonnet-4-5")
