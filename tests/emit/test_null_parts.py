"""A ``null`` content part (admitted by the context schema) makes pi-ai throw V8's TypeError for
``part.type`` on every target (issue 12, point 3); a missing ``usage`` still fails first."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads

USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}
NULL_TYPE = "Cannot read properties of null (reading 'type')"


def _message(role: str, content: Any, **extra: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": role, "content": content, "timestamp": 1, **extra}
    if role == "toolResult":
        msg.update(toolCallId="c1", toolName="t")
    if role == "assistant" and "usage" not in extra:
        msg.update(usage=USAGE, stopReason="stop", provider="p", api="a", model="m")
    return msg


def _errors(messages: list[dict[str, Any]]) -> dict[str, Any]:
    section = build_payloads(Prompt("S", [{"role": "user", "content": "hi", "timestamp": 0}, *messages], None, None))
    return {api: entry.get("error") for api, entry in section.items()}


@pytest.mark.parametrize("role", ["user", "assistant", "toolResult", "custom"])
@pytest.mark.parametrize("content", [[None], [{"type": "text", "text": "a"}, None]])
def test_a_null_part_fails_every_target(role: str, content: list[Any]) -> None:
    errors = _errors([_message(role, content)])
    assert set(errors.values()) == {NULL_TYPE}


def test_messages_the_host_drops_are_never_read() -> None:
    errors = _errors([_message("someOtherRole", [None])])
    assert set(errors.values()) == {None}


def test_a_missing_usage_is_reported_before_a_null_part() -> None:
    broken = {"role": "assistant", "content": [None], "timestamp": 1, "stopReason": "stop"}
    errors = _errors([broken])
    assert set(errors.values()) == {"Cannot read properties of undefined (reading 'totalTokens')"}
