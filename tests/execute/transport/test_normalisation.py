"""The pieces of normalisation that need no server: each API's event reader and the outcome's JSON.

Events here are the JSON the providers document; the readers take text, stop reasons, usage and
tool calls from them and refuse shapes no provider sends with a clear message.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.execute.transport import (
    Usage,
    anthropic_messages,
    google_generative_ai,
    openai_completions,
    openai_responses,
)
from forgec.execute.transport.common import (
    ProviderFailure,
    ProviderOutcome,
    StreamState,
    TransportFailure,
    scrub,
)

READERS = {
    "openai-completions": openai_completions.feed,
    "openai-responses": openai_responses.feed,
    "anthropic-messages": anthropic_messages.feed,
    "google-generative-ai": google_generative_ai.feed,
}
TOOL_CALLS: dict[str, list[Any]] = {
    "openai-completions": [
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "read", "arguments": ""}}]}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}, "finish_reason": "tool_calls"}]},
    ],
    "openai-responses": [
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "name": "read", "arguments": ""}},
        {"type": "response.completed", "response": {"status": "completed", "usage": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}}},
    ],
    "anthropic-messages": [
        {"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "read", "input": {}}},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 2}},
        {"type": "message_stop"},
    ],
    "google-generative-ai": [
        {"candidates": [{"content": {"parts": [{"functionCall": {"name": "read", "args": {}}}], "role": "model"},
                         "finishReason": "STOP"}]},
    ],
}  # fmt: skip


def _read(api: str, events: list[Any]) -> tuple[StreamState, list[str]]:
    state, text = StreamState(), []
    for event in events:
        READERS[api](event, state, text.append)
    return state, text


@pytest.mark.parametrize("api", sorted(TOOL_CALLS))
def test_a_tool_call_is_named_and_ends_the_answer(api: str) -> None:
    state, text = _read(api, TOOL_CALLS[api])
    assert state.tool_calls == ["read"] and state.complete and text == []


def test_a_tool_call_becomes_a_warning_of_the_outcome() -> None:
    from forgec.execute.transport.common import ProviderCall, _ended

    call = ProviderCall("openai-completions", "http://127.0.0.1:1", "m", {})
    state = StreamState(stop_reason="tool_calls", complete=True, tool_calls=["read", "bash"])
    outcome = _ended(lambda status, **fields: ProviderOutcome(status, "", 1, **fields), state, call)
    assert outcome.status == "completed" and outcome.tool_calls == ("read", "bash")
    assert outcome.warnings == ("The model asked to call read, bash; forgec runs no tools, so the call is not executed.",)


def test_thinking_is_not_part_of_the_text() -> None:
    state, text = _read("google-generative-ai", [
        {"candidates": [{"content": {"parts": [{"text": "plan", "thought": True}, {"text": "answer"}]}, "finishReason": "STOP"}],
         "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 3, "thoughtsTokenCount": 4, "totalTokenCount": 17}},
    ])  # fmt: skip
    assert text == ["answer"]
    assert state.usage == Usage(10, 7, 17)
    state, text = _read("anthropic-messages", [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "plan"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "answer"}},
    ])  # fmt: skip
    assert text == ["answer"]


def test_anthropic_input_usage_counts_the_cached_prompt_too() -> None:
    state, _ = _read("anthropic-messages", [
        {"type": "message_start", "message": {"usage": {"input_tokens": 3, "cache_read_input_tokens": 100,
                                                        "cache_creation_input_tokens": 20, "output_tokens": 1}}},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
    ])  # fmt: skip
    assert state.usage == Usage(123, 9, 132)


def test_a_responses_failure_event_is_a_provider_failure() -> None:
    with pytest.raises(ProviderFailure, match="The provider reported a failed response: boom \\(server_error\\)"):
        _read("openai-responses", [{"type": "response.failed", "response": {"error": {"code": "server_error", "message": "boom"}}}])


def test_a_responses_incomplete_for_another_reason_is_a_warning_not_a_length_stop() -> None:
    state, _ = _read("openai-responses", [
        {"type": "response.incomplete", "response": {"incomplete_details": {"reason": "content_filter"}}},
    ])  # fmt: skip
    assert state.complete and not state.length_stop and state.stop_reason == "content_filter"
    assert state.warnings == ["The provider returned an incomplete response (content_filter)."]


def test_a_blocked_gemini_prompt_is_an_empty_answer_with_a_warning() -> None:
    state, text = _read("google-generative-ai", [{"promptFeedback": {"blockReason": "SAFETY"}}])
    assert state.complete and text == [] and state.warnings == ["The provider blocked the prompt (SAFETY)."]


@pytest.mark.parametrize(
    ("api", "event", "what"),
    [
        ("openai-completions", [], "a stream chunk is list, not an object"),
        ("openai-completions", {"choices": [{"index": 0, "delta": {"content": 7}}]}, "`delta.content` is not a string"),
        ("openai-responses", {"no": "type"}, "a stream event is not an object with a `type`"),
        ("anthropic-messages", {"type": "message_start"}, "`message_start` has no `message` object"),
        ("anthropic-messages", {"type": "content_block_delta", "delta": {"type": "text_delta"}}, "a `text_delta` has no `text`"),
        ("google-generative-ai", {"candidates": [{"content": {"parts": ["text"]}}]}, "a content part is not an object"),
    ],
)
def test_shapes_no_provider_sends_are_malformed(api: str, event: Any, what: str) -> None:
    with pytest.raises(ProviderFailure) as raised:
        _read(api, [event])
    assert str(raised.value) == f"Malformed response from the provider: {what}"
    assert raised.value.kind == "transport"


def test_usage_is_never_below_its_parts_and_ignores_what_is_not_a_count() -> None:
    assert Usage.of(10, 5, 12) == Usage(10, 5, 15)
    assert Usage.of(None, "7", True) == Usage(0, 0, 0)
    assert Usage.of(3, 4, 100).to_json() == {"input": 3, "output": 4, "total": 100}


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (ProviderOutcome("completed", "hi", 12, stop_reason="stop", usage=Usage(1, 1, 2)),
         {"status": "completed", "output": {"text": "hi", "partial": False}, "durationMs": 12,
          "usage": {"tokens": {"input": 1, "output": 1, "total": 2}}, "stopReason": "stop"}),
        (ProviderOutcome("failed", "", 3, error=TransportFailure("http.429", "slow down")),
         {"status": "failed", "output": {"text": "", "partial": True}, "durationMs": 3,
          "error": {"code": "http.429", "message": "slow down"}}),
        (ProviderOutcome("timed-out", "h", 500, reason="no complete response within 0.5 s", enforced_timeout_ms=500),
         {"status": "timed-out", "output": {"text": "h", "partial": True}, "durationMs": 500,
          "reason": "no complete response within 0.5 s", "enforcedTimeoutMs": 500}),
        (ProviderOutcome("limit-reached", "cut", 9, reached_limit="tokenBudget", stop_reason="max_tokens"),
         {"status": "limit-reached", "output": {"text": "cut", "partial": True}, "durationMs": 9,
          "reachedLimit": "tokenBudget", "stopReason": "max_tokens"}),
    ],
)  # fmt: skip
def test_the_outcome_json_has_the_fields_its_status_requires(outcome: ProviderOutcome, expected: dict[str, Any]) -> None:
    assert outcome.to_json() == expected


def test_scrub_reaches_keys_values_and_nested_lists() -> None:
    secret = "sk-secret-value"
    assert scrub({"a sk-secret-value": ["x sk-secret-value", 3, None, ("sk-secret-value",)]}, secret) == {
        "a [redacted]": ["x [redacted]", 3, None, ("[redacted]",)]
    }
    assert scrub("untouched", None) == "untouched"
