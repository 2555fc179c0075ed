"""Conversion items -> stack items (C6) and the stack object itself (C8).

Ids come from one counter that advances for every conversion item before any decision, so
skipped prompts leave gaps (``1, 7, 8, 12``): pi-forge users see the same ids in both tools.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from forgec.js.values import UNDEFINED, js_trim, js_truthy

from .macros import ScannedText
from .patterns import LAST_USER_RE
from .preset import NO_MEMBERS, ConversionItem, PresetError

CHAT_HISTORY = "chatHistory"
COUNTED_MARKERS = frozenset(
    {"worldInfoBefore", "worldInfoAfter", "charDescription", "charPersonality", "personaDescription",
     "scenario", "dialogueExamples"}
)  # fmt: skip
_ROLES = frozenset({"system", "user", "assistant"})
#: how many conversion items pass between two progress calls
PROGRESS_STEP = 50


@dataclass(slots=True)  # one per conversion item: no instance dictionary to build and free
class ItemOutcome:
    """What happened to one conversion item, for the report and the fidelity report."""

    conversion: ConversionItem
    item_id: str
    #: "block", "slot", "marker" (counted), "custom-marker" (dropped silently), "empty", "no-role"
    outcome: str
    order_disabled: bool = False
    #: a block whose content still held a ``{{trim}}`` once comments were removed
    trim_removed: bool = False


@dataclass
class Conversion:
    items: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[ItemOutcome] = field(default_factory=list)
    marker: int = 0
    empty: int = 0
    order_disabled: int = 0
    uses_last_user_message: bool = False


def _put(target: dict[str, Any], key: str, value: Any) -> None:
    """Absent values are omitted, as ``JSON.stringify`` drops ``undefined``."""
    if value is not UNDEFINED:
        target[key] = value


def _content_error(item: ConversionItem) -> PresetError:
    return PresetError(f"Preset prompts[{item.prompt_index}].content must be a string.")


def raw_content(item: ConversionItem) -> str | None:
    """The content macro detection scans (``None`` when JS-falsy); non-strings are errors (E3 e)."""
    definition = item.definition
    content = definition.get("content", UNDEFINED) if isinstance(definition, dict) else UNDEFINED
    if isinstance(content, str):  # the common case first
        return content or None
    if not js_truthy(content):
        return None
    raise _content_error(item)


def convert_items(
    conversion_items: list[ConversionItem],
    texts: Sequence[ScannedText | None],
    progress: Callable[[int, int], None] | None = None,
    search_last_user: bool = True,
) -> Conversion:
    """C6 over all conversion items, in order.

    ``progress(done, total)`` is called every :data:`PROGRESS_STEP` items, so a front end can
    show how far a preset with thousands of prompts has got (it never changes the result).
    ``texts``: for each item, what :meth:`MacroScan.scan` made of its content (``None`` where the
    content is JS-falsy), so each text is stripped and scanned once.  ``search_last_user=False``
    skips the ``lastUserMessage`` search when the scan has shown that it cannot change the import
    (:attr:`MacroScan.last_user_possible`).
    """
    result = Conversion()
    counter = 0
    total = len(conversion_items)
    for item, scanned in zip(conversion_items, texts, strict=True):
        if progress is not None and counter % PROGRESS_STEP == 0:
            progress(counter, total)
        counter += 1
        item_id = str(counter)
        # member() inlined: a definition that is no object has no members
        fields: dict[str, Any] = item.definition if isinstance(item.definition, dict) else NO_MEMBERS
        name = fields.get("name", UNDEFINED)
        marker = fields.get("marker", UNDEFINED)
        if marker is True or (marker is not False and marker is not UNDEFINED and js_truthy(marker)):
            _convert_marker(result, item, item_id, name)
            continue
        content = fields.get("content", "")
        if not isinstance(content, str) and content is not None and content is not UNDEFINED:
            raise _content_error(item)
        # The text stripped, trimmed and collapsed: it is blank exactly when the content or the
        # stripped content is (a blank text holds no comment).
        text = scanned.text if scanned is not None else ""
        if text == "":
            result.empty += 1
            result.outcomes.append(ItemOutcome(item, item_id, "empty"))
            continue
        if search_last_user and not result.uses_last_user_message and LAST_USER_RE.search(text):
            result.uses_last_user_message = True  # once found, found
        role = _role(item, fields.get("role", UNDEFINED))
        if role is None:
            result.empty += 1
            result.outcomes.append(ItemOutcome(item, item_id, "no-role"))
            continue
        enabled = item.order_enabled
        disabled = enabled is not True and not js_truthy(enabled)
        if disabled:
            result.order_disabled += 1
        result.items.append(_block(item, item_id, name, role, text))
        trim_removed = scanned is not None and scanned.trim_kept
        result.outcomes.append(ItemOutcome(item, item_id, "block", disabled, trim_removed))
    return result



def _role(item: ConversionItem, value: Any) -> str | None:
    """``system``/``user``/``assistant`` from the definition's role (trimmed, lower-cased), else ``None``.

    A role spelled exactly as one of them (nearly every prompt) is that role, as trimmed and lower-cased."""
    if type(value) is str and value in _ROLES:
        return value
    if not js_truthy(value):
        return None
    if not isinstance(value, str):
        raise PresetError(f"Preset prompts[{item.prompt_index}].role must be a string.")
    role = js_trim(value).lower()
    return role if role in _ROLES else None


def _block(item: ConversionItem, item_id: str, name: Any, role: str, text: str) -> dict[str, Any]:
    """The block item, keys in pi-forge's order; absent values omitted (``JSON.stringify`` drops them)."""
    block: dict[str, Any] = {"kind": "block", "id": item_id}
    if name is not UNDEFINED:
        block["name"] = name
    if item.order_enabled is not UNDEFINED:
        block["enabled"] = item.order_enabled
    block["role"] = role
    block["content"] = text
    source: dict[str, Any] = {}
    if item.identifier is not UNDEFINED:
        source["previousId"] = item.identifier
    if name is not UNDEFINED:
        source["previousName"] = name
    source["orderIndex"] = item.order_index
    block["source"] = source
    return block


def _convert_marker(result: Conversion, item: ConversionItem, item_id: str, name: Any) -> None:
    """A marker item: the chat-history slot, a counted SillyTavern marker, or a dropped custom one."""
    if item.identifier == CHAT_HISTORY and isinstance(item.identifier, str):
        slot: dict[str, Any] = {
            "kind": "slot",
            "id": item_id,
            "name": name if js_truthy(name) else "Chat History",
        }
        _put(slot, "enabled", item.order_enabled)
        slot["slot"] = "chat-history"
        source: dict[str, Any] = {"previousId": CHAT_HISTORY}
        _put(source, "name", name)
        slot["source"] = source
        result.items.append(slot)
        result.outcomes.append(ItemOutcome(item, item_id, "slot"))
    elif isinstance(item.identifier, str) and item.identifier in COUNTED_MARKERS:
        result.marker += 1
        result.outcomes.append(ItemOutcome(item, item_id, "marker"))
    else:
        result.outcomes.append(ItemOutcome(item, item_id, "custom-marker"))


def build_stack(
    *,
    stack_id: str,
    name: Any,
    variables: dict[str, str],
    rules: list[dict[str, Any]],
    items: list[dict[str, Any]],
    file_name: str,
    character_id: Any,
    converted_at: str,
    uses_last_user_message: bool,
) -> dict[str, Any]:
    """The C8 stack object, keys in pi-forge's order."""
    if uses_last_user_message:
        for item in items:
            if item.get("kind") == "slot" and item.get("slot") == "chat-history":
                item["options"] = {"includeLastUserMessage": False}
                break
    stack: dict[str, Any] = {
        "schemaVersion": 1,
        "type": "pi-forge.prompt-stack",
        "id": stack_id,
        "name": name,
        "autoActivate": False,
        "mode": "replace",
    }
    if variables:
        stack["variables"] = dict(variables)
    stack["context"] = {"allowDuplicateChatHistory": False}
    if rules:
        stack["regex"] = {"schemaVersion": 1, "rules": rules}
    stack["items"] = items
    meta: dict[str, Any] = {"source": "sillytavern", "sourceFile": file_name}
    _put(meta, "characterId", character_id)
    meta["convertedAt"] = converted_at
    stack["import"] = meta
    return stack
