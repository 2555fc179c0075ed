"""The chat history of compile-core §8.3's "Observed" paragraph, shared by ``test_history.py`` and ``test_history_pipeline.py``."""

from __future__ import annotations

from typing import Any


def observed_history() -> list[dict[str, Any]]:
    """A fresh copy each call: passes must not mutate their input, and tests must not share state."""
    return [
        {"role": "compactionSummary", "summary": "S1", "tokensBefore": 10},
        {"role": "user", "content": "q1"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "t"},
                {"type": "text", "text": "a1"},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}},
            ],
        },
        {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "r1"}]},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c2", "name": "ls", "arguments": {}}]},
        {"role": "toolResult", "toolCallId": "c2", "content": [{"type": "text", "text": "r2"}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "only thinking here......."}]},
        {"role": "branchSummary", "summary": "B1", "fromId": "x"},
        {"role": "user", "content": "q2"},
    ]
