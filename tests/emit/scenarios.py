"""Small message builders for emitter tests (pi-agent message shapes, context-format.md)."""

from __future__ import annotations

from typing import Any

CLAUDE = {"provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-5"}
GEMINI = {"provider": "google", "api": "google-generative-ai", "model": "gemini-2.5-pro"}
OPENROUTER = {"provider": "openrouter", "api": "openai-completions", "model": "google/gemini-2.5-flash"}
GPT = {"provider": "openai", "api": "openai-responses", "model": "gpt-5.1"}

PNG = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}


def user(content: Any, ts: int = 1000) -> dict[str, Any]:
    return {"role": "user", "content": content, "timestamp": ts}


def assistant(
    parts: list[dict[str, Any]],
    who: dict[str, str] = CLAUDE,
    ts: int = 2000,
    usage: dict[str, Any] | None = None,
    stop: str = "stop",
) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": parts,
        **who,
        "usage": usage or {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0},
        "stopReason": stop,
        "timestamp": ts,
    }


def text(value: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **extra}


def thinking(value: str, signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"type": "thinking", "thinking": value}
    if signature is not None:
        part["thinkingSignature"] = signature
    return part


def call(call_id: str, name: str = "read", arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments or {"path": "a.txt"}}


def result(call_id: str, content: list[dict[str, Any]], name: str = "read", ts: int = 3000) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": content,
        "isError": False,
        "timestamp": ts,
    }


TOOLS = [
    {
        "name": "read",
        "description": "Read a file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"$ref": "#/$defs/path"}},
            "required": ["path"],
            "additionalProperties": False,
            "$defs": {"path": {"type": "string"}},
        },
    },
    {"name": "bash", "description": "Run a command."},
    {"name": "grep", "description": "Search.", "active": False},
]
