"""A tool call whose ``name`` is not a string makes pi-ai's token estimate ``NaN`` (``name.length`` is
``undefined``; issue 12, point 3), and JavaScript's ``Math.min``/``Math.max`` carry the ``NaN`` into
every output-token cap.  Anthropic and Gemini print it as ``null``; Chat Completions and Responses set
their cap only ``if (options?.maxTokens)``, so a NaN cap leaves the field out (recorded with Pi 0.83.0)."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads
from forgec.emit.convert import context_estimate, estimate_message_tokens, js_max, js_min
from forgec.js.values import dumps_report

USAGE = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}
CAP_FIELDS = ("max_tokens", "maxOutputTokens", "max_completion_tokens", "max_output_tokens")


def _messages(name: Any) -> list[dict[str, Any]]:
    call = {"type": "toolCall", "id": "c1", "name": name, "arguments": {"q": 1}}
    return [
        {"role": "user", "content": "hi", "timestamp": 1},
        {"role": "assistant", "content": [call], "provider": "x", "api": "y", "model": "z", "usage": USAGE,
         "stopReason": "toolUse", "timestamp": 2},
        {"role": "toolResult", "toolCallId": "c1", "toolName": "t", "content": [{"type": "text", "text": "ok"}],
         "isError": False, "timestamp": 3},
    ]


def _caps(level: str | None, name: Any) -> dict[str, list[str]]:
    text = dumps_report(build_payloads(Prompt("S", _messages(name), None, level)))
    return {k: re.findall(rf'"{k}": ([^,\n]*)', text) for k in (*CAP_FIELDS, "budget_tokens")}


def test_js_min_and_max_carry_nan() -> None:
    assert math.isnan(js_max(1, math.nan)) and math.isnan(js_min(math.nan, 5))
    assert js_max(1, 3) == 3 and js_min(2, 7) == 2


@pytest.mark.parametrize("name", [5, True, {"n": 1}, 1.5])
def test_a_non_string_name_makes_the_estimate_nan(name: Any) -> None:
    assert math.isnan(estimate_message_tokens(_messages(name)[1]))
    assert math.isnan(context_estimate("S", _messages(name), []))


@pytest.mark.parametrize(("name", "chars"), [("tool", 4), (["a", "b"], 2), ("😀", 2)])
def test_string_and_array_names_count_their_length(name: Any, chars: int) -> None:
    # name.length + JSON.stringify({"q":1}).length (7), a quarter rounded up
    assert estimate_message_tokens(_messages(name)[1]) == math.ceil((chars + 7) / 4)


@pytest.mark.parametrize("level", [None, "high"])
def test_nan_caps_print_null_or_leave_the_field_out(level: str | None) -> None:
    caps = _caps(level, 5)
    assert caps["max_tokens"] == ["null"] and caps["maxOutputTokens"] == ["null"]
    assert caps["max_completion_tokens"] == [] and caps["max_output_tokens"] == []
    if level == "high":  # Anthropic: Math.min(budget, Math.max(0, NaN - 1024)) || 1024
        assert caps["budget_tokens"] == ["1024"]


def test_string_names_keep_numeric_caps() -> None:
    caps = _caps(None, "search")
    for field in CAP_FIELDS:
        assert caps[field] and caps[field][0].isdigit(), field
