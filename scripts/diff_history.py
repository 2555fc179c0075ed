"""Hash the chat-history pipeline and the message compile over random histories, to compare two trees.

The history filters and the source records were rewritten for speed (docs/performance-log.md "Scale");
this prints one sha256 over thousands of random cases -- messages of every shape the host may send
(tool calls with and without results, thinking parts, summaries, non-string and missing roles,
non-objects) under random slot options -- so a base tree and this one can be compared::

    PYTHONPATH=/tmp/base-tree python scripts/diff_history.py
    python scripts/diff_history.py
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any


def _part(rng: random.Random) -> Any:
    kind = rng.choice(["text", "thinking", "toolCall", "toolCall", "image", "other", None])
    if kind is None:
        return rng.choice([None, "text", 3])
    part: dict[str, Any] = {"type": kind}
    if kind == "text":
        part["text"] = rng.choice(["hi", "", "ünï 😀", "a\ud800b"])
    elif kind == "thinking":
        part["thinking"] = "t"
    elif kind == "toolCall":
        key = rng.choice(["id", "toolCallId", "callId", None])
        if key:
            part[key] = rng.choice(["c1", "c2", "c3", ""])
        part["name"] = "read"
    return part


def _message(rng: random.Random) -> Any:
    if rng.random() < 0.03:
        return rng.choice([None, "text", 7])
    role = rng.choice(["user", "assistant", "assistant", "toolResult", "branchSummary", "bashExecution", "custom", None, 5, ["user"], ["toolResult"]])
    message: dict[str, Any] = {} if role is None and rng.random() < 0.5 else {"role": role}
    if role == "toolResult":
        key = rng.choice(["toolCallId", "id", "callId", None])
        if key:
            message[key] = rng.choice(["c1", "c2", "c3", ""])
    elif role == "bashExecution" and rng.random() < 0.7:
        message["command"], message["output"] = "ls", rng.choice(["a.txt", None, 4])
    elif role == "branchSummary" and rng.random() < 0.7:
        message["summary"] = rng.choice(["so far 😀", None])
    content = rng.random()
    message["content"] = "plain" if content < 0.2 else [_part(rng) for _ in range(rng.randint(0, 3))]
    return message


def _options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for key, values in (
        ("includeLastUserMessage", [False, True]),
        ("includeSummaries", [False, True]),
        ("roles", [["user", "assistant"], ["assistant", "toolResult", "user"], ["5"], []]),
        ("toolMode", ["drop", "keep", "odd"]),
        ("stripAssistantThinking", [True, False]),
        ("maxMessages", [1, 3, 10]),
        ("maxChars", [1, 10, 40, 1000]),
    ):
        if rng.random() < 0.35:
            options[key] = rng.choice(values)
    return options


def main() -> None:
    from forgec.compile.assemble import compile_messages
    from forgec.model.runtime import Runtime
    from forgec.model.variables import VariableStore

    rng = random.Random(20261202)
    digest = hashlib.sha256()
    for _case in range(4000):
        messages = [_message(rng) for _ in range(rng.randint(0, 12))]
        items: list[dict[str, Any]] = [{"kind": "block", "id": "b", "role": "user", "content": "hello"}]
        if rng.random() < 0.85:
            slot: dict[str, Any] = {"kind": "slot", "id": "h", "slot": "chat-history", "options": _options(rng)}
            if rng.random() < 0.5:
                slot["name"] = "History"
            items.insert(rng.randint(0, 1), slot)
        result = compile_messages({"items": items}, Runtime(messages=messages), VariableStore())
        record = {
            "messages": result.messages,
            "sources": [list(s.items()) for s in result.sources],
            "diagnostics": [(d.level, d.code, d.message) for d in result.diagnostics],
        }
        digest.update(json.dumps(record, ensure_ascii=True, default=repr).encode())
    print(digest.hexdigest())


if __name__ == "__main__":
    main()
