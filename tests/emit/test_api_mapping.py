"""Per-API body mapping (payloads.md §5–§8, §9 pitfalls): top level, cache markers, messages."""

from __future__ import annotations

from typing import Any

from forgec.emit import Prompt, emit_body

from .scenarios import (
    CLAUDE,
    GEMINI,
    GPT,
    JPG,
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

EPHEMERAL = {"type": "ephemeral"}
PNG_BLOCK = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
PNG_URL = "data:image/png;base64,iVBORw0KGgo="


# --- top-level keys --------------------------------------------------------------------------------


def test_top_level_keys_without_tools() -> None:
    b = bodies([user("q")])
    assert set(b["anthropic-messages"]) == {"model", "messages", "max_tokens", "stream", "system", "thinking"}
    assert b["anthropic-messages"]["system"] == [{"type": "text", "text": "S", "cache_control": EPHEMERAL}]
    assert b["anthropic-messages"]["stream"] is True
    assert set(b["google-generative-ai"]) == {"model", "contents", "config"}
    assert set(b["google-generative-ai"]["config"]) == {"maxOutputTokens", "systemInstruction", "thinkingConfig"}
    assert b["google-generative-ai"]["config"]["systemInstruction"] == "S"
    comp = b["openai-completions"]
    assert set(comp) == {
        "model", "messages", "stream", "stream_options", "store", "max_completion_tokens", "reasoning",
    }
    assert (comp["model"], comp["stream"], comp["stream_options"], comp["store"]) == (
        "google/gemini-2.5-flash", True, {"include_usage": True}, False,
    )
    resp = b["openai-responses"]
    assert set(resp) == {"model", "input", "stream", "prompt_cache_key", "store", "max_output_tokens", "reasoning"}
    assert (resp["model"], resp["stream"], resp["store"]) == ("gpt-5.1", True, False)
    assert resp["prompt_cache_key"] == "01950000-0000-7000-8000-000000000000"


def test_prompt_cache_key_is_cut_to_64() -> None:
    body = emit_body("openai-responses", Prompt("", [user("q")], None, None, session_id="s" * 80))
    assert body["prompt_cache_key"] == "s" * 64


def test_top_level_with_thinking() -> None:
    b = bodies([user("q")], "low")
    assert set(b["openai-responses"]) == {
        "model", "input", "stream", "prompt_cache_key", "store", "max_output_tokens", "reasoning", "include",
    }
    assert set(b["anthropic-messages"]) == {"model", "messages", "max_tokens", "stream", "system", "thinking"}
    assert set(b["openai-completions"]) == {
        "model", "messages", "stream", "stream_options", "store", "max_completion_tokens", "reasoning",
    }


# --- tools ------------------------------------------------------------------------------------------


def test_single_tool_and_duplicates() -> None:
    tools = [
        {"name": "a", "description": "first", "parameters": {"type": "object", "properties": {"x": {}},
                                                             "required": ["x"]}},
        {"name": "b"},
        {"name": "a", "description": "second"},
    ]
    b = bodies([user("q")], tools=tools)
    anth = b["anthropic-messages"]["tools"]
    assert anth == [
        {"name": "a", "description": "second", "eager_input_streaming": True,
         "input_schema": {"type": "object", "properties": {}, "required": []}},
        {"name": "b", "description": "", "eager_input_streaming": True,
         "input_schema": {"type": "object", "properties": {}, "required": []}, "cache_control": EPHEMERAL},
    ]
    resp = b["openai-responses"]["tools"]
    assert resp == [
        {"type": "function", "name": "a", "description": "second",
         "parameters": {"type": "object", "properties": {}}, "strict": False},
        {"type": "function", "name": "b", "description": "",
         "parameters": {"type": "object", "properties": {}}, "strict": False},
    ]
    assert [t["function"]["name"] for t in b["openai-completions"]["tools"]] == ["a", "b", "a"]
    decls = b["google-generative-ai"]["config"]["tools"][0]["functionDeclarations"]
    assert decls[0] == {"name": "a", "description": "first", "parametersJsonSchema": tools[0]["parameters"]}


def test_inactive_tools_are_not_sent_and_tool_history_empty_list() -> None:
    tools = [{"name": "a", "active": False}]
    b = bodies([user("q"), assistant([call("c1")]), result("c1", [text("r")])], tools=tools)
    assert "tools" not in b["anthropic-messages"]
    assert "tools" not in b["google-generative-ai"]["config"]
    assert "tools" not in b["openai-responses"]
    assert b["openai-completions"]["tools"] == []
    only_result = bodies([user("q"), result("c1", [text("r")])])
    assert only_result["openai-completions"]["tools"] == []


# --- anthropic-messages ----------------------------------------------------------------------------


def test_anthropic_user_parts_drop_blank_text_and_skip_empty() -> None:
    b = bodies([user([text(" \t"), text("\u3000")]), user([text(""), PNG, text("x")], ts=1001)])
    msgs = b["anthropic-messages"]["messages"]
    assert msgs == [{"role": "user", "content": [PNG_BLOCK, {"type": "text", "text": "x", "cache_control": EPHEMERAL}]}]


def test_anthropic_js_whitespace_set() -> None:
    # U+FEFF is JavaScript whitespace (blank), U+001C and U+0085 are not (payloads.md §9 trim)
    msgs = bodies([user("\ufeff"), user("\x1c", ts=1001), user("\x85", ts=1002)])["anthropic-messages"]["messages"]
    assert [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"] for m in msgs] == [
        "\x1c", "\x85",
    ]


def test_anthropic_last_message_cache_marker() -> None:
    # string content becomes a one-block list with the marker
    msgs = bodies([user("a"), user("b", ts=1001)])["anthropic-messages"]["messages"]
    assert msgs[0] == {"role": "user", "content": "a"}
    assert msgs[1] == {"role": "user", "content": [{"type": "text", "text": "b", "cache_control": EPHEMERAL}]}
    # a trailing image block gets it
    msgs = bodies([user([text("a"), PNG])])["anthropic-messages"]["messages"]
    assert msgs[0]["content"][1] == {**PNG_BLOCK, "cache_control": EPHEMERAL}
    assert "cache_control" not in msgs[0]["content"][0]
    # an assistant prefill gets none
    msgs = bodies([user("a"), assistant([text("pre")])])["anthropic-messages"]["messages"]
    assert msgs[0] == {"role": "user", "content": "a"}
    assert msgs[1] == {"role": "assistant", "content": [{"type": "text", "text": "pre"}]}


def test_anthropic_tool_result_run_and_marker_on_last_result() -> None:
    messages = [
        user("q"),
        assistant([call("c1"), call("c2"), call("c3")]),
        result("c1", [text("one"), text("two")]),
        {"role": "toolResult", "toolCallId": "c2", "toolName": "read", "content": [], "timestamp": 3001},
        result("c3", [text(""), PNG], error=True, ts=3002),
    ]
    msgs = bodies(messages)["anthropic-messages"]["messages"]
    assert len(msgs) == 3
    assert msgs[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "one\ntwo", "is_error": False},
            {"type": "tool_result", "tool_use_id": "c2", "content": ""},
            {
                "type": "tool_result",
                "tool_use_id": "c3",
                # a text part exists (even blank): no "(see attached image)" prefix; text not filtered
                "content": [{"type": "text", "text": ""}, PNG_BLOCK],
                "is_error": True,
                "cache_control": EPHEMERAL,
            },
        ],
    }


def test_anthropic_tool_use_input_defaults() -> None:
    part = {"type": "toolCall", "id": "c1", "name": "n"}
    msgs = bodies([user("q"), assistant([part]), result("c1", [text("r")])])["anthropic-messages"]["messages"]
    assert msgs[1]["content"] == [{"type": "tool_use", "id": "c1", "name": "n", "input": {}}]


def test_anthropic_assistant_with_only_blank_parts_is_skipped() -> None:
    msgs = bodies([user("q"), assistant([text("  "), thinking("")]), user("r", ts=3000)])
    assert [m["role"] for m in msgs["anthropic-messages"]["messages"]] == ["user", "user"]


def test_anthropic_consecutive_users_not_merged() -> None:
    msgs = bodies([user("a"), user([text("b")], ts=1001)])["anthropic-messages"]["messages"]
    assert len(msgs) == 2


# --- google-generative-ai --------------------------------------------------------------------------


def test_google_user_parts_keep_blank_text() -> None:
    contents = bodies([user([text(""), JPG])])["google-generative-ai"]["contents"]
    assert contents == [
        {"role": "user", "parts": [{"text": ""}, {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQ"}}]}
    ]
    assert bodies([user([])])["google-generative-ai"]["contents"] == []


def test_google_signature_must_look_like_base64() -> None:
    def parts(signature: str) -> list[Any]:
        turn = assistant([text("a", textSignature=signature)], who=GEMINI)
        return emit_body("google-generative-ai", Prompt("", [user("q"), turn], None, None))["contents"][1]["parts"]

    assert parts("QUJD") == [{"text": "a", "thoughtSignature": "QUJD"}]
    assert parts("QQ==") == [{"text": "a", "thoughtSignature": "QQ=="}]
    assert parts("QUJ") == [{"text": "a"}]  # length not a multiple of 4
    assert parts("Q===") == [{"text": "a"}]  # three "="
    assert parts("QU-_") == [{"text": "a"}]  # base64url alphabet
    assert parts("QUJ\n") == [{"text": "a"}]  # a trailing line feed is not base64
    assert parts("") == [{"text": "a"}]


def test_google_same_model_ignores_api_but_needs_provider() -> None:
    who = {**GEMINI, "provider": "google-vertex"}
    turn = assistant([call("c1", thoughtSignature="QUJD")], who=who)
    contents = emit_body("google-generative-ai", Prompt("", [user("q"), turn, result("c1", [text("r")])], None, None))
    assert contents["contents"][1]["parts"] == [{"functionCall": {"name": "read", "args": {"path": "a.txt"}}}]
    own = assistant([call("c1", thoughtSignature="QUJD"), thinking("t", "QUJD")], who=GEMINI)
    contents = emit_body("google-generative-ai", Prompt("", [user("q"), own, result("c1", [text("r")])], None, None))
    assert contents["contents"][1]["parts"] == [
        {"functionCall": {"name": "read", "args": {"path": "a.txt"}}, "thoughtSignature": "QUJD"},
        {"thought": True, "text": "t", "thoughtSignature": "QUJD"},
    ]


def test_google_tool_results_merge_until_an_image_turn() -> None:
    messages = [
        user("q"),
        assistant([call("c1"), call("c2"), call("c3")], who=GEMINI),
        result("c1", [text("a")]),
        result("c2", [PNG], error=True, ts=3001),
        result("c3", [], ts=3002),
    ]
    contents = emit_body("google-generative-ai", Prompt("", messages, None, None))["contents"]
    assert contents[2:] == [
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "read", "response": {"output": "a"}}},
                {"functionResponse": {"name": "read", "response": {"error": "(see attached image)"}}},
            ],
        },
        {"role": "user", "parts": [{"text": "Tool result image:"}, {"inlineData": {"mimeType": "image/png",
                                                                                    "data": "iVBORw0KGgo="}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": ""}}}]},
    ]


def test_google_result_after_user_text_is_not_merged() -> None:
    messages = [user("q"), assistant([call("c1")], who=GEMINI), user("interject", ts=2500),
                result("c1", [text("a")])]
    contents = emit_body("google-generative-ai", Prompt("", messages, None, None))["contents"]
    # the pending call is answered before the user message; the real result follows separately
    assert [len(c["parts"]) for c in contents] == [1, 1, 1, 1, 1]
    assert contents[2]["parts"][0]["functionResponse"]["response"] == {"error": "No result provided"}


# --- openai-completions ----------------------------------------------------------------------------


def test_completions_user_parts_and_empty_list() -> None:
    msgs = bodies([user([text(""), PNG]), user([], ts=1001)])["openai-completions"]["messages"]
    assert msgs[1:] == [
        {"role": "user", "content": [{"type": "text", "text": ""}, {"type": "image_url", "image_url": {"url": PNG_URL}}]}
    ]


def test_completions_reasoning_field_from_signature() -> None:
    turn = assistant(
        [thinking("one", "reasoning_content"), thinking("  "), thinking("two", "other"), text("A"), text(" "),
         text("B")],
        who=OPENROUTER,
    )
    msg = emit_body("openai-completions", Prompt("", [user("q"), turn], None, None))["messages"][1]
    assert msg == {"role": "assistant", "content": "AB", "reasoning_content": "one\ntwo"}


def test_completions_reasoning_only_turn_is_dropped() -> None:
    turn = assistant([thinking("why", "reasoning")], who=OPENROUTER)
    msgs = emit_body("openai-completions", Prompt("", [user("q"), turn, user("r", ts=3000)], None, None))["messages"]
    assert [m["role"] for m in msgs] == ["user", "user"]


def test_completions_tool_calls_arguments_and_reasoning_details() -> None:
    detail = '{"type":"reasoning.encrypted","data":"x","id":"c1"}'
    turn = assistant(
        [
            call("c1", arguments={"b": 1.0, "a": -0.0, "s": "\u2028/\u00e9\x01"}, thoughtSignature=detail),
            {"type": "toolCall", "id": "c2", "name": "n", "thoughtSignature": "null"},
            call("c3", thoughtSignature="{bad"),
        ],
        who=OPENROUTER,
    )
    messages = [user("q"), turn, result("c1", [text("r")]), result("c2", [text("r")]), result("c3", [text("r")])]
    msgs = emit_body("openai-completions", Prompt("", messages, None, None))["messages"]
    assert msgs[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "read", "arguments": '{"b":1,"a":0,"s":"\u2028/\u00e9\\u0001"}'}},
            {"id": "c2", "type": "function", "function": {"name": "n"}},
            {"id": "c3", "type": "function", "function": {"name": "read", "arguments": '{"path":"a.txt"}'}},
        ],
        "reasoning_details": [{"type": "reasoning.encrypted", "data": "x", "id": "c1"}],
    }


def test_completions_tool_results_and_image_message_after_the_run() -> None:
    messages = [
        user("q"),
        assistant([call("c1"), call("c2"), call("c3")], who=OPENROUTER),
        result("c1", [PNG]),
        result("c2", [], ts=3001),
        result("c3", [text("t"), JPG], ts=3002),
    ]
    msgs = emit_body("openai-completions", Prompt("", messages, None, None))["messages"]
    assert msgs[2:] == [
        {"role": "tool", "content": "(see attached image)", "tool_call_id": "c1"},
        {"role": "tool", "content": "(no tool output)", "tool_call_id": "c2"},
        {"role": "tool", "content": "t", "tool_call_id": "c3"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Attached image(s) from tool result:"},
                {"type": "image_url", "image_url": {"url": PNG_URL}},
                {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ"}},
            ],
        },
    ]


# --- openai-responses ------------------------------------------------------------------------------


def test_responses_counter_and_empty_text() -> None:
    messages = [
        user("q"),  # 0
        user([], ts=1001),  # skipped, not counted
        assistant([call("c1")], who=GPT),  # 1
        result("c1", [text("r")]),  # 2
        assistant([thinking("unsigned")], who=GPT, ts=3500),  # produces nothing: skipped, not counted
        assistant([text(""), text("b", textSignature="")], who=GPT, ts=4000),  # 3
    ]
    items = emit_body("openai-responses", Prompt("", messages, None, None))["input"]
    assert [i.get("id") for i in items[-2:]] == ["msg_pi_3", "msg_pi_3_1"]
    assert items[-2] == {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "", "annotations": []}],
        "status": "completed",
        "id": "msg_pi_3",
    }


def test_responses_text_signature_forms() -> None:
    long_id = "m" * 65
    parts = [
        text("a", textSignature="msg_plain"),
        text("b", textSignature='{"v":1,"id":"msg_j","phase":"commentary"}'),
        text("c", textSignature='{"v":2,"id":"msg_k"}'),
        text("d", textSignature='{"v":1,"id":"msg_l","phase":"other"}'),
        text("e", textSignature=long_id),
        text("f", textSignature='{"v":true,"id":"msg_m"}'),
    ]
    items = emit_body("openai-responses", Prompt("", [user("q"), assistant(parts, who=GPT)], None, None))["input"]
    from forgec.emit.convert import short_hash

    assert [(i["id"], i.get("phase")) for i in items[1:]] == [
        ("msg_plain", None),
        ("msg_j", "commentary"),
        ('{"v":2,"id":"msg_k"}', None),
        ("msg_l", None),
        ("msg_" + short_hash(long_id), None),
        ('{"v":true,"id":"msg_m"}', None),
    ]


def test_responses_reasoning_item_replayed_and_unsigned_dropped() -> None:
    item = '{"type":"reasoning","id":"rs_9","summary":[{"type":"summary_text","text":"s"}],"encrypted_content":"E"}'
    turn = assistant([thinking("t", item), thinking("plain"), text("A")], who=GPT)
    items = emit_body("openai-responses", Prompt("", [user("q"), turn], None, None))["input"]
    assert items[1] == {
        "type": "reasoning", "id": "rs_9", "summary": [{"type": "summary_text", "text": "s"}], "encrypted_content": "E",
    }
    assert items[2]["type"] == "message" and len(items) == 3


def test_responses_tool_output_forms() -> None:
    messages = [
        user("q"),
        assistant([call("c1|fc_1"), call("c2|fc_2"), call("c3|fc_3")], who=GPT),
        result("c1|fc_1", [text("a"), text("b")]),
        result("c2|fc_2", [], ts=3001),
        result("c3|fc_3", [text("see"), PNG], ts=3002),
    ]
    items = emit_body("openai-responses", Prompt("", messages, None, None))["input"]
    assert items[4:] == [
        {"type": "function_call_output", "call_id": "c1", "output": "a\nb"},
        {"type": "function_call_output", "call_id": "c2", "output": "(no tool output)"},
        {
            "type": "function_call_output",
            "call_id": "c3",
            "output": [
                {"type": "input_text", "text": "see"},
                {"type": "input_image", "detail": "auto", "image_url": PNG_URL},
            ],
        },
    ]


def test_responses_user_parts_empty_text_kept() -> None:
    items = bodies([user([text(""), PNG])])["openai-responses"]["input"]
    assert items[1] == {
        "role": "user",
        "content": [{"type": "input_text", "text": ""}, {"type": "input_image", "detail": "auto", "image_url": PNG_URL}],
    }


def test_claude_turns_are_own_only_for_anthropic() -> None:
    turn = assistant([thinking("t", "sig"), text("A")], who=CLAUDE)
    b = bodies([user("q"), turn])
    assert b["anthropic-messages"]["messages"][1]["content"][0] == {"type": "thinking", "thinking": "t",
                                                                     "signature": "sig"}
    assert b["openai-responses"]["input"][2]["content"][0]["text"] == "t"


def test_completions_signed_reasoning_with_tool_call_keeps_null_content() -> None:
    turn = assistant([thinking("why", "reasoning"), call("c1")], who=OPENROUTER)
    msgs = emit_body("openai-completions", Prompt("", [user("q"), turn, result("c1", [text("r")])], None, None))["messages"]
    assert msgs[1] == {
        "role": "assistant",
        "content": None,
        "reasoning": "why",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": '{"path":"a.txt"}'}}],
    }


def test_completions_foreign_thought_signature_gives_no_reasoning_details() -> None:
    turn = assistant([call("c1", thoughtSignature='{"type":"reasoning.text"}')], who=CLAUDE)
    msgs = emit_body("openai-completions", Prompt("", [user("q"), turn, result("c1", [text("r")])], None, None))["messages"]
    assert "reasoning_details" not in msgs[1]


def test_anthropic_blank_last_user_leaves_the_prefill_unmarked() -> None:
    msgs = bodies([user("a"), assistant([text("pre")]), user(" ", ts=3000)])["anthropic-messages"]["messages"]
    assert msgs == [{"role": "user", "content": "a"}, {"role": "assistant", "content": [{"type": "text", "text": "pre"}]}]


def test_responses_counter_counts_synthetic_results_not_failed_turns() -> None:
    messages = [
        user("q"),  # 0
        assistant([call("c1")], who=GPT),  # 1, then the synthetic result for c1 is 2
        user("more", ts=3000),  # 3
        assistant([text("boom")], who=GPT, ts=3500, stop="error"),  # dropped, not counted
        assistant([text("done")], who=GPT, ts=4000),  # 4
    ]
    items = emit_body("openai-responses", Prompt("", messages, None, None))["input"]
    assert items[2] == {"type": "function_call_output", "call_id": "c1", "output": "No result provided"}
    assert items[-1]["id"] == "msg_pi_4"
    assert len(items) == 5


def test_responses_arguments_number_forms() -> None:
    args = {"z": 1e21, "y": 1.5e-7, "x": 2.50, "w": [True, None]}
    turn = assistant([call("c1|fc_1", arguments=args)], who=GPT)
    items = emit_body("openai-responses", Prompt("", [user("q"), turn, result("c1|fc_1", [text("r")])], None, None))["input"]
    assert items[1]["arguments"] == '{"z":1e+21,"y":1.5e-7,"x":2.5,"w":[true,null]}'
