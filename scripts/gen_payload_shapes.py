"""Record the reference's provider payloads for every message shape the context schema admits.

``schemas/context.schema.json`` lets ``messages`` hold any objects, so every field of every message
kind (context-format.md, *the agent message shape*; payloads.md) can hold any JSON type.  This script
builds one small conversation per (role, field, value) -- and per content-part field -- with one
representative value of each JSON type (and the truthy/falsy split JavaScript branches on), runs each
through Pi 0.83.0's own code (``scripts/payload_reference.mjs``), and writes what the reference did
for each of the four target APIs: the body, or the error text pi-ai throws.
``tests/emit/test_payload_shapes.py`` compares forgec with the recording.

Each shape is recorded in two positions: ``estimated`` (no usage anchor, so pi-ai's token estimate
reads the message before any converter does) and ``anchored`` (the message precedes an assistant
turn whose usage anchors the estimate, so only the shared transform and the API converter read it).

    PI_REF_DIR=/path/with/pi-0.83.0 python scripts/gen_payload_shapes.py

(``payload_reference.mjs`` says how to install the packages.)  Output: ``tests/emit/payload_shapes.json.gz``.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "emit" / "payload_shapes.json.gz"
MISSING = object()

#: one value per JSON type, plus the falsy members of each (JavaScript branches on truthiness)
VALUES: list[tuple[str, Any]] = [
    ("absent", MISSING),
    ("null", None),
    ("true", True),
    ("false", False),
    ("zero", 0),
    ("number", 7),
    ("empty-string", ""),
    ("string", "x"),
    ("empty-array", []),
    ("array", ["x"]),
    ("empty-object", {}),
    ("object", {"a": 1}),
]

ZERO_USAGE = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}
ANCHOR_USAGE = {"input": 90, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 100}
REASONING = '{"type":"reasoning","id":"rs_1","summary":[]}'

#: assistant identities: the own turn of each target, and a turn foreign to all four
IDENTITIES = {
    "anthropic": {"provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-5"},
    "google": {"provider": "google", "api": "google-generative-ai", "model": "gemini-2.5-pro"},
    "openrouter": {"provider": "openrouter", "api": "openai-completions", "model": "google/gemini-2.5-flash"},
    "openai": {"provider": "openai", "api": "openai-responses", "model": "gpt-5.1"},
    "foreign": {"provider": "other", "api": "other-api", "model": "other-model"},
}


def _assistant(identity: str, content: list[Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        **IDENTITIES[identity],
        "usage": dict(ZERO_USAGE),
        "stopReason": "toolUse",
        "timestamp": 0,
    }


def _assistant_parts() -> list[dict[str, Any]]:
    return [
        {"type": "thinking", "thinking": "Let me look.", "thinkingSignature": REASONING},
        {"type": "text", "text": "Reading it.", "textSignature": "msg_1"},
        {
            "type": "toolCall",
            "id": "call_1|fc_1",
            "name": "read",
            "arguments": {"path": "a.txt"},
            "thoughtSignature": "c2ln",
        },
    ]


BASES: dict[str, dict[str, Any]] = {
    "user": {"role": "user", "content": "Hello there.", "timestamp": 0},
    "toolResult": {
        "role": "toolResult",
        "toolCallId": "call_1|fc_1",
        "toolName": "read",
        "content": [{"type": "text", "text": "file body"}],
        "isError": False,
        "timestamp": 0,
    },
    "custom": {"role": "custom", "customType": "note", "content": "A note.", "display": True, "timestamp": 0},
    "bashExecution": {
        "role": "bashExecution",
        "command": "ls",
        "output": "a.txt",
        "exitCode": 1,
        "cancelled": False,
        "truncated": True,
        "fullOutputPath": "/tmp/out.txt",
        "excludeFromContext": False,
        "timestamp": 0,
    },
    "branchSummary": {
        "role": "branchSummary",
        "summary": "Tried another fix.",
        "fromId": "e1",
        "timestamp": 0,
    },
    "compactionSummary": {
        "role": "compactionSummary",
        "summary": "Earlier work.",
        "tokensBefore": 10,
        "timestamp": 0,
    },
}
for _name in IDENTITIES:
    BASES[f"assistant/{_name}"] = _assistant(_name, _assistant_parts())

#: the fields each kind is read for (context-format.md's message table and payloads.md §2-§8)
MESSAGE_FIELDS: dict[str, list[str]] = {
    "user": ["role", "content", "timestamp"],
    "toolResult": ["toolCallId", "toolName", "content", "isError", "timestamp"],
    "custom": ["content", "timestamp"],
    "bashExecution": [
        "command",
        "output",
        "exitCode",
        "cancelled",
        "truncated",
        "fullOutputPath",
        "excludeFromContext",
        "timestamp",
    ],
    "branchSummary": ["summary", "timestamp"],
    "compactionSummary": ["summary", "timestamp"],
    **{
        f"assistant/{n}": ["content", "provider", "api", "model", "usage", "stopReason", "timestamp"]
        for n in IDENTITIES
    },
}
USAGE_FIELDS = ["totalTokens", "input", "output", "cacheRead", "cacheWrite"]

#: content parts: the part that is varied, the fields read of it
USER_PARTS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "text": ({"type": "text", "text": "Look."}, ["type", "text"]),
    "image": (
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        ["type", "data", "mimeType"],
    ),
}
ASSISTANT_PARTS: dict[str, tuple[int, list[str]]] = {
    "thinking": (0, ["type", "thinking", "thinkingSignature", "redacted"]),
    "text": (1, ["type", "text", "textSignature"]),
    "toolCall": (2, ["type", "id", "name", "arguments", "thoughtSignature"]),
}


def _set(obj: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    if value is MISSING:
        out.pop(key, None)
    else:
        out[key] = copy.deepcopy(value)
    return out


def shapes() -> list[tuple[str, dict[str, Any]]]:
    """``(name, message)`` for every shape, the message with timestamp 0 (placed later)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for kind, fields in MESSAGE_FIELDS.items():
        base = BASES[kind]
        for field in fields:
            for label, value in VALUES:
                out.append((f"{kind}.{field}={label}", _set(base, field, value)))
        if kind.startswith("assistant/"):
            for field in USAGE_FIELDS:
                for label, value in VALUES:
                    out.append(
                        (f"{kind}.usage.{field}={label}", {**base, "usage": _set(ZERO_USAGE, field, value)})
                    )
            for part_name, (index, part_fields) in ASSISTANT_PARTS.items():
                for label, value in VALUES[1:]:
                    content = copy.deepcopy(base["content"])
                    content[index] = copy.deepcopy(value)
                    out.append((f"{kind}.content[{part_name}]={label}", {**base, "content": content}))
                for field in part_fields:
                    for label, value in VALUES:
                        content = copy.deepcopy(base["content"])
                        content[index] = _set(content[index], field, value)
                        out.append(
                            (f"{kind}.content[{part_name}].{field}={label}", {**base, "content": content})
                        )
    for kind in ("user", "toolResult", "custom"):
        base = BASES[kind]
        for label, value in VALUES[1:]:
            content = [{"type": "text", "text": "First."}, copy.deepcopy(value)]
            out.append((f"{kind}.content[part]={label}", {**base, "content": content}))
        for part_name, (part, part_fields) in USER_PARTS.items():
            for field in part_fields:
                for label, value in VALUES:
                    content = [{"type": "text", "text": "First."}, _set(part, field, value)]
                    out.append((f"{kind}.content[{part_name}].{field}={label}", {**base, "content": content}))
    return out


#: a tool as the context declares it; its ``parameters`` is an object (the schema says so), whose
#: members are free: Anthropic rebuilds the schema from ``properties`` and ``required``
TOOL = {
    "name": "read",
    "description": "Read a file.",
    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
}
TOOL_FIELDS = ["properties", "required"]


def tool_shapes() -> list[tuple[str, list[dict[str, Any]]]]:
    """``(name, tools)`` for every JSON type in each member of a tool's ``parameters`` pi-ai reads."""
    return [
        (f"tool.parameters.{field}={label}", [{**TOOL, "parameters": _set(TOOL["parameters"], field, value)}])
        for field in TOOL_FIELDS
        for label, value in VALUES
    ]


def conversations() -> list[dict[str, Any]]:
    opener = {"role": "user", "content": "Start.", "timestamp": 1}
    closer = {"role": "user", "content": "Go on.", "timestamp": 4}
    anchor = {
        **_assistant("foreign", [{"type": "text", "text": "Done."}]),
        "usage": dict(ANCHOR_USAGE),
        "stopReason": "stop",
        "timestamp": 3,
    }
    out: list[dict[str, Any]] = []
    cases: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [(n, m, []) for n, m in shapes()]
    plain = {"role": "user", "content": "Hello there.", "timestamp": 0}
    cases += [(name, plain, tools) for name, tools in tool_shapes()]
    for name, msg, tools in cases:
        # the shape's own timestamp is varied only where the name says so
        varied_stamp = ".timestamp=" in name
        shaped = msg if varied_stamp else {**msg, "timestamp": 2}
        out.append(
            {
                "id": f"estimated:{name}",
                "systemPrompt": "Be brief.",
                "tools": tools,
                "messages": [opener, shaped, closer],
            }
        )
        out.append(
            {
                "id": f"anchored:{name}",
                "systemPrompt": "Be brief.",
                "tools": tools,
                "messages": [opener, shaped, anchor, closer],
            }
        )
    return out + pairs() + histories() + edges()


#: how many two-shape conversations and longer mixed histories are recorded (fixed seeds pick them)
PAIRS = 400
HISTORIES = 200


def pairs() -> list[dict[str, Any]]:
    """Conversations holding two shapes, to pin which failure comes first when several messages are
    malformed (the estimate reads every message before the transform, which reads every message
    before the converter).  Every other pair has a usage anchor between the two, so the estimate
    reads only the second; the thinking level cycles through ``off``, ``medium`` and ``high``."""
    pool = shapes()
    rng = random.Random(20261202)
    out: list[dict[str, Any]] = []
    for index in range(PAIRS):
        (name_a, msg_a), (name_b, msg_b) = rng.sample(pool, 2)
        first = msg_a if ".timestamp=" in name_a else {**msg_a, "timestamp": 2}
        second = msg_b if ".timestamp=" in name_b else {**msg_b, "timestamp": 4}
        middle: list[dict[str, Any]] = []
        if index % 2:
            middle = [
                {
                    **_assistant("foreign", [{"type": "text", "text": "Done."}]),
                    "usage": dict(ANCHOR_USAGE),
                    "stopReason": "stop",
                    "timestamp": 3,
                }
            ]
        out.append(
            {
                "id": f"pair:{index}:{name_a}+{name_b}",
                "systemPrompt": "Be brief.",
                "tools": [],
                "thinkingLevel": ("off", "medium", "high")[index % 3],
                "messages": [
                    {"role": "user", "content": "Start.", "timestamp": 1},
                    first,
                    *middle,
                    second,
                    {"role": "user", "content": "Go on.", "timestamp": 5},
                ],
            }
        )
    return out


def histories() -> list[dict[str, Any]]:
    """Histories of two to six shapes in any order, usage anchors sprinkled between them, with and
    without a system prompt and a tool, at thinking levels ``off``, ``low`` and ``high``."""
    pool = shapes()
    rng = random.Random(12)
    anchor = {
        **_assistant("foreign", [{"type": "text", "text": "Done."}]),
        "usage": dict(ANCHOR_USAGE),
        "stopReason": "stop",
    }
    out: list[dict[str, Any]] = []
    for index in range(HISTORIES):
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Start.", "timestamp": 1}]
        for step in range(rng.randint(2, 6)):
            name, msg = rng.choice(pool)
            messages.append(msg if ".timestamp=" in name else {**msg, "timestamp": 2 + step})
            if rng.random() < 0.25:
                messages.append({**anchor, "timestamp": 2 + step})
        out.append(
            {
                "id": f"history:{index}",
                "systemPrompt": rng.choice(["", "Be brief."]),
                "tools": rng.choice([[], [TOOL]]),
                "thinkingLevel": rng.choice(["off", "low", "high"]),
                "messages": messages,
            }
        )
    return out


def edges() -> list[dict[str, Any]]:
    """Values nested one level deeper than the table's: an array tool-call id holding ``"|"`` (it
    passes ``includes`` and fails later), and an own-turn Chat Completions thinking signature that
    names a field of the message it is written into (``role``, ``content``) or is an array."""
    opener = {"role": "user", "content": "Start.", "timestamp": 1}

    def turn(identity: str, call_id: Any, signature: Any) -> dict[str, Any]:
        parts = _assistant_parts()
        parts[0]["thinkingSignature"] = signature
        parts[2]["id"] = call_id
        return {**_assistant(identity, parts), "timestamp": 2}

    variants = {
        "array-id-with-pipe": turn("foreign", ["call_1", "|"], REASONING),
        "array-id-pipe-only": turn("foreign", ["|"], REASONING),
        "signature-role": turn("openrouter", "call_1", "role"),
        "signature-content": turn("openrouter", "call_1", "content"),
        "signature-array": turn("openrouter", "call_1", ["x", "y"]),
    }
    return [
        {"id": f"edge:{name}", "systemPrompt": "Be brief.", "tools": [], "messages": [opener, msg]}
        for name, msg in variants.items()
    ]


def main() -> int:
    ref = os.environ.get("PI_REF_DIR")
    if not ref:
        print("set PI_REF_DIR (see scripts/payload_reference.mjs)", file=sys.stderr)
        return 2
    inputs = conversations()
    run = subprocess.run(
        ["node", str(ROOT / "scripts" / "payload_reference.mjs")],
        input=json.dumps(inputs),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    results = {r["id"]: r["payloads"] for r in json.loads(run.stdout)}
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    doc = {
        "reference": {"pi-ai": "0.83.0", "node": node},
        "cases": [{**case, "payloads": results[case["id"]]} for case in inputs],
    }
    # key order kept: pi-ai stringifies tool-call arguments in their own order
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    OUT.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{len(inputs)} conversations -> {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
