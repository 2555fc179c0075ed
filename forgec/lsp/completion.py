"""Completion: what may stand where the cursor is, from the same vocabulary the loader checks.

Keys of a stack, an item, a slot's options, a profile and its model; values of ``role``, ``mode``,
``kind``, ``slot``, a slot option's enum or boolean, regex ``flags``, ``thinkingLevel`` and a
profile's ``promptStack`` (every stack id, bare and scoped); inside ``{{`` the macro names (built-in
and trusted plugins') and, after ``getvar::`` and its kin, the variables the stack sets.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from forgec.lsp.cursor import Cursor, read_cursor
from forgec.lsp.facts import macro_summaries, parse_text, slot_descriptions, slot_options, variable_sites
from forgec.model import ITEM_FIELDS, MODES, ROLES, STACK_FIELDS, THINKING_LEVELS

if TYPE_CHECKING:
    from forgec.lsp.files import FileKind
    from forgec.lsp.project import Project

__all__ = ["complete"]

_KIND = types.CompletionItemKind
_READERS = (
    "getvar",
    "var",
    "getturnvar",
    "getsessionvar",
    "clearvar",
    "clearturnvar",
    "clearsessionvar",
    "ifvar",
    "ifeq",
)
_FLAGS = ("g", "i", "m", "s", "u", "gi", "gm", "gs", "gu", "gim")


def _items(
    words: Any, kind: types.CompletionItemKind, details: dict[str, str] | None = None
) -> list[types.CompletionItem]:
    return [
        types.CompletionItem(
            label=str(w), kind=kind, detail=(details or {}).get(str(w)) or None, sort_text=f"{i:04d}"
        )
        for i, w in enumerate(words)
    ]


def complete(
    project: Project, path: Path, kind: FileKind, text: str, offset: int
) -> list[types.CompletionItem]:
    """The completion items at ``offset`` of ``text`` (a file of ``kind``)."""
    yaml = path.suffix.lower() in (".yaml", ".yml")
    cursor = read_cursor(text, offset, yaml)
    env = project.environment(path)
    registry = env.registry
    if cursor.macro is not None:
        return _macro(cursor.macro, text, path, registry)
    if kind == "stack":
        return _stack(cursor, registry)
    if kind == "profile":
        return _profile(cursor, project, path)
    if kind == "context":
        from forgec.codecs.context import DEFAULTS

        if cursor.typing_key and not cursor.path:
            return _items([*DEFAULTS, "latestUserMessage", "finalizeMessages", "thinkingLevel"], _KIND.Field)
        if cursor.key == "thinkingLevel":
            return _items(THINKING_LEVELS, _KIND.EnumMember)
    return []


def _macro(inside: str, text: str, path: Path, registry: Any) -> list[types.CompletionItem]:
    parts = inside.split("::")
    command = parts[0].strip()
    if len(parts) == 1:
        summaries = macro_summaries(registry)
        return _items(summaries, _KIND.Function, summaries)
    if command in _READERS or command in ("setvar", "setturnvar", "setsessionvar"):
        sites = variable_sites(parse_text(text, path))
        where = {name: f"set at line {spans[0].line}" for name, spans in sites.items()}
        return _items(sites, _KIND.Variable, where)
    if command == "ifslot":
        descriptions = slot_descriptions(registry)
        return _items(descriptions, _KIND.EnumMember, descriptions)
    return []


def _option_values(schema: dict[str, Any]) -> list[str]:
    if schema.get("type") == "enum":
        return [str(v) for v in schema.get("values", [])]
    if schema.get("type") == "boolean":
        return ["true", "false"]
    return []


def _stack(cursor: Cursor, registry: Any) -> list[types.CompletionItem]:
    path = cursor.path
    in_item = len(path) >= 2 and path[0] == "items" and path[1] == "[]"
    if cursor.typing_key:
        if not path:
            return _items(STACK_FIELDS, _KIND.Field)
        if in_item and len(path) == 2:
            return _items(ITEM_FIELDS, _KIND.Field)
        if in_item and path[2:] == ("options",):
            options = slot_options(cursor.sibling("slot", -2), registry)
            details = {name: _describe(schema) for name, schema in options.items()}
            return _items(options, _KIND.Property, details)
        return []
    key = cursor.key
    if in_item and len(path) == 2:
        if key == "role":
            return _items(ROLES, _KIND.EnumMember)
        if key == "kind":
            return _items(("block", "slot"), _KIND.EnumMember)
        if key == "slot":
            descriptions = slot_descriptions(registry)
            return _items(descriptions, _KIND.EnumMember, descriptions)
        if key == "enabled":
            return _items(("true", "false"), _KIND.Value)
    if in_item and path[2:] == ("options",) and key is not None:
        schema = slot_options(cursor.sibling("slot", -2), registry).get(key, {})
        return _items(_option_values(schema), _KIND.EnumMember)
    if not path and key == "mode":
        return _items(MODES, _KIND.EnumMember)
    if key == "flags" and path and path[0] == "regex":
        return _items(_FLAGS, _KIND.Value)
    return []


def _describe(schema: dict[str, Any]) -> str:
    kind = str(schema.get("type", ""))
    if "values" in schema:
        kind += " (" + " | ".join(str(v) for v in schema["values"]) + ")"
    if "default" in schema:
        kind += f", default {schema['default']!r}"
    return kind


def _profile(cursor: Cursor, project: Project, path: Path) -> list[types.CompletionItem]:
    from forgec.codecs.profile import MODEL_FIELDS, PROFILE_FIELDS

    if cursor.typing_key:
        if not cursor.path:
            return _items(PROFILE_FIELDS, _KIND.Field)
        if cursor.path == ("model",):
            return _items(MODEL_FIELDS, _KIND.Field)
        return []
    if not cursor.path and cursor.key == "thinkingLevel":
        return _items(THINKING_LEVELS, _KIND.EnumMember)
    if not cursor.path and cursor.key == "promptStack":
        from forgec.lsp.project import resources

        workspace = resources(project, path)
        labels: dict[str, str] = {}
        for stack in workspace.stacks:
            labels.setdefault(stack.stack_id, stack.path)
        for stack in workspace.stacks:
            labels.setdefault(f"{stack.scope}:{stack.stack_id}", stack.path)
        return _items(labels, _KIND.Reference, labels)
    return []
