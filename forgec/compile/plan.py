"""What a compile reads from a stack's items, worked out once per stack *content* (a compile plan).

Every compile of a stack walks its items twice (the system stage, then the messages stage) and asks
each the same questions: is it enabled, what is its role, is it the chat-history slot, a slot, a
block with macros or a plain text, is that text blank once trimmed.  None of those answers depends on
the context, so for a stack file read through the stack cache (``forgec.codecs.stack``) they are kept
on the cache entry with the fingerprint and the rule selections, and each later compile of the same
content runs down two short tuples instead (:func:`forgec.compile.assemble.compile_prompt`).

A plan holds immutable values -- action codes, item indexes, the texts of plain blocks and the
role a message is built for -- and the items' source records when every value in them is immutable
(each compile copies them), never a container of the stack: every step that needs the item itself
(a slot's renderer, a block's id, the chat-history options) reads it from the compile's own stack by
its index, so nothing a caller can mutate is shared between compiles.  The plan is used only for a
stack that came straight from the cache entry it was made from and without plugins (a plugin's slot
renderer receives the stack and could change its items mid-compile; the item-by-item walk then reads
them as they are, as pi-forge does).
"""

from __future__ import annotations

from typing import Any

from forgec.js.values import UNDEFINED, js_trim, js_truthy

__all__ = ["MAX_PLANNED_ITEMS", "CompilePlan", "item_source", "plan_of", "source_record"]

CHAT_HISTORY = "chat-history"

#: a system-stage step: a plain block's trimmed, non-blank text (``text``)
SYSTEM_TEXT = 0
#: a block whose ``text`` (its content) holds ``{{``: expanded, then trimmed
SYSTEM_MACROS = 1
#: a slot item: rendered, then trimmed
SYSTEM_SLOT = 2
#: a chat-history slot with the system role: the warning that it cannot be placed there
SYSTEM_HISTORY = 3

#: a message-stage step: a plain block's untrimmed text (non-blank once trimmed)
MESSAGE_TEXT = 0
#: a block whose content holds ``{{``
MESSAGE_MACROS = 1
#: a slot item with a message role
MESSAGE_SLOT = 2
#: the first chat-history slot: the (filtered) history goes here
MESSAGE_HISTORY = 3
#: a later chat-history slot, skipped with a warning (``context.allowDuplicateChatHistory`` not set)
MESSAGE_DUPLICATE_HISTORY = 4

#: stacks with more items than this are walked item by item, without a plan: a plan keeps the texts of
#: the stack's blocks on the cache entry, memory the cache's byte bound does not count, so only small
#: stacks (a host's usual stack has a handful of items) get one
MAX_PLANNED_ITEMS = 64

#: ``(action, index, text, role, record)``: ``record`` is the item's source record (a stack item's,
#: with its ``role``; the chat-history slot's members every history source shares) when its values
#: cannot be changed (strings, numbers, null), which the compile copies; else None (made per compile)
Step = tuple[int, int, str, str, "dict[str, Any] | None"]

#: the types of the values a source record made once may hold (shared by every copy of it)
_IMMUTABLE = (str, int, float, bool, type(None), type(UNDEFINED))


def source_record(kind: str, item: dict[str, Any] | None, role: str, **extra: Any) -> dict[str, Any]:
    """§1.4's source of a compiled message: ``kind``, the item's ``itemId`` and ``itemName`` (when it
    has one), ``extra``, then ``role`` (the reference's key order)."""
    source: dict[str, Any] = {"kind": kind}
    if item is not None:
        source["itemId"] = item.get("id", UNDEFINED)
        if "name" in item:
            source["itemName"] = item["name"]
    source.update(extra)
    source["role"] = role
    return source


def item_source(item: dict[str, Any], role: str) -> dict[str, Any]:
    """``source_record("stack-item", item, role)``: the source of a stack item's synthetic message,
    made without the keyword members (an empty ``**extra`` dict built and merged a message)."""
    source: dict[str, Any] = {"kind": "stack-item", "itemId": item.get("id", UNDEFINED)}
    if "name" in item:
        source["itemName"] = item["name"]
    source["role"] = role
    return source


def _shareable(record: dict[str, Any]) -> dict[str, Any] | None:
    """``record`` when a shallow copy of it shares nothing that can be changed, else None."""
    return record if all(type(value) in _IMMUTABLE for value in record.values()) else None


class CompilePlan:
    """The steps of both stages for one stack content (see the module docstring).

    ``system``: ``(action, index, text, "", None)`` per enabled item with the system role that can add
    anything, in stack order; ``system_text``: the joined system text when every step is a plain text
    (``None`` otherwise: the stage runs its steps).  ``messages``: ``(action, index, text, role, record)`` per
    enabled item the messages stage reads, in stack order (``role``: ``"user"``, ``"assistant"`` or
    ``"custom"``, the message :func:`~forgec.compile.assemble.synthetic_message` builds for it);
    ``has_history``: some step places the chat history (else the history goes last, implicitly);
    ``rules``: the stack has a list of regex rules (else the compile skips the regex passes, which
    would return their input at once).
    """

    __slots__ = ("has_history", "messages", "rules", "system", "system_text")

    def __init__(
        self,
        system: tuple[Step, ...],
        system_text: str | None,
        messages: tuple[Step, ...],
        has_history: bool,
        rules: bool,
    ) -> None:
        self.system = system
        self.system_text = system_text
        self.messages = messages
        self.has_history = has_history
        self.rules = rules


def plan_of(stack: Any) -> CompilePlan | None:
    """The plan of ``stack`` as it is now, or None for a stack with more than
    :data:`MAX_PLANNED_ITEMS` items (the caller walks those item by item)."""
    items = stack.get("items") if isinstance(stack, dict) else None
    if not isinstance(items, list):
        items = []
    if len(items) > MAX_PLANNED_ITEMS:
        return None
    context = stack.get("context") if isinstance(stack, dict) else None
    duplicates_allowed = isinstance(context, dict) and js_truthy(context.get("allowDuplicateChatHistory"))
    system: list[Step] = []
    messages: list[Step] = []
    inserted = False
    for index, item in enumerate(items):
        if not isinstance(item, dict) or item.get("enabled") is False:
            continue
        role = item.get("role")
        is_slot = item.get("kind") == "slot"
        is_history = is_slot and item.get("slot") == CHAT_HISTORY
        content = item.get("content")
        # what _item_text gives for a block: "" for no text, the content itself without "{{"
        text = content if isinstance(content, str) else ""
        macros = not is_slot and "{{" in text
        if role == "system":
            if is_history:
                system.append((SYSTEM_HISTORY, index, "", "", None))
            elif is_slot:
                system.append((SYSTEM_SLOT, index, "", "", None))
            elif macros:
                system.append((SYSTEM_MACROS, index, text, "", None))
            elif js_trim(text):
                system.append((SYSTEM_TEXT, index, js_trim(text), "", None))
        if is_history:
            if inserted and not duplicates_allowed:
                messages.append((MESSAGE_DUPLICATE_HISTORY, index, "", "", None))
            else:
                head = source_record("chat-history", item, "", slot=item.get("slot"))
                del head["role"]
                messages.append((MESSAGE_HISTORY, index, "", "", _shareable(head)))
                inserted = True
            continue
        if not js_truthy(role) or role == "system":
            continue
        name = "assistant" if role == "assistant" else "custom" if role == "custom" else "user"
        record = _shareable(item_source(item, name))
        if is_slot:
            messages.append((MESSAGE_SLOT, index, "", name, record))
        elif macros:
            messages.append((MESSAGE_MACROS, index, text, name, record))
        elif js_trim(text):
            messages.append((MESSAGE_TEXT, index, text, name, record))
    system_text = None
    if all(step[0] == SYSTEM_TEXT for step in system):
        system_text = "\n\n".join(step[2] for step in system)
    regex = stack.get("regex") if isinstance(stack, dict) else None
    rules = isinstance(regex, dict) and isinstance(regex.get("rules"), list) and bool(regex["rules"])
    return CompilePlan(tuple(system), system_text, tuple(messages), inserted, rules)
