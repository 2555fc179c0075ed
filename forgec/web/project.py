"""What the editor shows about a project: its stacks and profiles of both scopes, the contexts and
SillyTavern presets found in it, the templates a new stack starts from.

The listings come from the same workflow ``forgec profile list`` uses
(:func:`forgec.agents.profiles.load_workspace`): pi-forge's listing order, project-over-global
shadowing, auto-activation.  Only the per-file details the browser needs are added here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.web.storage import StackStorage

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace

__all__ = ["TEMPLATES", "context_files", "import_candidates", "profile_rows", "stack_rows", "template_stack"]

#: the stacks "New stack" starts from: name -> (title, items)
TEMPLATES: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "minimal": ("A system block and the chat history", [
        {"kind": "block", "id": "system", "role": "system", "content": "You are a helpful assistant."},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
    ]),
    "coding": ("Pi's prompt with project context, tools and skills", [
        {"kind": "block", "id": "role", "role": "system", "content": "You are a careful coding agent. Answer briefly."},
        {"kind": "slot", "id": "tools", "slot": "tools"},
        {"kind": "slot", "id": "skills", "slot": "skills"},
        {"kind": "slot", "id": "context", "slot": "project-context"},
        {"kind": "slot", "id": "where", "slot": "date-cwd"},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
    ]),
    "roleplay": ("A character card with a post-history instruction", [
        {"kind": "block", "id": "main", "role": "system", "content": "You are {{char}}. Stay in character."},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
        {"kind": "block", "id": "jailbreak", "role": "system", "content": "Reply to {{user}} in two paragraphs."},
    ]),
}

_SKIP = {".git", ".pi", "node_modules", "__pycache__", ".venv", "venv"}


def template_stack(template: str, stack_id: str) -> dict[str, Any]:
    """A new stack document from ``template``."""
    if template not in TEMPLATES:
        from forgec.web.storage import Refused

        raise Refused(f"unknown template {template!r}; one of: {', '.join(TEMPLATES)}")
    items = json.loads(json.dumps(TEMPLATES[template][1]))
    return {"schemaVersion": 1, "id": stack_id, "mode": "replace", "items": items}


def _location(storage: StackStorage, path: Path) -> str | None:
    for location in ("project", "legacy", "global"):
        if path.parent == storage.folder(location):
            return location
    return None


def stack_rows(storage: StackStorage, workspace: ProfileWorkspace) -> list[dict[str, Any]]:
    """One row per stack file of both scopes: reference, scope badge, id, errors, shadowing."""
    effective = {id(s) for s in workspace.effective_stacks}
    rows = []
    for loaded in workspace.stacks:
        path = Path(loaded.path)
        location = _location(storage, path)
        if location is None:
            continue
        errors = sum(1 for d in loaded.diagnostics if d.level == "error")
        rows.append({
            "ref": f"{location}/{path.name}", "location": location, "scope": loaded.scope,
            "file": path.name, "id": loaded.stack_id, "usable": loaded.usable, "errors": errors,
            "shadowed": id(loaded) not in effective,
            "writable": not storage.read_only and (location != "global" or storage.allow_global),
        })  # fmt: skip
    return rows


def profile_rows(workspace: ProfileWorkspace) -> list[dict[str, Any]]:
    """``forgec profile list``'s rows, with the scope split out for the badge."""
    from forgec.agents.explain import profile_rows as rows_of

    rows = rows_of(workspace)
    for row, loaded in zip(rows, workspace.profiles, strict=True):
        row["scope"] = loaded.scope
        row["id"] = loaded.profile_id
        row["errors"] = [d.message for d in loaded.diagnostics if d.level == "error"]
        row["profile"] = loaded.profile
    return rows


def _walk(root: Path, suffixes: tuple[str, ...], depth: int = 3) -> list[Path]:
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        level = len(here.relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and not d.startswith(".") and level < depth)
        found.extend(here / f for f in sorted(files) if f.endswith(suffixes))
    return found


def context_files(root: Path) -> list[str]:
    """Context files of the project (files in a folder named ``contexts``), relative to ``root``."""
    return [str(p.relative_to(root)) for p in _walk(root, (".json", ".yaml", ".yml")) if p.parent.name == "contexts"]


def import_candidates(root: Path) -> list[dict[str, Any]]:
    """SillyTavern presets inside the project (a JSON object with ``prompts``), with the character
    ids of their ``prompt_order`` (the import asks which one when there are several)."""
    out = []
    for path in _walk(root, (".json",)):
        characters = _preset_characters(path)
        if characters is not None:
            out.append({"path": str(path.relative_to(root)), "characters": characters})
    return out


#: (path, size, mtime) -> the preset's character ids, or None for a file that is not a preset; the
#: listing is asked for after every save, and real presets are megabytes of JSON
_PRESETS: dict[tuple[str, int, int], list[str] | None] = {}


def _preset_characters(path: Path) -> list[str] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _PRESETS:
        _PRESETS[key] = _read_characters(path, stat.st_size)
    return _PRESETS[key]


def _read_characters(path: Path, size: int) -> list[str] | None:
    if size > 20_000_000:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("prompts"), list):
        return None
    order = raw.get("prompt_order")
    if not isinstance(order, list):
        return []
    from forgec.js.values import js_string  # the id as the importer's CHARACTER_ID spells it

    return [js_string(e["character_id"]) for e in order if isinstance(e, dict) and "character_id" in e]
