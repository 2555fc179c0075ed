"""payloads.md §3 (thinking clamp, output-token cap) and the per-API uses of the cap (§5–§8).

Every expected number is worked out from the spec's formulas in the comments next to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from .scenarios import (
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

LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"]


def _caps(b: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    return (
        b["anthropic-messages"]["max_tokens"],
        b["google-generative-ai"]["config"]["maxOutputTokens"],
        b["openai-completions"]["max_completion_tokens"],
        b["openai-responses"]["max_output_tokens"],
    )


# --- thinking level x model ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "claude", "gemini", "openrouter", "gpt"),
    [
        ("off", "off", "off", "off", "off"),
        ("minimal", "minimal", "minimal", "minimal", "low"),
        ("low", "low", "low", "low", "low"),
        ("medium", "medium", "medium", "medium", "medium"),
        ("high", "high", "high", "high", "high"),
        ("xhigh", "high", "high", "high", "high"),
        ("max", "high", "high", "high", "high"),
    ],
)
def test_recorded_thinking_level_is_the_clamped_one(
    level: str, claude: str, gemini: str, openrouter: str, gpt: str
) -> None:
    out = section([user("q")], level)
    assert [out[api]["thinkingLevel"] for api in out] == [claude, gemini, openrouter, gpt]


def test_missing_level_is_off() -> None:
    out = section([user("q")], None)
    assert {entry["thinkingLevel"] for entry in out.values()} == {"off"}
    assert "include" not in out["openai-responses"]["body"]


def test_gpt_minimal_body_uses_low() -> None:
    body = section([user("q")], "minimal")["openai-responses"]["body"]
    assert body["reasoning"] == {"effort": "low", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]


def test_openrouter_keeps_minimal_and_clamps_xhigh() -> None:
    assert bodies([user("q")], "minimal")["openai-completions"]["reasoning"] == {"effort": "minimal"}
    assert bodies([user("q")], "xhigh")["openai-completions"]["reasoning"] == {"effort": "high"}


# --- output-token cap: which usage counts ----------------------------------------------------------


def _anchored(use: dict[str, Any], after: list[Any] | None = None) -> list[Any]:
    return [user("q", ts=1), assistant([text("a")], usage=use, ts=2), *(after or [])]


def test_total_tokens_wins_over_components() -> None:
    # totalTokens non-zero: estimate = 395000 (components ignored)
    b = bodies(_anchored(usage(395000, input=1, output=1)))
    # GPT: min(128000, max(1, 400000 - 395000 - 4096)) = 904
    assert b["openai-responses"]["max_output_tokens"] == 904
    assert b["anthropic-messages"]["max_tokens"] == 64000


def test_components_summed_when_total_is_zero() -> None:
    # input + output + cacheRead + cacheWrite = 395000 (cacheRead and cacheWrite count)
    use = usage(0, input=100000, output=45000, cacheRead=200000, cacheWrite=50000)
    assert bodies(_anchored(use))["openai-responses"]["max_output_tokens"] == 904


def test_zero_usage_never_anchors() -> None:
    # no anchor: characters are counted, the cap stays at the model maximum
    assert _caps(bodies(_anchored(usage(0)))) == (64000, 65536, 65535, 128000)


def test_only_gpt_is_clamped_at_300k() -> None:
    # Claude 1000000-300000-4096 > 64000; Gemini/OpenRouter likewise; GPT 400000-300000-4096 = 95904
    assert _caps(bodies(_anchored(usage(300000)))) == (64000, 65536, 65535, 95904)


def test_all_clamped_near_the_window() -> None:
    # estimate 990000: Claude 1000000-990000-4096 = 5904; Gemini/OpenRouter 1048576-990000-4096 = 54480
    # GPT max(1, negative) = 1, raised to 16
    assert _caps(bodies(_anchored(usage(990000)))) == (5904, 54480, 54480, 16)


def test_cap_never_below_one() -> None:
    # estimate 2000000: available negative everywhere -> 1 (Responses: max(1, 16) = 16)
    assert _caps(bodies(_anchored(usage(2000000)))) == (1, 1, 1, 16)


# --- output-token cap: which message is the anchor ------------------------------------------------


def test_last_qualifying_assistant_is_the_anchor() -> None:
    messages = [
        user("q", ts=1),
        assistant([text("a")], usage=usage(100), ts=2),
        user("q2", ts=3),
        assistant([text("b")], usage=usage(395000), ts=4),
    ]
    assert bodies(messages)["openai-responses"]["max_output_tokens"] == 904


def test_failed_turn_is_not_the_anchor_but_is_counted_after_it() -> None:
    messages = [
        user("q", ts=1),
        assistant([text("a")], usage=usage(395000), ts=2),
        # stopReason error: not the anchor, but its 4000 characters (1000 tokens) count
        assistant([text("x" * 4000)], usage=usage(399000), ts=3, stop="error"),
    ]
    # estimate = 395000 + 1000 -> 400000 - 396000 - 4096 < 1 -> 1 -> 16; Claude 1000000-396000-4096 > 64000
    b = bodies(messages)
    assert b["openai-responses"]["max_output_tokens"] == 16
    messages[2]["stopReason"] = "aborted"
    assert bodies(messages)["openai-responses"]["max_output_tokens"] == 16


def test_messages_after_the_anchor_count_by_characters() -> None:
    after = [
        user("y" * 400, ts=3),  # 100
        user([text("zz"), PNG], ts=4),  # ceil((2 + 4800) / 4) = 1201
        {"role": "custom", "customType": "n", "content": "c" * 8, "display": False, "timestamp": 5},  # 2
        assistant([call("c1", "ab", {"k": 1})], usage=usage(0), ts=6),  # ab + {"k":1} = 9 chars -> 3
        result("c1", [text("r" * 5)], ts=7),  # 2
    ]
    # estimate = 390000 + 100 + 1201 + 2 + 3 + 2 = 391308 -> GPT 400000 - 391308 - 4096 = 4596
    assert bodies(_anchored(usage(390000), after))["openai-responses"]["max_output_tokens"] == 4596


def test_anchor_excludes_system_prompt_and_tools() -> None:
    tools = [{"name": "t", "description": "d" * 100000}]
    b = bodies(_anchored(usage(300000)), tools=tools, system="s" * 400000)
    assert b["openai-responses"]["max_output_tokens"] == 95904


def test_equal_timestamp_still_anchors() -> None:
    messages = [user("q", ts=2), assistant([text("a")], usage=usage(395000), ts=2)]
    assert bodies(messages)["openai-responses"]["max_output_tokens"] == 904


def test_newer_message_before_the_turn_disables_the_anchor() -> None:
    messages = [user("q", ts=5), assistant([text("a")], usage=usage(395000), ts=2)]
    assert bodies(messages)["openai-responses"]["max_output_tokens"] == 128000


def test_missing_timestamp_disables_every_later_anchor() -> None:
    first = user("q")
    del first["timestamp"]
    messages = [first, assistant([text("a")], usage=usage(395000), ts=2)]
    assert bodies(messages)["openai-responses"]["max_output_tokens"] == 128000


def test_without_anchor_system_prompt_and_tools_count() -> None:
    # S: 1200000 chars -> 300000; no tools -> GPT cap 400000 - 300000 - 1 (user "q") - 4096 = 95903
    assert bodies([user("q")], system="s" * 1200000)["openai-responses"]["max_output_tokens"] == 95903
    tools = [{"name": "t", "description": "d" * 4000}]
    # J = [{"name":"t","label":"t","description":"ddd…","parameters":{"type":"object","properties":{}}}]
    j = '[{"name":"t","label":"t","description":"' + "d" * 4000 + '","parameters":{"type":"object","properties":{}}}]'
    expected = 400000 - (300000 + 1 + -(-len(j) // 4)) - 4096
    got = bodies([user("q")], system="s" * 1200000, tools=tools)["openai-responses"]["max_output_tokens"]
    assert got == expected


# --- Anthropic budget with a small cap (§5 Thinking) ----------------------------------------------


@pytest.mark.parametrize(
    ("total", "level", "max_tokens", "budget"),
    [
        # cap 1000000-994904-4096 = 1000; m1 = 1000+8192 = 9192 -> clamp 1000; min(8192, max(0, -24)) = 0 -> 1024
        (994904, "medium", 1000, 1024),
        # cap 3000; m1 = 4024 -> 3000; min(1024, 1976) = 1024
        (992904, "minimal", 3000, 1024),
        # cap 2000; m1 = 4048 -> 2000; min(2048, 976) = 976
        (993904, "low", 2000, 976),
        # cap 1 (available negative); m1 = 16385 -> 1; budget 0 -> 1024
        (2000000, "high", 1, 1024),
        # cap 64000 (unclamped): m1 = min(64000 + 16384, 64000) = 64000; budget 16384
        (100, "max", 64000, 16384),
    ],
)
def test_anthropic_budget_against_the_cap(total: int, level: str, max_tokens: int, budget: int) -> None:
    body = bodies(_anchored(usage(total)), level)["anthropic-messages"]
    assert body["max_tokens"] == max_tokens
    assert body["thinking"] == {"type": "enabled", "budget_tokens": budget, "display": "summarized"}


def test_gemini_budget_does_not_depend_on_the_cap() -> None:
    config = bodies(_anchored(usage(1040000)), "high")["google-generative-ai"]["config"]
    assert config["maxOutputTokens"] == 1048576 - 1040000 - 4096
    assert config["thinkingConfig"] == {"includeThoughts": True, "thinkingBudget": 32768}


def test_thinking_parts_count_in_the_estimate() -> None:
    after = [assistant([thinking("t" * 4000, "sig")], usage=usage(0), ts=3)]
    # 390000 + 1000 -> 400000 - 391000 - 4096 = 4904
    assert bodies(_anchored(usage(390000), after))["openai-responses"]["max_output_tokens"] == 4904
