"""A project to plan and run delegations in, against the loopback provider stand-in.

One agent profile per API (``via-<api>``), all on one small prompt stack, each naming a catalog
model whose ``baseUrl`` is the stand-in's and whose credentials live in :data:`KEY_VARIABLE`.
The key planted there (:data:`KEY`) is recognisable, so a test can search every output for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forgec.testing.provider_server import ProviderServer

APIS = ("openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai")
KEY_VARIABLE = "FORGEC_TEST_PROVIDER_KEY"
KEY = "sk-forgec-PLANTED-run-4b1d9e7c2a"
NOW = "2026-03-14T08:00:00Z"
TASK = "Explain the retry logic in client.py"

STACK: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "pi-forge.prompt-stack",
    "id": "helper",
    "name": "Helper",
    "mode": "replace",
    "variables": {"language": "Python"},
    "items": [
        {"kind": "block", "id": "role", "name": "Role", "role": "system",
         "content": "You are a careful reviewer of {{language}} code.\nAnswer in short paragraphs."},
        {"kind": "slot", "id": "when-where", "name": "Date and working directory", "role": "system", "slot": "date-cwd"},
        {"kind": "block", "id": "example", "name": "Example", "role": "user", "content": "Keep it brief, please."},
        {"kind": "slot", "id": "history", "name": "Conversation", "slot": "chat-history"},
    ],
}  # fmt: skip


def profile_id(api: str) -> str:
    return f"via-{api}"


def model_id(api: str) -> str:
    return f"{api}-model"


def make_project(root: Path, server: ProviderServer) -> Path:
    """Write the project under ``root`` and return it."""
    forge = root / ".pi" / "forge"
    (forge / "prompt-stacks").mkdir(parents=True)
    (forge / "agent-profiles").mkdir()
    (forge / "prompt-stacks" / "helper.json").write_text(json.dumps(STACK, indent=2), encoding="utf-8")
    models = [
        {"provider": "stand-in", "id": model_id(api), "api": api, "baseUrl": server.base_url(api),
         "auth": {"env": KEY_VARIABLE}, "contextWindow": 128000, "maxTokens": 4096}
        for api in APIS
    ]  # fmt: skip
    (forge / "models.json").write_text(json.dumps({"schemaVersion": 1, "models": models}, indent=2), encoding="utf-8")
    for api in APIS:
        profile = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": profile_id(api), "name": f"Via {api}",
                   "model": {"provider": "stand-in", "id": model_id(api)}, "thinkingLevel": "off", "promptStack": "helper"}  # fmt: skip
        (forge / "agent-profiles" / f"{profile_id(api)}.json").write_text(json.dumps(profile, indent=2), encoding="utf-8")
    return root


def compile_context(root: Path, plan: dict[str, Any]) -> Path:
    """A ``forgec compile`` context holding what the plan's runtime held: the same instant, zone,
    working directory, base prompt and no tools, and the delegated task as the conversation."""
    runtime = plan["sealed"]["promptRuntime"]
    context = {
        "now": runtime["preparedAt"], "timezone": "UTC", "cwd": ".", "baseSystemPrompt": "", "tools": [],
        "contextFiles": [], "thinkingLevel": plan["plan"]["thinkingLevel"],
        "messages": [{"role": "user", "content": [{"type": "text", "text": plan["request"]["input"]["text"]}]}],
    }  # fmt: skip
    path = root / "compile-context.json"
    path.write_text(json.dumps(context), encoding="utf-8")
    return path
