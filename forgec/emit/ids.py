"""Tool-call id normalisers, one per API (payloads.md §4 with §5–§8).

The shared transform passes the id of every tool call on a *foreign* assistant turn through the
target API's normaliser, and tool results follow a changed id.  The rules differ per API because
each provider accepts different ids (Anthropic ``[A-Za-z0-9_-]{1,64}``, Chat Completions 40 units,
Responses ``call_id|item_id`` pairs); they live together here so the differences are visible side
by side.  Each normaliser is ``(id, target model, assistant message) -> id`` and, like pi-ai, fails
with V8's TypeError text on a call without a string id.
"""

from __future__ import annotations

from typing import Any

from forgec.codecs.catalog import Model
from forgec.emit.convert import js_unsafe_id_chars, short_hash
from forgec.emit.jsops import PayloadError, destructure_split, js_strict_equal, prop, string_method
from forgec.js.values import js_len, utf16_slice

__all__ = ["anthropic_id", "completions_id", "identity_id", "responses_id"]


def anthropic_id(call_id: Any, model: Model, msg: dict[str, Any]) -> Any:
    """§5: unsafe characters become ``_``, then the first 64 code units."""
    text = string_method(call_id, "replace", "id")
    return utf16_slice(js_unsafe_id_chars(text), 0, 64)


def identity_id(call_id: Any, model: Model, msg: dict[str, Any]) -> Any:
    """§6: Gemini ids go through unchanged (they are only sent to ``claude-*``/``gpt-oss-*`` ids)."""
    return call_id


def completions_id(call_id: Any, model: Model, msg: dict[str, Any]) -> Any:
    """§7: ids without ``|`` are kept; ``call|item`` pairs are folded into at most 40 safe units."""
    if isinstance(call_id, list):  # ``includes`` and ``slice`` are array methods too
        if "|" not in call_id:
            return call_id
        raise PayloadError("id.slice(...).replace is not a function")
    if "|" not in string_method(call_id, "includes", "id"):
        return call_id
    call, _, item = call_id.partition("|")
    call = js_unsafe_id_chars(call)
    item = js_unsafe_id_chars(item)
    combined = f"{call}_{item}" if item else call
    if js_len(combined) <= 40:
        return combined
    return utf16_slice(call, 0, 31) + "_" + short_hash(call_id)[:8]


def _responses_part(text: Any) -> str:
    """``normalizeIdPart(part)``."""
    return utf16_slice(js_unsafe_id_chars(string_method(text, "replace", "part")), 0, 64).rstrip("_")


#: providers whose Responses ids keep the ``call|item`` form (pi-ai's ``OPENAI_TOOL_CALL_PROVIDERS``)
_PAIRED_ID_PROVIDERS = ("openai", "openai-codex", "opencode")


def responses_id(call_id: Any, model: Model, msg: dict[str, Any]) -> Any:
    """§8: sanitise ``call|item``; the item of a turn from another provider or API is hashed."""
    if model.provider not in _PAIRED_ID_PROVIDERS:
        return _responses_part(call_id)
    if isinstance(call_id, list):  # an array has ``includes``, but not ``split`` or ``replace``
        if "|" not in call_id:
            return _responses_part(call_id)
        destructure_split(call_id, "id")
    if "|" not in string_method(call_id, "includes", "id"):
        return _responses_part(call_id)
    pieces = call_id.split("|")
    call, item = pieces[0], pieces[1]
    foreign = not js_strict_equal(prop(msg, "provider"), model.provider) or not js_strict_equal(
        prop(msg, "api"), model.api
    )
    item = utf16_slice("fc_" + short_hash(item), 0, 64) if foreign else _responses_part(item)
    if not item.startswith("fc_"):
        item = _responses_part("fc_" + item)
    return _responses_part(call) + "|" + item
