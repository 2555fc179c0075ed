"""Message builders for the payload tests (pi-agent message shapes, context-format.md).

One module serves every payload test in ``tests/emit`` (the emitters, the conversion and the
payload rules of payloads.md), so a scenario means the same thing in all of them.
"""

from __future__ import annotations

from typing import Any

from forgec.emit import Prompt, build_payloads

#: Assistant-turn identities of the four reference models (payloads.md §1): a turn is the target's
#: own when provider, api and model all match (§4).
CLAUDE = {"provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-5"}
GEMINI = {"provider": "google", "api": "google-generative-ai", "model": "gemini-2.5-pro"}
OPENROUTER = {"provider": "openrouter", "api": "openai-completions", "model": "google/gemini-2.5-flash"}
GPT = {"provider": "openai", "api": "openai-responses", "model": "gpt-5.1"}

PNG = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
JPG = {"type": "image", "data": "/9j/4AAQ", "mimeType": "image/jpeg"}

ZERO = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}


def usage(total: int = 0, **parts: int) -> dict[str, Any]:
    """A pi-ai usage record; ``total`` is ``totalTokens``, ``parts`` override the components."""
    return {**ZERO, **parts, "totalTokens": total}


def user(content: Any, ts: int = 1000) -> dict[str, Any]:
    return {"role": "user", "content": content, "timestamp": ts}


def assistant(
    parts: list[dict[str, Any]],
    who: dict[str, str] = CLAUDE,
    ts: int = 2000,
    usage: dict[str, Any] | None = None,
    stop: str = "stop",
) -> dict[str, Any]:
    """An assistant turn made by ``who``; zero usage unless given (zero usage never anchors, §3)."""
    return {
        "role": "assistant",
        "content": parts,
        **who,
        "usage": usage or dict(ZERO),
        "stopReason": stop,
        "timestamp": ts,
    }


def text(value: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **extra}


def thinking(value: str, signature: str | None = None, **extra: Any) -> dict[str, Any]:
    part: dict[str, Any] = {"type": "thinking", "thinking": value, **extra}
    if signature is not None:
        part["thinkingSignature"] = signature
    return part


def call(call_id: str, name: str = "read", arguments: Any = None, **extra: Any) -> dict[str, Any]:
    return {
        "type": "toolCall",
        "id": call_id,
        "name": name,
        "arguments": {"path": "a.txt"} if arguments is None else arguments,
        **extra,
    }


def result(
    call_id: str, content: list[dict[str, Any]], name: str = "read", ts: int = 3000, error: bool = False
) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": content,
        "isError": error,
        "timestamp": ts,
    }


#: Context tools: a schema with keys Anthropic drops, one without description/parameters, one inactive.
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


def section(
    messages: list[Any], level: str | None = None, tools: Any = None, system: str = "S"
) -> dict[str, Any]:
    """The ``payloads`` section for these inputs (all four APIs)."""
    return build_payloads(Prompt(system, messages, tools, level))


def bodies(
    messages: list[Any], level: str | None = None, tools: Any = None, system: str = "S"
) -> dict[str, Any]:
    """``{api: body}``, or ``{api: error text}`` where pi-ai would throw."""
    out = section(messages, level, tools, system)
    return {api: entry.get("body", entry.get("error")) for api, entry in out.items()}
