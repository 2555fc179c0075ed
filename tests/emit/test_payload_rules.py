"""A walk through payloads.md on combined scenarios the public corpus does not have.

Each test builds one conversation and checks all four bodies against values worked out by hand
from the spec text (section cited in each test): thinking levels next to replayed own turns, images
in tool results, tool schemas with duplicates and defaults, and usage-anchored output caps.
"""

from __future__ import annotations

from typing import Any

from forgec.emit.convert import short_hash

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
    section,
    text,
    thinking,
    usage,
    user,
)

EPHEMERAL = {"type": "ephemeral"}
REASONING_ITEM = '{"type":"reasoning","id":"rs_1","summary":[]}'


def _tool_use(call_id: str, path: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "read", "input": {"path": path}}


def _chat_call(call_id: str, path: str) -> dict[str, Any]:
    arguments = '{"path":"' + path + '"}'
    return {"id": call_id, "type": "function", "function": {"name": "read", "arguments": arguments}}


# --- replayed own turns next to foreign ones (§4 pass 1, §5–§8) -----------------------------------


def _claude_then_gpt() -> list[Any]:
    return [
        user("Fix it", ts=1000),
        assistant(
            [
                thinking("plan", "c2lnMQ=="),
                thinking("[Reasoning redacted]", "opaque", redacted=True),
                thinking("  ", "c2lnMg=="),
                text("Done.", textSignature="ignored"),
                call("toolu_1|x", arguments={"path": "a"}),
            ],
            CLAUDE,
            ts=2000,
        ),
        result("toolu_1|x", [text("A")], ts=3000),
        assistant(
            [
                thinking("gpt thought", REASONING_ITEM),
                text("gpt says", textSignature='{"v":1,"id":"msg_9"}'),
                call("call_9|fc_9", arguments={"path": "b"}),
            ],
            GPT,
            ts=4000,
        ),
        result("call_9|fc_9", [text("B")], ts=5000),
        user("next", ts=6000),
    ]


def test_anthropic_replays_its_own_turn_and_flattens_the_gpt_turn() -> None:
    # §4: own turn keeps signed (even blank) and redacted thinking and its own tool-call id; the GPT
    # turn's thinking becomes text and its id is sanitised (| -> _), results follow (§5 normaliser).
    # §5 Thinking at `high`: m1 = min(64000 + 16384, 64000) = 64000, budget 16384.
    body = bodies(_claude_then_gpt(), "high")["anthropic-messages"]
    assert body["messages"] == [
        {"role": "user", "content": "Fix it"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "plan", "signature": "c2lnMQ=="},
                {"type": "redacted_thinking", "data": "opaque"},
                {"type": "thinking", "thinking": "  ", "signature": "c2lnMg=="},
                {"type": "text", "text": "Done."},
                _tool_use("toolu_1|x", "a"),
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1|x", "content": "A", "is_error": False}
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "gpt thought"},
                {"type": "text", "text": "gpt says"},
                _tool_use("call_9_fc_9", "b"),
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_9_fc_9", "content": "B", "is_error": False}
            ],
        },
        {"role": "user", "content": [{"type": "text", "text": "next", "cache_control": EPHEMERAL}]},
    ]
    assert body["max_tokens"] == 64000
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 16384, "display": "summarized"}


def test_gemini_sees_both_turns_as_foreign() -> None:
    # §4: redacted and blank thinking are dropped on foreign turns, other thinking becomes text;
    # §6: ids play no role, each result opens a user turn, the next user message is not merged.
    body = bodies(_claude_then_gpt(), "high")["google-generative-ai"]
    read_a = {"functionCall": {"name": "read", "args": {"path": "a"}}}
    read_b = {"functionCall": {"name": "read", "args": {"path": "b"}}}
    assert body["contents"] == [
        {"role": "user", "parts": [{"text": "Fix it"}]},
        {"role": "model", "parts": [{"text": "plan"}, {"text": "Done."}, read_a]},
        {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": "A"}}}]},
        {"role": "model", "parts": [{"text": "gpt thought"}, {"text": "gpt says"}, read_b]},
        {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": "B"}}}]},
        {"role": "user", "parts": [{"text": "next"}]},
    ]
    assert body["config"]["thinkingConfig"] == {"includeThoughts": True, "thinkingBudget": 32768}


def test_completions_joins_foreign_text_and_folds_pipe_ids() -> None:
    # §7: foreign thinking-as-text and text join with no separator; `a|b` ids fold to `a_b`.
    body = bodies(_claude_then_gpt(), "high")["openai-completions"]
    assert body["messages"] == [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Fix it"},
        {"role": "assistant", "content": "planDone.", "tool_calls": [_chat_call("toolu_1_x", "a")]},
        {"role": "tool", "content": "A", "tool_call_id": "toolu_1_x"},
        {
            "role": "assistant",
            "content": "gpt thoughtgpt says",
            "tool_calls": [_chat_call("call_9_fc_9", "b")],
        },
        {"role": "tool", "content": "B", "tool_call_id": "call_9_fc_9"},
        {"role": "user", "content": "next"},
    ]
    assert body["reasoning"] == {"effort": "high"}


def test_responses_replays_its_own_turn_and_hashes_the_claude_item() -> None:
    # §8: the Claude turn is foreign to the provider, so its item id becomes fc_ + shortHash(item);
    # the own GPT turn replays the reasoning item, the text signature's id and the fc_ item id.
    # Counter i: user 0, Claude turn 1, result 2, GPT turn 3, result 4, user 5.
    body = bodies(_claude_then_gpt(), "high")["openai-responses"]

    def message(value: str, item_id: str) -> dict[str, Any]:
        return {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": value, "annotations": []}],
            "status": "completed",
            "id": item_id,
        }

    hashed = "fc_" + short_hash("x")
    args_a, args_b = '{"path":"a"}', '{"path":"b"}'
    assert body["input"] == [
        {"role": "developer", "content": "S"},
        {"role": "user", "content": [{"type": "input_text", "text": "Fix it"}]},
        message("plan", "msg_pi_1"),
        message("Done.", "msg_pi_1_1"),
        {"type": "function_call", "id": hashed, "call_id": "toolu_1", "name": "read", "arguments": args_a},
        {"type": "function_call_output", "call_id": "toolu_1", "output": "A"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        message("gpt says", "msg_9"),
        {"type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "read", "arguments": args_b},
        {"type": "function_call_output", "call_id": "call_9", "output": "B"},
        {"role": "user", "content": [{"type": "input_text", "text": "next"}]},
    ]
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]


def test_gemini_own_turn_signatures_and_redacted_thinking() -> None:
    # §4: redacted thinking is kept on an own turn; §6 then treats it as thinking (`thought: true`),
    # with a thoughtSignature only when the signature looks like base64 (length % 4 == 0).
    messages = [
        user("q", ts=1),
        assistant(
            [
                thinking("think", "dGhpbms="),
                thinking("[Reasoning redacted]", "opaque!", redacted=True),
                thinking("odd", "abc"),
                text("answer", textSignature="YW5z"),
                call("g1", arguments={"path": "c"}, thoughtSignature="c2ln"),
            ],
            GEMINI,
            ts=2,
        ),
        result("g1", [text("C")], ts=3),
    ]
    b = bodies(messages, "low")
    assert b["google-generative-ai"]["contents"][1] == {
        "role": "model",
        "parts": [
            {"thought": True, "text": "think", "thoughtSignature": "dGhpbms="},
            {"thought": True, "text": "[Reasoning redacted]"},
            {"thought": True, "text": "odd"},
            {"text": "answer", "thoughtSignature": "YW5z"},
            {"functionCall": {"name": "read", "args": {"path": "c"}}, "thoughtSignature": "c2ln"},
        ],
    }
    assert b["google-generative-ai"]["config"]["thinkingConfig"] == {
        "includeThoughts": True,
        "thinkingBudget": 2048,
    }
    # Foreign everywhere else: the redacted part is dropped, the rest of the thinking is text.
    assert b["anthropic-messages"]["messages"][1]["content"] == [
        {"type": "text", "text": "think"},
        {"type": "text", "text": "odd"},
        {"type": "text", "text": "answer"},
        _tool_use("g1", "c"),
    ]
    assert b["anthropic-messages"]["thinking"] == {
        "type": "enabled",
        "budget_tokens": 2048,
        "display": "summarized",
    }
    assert b["openai-completions"]["messages"][2]["content"] == "thinkoddanswer"


def test_openrouter_own_turn_reasoning_field_and_details() -> None:
    # §4: own turn keeps all thinking (the blank one only because it is signed); §7: the first
    # non-blank thinking part's signature names the field, texts join with "\n"; assistant text
    # joins without separator (blank text dropped); reasoning_details from JSON thoughtSignatures.
    detail = '{"type":"reasoning.encrypted","data":"x"}'
    messages = [
        user("q", ts=1),
        assistant(
            [
                thinking("   ", "other"),
                thinking("step one", "reasoning_content"),
                thinking("step two"),
                text("Hello "),
                text("   "),
                text("world"),
                call("or|1", arguments={"path": "d"}, thoughtSignature=detail),
                call("or2", arguments={"path": "e"}, thoughtSignature="not json"),
            ],
            OPENROUTER,
            ts=2,
        ),
        result("or|1", [text("D")], ts=3),
        result("or2", [text("E")], ts=4),
    ]
    body = bodies(messages, "medium")["openai-completions"]
    assert body["messages"][2] == {
        "role": "assistant",
        "content": "Hello world",
        "reasoning_content": "step one\nstep two",
        "tool_calls": [_chat_call("or|1", "d"), _chat_call("or2", "e")],
        "reasoning_details": [{"type": "reasoning.encrypted", "data": "x"}],
    }
    assert body["messages"][3:] == [
        {"role": "tool", "content": "D", "tool_call_id": "or|1"},
        {"role": "tool", "content": "E", "tool_call_id": "or2"},
    ]
    assert body["reasoning"] == {"effort": "medium"}


def test_responses_text_ids_count_only_sent_messages() -> None:
    # §8: a user message with no parts is skipped and not counted, so the turn is at i = 1; the
    # first text uses the signature's id and phase, the second msg_pi_1_1, a long id is hashed.
    long_id = "x" * 70
    messages = [
        user([], ts=1),
        user("q", ts=2),
        assistant(
            [
                text("first", textSignature='{"v":1,"id":"msg_a","phase":"commentary"}'),
                text("second"),
                text("third", textSignature=long_id),
            ],
            GPT,
            ts=3,
        ),
    ]
    items = bodies(messages, "minimal")["openai-responses"]["input"]
    assert [(i.get("id"), i.get("phase")) for i in items[2:]] == [
        ("msg_a", "commentary"),
        ("msg_pi_1_1", None),
        ("msg_" + short_hash(long_id), None),
    ]


# --- images (§2, §5–§8) ----------------------------------------------------------------------------


def test_tool_result_with_texts_and_two_images_in_every_api() -> None:
    # §5: with an image, one block per part (text not filtered, no placeholder as a text exists),
    # the last tool_result gets the cache marker; §6: joined text, then a separate image turn;
    # §7: joined text, then one user message with the images; §8: input_text then input_image.
    messages = [
        user("look", ts=1),
        assistant([call("t1")], ts=2),
        result("t1", [text("cap"), PNG, text(" "), JPG], ts=3),
    ]
    b = bodies(messages)
    png = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
    jpg = {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}
    assert b["anthropic-messages"]["messages"][-1] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [
                    {"type": "text", "text": "cap"},
                    {"type": "image", "source": png},
                    {"type": "text", "text": " "},
                    {"type": "image", "source": jpg},
                ],
                "is_error": False,
                "cache_control": EPHEMERAL,
            }
        ],
    }
    inline = [
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
        {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQ"}},
    ]
    assert b["google-generative-ai"]["contents"][2:] == [
        {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": "cap\n "}}}]},
        {"role": "user", "parts": [{"text": "Tool result image:"}, *inline]},
    ]
    urls = ["data:image/png;base64,iVBORw0KGgo=", "data:image/jpeg;base64,/9j/4AAQ"]
    assert b["openai-completions"]["messages"][3:] == [
        {"role": "tool", "content": "cap\n ", "tool_call_id": "t1"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Attached image(s) from tool result:"},
                *({"type": "image_url", "image_url": {"url": u}} for u in urls),
            ],
        },
    ]
    assert b["openai-responses"]["input"][-1] == {
        "type": "function_call_output",
        "call_id": "t1",
        "output": [
            {"type": "input_text", "text": "cap\n "},
            *({"type": "input_image", "detail": "auto", "image_url": u} for u in urls),
        ],
    }


def test_image_last_in_the_final_user_message_gets_the_cache_marker() -> None:
    # §5 last-message cache marker: the last block may be an image.
    body = bodies([user([text("see"), PNG])])["anthropic-messages"]
    assert body["messages"][0]["content"][-1]["cache_control"] == EPHEMERAL
    assert "cache_control" not in body["messages"][0]["content"][0]


def test_image_without_mime_type_prints_undefined_in_data_urls() -> None:
    # §7/§8 build the URL as "data:" + mimeType + ";base64," + data: a missing field is JavaScript's
    # `undefined` there; §5/§6 copy the fields, so the key is simply absent.
    bare = {"type": "image", "data": "AAAA"}
    b = bodies([user([bare])])
    assert b["openai-completions"]["messages"][1]["content"] == [
        {"type": "image_url", "image_url": {"url": "data:undefined;base64,AAAA"}}
    ]
    assert b["openai-responses"]["input"][1]["content"][0]["image_url"] == "data:undefined;base64,AAAA"
    assert b["anthropic-messages"]["messages"][0]["content"][0]["source"] == {
        "type": "base64",
        "data": "AAAA",
    }
    assert b["google-generative-ai"]["contents"][0]["parts"] == [{"inlineData": {"data": "AAAA"}}]


def test_anthropic_text_only_tool_result_joins_every_part() -> None:
    # §5: without images `c` is "the texts of its parts joined with \n": a part without text adds an
    # empty line (pi-ai maps every part's `text`); the other APIs join only the text parts (§6–§8).
    odd = {"type": "thinking", "thinking": "x"}
    messages = [user("q", ts=1), assistant([call("t1")], ts=2), result("t1", [text("A"), odd], ts=3)]
    b = bodies(messages)
    assert b["anthropic-messages"]["messages"][-1]["content"][0]["content"] == "A\n"
    assert b["openai-completions"]["messages"][-1]["content"] == "A"


# --- tool schemas (§1, §5–§8) ----------------------------------------------------------------------

SCHEMA_TOOLS = [
    {
        "name": "a",
        "description": "first a",
        "parameters": {
            "type": "object",
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"x": {"type": "integer"}},
            "additionalProperties": False,
        },
    },
    {"name": "b", "description": None, "parameters": None},
    {
        "name": "a",
        "description": "second a",
        "parameters": {"type": "object", "required": ["y"], "properties": {"y": {"type": "string"}}},
    },
    {"name": "c", "description": "inactive", "active": False},
]


def test_tool_schemas_per_api() -> None:
    # §1: null description/parameters take the defaults, inactive tools are left out.
    # §5: de-duplicated by name (the later `a` keeps the first position), schema rebuilt from
    # properties/required only, cache marker on the last tool; §6/§7: verbatim, duplicates kept;
    # §8: de-duplicated like Anthropic, verbatim schema, strict false.
    b = bodies([user("q")], tools=SCHEMA_TOOLS)
    first, default, second = (
        SCHEMA_TOOLS[0]["parameters"],
        {"type": "object", "properties": {}},
        SCHEMA_TOOLS[2]["parameters"],
    )
    assert b["anthropic-messages"]["tools"] == [
        {
            "name": "a",
            "description": "second a",
            "eager_input_streaming": True,
            "input_schema": {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]},
        },
        {
            "name": "b",
            "description": "",
            "eager_input_streaming": True,
            "input_schema": {"type": "object", "properties": {}, "required": []},
            "cache_control": EPHEMERAL,
        },
    ]
    assert b["google-generative-ai"]["config"]["tools"] == [
        {
            "functionDeclarations": [
                {"name": "a", "description": "first a", "parametersJsonSchema": first},
                {"name": "b", "description": "", "parametersJsonSchema": default},
                {"name": "a", "description": "second a", "parametersJsonSchema": second},
            ]
        }
    ]
    assert [
        (
            t["function"]["name"],
            t["function"]["description"],
            t["function"]["parameters"],
            t["function"]["strict"],
        )
        for t in b["openai-completions"]["tools"]
    ] == [("a", "first a", first, False), ("b", "", default, False), ("a", "second a", second, False)]
    assert b["openai-responses"]["tools"] == [
        {"type": "function", "name": "a", "description": "second a", "parameters": second, "strict": False},
        {"type": "function", "name": "b", "description": "", "parameters": default, "strict": False},
    ]


def test_tool_list_counts_in_the_estimate_without_an_anchor() -> None:
    # §3: without an anchor the estimate adds ceil(len(J) / 4), J = the compact JSON of
    # [{name, label, description, parameters}] over every active tool, duplicates included.
    from forgec.js.values import json_stringify

    held = [
        {"name": "t", "label": "t", "description": "d", "parameters": {"type": "object", "properties": {}}},
    ] * 2
    j_tokens = -(-len(json_stringify(held) or "") // 4)
    tools = [{"name": "t", "description": "d"}] * 2
    big = "x" * (4 * (400000 - 4096 - 100))  # user text alone leaves available = 100 for gpt-5.1
    caps = bodies([user(big)], tools=tools, system="")["openai-responses"]["max_output_tokens"]
    assert caps == 100 - j_tokens


# --- usage-anchored output caps (§3) and their per-API use ------------------------------------------


def _anchored(total: int, *after: Any) -> list[Any]:
    return [user("q", ts=1), assistant([text("a")], usage=usage(total), ts=2), *after]


def test_image_after_the_anchor_counts_4800_characters() -> None:
    # estimate = 990000 + ceil((4 + 4800) / 4) = 991201; available = window - 991201 - 4096.
    # Anthropic medium: cap 4703, m1 = min(4703 + 8192, 64000) = 12895 > 8192, max_tokens =
    # clamp(12895) = 4703, budget_tokens = min(8192, 4703 - 1024) = 3679.  GPT: below 1 -> 1 -> 16.
    out = section(_anchored(990000, user([text("abcd"), PNG], ts=3)), "medium")
    anthropic = out["anthropic-messages"]["body"]
    assert anthropic["max_tokens"] == 4703
    assert anthropic["thinking"] == {"type": "enabled", "budget_tokens": 3679, "display": "summarized"}
    google = out["google-generative-ai"]["body"]["config"]
    assert google["maxOutputTokens"] == 1048576 - 991201 - 4096
    assert google["thinkingConfig"] == {"includeThoughts": True, "thinkingBudget": 8192}
    assert out["openai-completions"]["body"]["max_completion_tokens"] == 1048576 - 991201 - 4096
    assert out["openai-responses"]["body"]["max_output_tokens"] == 16


def test_converted_bash_message_after_the_anchor_counts_its_text() -> None:
    # §2: an excluded bash execution is dropped (counts nothing); the other becomes
    # "Ran `ls`\n(no output)" = 20 characters -> 5 tokens.  estimate = 990005.
    bash = {"role": "bashExecution", "command": "ls", "output": "", "exitCode": 0, "timestamp": 3}
    hidden = {**bash, "excludeFromContext": True}
    b = bodies(_anchored(990000, hidden, bash))
    assert b["google-generative-ai"]["config"]["maxOutputTokens"] == 1048576 - 990005 - 4096


def test_responses_output_cap_floor_is_16() -> None:
    # available = 400000 - 395894 - 4096 = 10 -> cap 10 -> max(10, 16) = 16 for gpt-5.1 only.
    b = bodies(_anchored(395894))
    assert b["openai-responses"]["max_output_tokens"] == 16
    assert b["google-generative-ai"]["config"]["maxOutputTokens"] == 65536


def test_minimal_thinking_when_the_cap_bottoms_out() -> None:
    # cap = max(1, negative) = 1; minimal: m1 = min(1 + 1024, 64000) = 1025 > 1024, max_tokens =
    # clamp(1025) = 1, budget_tokens = min(1024, max(0, 1 - 1024)) = 0 -> replaced by 1024.
    body = bodies(_anchored(999000), "minimal")["anthropic-messages"]
    assert body["max_tokens"] == 1
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024, "display": "summarized"}


# --- host conversion text (§2): JavaScript string conversion of missing fields ----------------------


def test_bash_and_summary_text_print_missing_fields_like_javascript() -> None:
    # §2 builds these texts by concatenation, so `undefined`/`null`/`false` print as words.
    cases = [
        ({"role": "bashExecution", "output": "", "timestamp": 1}, "Ran `undefined`\n(no output)"),
        (
            {"role": "bashExecution", "command": "x", "exitCode": False, "timestamp": 1},
            "Ran `x`\n(no output)\n\nCommand exited with code false",
        ),
        (
            {"role": "branchSummary", "summary": None, "timestamp": 1},
            "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nnull</summary>",
        ),
        (
            {"role": "compactionSummary", "timestamp": 1},
            "The conversation history before this point was compacted into the following summary:"
            "\n\n<summary>\nundefined\n</summary>",
        ),
    ]
    for message, expected in cases:
        contents = bodies([message])["google-generative-ai"]["contents"]
        assert contents == [{"role": "user", "parts": [{"text": expected}]}], message
