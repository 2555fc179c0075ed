"""Which finding caused which: one mistake, one finding in human output.

pi-forge reports the consequences of a mistake as findings of their own: ``role: System`` is an
invalid role (FG118) *and* a block without a role that will be ignored (FG141), and forgec's hint
adds "did you mean "system"?" (FG151); ``contnet: hi`` is an unknown field (FG150) *and* a block
whose content is not a string (FG121).  Every one of them is true and machine formats keep them
all, but a person fixing the file wants the mistake once, with its consequences as notes.

:func:`link_causes` marks each consequence with ``caused_by = (code, pointer)`` of the finding that
explains it.  The rules are about *places*: a finding about a field that is missing or wrong is
explained by a misspelt key that would have provided it (a key fix naming that field), by an
invalid value of a field it depends on, or by a hint about the same value; an exact repeat is
explained by its first occurrence; "no chat-history slot" is explained by the item that was meant
to be one.  Nothing is dropped or changed but the link.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from forgec.diagnostics import Diagnostic, Pointer
from forgec.rules import hints as hint_codes
from forgec.rules import loader as codes

__all__ = ["link_causes"]

#: code -> the field of its container the finding is about (it is missing, or its value is wrong)
_FIELD_OF: dict[str, str] = {
    codes.STACK_ID_MISSING: "id",
    codes.STACK_MODE_INVALID: "mode",
    codes.ITEMS_MISSING: "items",
    codes.ITEM_KIND_INVALID: "kind",
    codes.ITEM_ID_MISSING: "id",
    codes.ITEM_ROLE_INVALID: "role",
    codes.BLOCK_CONTENT_TYPE: "content",
    codes.SLOT_NAME_MISSING: "slot",
    codes.SLOT_NOT_REGISTERED: "slot",
    codes.BLOCK_WITHOUT_ROLE: "role",
}
#: a consequence -> the findings about the same item that make it happen (checked in order)
_DEPENDS_ON: dict[str, tuple[tuple[str, str], ...]] = {
    codes.BLOCK_WITHOUT_ROLE: ((codes.ITEM_ROLE_INVALID, "role"), (codes.ITEM_KIND_INVALID, "kind")),
    codes.SLOT_NOT_REGISTERED: ((codes.SLOT_NAME_MISSING, "slot"),),
}
#: hints that explain the finding about the same value (the did-you-mean of an invalid value)
_EXPLAINS_SAME_VALUE = frozenset({hint_codes.TYPO})
_KEY_TYPOS = frozenset({hint_codes.UNKNOWN_FIELD, hint_codes.UNKNOWN_OPTION})


def _container(d: Diagnostic) -> tuple[Pointer, str] | None:
    """The object a field-finding is about and the field: ``(("items", 0), "content")``."""
    field = _FIELD_OF.get(d.code)
    if field is None or d.pointer is None:
        return None
    pointer = tuple(d.pointer)
    return (pointer[:-1], field) if pointer and pointer[-1] == field else (pointer, field)


def _member(raw: Any, pointer: Pointer) -> Any:
    node = raw
    for part in pointer:
        found = (isinstance(node, dict) and isinstance(part, str) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if not found:
            return None
        node = node[part]
    return node


def _looks_like_chat_history(item: Any) -> bool:
    """An item that was meant to be the chat-history slot: some string value spells it closely."""
    if not isinstance(item, dict):
        return False
    import difflib  # here: only a stack with a misspelt slot gets this far, and it is ~1 ms of a cold start

    for value in item.values():
        if isinstance(value, str):
            spelled = value.strip().lower().replace("_", "-").replace(" ", "-")
            if spelled == "chat-history" or difflib.SequenceMatcher(None, spelled, "chat-history").ratio() >= 0.8:
                return True
    return False


def link_causes(diagnostics: Sequence[Diagnostic], raw: Any) -> list[Diagnostic]:
    """``diagnostics`` with ``caused_by`` set where a rule of the module docstring applies (the
    order is kept); ``raw`` is the parsed stack, to tell a missing field from a wrong one."""
    out = list(diagnostics)
    by_place: dict[tuple[str, Pointer | None], int] = {}
    seen: dict[tuple[str, Pointer | None, str], int] = {}
    for index, d in enumerate(out):
        by_place.setdefault((d.code, tuple(d.pointer) if d.pointer is not None else None), index)

    def cause_of(index: int, d: Diagnostic) -> tuple[str, Pointer | None] | None:
        pointer = tuple(d.pointer) if d.pointer is not None else None
        key = (d.code, pointer, d.message)
        if key in seen:
            return d.code, pointer  # an exact repeat (pi-forge checks some fields twice)
        seen[key] = index
        if d.code in _EXPLAINS_SAME_VALUE and pointer is not None:
            for other in out:
                if other is not d and other.pointer is not None and tuple(other.pointer) == pointer and not other.extra:
                    return other.code, pointer
        where = _container(d)
        if where is not None:
            container, field = where
            holder = _member(raw, container)
            if isinstance(holder, dict) and field not in holder:
                for other in out:
                    fix = other.fix
                    if (other.code in _KEY_TYPOS and fix is not None and fix.target == "key" and fix.replacement == field
                            and other.pointer is not None and tuple(other.pointer)[:-1] == container):  # fmt: skip
                        return other.code, tuple(other.pointer)
            for code, dependency in _DEPENDS_ON.get(d.code, ()):
                if (code, (*container, dependency)) in by_place:
                    return code, (*container, dependency)
                for other in out:  # the dependency's own field misspelt (``rol: system``)
                    fix = other.fix
                    if (other.code in _KEY_TYPOS and fix is not None and fix.replacement == dependency
                            and other.pointer is not None and tuple(other.pointer)[:-1] == container):  # fmt: skip
                        return other.code, tuple(other.pointer)
        if d.code == codes.NO_CHAT_HISTORY:
            items = raw.get("items") if isinstance(raw, dict) else None
            for position, item in enumerate(items if isinstance(items, list) else []):
                if not _looks_like_chat_history(item):
                    continue
                for other in out:
                    if other.pointer is not None and tuple(other.pointer)[:2] == ("items", position) and other.level != "info":
                        return other.code, tuple(other.pointer)
        return None

    for index, d in enumerate(out):
        cause = cause_of(index, d)
        if cause is not None:
            out[index] = replace(d, caused_by=cause)
    return out
