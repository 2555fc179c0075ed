"""Preset shape handling: names, the prompt map, character selection and the order walk (C1-C5, E3-E7).

pi-forge never type-checks a preset; it reads members and iterates.  The helpers here reproduce
what that does with odd values (strings are iterated by code point, non-objects have no members)
and turn every place where the reference would throw a ``TypeError`` into an :class:`ImportError_`
with forgec's own text (E3 *forgec deviation*).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from forgec.errors import InputError
from forgec.js.values import UNDEFINED, is_number, js_len, js_truthy

from .patterns import is_blank, slugify, template_text


class PresetError(InputError):
    """An import failure; ``str(exc)`` is the report text (``{"error": ...}``)."""


def member(value: Any, key: str) -> Any:
    """``value[key]`` for a JSON value: only objects have members; absent is :data:`UNDEFINED`."""
    if isinstance(value, dict):
        return value.get(key, UNDEFINED)
    return UNDEFINED


#: the members of a value that is no object
NO_MEMBERS: dict[str, Any] = {}


def nullish(value: Any, default: Any) -> Any:
    """``value ?? default``."""
    return default if value is None or value is UNDEFINED else value


def js_length(value: Any) -> Any:
    """``value.length`` (``UNDEFINED`` when the value has no such member)."""
    if isinstance(value, (list,)):
        return len(value)
    if isinstance(value, str):
        return js_len(value)
    if isinstance(value, dict):
        return value.get("length", UNDEFINED)
    return UNDEFINED


def iterate(value: Any) -> list[Any] | None:
    """``for (x of value)``: arrays by element, strings by code point, else ``None`` (throws)."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return list(value)
    return None


def map_key(value: Any) -> Any:
    """A SameValueZero key for a JavaScript ``Map`` (E7): ``1`` and ``"1"`` differ, ``1 == 1.0``.

    A string is its own key (identifiers are strings but for odd presets); every other value's key
    is a tuple, which never equals a string."""
    if isinstance(value, str):
        return value
    if value is UNDEFINED:
        return ("undefined",)
    if value is None:
        return ("null",)
    if value is True or value is False:
        return ("bool", value)
    if is_number(value):
        return ("number", float(value))
    return ("object", id(value))


def strict_equal(a: Any, b: Any) -> bool:
    """``a === b`` between a given character id and an entry's ``character_id``."""
    if is_number(a) and is_number(b):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or a is UNDEFINED or isinstance(a, bool):
        return a is b
    return False


# --- naming (C1, C8) -------------------------------------------------------------------------------


def fallback_name(raw: dict[str, Any]) -> str:
    """``preset_name``, else ``name`` (each when a non-blank string), else ``imported.json``."""
    for key in ("preset_name", "name"):
        value = raw.get(key, UNDEFINED)
        if isinstance(value, str) and not is_blank(value):
            return value
    return "imported.json"


_JSON_SUFFIX = re.compile(r"\.[jJ][sS][oO][nN]\Z")


def file_name_of(source_name: str) -> str:
    """POSIX basename (trailing slashes ignored) without one ``.json``; empty -> ``imported``."""
    base = posixpath.basename(source_name.rstrip("/")) if source_name.strip("/") else ""
    base = _JSON_SUFFIX.sub("", base)
    return base or "imported"


def stack_id_of(file_name: str) -> str:
    return slugify(file_name) or "imported"


# --- character selection (C4, E3, E4) --------------------------------------------------------------


@dataclass
class Selection:
    entry: Any
    index: int


def _not_array() -> PresetError:
    return PresetError("Preset prompt_order must be an array.")


def select_character(prompt_order: Any, character_id: Any) -> Selection:
    """The prompt_order entry to convert, or a :class:`PresetError` with pi-forge's text."""
    is_array = isinstance(prompt_order, list)
    if character_id is not UNDEFINED:
        if not is_array:
            raise _not_array()
        for i, entry in enumerate(prompt_order):
            if entry is None:
                raise PresetError(f"Preset prompt_order[{i}] is null.")
            if strict_equal(character_id, member(entry, "character_id")):
                return Selection(entry, i)
    else:
        length = js_length(prompt_order)
        if is_array or isinstance(prompt_order, str):
            first = prompt_order[0] if prompt_order else UNDEFINED
        elif isinstance(prompt_order, dict):
            first = prompt_order.get("0", UNDEFINED)
        else:
            first = UNDEFINED
        if is_number(length) and length == 1:
            if first is None:
                raise PresetError("Preset prompt_order[0] is null.")
            if js_truthy(first):
                return Selection(first, 0)
        if not is_array:
            raise _not_array()
    if not prompt_order:
        raise PresetError("Preset has no prompt_order entries. Choose a character_id and retry.")
    ids: list[str] = []
    for i, entry in enumerate(prompt_order):
        if entry is None:
            raise PresetError(f"Preset prompt_order[{i}] is null.")
        value = member(entry, "character_id")
        ids.append("" if value is None or value is UNDEFINED else template_text(value))
    raise PresetError(
        f"Multiple character configs found: [{', '.join(ids)}]. Choose a character_id and retry."
    )


# --- prompt map and conversion items (C5, E7) ------------------------------------------------------


@dataclass(slots=True)  # one per conversion item: no instance dictionary to build and free
class ConversionItem:
    """One order entry found in the prompt map."""

    definition: Any
    #: index of the definition in ``prompts`` (the last one with that identifier)
    prompt_index: int
    identifier: Any
    order_enabled: Any
    order_index: int


@dataclass
class OrderWalk:
    items: list[ConversionItem]
    missing: list[Any]
    order_length: int


def build_prompt_map(prompts: list[Any]) -> dict[Any, tuple[int, Any]]:
    """identifier -> (index, definition); a later duplicate replaces the earlier one (E14)."""
    table: dict[Any, tuple[int, Any]] = {}
    for i, definition in enumerate(prompts):
        if definition is None:
            raise PresetError(f"Preset prompts[{i}] is null.")
        identifier = definition.get("identifier", UNDEFINED) if isinstance(definition, dict) else UNDEFINED
        table[map_key(identifier)] = (i, definition)
    return table


def walk_order(selection: Selection, table: dict[Any, tuple[int, Any]]) -> OrderWalk:
    """Conversion items and missing identifiers, in order, from the selected entry's ``order``."""
    order = nullish(member(selection.entry, "order"), [])
    entries = iterate(order)
    if entries is None:
        raise PresetError(f"Preset prompt_order[{selection.index}].order must be an array.")
    items: list[ConversionItem] = []
    missing: list[Any] = []
    for j, entry in enumerate(entries):
        if entry is None:
            raise PresetError(f"Preset prompt_order[{selection.index}].order[{j}] is null.")
        fields = entry if isinstance(entry, dict) else NO_MEMBERS  # member() inlined
        identifier = fields.get("identifier", UNDEFINED)
        found = table.get(map_key(identifier))
        if found is None:
            missing.append(identifier)
            continue
        enabled = fields.get("enabled", UNDEFINED)
        items.append(ConversionItem(found[1], found[0], identifier, enabled, len(items)))
    return OrderWalk(items, missing, js_length(order))


# --- command-line character ids (forgec's CLI) -----------------------------------------------------


def character_id_from_token(token: str, prompt_order: Any) -> Any:
    """The character id a command-line token selects.

    pi-forge converts the token with ``Number()`` (so ``1e5`` and ``0x186A1`` work), which makes a
    ``character_id`` stored as a string (``"100000"`` in Lucid Loom 3.1) unselectable.  forgec keeps
    ``Number()`` and falls back to the token as a string when no entry matches the number but one
    stores exactly that string.  Raises ``ValueError`` when neither reading applies.
    """
    from .regex_scripts import js_string_to_number

    number = js_string_to_number(token) if token.strip() else float("nan")
    finite = number == number and number not in (float("inf"), float("-inf"))
    entries = prompt_order if isinstance(prompt_order, list) else []
    ids = [member(e, "character_id") for e in entries if e is not None]
    if finite and any(strict_equal(number, i) for i in ids):
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if any(isinstance(i, str) and i == token for i in ids):
        return token
    if not finite:
        raise ValueError(token)
    return int(number) if number.is_integer() and abs(number) < 2**53 else number
