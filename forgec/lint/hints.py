"""forgec-only hints for the typos pi-forge accepts silently.

pi-forge's loader drops what it does not know: an unknown stack or item field (``contnet``), an
unknown slot option (``maxMesages``), a ``format`` other than ``plain`` (rendered as XML), a regex rule
role that no message has (the rule never runs).  The stack loads and quietly does something other
than what was meant.  These checks find such values without compiling and suggest the likely
intended name.  Every finding is ``extra=True``: pi-forge's own diagnostics are never changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic, Fix, Level
from forgec.model import ITEM_FIELDS, MESSAGE_ROLES, MODES, ROLES, STACK_FIELDS
from forgec.rules import hints as codes
from forgec.workspace import windows_reserved_name

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack
    from forgec.plugins import Registry

__all__ = ["lint_stack_hints"]

#: fields editors and humans put in any JSON file
_FREE_FIELDS = ("$schema", "$comment")
CHAT_HISTORY_OPTIONS = (
    "includeLastUserMessage", "stripAssistantThinking", "includeSummaries", "roles", "toolMode",
    "maxMessages", "maxChars",
)


def _closest(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    """The one close match of ``word`` among ``choices`` (the same letters in another case count)."""
    import difflib  # here: only a misspelt key or value needs it, and it is ~1 ms of a cold start

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return close[0] if close else None


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    """`` (did you mean "x"?)`` for a close match, else ``""``."""
    close = _closest(word, choices)
    return f' (did you mean "{close}"?)' if close else ""


def _spelling(word: str) -> str:
    return word.strip().lower().replace("_", "-").replace(" ", "-")


def _key_fix(key: str, choices: tuple[str, ...], present: Any) -> Fix | None:
    """Rename ``key`` to its one close candidate -- unless the container already has that key
    (then renaming would lose a value: no safe fix)."""
    import difflib

    candidates = difflib.get_close_matches(key, list(choices), n=2, cutoff=0.7)
    lowered = [c for c in choices if c.lower() == key.lower()]
    if lowered:
        candidates = lowered
    if len(candidates) != 1 or (isinstance(present, dict) and candidates[0] in present):
        return None
    return Fix("key", candidates[0])


def _value_fix(value: str, choices: tuple[str, ...] | list[str]) -> Fix | None:
    """Replace ``value`` by the choice it only misspells in case or separators (``System``,
    ``chat_history``): the one repair that cannot change what was meant."""
    same = [c for c in choices if _spelling(c) == _spelling(value)]
    return Fix("value", same[0]) if len(same) == 1 else None


def _pattern_behind_flags(rule: Any, index: int) -> Diagnostic | None:
    """pi-forge checks a rule's pattern only once its flags are right, so a wrong flag hides a
    broken pattern until the flag is fixed: compile the pattern with the flags it meant (each
    supported letter once) and report the error now, as forgec's own finding."""
    from forgec.codecs.regex_config import SUPPORTED_FLAGS, compile_error
    from forgec.js.values import js_trim
    from forgec.rules import regex_config as regex_codes

    if not isinstance(rule, dict) or not isinstance(rule.get("pattern"), str) or not rule["pattern"]:
        return None
    flags = rule.get("flags")
    if not isinstance(flags, str):
        return None
    meant = "".join(dict.fromkeys(c for c in flags if c in SUPPORTED_FLAGS))
    if meant == flags:
        return None  # the flags are fine: pi-forge checks the pattern itself
    error = compile_error(rule["pattern"], meant)
    if error is None:
        return None
    rule_id = js_trim(rule["id"]) if isinstance(rule.get("id"), str) else ""
    label = f"Regex rule {rule_id}" if rule_id else f"regex rule {index + 1}"
    return Diagnostic("error", f"{label} pattern failed to compile: {error} (with the flags fixed, "
                      "pi-forge reports this next)", regex_codes.REGEX_PATTERN_INVALID,
                      pointer=("regex", "rules", index, "pattern"), extra=True)  # fmt: skip


def _slot_options() -> dict[str, tuple[str, ...]]:
    from forgec.model.slot_schemas import SLOT_OPTION_SCHEMAS

    known = {name: tuple(schema) for name, schema in SLOT_OPTION_SCHEMAS.items()}
    known["chat-history"] = CHAT_HISTORY_OPTIONS
    return known


def lint_stack_hints(loaded: LoadedStack, registry: Registry | None = None) -> list[Diagnostic]:
    """Typo hints for a loaded stack (``loaded.raw`` is the parsed file, ``loaded.stack`` normalised)."""
    raw = loaded.raw
    if not isinstance(raw, dict):
        return []
    findings: list[Diagnostic] = []

    def add(code: str, level: Level, message: str, pointer: tuple[Any, ...], item_id: Any = None, *,
            at_key: bool = False, fix: Fix | None = None) -> None:
        findings.append(
            Diagnostic(level, message, code, item_id=item_id if isinstance(item_id, str) else None,
                       pointer=pointer, extra=True, at_key=at_key, fix=fix)
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
                f'Unknown stack field "{key}" is ignored by pi-forge{_suggest(key, STACK_FIELDS)}.', (key,),
                at_key=True, fix=_key_fix(key, STACK_FIELDS, raw))
    mode = raw.get("mode")
    if isinstance(mode, str) and mode not in MODES and _value_fix(mode, MODES):
        add(codes.TYPO, "info", f'Mode "{mode}" is not a pi-forge mode{_suggest(mode, MODES)}.', ("mode",),
            fix=_value_fix(mode, MODES))

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
                    ("items", index, key), item_id, at_key=True, fix=_key_fix(key, ITEM_FIELDS, item))
        role = item.get("role")
        if isinstance(role, str) and role not in ROLES:
            hint = _suggest(role, ROLES)
            if hint:
                add(codes.TYPO, "info", f'Role "{role}" is not a pi-forge role{hint}.',
                    ("items", index, "role"), item_id, fix=_value_fix(role, ROLES))
        if item.get("kind") != "slot" or not isinstance(item.get("slot"), str):
            continue
        slot = item["slot"]
        if slot not in slot_names:
            hint = _suggest(slot.strip(), slot_names)
            if hint:
                add(codes.TYPO, "info", f'Slot "{slot}" is not a known slot{hint}.',
                    ("items", index, "slot"), item_id, fix=_value_fix(slot, slot_names))
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
                    ("items", index, "options", key), item_id, at_key=True, fix=_key_fix(key, known, options))
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
                            ("items", index, "options", key, position), item_id,
                            fix=_value_fix(entry, MESSAGE_ROLES))

    regex = raw.get("regex")
    rules = regex.get("rules") if isinstance(regex, dict) else None
    for index, rule in enumerate(rules if isinstance(rules, list) else []):
        hidden = _pattern_behind_flags(rule, index)
        if hidden is not None:
            findings.append(hidden)
        roles = rule.get("roles") if isinstance(rule, dict) else None
        if not isinstance(roles, list):
            continue
        label = rule.get("id").strip() if isinstance(rule.get("id"), str) and rule["id"].strip() else f"{index + 1}"
        for position, entry in enumerate(roles):
            if isinstance(entry, str) and entry not in MESSAGE_ROLES and entry != "system":
                add(codes.REGEX_ROLE, "warning",
                    f'Regex rule {label}: no message has the role "{entry}", so it never matches there'
                    f"{_suggest(entry, MESSAGE_ROLES)}.",
                    ("regex", "rules", index, "roles", position), fix=_value_fix(entry, MESSAGE_ROLES))
    return findings
