"""Small builders shared by the agent-profile tests: a project and a global forge folder on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def profile_doc(profile_id: str, **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schemaVersion": 1,
        "type": "pi-forge.agent-profile",
        "id": profile_id,
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
        "thinkingLevel": "high",
        "promptStack": None,
    }
    doc.update(extra)
    return doc


def stack_doc(stack_id: str, **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schemaVersion": 1,
        "type": "pi-forge.prompt-stack",
        "id": stack_id,
        "items": [{"kind": "slot", "id": "history", "enabled": True, "slot": "chat-history"}],
    }
    doc.update(extra)
    return doc


class Tree:
    """``project/`` and ``global/`` under a temporary folder."""

    def __init__(self, root: Path) -> None:
        self.project = root / "project"
        self.global_dir = root / "global"
        self.project.mkdir()
        self.global_dir.mkdir()

    def _write(self, path: Path, doc: Any) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2), encoding="utf-8")
        return path

    def project_profile(self, name: str, doc: Any) -> Path:
        return self._write(self.project / ".pi" / "forge" / "agent-profiles" / name, doc)

    def global_profile(self, name: str, doc: Any) -> Path:
        return self._write(self.global_dir / "agent-profiles" / name, doc)

    def project_stack(self, name: str, doc: Any, *, legacy: bool = False) -> Path:
        folder = self.project / ".pi" / ("prompt-stacks" if legacy else "forge/prompt-stacks")
        return self._write(folder / name, doc)

    def global_stack(self, name: str, doc: Any) -> Path:
        return self._write(self.global_dir / "prompt-stacks" / name, doc)
