"""``forgec cache-check`` on a two-turn coding session, measured against ``forgec compile`` itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.analysis.cache import cache_check, common_prefix_length
from forgec.model import API_ORDER
from tests.analysis.helpers import CONTEXTS

REPO = Path(__file__).resolve().parents[2]
PAIR = REPO / "examples" / ".pi" / "forge" / "prompt-stacks" / "pair-programmer.json"
TURN1, TURN2 = CONTEXTS / "turn-1.yaml", CONTEXTS / "turn-2.yaml"


def _compiled(run, stack: Path, context: Path, target: str) -> bytes:
    result = run("compile", str(stack), "--context", str(context), "--target", target)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


@pytest.mark.parametrize("target", API_ORDER)
def test_prefix_is_the_common_byte_prefix_of_the_compile_bodies(run, target: str) -> None:
    one, two = _compiled(run, PAIR, TURN1, target), _compiled(run, PAIR, TURN2, target)
    expected = next((i for i, (x, y) in enumerate(zip(one, two, strict=False)) if x != y), min(len(one), len(two)))
    assert 0 < expected < min(len(one), len(two))
    check = cache_check(PAIR, TURN1, TURN2, target)
    assert check.prefix_bytes == expected
    assert check.body_bytes == (len(one), len(two))
    printed = json.loads(run("cache-check", str(PAIR), "--context", str(TURN1), "--context", str(TURN2),
                             "--target", target, "--format", "json").stdout)  # fmt: skip
    assert printed["prefixBytes"] == expected


def test_common_prefix_length() -> None:
    assert common_prefix_length(b"", b"abc") == 0
    assert common_prefix_length(b"abcd", b"abXd") == 2
    assert common_prefix_length(b"abc", b"abc") == 3
    assert common_prefix_length(b"abc", b"abcdef") == 3


@pytest.mark.parametrize("target", API_ORDER)
def test_a_stable_stack_caches_all_of_turn_one(target: str) -> None:
    check = cache_check(PAIR, TURN1, TURN2, target)
    assert check.difference is not None and check.difference.kind == "length"
    assert check.difference.message_index == 1  # turn 2's new history starts after turn 1's one message
    assert "can be read from the cache" in check.difference.produced_by
    assert 0.5 < check.cached_share < 1
    assert not check.errors


def _stack(tmp_path: Path, *items: dict[str, object]) -> Path:
    path = tmp_path / "seeded.json"
    path.write_text(json.dumps({"schemaVersion": 1, "id": "seeded", "items": list(items)}), encoding="utf-8")
    return path


HISTORY = {"kind": "slot", "id": "history", "slot": "chat-history"}


@pytest.mark.parametrize("target", API_ORDER)
def test_a_clock_in_the_system_prompt_is_found_with_its_item(tmp_path: Path, target: str) -> None:
    stack = _stack(
        tmp_path,
        {"kind": "block", "id": "role", "role": "system", "content": "You are terse."},
        {"kind": "block", "id": "clock", "role": "system", "content": "Local time: {{time}}"},
        {"kind": "slot", "id": "tools", "role": "system", "slot": "tools"},
        HISTORY,
    )
    check = cache_check(stack, TURN1, TURN2, target)
    assert check.difference is not None
    assert check.difference.kind == "system" and check.difference.item_id == "clock"
    assert 'system item "clock"' in check.difference.produced_by
    # only what the provider caches before the system prompt can still hit: the tool list (Gemini
    # puts the system instruction first, so nothing)
    from forgec.analysis.cache import cache_units
    from forgec.emit import emit_body
    from forgec.js.values import json_stringify
    from forgec.report import compile_report

    body = emit_body(target, compile_report(stack, TURN2).request_prompt())
    before = []
    for label, value in cache_units(target, body):
        if "system" in label.lower() or "messages" in label or "input" in label or "contents" in label:
            break
        before.append(len(json_stringify(value) or ""))
    assert check.cached_chars == sum(before)
    assert (check.cached_chars == 0) == (target == "google-generative-ai")


def test_user_text_before_the_history_is_found_with_its_item(tmp_path: Path) -> None:
    stack = _stack(
        tmp_path,
        {"kind": "block", "id": "role", "role": "system", "content": "You are terse."},
        {"kind": "block", "id": "task", "role": "user", "content": "Current task: {{lastUserMessage}}"},
        HISTORY,
    )
    check = cache_check(stack, TURN1, TURN2, "anthropic-messages")
    assert check.difference is not None
    assert (check.difference.kind, check.difference.item_id, check.difference.message_index) == ("message", "task", 0)
    assert check.difference.part == "messages[0]"


def test_cli_text_and_fail_under(run, tmp_path: Path) -> None:
    stack = _stack(tmp_path, {"kind": "block", "id": "clock", "role": "system", "content": "{{time}}"}, HISTORY)
    result = run("cache-check", str(stack), "--context", str(TURN1), "--context", str(TURN2), "--fail-under", "0.5")
    assert result.exit_code == 1
    assert 'produced by: system item "clock"' in result.stdout and "Anthropic" in result.stdout
    good = run("cache-check", str(PAIR), "--context", str(TURN1), "--context", str(TURN2), "--target", "all", "--fail-under", "0.5")
    assert good.exit_code == 0 and good.stdout.count("cache-check ") == 4


def test_cli_needs_two_contexts(run) -> None:
    result = run("cache-check", str(PAIR), "--context", str(TURN1))
    assert result.exit_code == 2 and "exactly twice" in result.output
