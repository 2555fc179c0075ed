"""Tool-call id normalisation per API (payloads.md §4, §5, §7, §8; §9 *Lengths*).

pi-ai replaces with ``/[^a-zA-Z0-9_-]/g`` (no ``u`` flag), i.e. per UTF-16 code unit, so a character
outside the BMP (two code units) becomes two underscores.
"""

from __future__ import annotations

from typing import Any

from forgec.emit import Prompt, emit_body
from forgec.emit.convert import short_hash

from .scenarios import CLAUDE, GPT, OPENROUTER, assistant, call, result, text, user


def _round_trip(api: str, call_id: str, who: dict[str, str] = CLAUDE) -> dict[str, Any]:
    messages = [user("q"), assistant([call(call_id)], who=who), result(call_id, [text("r")]), user("next", ts=4000)]
    return emit_body(api, Prompt("", messages, None, None))


# --- anthropic-messages ----------------------------------------------------------------------------


def _anthropic_ids(call_id: str, who: dict[str, str] = GPT) -> tuple[Any, Any]:
    msgs = _round_trip("anthropic-messages", call_id, who)["messages"]
    return msgs[1]["content"][0]["id"], msgs[2]["content"][0]["tool_use_id"]


def test_anthropic_sanitises_foreign_ids_and_results_follow() -> None:
    assert _anthropic_ids("call.1|fc/2") == ("call_1_fc_2", "call_1_fc_2")


def test_anthropic_truncates_to_64_units() -> None:
    assert _anthropic_ids("x" * 70) == ("x" * 64, "x" * 64)


def test_anthropic_astral_character_is_two_code_units() -> None:
    assert _anthropic_ids("a\U0001f600b") == ("a__b", "a__b")


def test_anthropic_own_turn_ids_are_kept() -> None:
    assert _anthropic_ids("call|bad id", CLAUDE) == ("call|bad id", "call|bad id")


# --- openai-completions ----------------------------------------------------------------------------


def _completions_ids(call_id: str, who: dict[str, str] = GPT) -> tuple[Any, Any]:
    msgs = _round_trip("openai-completions", call_id, who)["messages"]
    return msgs[1]["tool_calls"][0]["id"], msgs[2]["tool_call_id"]


def test_completions_ids_without_pipe_are_unchanged() -> None:
    assert _completions_ids("toolu.01 x", CLAUDE) == ("toolu.01 x", "toolu.01 x")


def test_completions_splits_at_the_first_pipe() -> None:
    assert _completions_ids("a|b|c") == ("a_b_c", "a_b_c")


def test_completions_empty_item_half() -> None:
    assert _completions_ids("call.1|") == ("call_1", "call_1")


def test_completions_40_unit_limit() -> None:
    exactly = "c" * 20 + "|" + "i" * 19  # combined "c"*20 + "_" + "i"*19 = 40 units: kept
    assert _completions_ids(exactly)[0] == "c" * 20 + "_" + "i" * 19
    over = "c" * 20 + "|" + "i" * 20  # 41 units: call half (first 31) + "_" + 8 hash characters
    assert _completions_ids(over) == ("c" * 20 + "_" + short_hash(over)[:8],) * 2
    long_call = "k" * 50 + "|x"
    assert _completions_ids(long_call)[0] == "k" * 31 + "_" + short_hash(long_call)[:8]


def test_completions_astral_character_is_two_code_units() -> None:
    assert _completions_ids("a\U0001f600|b") == ("a___b", "a___b")


def test_completions_own_turn_ids_are_kept() -> None:
    assert _completions_ids("a|b", OPENROUTER) == ("a|b", "a|b")


# --- openai-responses ------------------------------------------------------------------------------


def _responses_items(call_id: str, who: dict[str, str] = CLAUDE) -> tuple[dict[str, Any], dict[str, Any]]:
    items = _round_trip("openai-responses", call_id, who)["input"]
    return items[1], items[2]


def test_responses_plain_id_is_sanitised_truncated_and_stripped() -> None:
    fc, out = _responses_items("toolu.01_")
    assert fc["call_id"] == "toolu_01" and out["call_id"] == "toolu_01"
    assert "id" not in fc
    fc, _ = _responses_items("y" * 63 + "__z")
    assert fc["call_id"] == "y" * 63  # first 64 units "y"*63 + "_", trailing "_" stripped


def test_responses_foreign_provider_item_is_hashed_only_first_two_pieces() -> None:
    fc, out = _responses_items("a|b|c")
    assert fc["call_id"] == "a" and out["call_id"] == "a"
    assert fc["id"] == "fc_" + short_hash("b")


def test_responses_other_api_of_same_provider_is_foreign_to_the_provider() -> None:
    who = {"provider": "openai", "api": "openai-completions", "model": "gpt-5.1"}
    fc, _ = _responses_items("call_1|item_1", who)
    assert fc["id"] == "fc_" + short_hash("item_1")


def test_responses_same_provider_other_model_drops_the_item_id() -> None:
    who = {**GPT, "model": "gpt-4.1"}
    fc, out = _responses_items("call.1|msg_1", who)
    assert fc["call_id"] == "call_1" and out["call_id"] == "call_1"
    assert "id" not in fc


def test_responses_own_turn_keeps_fc_item_id() -> None:
    fc, out = _responses_items("call_1|fc_abc", GPT)
    assert fc["id"] == "fc_abc" and fc["call_id"] == "call_1" and out["call_id"] == "call_1"
    fc, _ = _responses_items("call_1|rs_abc", GPT)
    assert "id" not in fc  # the item id must start with fc_


def test_responses_astral_character_is_two_code_units() -> None:
    fc, _ = _responses_items("a\U0001f600b")
    assert fc["call_id"] == "a__b"


# --- google-generative-ai ---------------------------------------------------------------------------


def test_google_sends_no_ids() -> None:
    contents = _round_trip("google-generative-ai", "call.1|x", GPT)["contents"]
    assert contents[1]["parts"] == [{"functionCall": {"name": "read", "args": {"path": "a.txt"}}}]
    assert contents[2]["parts"] == [{"functionResponse": {"name": "read", "response": {"output": "r"}}}]
