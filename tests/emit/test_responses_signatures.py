"""On the Responses path pi-ai ``JSON.parse``s a thinking part's truthy ``thinkingSignature``; a
non-string signature is converted to a string first (issue 12, point 3).  The expected texts are
Node 20.20.2's: ``node -e 'JSON.parse({a: 1})'`` and so on."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads

USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}


def _responses(signature: Any) -> dict[str, Any]:
    own = {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "thinkingSignature": signature}],
           "provider": "openai", "api": "openai-responses", "model": "gpt-5.1", "usage": USAGE, "stopReason": "stop",
           "timestamp": 1}
    section = build_payloads(Prompt("S", [{"role": "user", "content": "hi", "timestamp": 0}, own], None, None))
    entry: dict[str, Any] = section["openai-responses"]
    return entry


@pytest.mark.parametrize(
    ("signature", "error"),
    [
        ({"type": "reasoning"}, '"[object Object]" is not valid JSON'),
        (["a", 1], "Unexpected token 'a', \"a,1\" is not valid JSON"),
        ([], "Unexpected end of JSON input"),
        ([None], "Unexpected end of JSON input"),
    ],
)
def test_signatures_json_parse_rejects(signature: Any, error: str) -> None:
    assert _responses(signature).get("error") == error


@pytest.mark.parametrize("signature", [5, True])
def test_signatures_json_parse_accepts_become_the_item(signature: Any) -> None:
    entry = _responses(signature)
    assert "error" not in entry
    assert signature in entry["body"]["input"]


def test_a_string_signature_is_still_the_item() -> None:
    entry = _responses('{"type":"reasoning","id":"rs_1","summary":[]}')
    assert {"type": "reasoning", "id": "rs_1", "summary": []} in entry["body"]["input"]
