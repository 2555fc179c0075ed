"""forgec-only hints for the typos pi-forge accepts silently.

pi-forge's loader drops what it does not know: an unknown stack or item field (``contnet``), an
unknown slot option (``maxMesages``), a ``format`` other than ``plain`` (rendered as XML), a regex rule
role that no message has (the rule never runs).  The stack loads and quietly does something other
than what was meant.  These checks find such values without compiling and suggest the likely
intended name.  Every finding is ``extra=True``: pi-forge's own diagnostics are never changed.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic, Level
from forgec.model import MESSAGE_ROLES, ROLES
from forgec.rules import hints as codes
from forgec.workspace import windows_reserved_name

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack
    from forgec.plugins import Registry

__all__ = ["lint_stack_hints"]

STACK_FIELDS = (
    "schemaVersion", "type", "id", "name", "description", "autoActivate", "mode", "defaults",
    "context", "tools", "skills", "variables", "regex", "items", "import", "state",
)
#: fields editors and humans put in any JSON file
_FREE_FIELDS = ("$schema", "$comment")
ITEM_FIELDS = ("kind", "id", "name", "enabled", "role", "tags", "source", "content", "slot", "options")
CHAT_HISTORY_OPTIONS = (
    "includeLastUserMessage", "stripAssistantThinking", "includeSummaries", "roles", "toolMode",
    "maxMessages", "maxChars",
)


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    """`` (did you mean "x"?)`` for a close match, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f' (did you mean "{close[0]}"?)' if close else ""


def _slot_options() -> dict[str, tuple[str, ...]]:
    from forgec.compile.slots.schemas import SLOT_OPTION_SCHEMAS

    known = {name: tuple(schema) for name, schema in SLOT_OPTION_SCHEMAS.items()}
    known["chat-history"] = CHAT_HISTORY_OPTIONS
    return known


def lint_stack_hints(loaded: LoadedStack, registry: Registry | None = None) -> list[Diagnostic]:
    """Typo hints for a loaded stack (``loaded.raw`` is the parsed file, ``loaded.stack`` normalised)."""
    raw = loaded.raw
    if not isinstance(raw, dict):
        return []
    findings: list[Diagnostic] = []

    def add(code: str, level: Level, message: str, pointer: tuple[Any, ...], item_id: Any = None) -> None:
        findings.append(
            Diagnostic(level, message, code, item_id=item_id if isinstance(item_id, str) else None,
                       pointer=pointer, extra=True)
        )

    names: tuple[tuple[str, str, tuple[Any, ...]], ...] = (
        (loaded.file_name, "file name", ()),
        (loaded.stack_id, "stack id", ("id",) if "id" in raw else ()),
    )
    for name, what, pointer in names:
        if windows_reserved_name(name):
            add(codes.WINDOWS_RESERVED_NAME, "warning",
                f'The {what} "{name}" is a device name on Windows; a repository holding it cannot be '
                "checked out there. Choose another name.", pointer)
    for key in raw:
        if key not in STACK_FIELDS and key not in _FREE_FIELDS:
            add(codes.UNKNOWN_FIELD, "warning",
                f'Unknown stack field "{key}" is ignored by pi-forge{_suggest(key, STACK_FIELDS)}.', (key,))

    slot_names = list(_slot_options())
    if registry is not None:
        slot_names.extend(registry.slots)
    options_by_slot = _slot_options()
    items = raw.get("items")
    for index, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        raw_id = item.get("id")
        item_id = raw_id.strip() if isinstance(raw_id, str) else None
        for key in item:
            if key not in ITEM_FIELDS:
                add(codes.UNKNOWN_FIELD, "warning",
                    f'Unknown item field "{key}" is ignored by pi-forge{_suggest(key, ITEM_FIELDS)}.',
                    ("items", index, key), item_id)
        role = item.get("role")
        if isinstance(role, str) and role not in ROLES:
            hint = _suggest(role, ROLES)
            if hint:
                add(codes.TYPO, "info", f'Role "{role}" is not a pi-forge role{hint}.',
                    ("items", index, "role"), item_id)
        if item.get("kind") != "slot" or not isinstance(item.get("slot"), str):
            continue
        slot = item["slot"]
        if slot not in slot_names:
            hint = _suggest(slot.strip(), slot_names)
            if hint:
                add(codes.TYPO, "info", f'Slot "{slot}" is not a known slot{hint}.',
                    ("items", index, "slot"), item_id)
            continue
        options = item.get("options")
        known = options_by_slot.get(slot)
        if not isinstance(options, dict) or known is None:
            continue
        for key, value in options.items():
            if key not in known:
                what = "takes no options" if not known else "has no such option"
                add(codes.UNKNOWN_OPTION, "warning",
                    f'Slot "{slot}" {what}: "{key}" is ignored{_suggest(key, known)}.',
                    ("items", index, "options", key), item_id)
            elif key == "format" and value != "plain" and value != "xml":
                add(codes.OPTION_VALUE, "warning",
                    f'format {value!r} is not "plain" or "xml"; the slot renders XML.'
                    if isinstance(value, str) else 'format must be "plain" or "xml"; the slot renders XML.',
                    ("items", index, "options", key), item_id)
            elif key == "roles" and slot == "chat-history" and isinstance(value, list):
                for position, entry in enumerate(value):
                    if isinstance(entry, str) and entry not in MESSAGE_ROLES:
                        add(codes.OPTION_VALUE, "warning",
                            f'chat-history roles: no message has the role "{entry}"'
                            f"{_suggest(entry, MESSAGE_ROLES)}.",
                            ("items", index, "options", key, position), item_id)

    regex = raw.get("regex")
    rules = regex.get("rules") if isinstance(regex, dict) else None
    for index, rule in enumerate(rules if isinstance(rules, list) else []):
        roles = rule.get("roles") if isinstance(rule, dict) else None
        if not isinstance(roles, list):
            continue
        label = rule.get("id").strip() if isinstance(rule.get("id"), str) and rule["id"].strip() else f"{index + 1}"
        for position, entry in enumerate(roles):
            if isinstance(entry, str) and entry not in MESSAGE_ROLES and entry != "system":
                add(codes.REGEX_ROLE, "warning",
                    f'Regex rule {label}: no message has the role "{entry}", so it never matches there'
                    f"{_suggest(entry, MESSAGE_ROLES)}.",
                    ("regex", "rules", index, "roles", position))
    return findings
