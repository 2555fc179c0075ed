"""Conversation shapes that make a provider request fail, found before a body is built.

A context is checked against its format (:mod:`forgec.codecs.context`), but the format lets a
message be any object, because Pi's own messages are that loose.  Some shapes still break the turn
later: pi-ai reads ``usage.totalTokens`` of assistant turns to estimate the context and throws
``Cannot read properties of undefined`` when ``usage`` is missing; an image without ``data`` is
sent as ``base64,undefined`` and the provider refuses it; a tool call without a string ``id``
cannot be matched with its result.  :func:`message_hazards` names each such message and why, so
``validate`` and ``preview`` can point at it (file:line:col) and ``compile``'s payload error can
say which message failed, instead of only repeating pi-ai's TypeError.

The usage check follows the same walk as the output-token cap (:func:`forgec.emit.convert.context_estimate`),
so a message is reported exactly when pi-ai would read its ``usage``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from forgec.emit.convert import _to_number, convert_to_llm, part_type
from forgec.rules import payloads as rules

__all__ = ["Hazard", "describe_hazard", "message_hazards"]


@dataclass(frozen=True, slots=True)
class Hazard:
    """One message shape a provider request fails on."""

    #: index of the message in the list checked (0-based)
    index: int
    #: where inside the message: ``("usage",)``, ``("content", 2, "data")``; the caret goes there
    #: (or at the message's ``role`` when the field is missing)
    pointer: tuple[str | int, ...]
    #: the rule (FG804-FG806)
    code: str
    #: what is wrong and what fails because of it, one sentence without a final period
    reason: str


def _usage_hazards(messages: list[Any]) -> list[Hazard]:
    """The assistant turns whose missing ``usage`` pi-ai would read (the walk of ``_usage_anchor``)."""
    index_of = {id(m): i for i, m in enumerate(messages) if isinstance(m, dict)}
    out: list[Hazard] = []
    latest = -math.inf
    for msg in convert_to_llm(messages):
        stamp = _to_number(msg["timestamp"]) if "timestamp" in msg else math.nan
        if msg.get("role") == "assistant" and stamp >= latest and msg.get("stopReason") not in ("error", "aborted"):
            usage = msg.get("usage")
            if usage is None and id(msg) in index_of:
                what = "has no usage" if "usage" not in msg else "has usage: null"
                out.append(
                    Hazard(
                        index_of[id(msg)],
                        ("usage",),
                        rules.CONTEXT_USAGE_MISSING,
                        f"assistant message {what}; pi-ai reads usage.totalTokens of every assistant turn "
                        "to size the request, so every provider body fails",
                    )
                )
        latest = math.nan if math.isnan(stamp) or math.isnan(latest) else max(latest, stamp)
    return out


def _part_hazards(index: int, msg: dict[str, Any]) -> list[Hazard]:
    content = msg.get("content")
    if not isinstance(content, list):
        return []
    role = msg.get("role")
    out: list[Hazard] = []
    for p, part in enumerate(content):
        kind = part_type(part)
        if kind == "image" and role in ("user", "toolResult"):
            for key in ("data", "mimeType"):
                if not isinstance(part.get(key), str) or part.get(key) == "":
                    out.append(
                        Hazard(
                            index,
                            ("content", p, key) if key in part else ("content", p),
                            rules.CONTEXT_IMAGE_INCOMPLETE,
                            f"image has no {key} (a non-empty string); the provider receives "
                            f"{'base64,undefined' if key == 'data' else 'no media type'} and refuses the request",
                        )
                    )
        elif kind == "toolCall" and role == "assistant" and not isinstance(part.get("id"), str):
            out.append(
                Hazard(
                    index,
                    ("content", p, "id") if "id" in part else ("content", p),
                    rules.CONTEXT_TOOL_CALL_ID,
                    "tool call has no string id; pi-ai's id normalisers throw on it and the provider "
                    "cannot match the call with its result",
                )
            )
    return out


def message_hazards(messages: list[Any]) -> list[Hazard]:
    """Every hazard of ``messages`` (agent messages, as in a context or a compiled prompt), by message."""
    found = _usage_hazards(messages)
    for index, msg in enumerate(messages):
        if isinstance(msg, dict):
            found.extend(_part_hazards(index, msg))
    return sorted(found, key=lambda h: (h.index, h.pointer != ("usage",)))


def describe_hazard(hazard: Hazard, messages: list[Any]) -> str:
    """``message 2 (assistant): …`` -- the 1-based message number a person counts, and why."""
    msg = messages[hazard.index] if 0 <= hazard.index < len(messages) else None
    role = msg.get("role") if isinstance(msg, dict) else None
    label = f"message {hazard.index + 1}" + (f" ({role})" if isinstance(role, str) else "")
    return f"{label}: {hazard.reason}"
