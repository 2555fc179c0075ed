"""Conformance of the provider payload emitters: every case's ``payloads`` section.

The emitters get exactly what the reference runner fed pi-ai (conformance.md *Provider payloads*):
``expected.json``'s ``system.prompt`` and ``messages.messages`` plus ``context.json``'s ``tools``
and ``thinkingLevel``, so this checks forgec.emit independently of the compiler.  ``error``
entries are compared by presence (the texts are V8's, conformance.md *Engine-specific text*).

``expected.json`` prints messages with sorted keys, but pi-ai stringifies tool-call ``arguments``
in their original key order, so the inputs get back the key order the objects have in
``context.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads
from forgec.fingerprint import canonical_json
from forgec.js.values import dumps_report

CASES = Path(__file__).parent / "cases"


def _shared_cases() -> Path:
    default = Path(__file__).resolve().parents[2] / ".." / "shared" / "oracle" / "cases" / "public"
    return Path(os.environ.get("FORGEC_SHARED_CASES", default))


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _payload_cases() -> list[Path]:
    dirs = sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file())
    shared = _shared_cases()
    if shared.is_dir():  # licence-restricted real presets: read in place, never copied
        dirs += sorted(p for p in shared.iterdir() if p.name.startswith("fixture-"))
    return [d for d in dirs if (d / "expected.json").is_file() and "payloads" in _load(d / "expected.json")]


def _originals(value: Any, found: dict[str, dict[str, Any]]) -> None:
    if isinstance(value, dict):
        found.setdefault(canonical_json(value), value)
        for item in value.values():
            _originals(item, found)
    elif isinstance(value, list):
        for item in value:
            _originals(item, found)


def _restore_key_order(value: Any, found: dict[str, dict[str, Any]]) -> Any:
    if isinstance(value, dict):
        original = found.get(canonical_json(value))
        if original is not None and set(original) == set(value):
            value = {key: value[key] for key in original}
        return {key: _restore_key_order(item, found) for key, item in value.items()}
    if isinstance(value, list):
        return [_restore_key_order(item, found) for item in value]
    return value


def _comparable(section: dict[str, Any]) -> dict[str, Any]:
    return {
        api: {k: (True if k == "error" else v) for k, v in entry.items()} for api, entry in section.items()
    }


@pytest.mark.parametrize("case", _payload_cases(), ids=lambda p: p.name)
def test_payloads_match_reference(case: Path) -> None:
    expected = _load(case / "expected.json")
    context = _load(case / "context.json")
    found: dict[str, dict[str, Any]] = {}
    _originals(context.get("messages", []), found)
    messages = _restore_key_order(expected["messages"]["messages"], found)

    actual = build_payloads(Prompt(expected["system"]["prompt"], messages, context.get("tools"), context.get("thinkingLevel")))

    assert dumps_report(_comparable(actual)) == dumps_report(_comparable(expected["payloads"]))


def test_error_entries_carry_the_v8_message() -> None:
    """The one public error case: the OpenAI id normalisers read ``id`` of a call that has only ``callId``."""
    case = CASES / "history-tool-repair-dangling"
    expected = _load(case / "expected.json")
    context = _load(case / "context.json")
    actual = build_payloads(Prompt(expected["system"]["prompt"], expected["messages"]["messages"], context.get("tools"), None))
    for api in ("openai-completions", "openai-responses"):
        assert actual[api]["error"] == expected["payloads"][api]["error"]
