"""FG801 names the compiled message whose shape pi-ai cannot read (issue 12, point 3), while the
``payloads`` error stays pi-ai's own text."""

from __future__ import annotations

from forgec.emit import Prompt, build_payloads, build_request


def _messages() -> list[dict[str, object]]:
    return [
        {"role": "user", "content": "hi", "timestamp": 1},
        {"role": "user", "content": "still fine", "timestamp": 2},
        {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": "plain text", "timestamp": 3},
    ]


def test_the_failing_message_is_named() -> None:
    result = build_request("openai-responses", Prompt("S", _messages()))
    assert result.error == "content.filter is not a function"
    [finding] = [d for d in result.diagnostics if d.code == "FG801"]
    assert finding.message == (
        "pi-ai fails to build the openai-responses request: content.filter is not a function -- compiled "
        "message 3 (toolResult): pi-ai cannot read a field of this message as the type it expects"
    )


def test_the_payload_error_keeps_pi_ais_text() -> None:
    section = build_payloads(Prompt("S", _messages()))
    assert section["anthropic-messages"]["error"] == "content.some is not a function"
    assert section["openai-completions"]["error"] == "toolMsg.content.filter is not a function"


def test_a_body_that_builds_names_nothing() -> None:
    result = build_request("openai-responses", Prompt("S", _messages()[:2]))
    assert result.error is None and not [d for d in result.diagnostics if d.code == "FG801"]
