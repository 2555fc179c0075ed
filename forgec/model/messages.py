"""Reading agent messages as pi-forge reads them: roles (compile-core.md §16.14) and text (§8.9).

These helpers sit below every stage that looks at messages — the context codec derives
``{{lastUserMessage}}`` with :func:`latest_user_text`, the chat-history pipeline filters and measures
with them, the preview prints :func:`preview_text` — so each check reads a role or a text the same
way everywhere.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from forgec.js.values import js_len, js_string, js_trim

__all__ = [
    "SUMMARY_ROLES",
    "content_text",
    "latest_user_text",
    "preview_len",
    "preview_text",
    "raw_role",
    "role_of",
    "roles_of",
]

SUMMARY_ROLES = frozenset(("branchSummary", "compactionSummary"))


def role_of(message: Any) -> str:
    """``String(role)`` with a missing or ``null`` role read as ``""`` (filters, sources; §16.14).

    The role is the stored item (``dict.get``), as JavaScript reads the parsed object's property: a
    dict subclass's own ``get`` is not consulted, so :func:`roles_of` can read every role in C.
    """
    if not isinstance(message, dict):
        return ""
    role = dict.get(message, "role")
    if role is None:
        return ""
    if isinstance(role, str):
        return role
    return js_string(role)


#: what ``set(map(type, roles))`` is when every role read is a string (or there are none)
_STRINGS_ONLY = frozenset((str,))


def roles_of(messages: list[Any]) -> list[str]:
    """:func:`role_of` of every message, read in C when every message is a dict with a string role.

    The chat-history filters and the source records read the role of every message of the host's
    conversation (tens of thousands); a call, or even a loop iteration, per message was most of
    their time.  ``map(dict.get, ...)`` raises :class:`TypeError` for a message that is no dict; a
    role that is no string is converted by :func:`role_of`, message by message.
    """
    try:
        roles: list[Any] = list(map(dict.get, messages, repeat("role")))
    except TypeError:  # a message that is no dict
        return [role_of(message) for message in messages]
    if set(map(type, roles)) <= _STRINGS_ONLY:
        return roles
    return [role if type(role) is str else role_of(message) for message, role in zip(messages, roles, strict=True)]


def raw_role(message: Any) -> Any:
    """The role exactly as stored (strict comparisons: last user, thinking strip; §16.14)."""
    return message.get("role") if isinstance(message, dict) else None


def _part_text(part: Any) -> str:
    if not isinstance(part, dict):
        return ""
    kind = part.get("type")
    if kind == "text":
        text = part.get("text")
        return text if isinstance(text, str) else ""
    if kind == "thinking":
        thinking = part.get("thinking")
        return "<thinking>\n" + thinking + "\n</thinking>" if isinstance(thinking, str) else ""
    if kind == "toolCall":
        name = part.get("name")
        return "[toolCall: " + ("unknown" if name is None else js_string(name)) + "]"
    if kind == "image":
        return "[image]"
    return ""


def content_text(content: Any) -> str:
    """§8.9 ``contentText``: string content as is; parts rendered, empty ones dropped, joined by ``\\n``."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    if len(content) == 1:  # the common single part: what the join below gives, without a generator
        return _part_text(content[0])
    return "\n".join(text for text in map(_part_text, content) if text)


def _nullable_text(value: Any) -> str:
    return "" if value is None else js_string(value)


def preview_text(message: Any) -> str:
    """§8.9 ``previewText``: what ``maxChars`` measures and what the preview prints for a message."""
    if not isinstance(message, dict):
        return ""
    text = content_text(message.get("content"))
    role = message.get("role")
    if role == "bashExecution":
        text += "Ran " + _nullable_text(message.get("command")) + "\n" + _nullable_text(message.get("output"))
    elif isinstance(role, str) and role in SUMMARY_ROLES:
        text += _nullable_text(message.get("summary"))
    return text


def preview_len(message: Any) -> int:
    """``js_len(preview_text(message))``, the size ``maxChars`` measures, summed part by part.

    ``maxChars`` measures every message of the host's conversation from the newest back; joining and
    re-measuring each message's text was most of its time.  UTF-16 lengths add up over a
    concatenation, so the size is each non-empty part's rendering plus one per ``\n`` between them;
    a message this does not cover (a part of another kind, a role that adds text) is measured
    through :func:`preview_text` itself.
    """
    if type(message) is dict:
        role = message.get("role")
        content = message.get("content")
        if type(content) is list and role != "bashExecution" and not (type(role) is str and role in SUMMARY_ROLES):
            total = count = 0
            for part in content:
                if not isinstance(part, dict):
                    continue
                kind = part.get("type")
                if kind == "text":
                    text = part.get("text")
                    if not isinstance(text, str) or not text:
                        continue
                    total += len(text) if text.isascii() else js_len(text)
                elif kind == "toolCall":
                    name = part.get("name")
                    if type(name) is not str:
                        return js_len(preview_text(message))
                    total += 12 + (len(name) if name.isascii() else js_len(name))  # "[toolCall: " name "]"
                elif kind == "thinking":
                    text = part.get("thinking")
                    if not isinstance(text, str):
                        continue
                    total += 23 + (len(text) if text.isascii() else js_len(text))  # "<thinking>\n" … "\n</thinking>"
                elif kind == "image":
                    total += 7  # "[image]"
                else:
                    continue
                count += 1
            return total + count - 1 if count else 0
    return js_len(preview_text(message))


def latest_user_text(messages: Any) -> str | None:
    """§8.9 ``latestUserText``: the newest non-blank ``user`` text, untrimmed; ``None`` when none."""
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if raw_role(message) != "user":
            continue
        text = content_text(message.get("content"))
        if js_trim(text):
            return text
    return None
