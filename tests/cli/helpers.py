"""Small real stack files and helpers shared by the command-line tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: a stack pi-forge accepts without any diagnostic
CLEAN_STACK: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "pi-forge.prompt-stack",
    "id": "clean",
    "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "You are terse."},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
    ],
}

#: two pi-forge errors and warnings, in a known place (compile-core §10.5)
BROKEN_JSON = """{
  "schemaVersion": 1,
  "id": "broken",
  "items": [
    {"kind": "block", "id": "dup", "role": "system", "content": "a"},
    {"kind": "block", "id": "dup", "role": "user", "content": "b"},
    {"kind": "slot", "id": "odd", "role": "user", "slot": "not-a-slot"},
    {"kind": "slot", "id": "history", "slot": "chat-history"}
  ]
}
"""

BROKEN_YAML = """# a YAML stack with the same problems
schemaVersion: 1
id: broken-yaml
items:
  - {kind: block, id: dup, role: system, content: a}
  - kind: block
    id: dup
    role: user
    content: b
  - {kind: slot, id: odd, role: user, slot: not-a-slot}
  - {kind: slot, id: history, slot: chat-history}
"""

#: only warnings: exit 0 unless --strict
WARNING_ONLY: dict[str, Any] = {
    "schemaVersion": 1,
    "id": "warn-only",
    "items": [{"kind": "block", "id": "role", "role": "system", "content": "x"}],
}


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def position_of(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column




def dup_stack(item_id: str, name: str | None = None) -> dict[str, object]:
    """A stack whose two user blocks share the id ``item_id`` (FG135), the second one titled ``name``."""
    block: dict[str, object] = {"kind": "block", "id": item_id, "role": "user", "content": "b"}
    if name is not None:
        block["name"] = name
    return {
        "schemaVersion": 1,
        "id": "s",
        "items": [
            {"kind": "slot", "id": "h", "slot": "chat-history"},
            {"kind": "block", "id": item_id, "role": "user", "content": "a"},
            block,
        ],
    }
