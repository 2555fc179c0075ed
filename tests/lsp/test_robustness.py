"""Malformed input of every kind never crashes ``forgec lsp`` or stops it answering.

The inputs are the fuzz suite's (tests/fuzz/strategies.py: hostile stacks, contexts, macro text)
written out as JSON and YAML, cut off at every kind of place (an editor sends every keystroke, so
most texts a server sees do not parse), plus raw junk.  After each change the server must answer a
hover, a completion, document symbols, code actions and a preview -- whatever they say -- and at the
end publish the diagnostics of the last text.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.fuzz.strategies import contexts, macro_text, stacks
from tests.lsp.conftest import change_document, diagnostics_for, open_document, project, published, start

pytestmark = pytest.mark.asyncio

STACKS = ".pi/forge/prompt-stacks"


def _plain(text: str) -> str:
    """What an editor can send: valid Unicode (a lone surrogate is not; the protocol is UTF-8)."""
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _yamlish(value: Any, indent: int = 0) -> str:
    """A rough block-YAML rendering (not always valid YAML: that is the point)."""
    pad = " " * indent
    if isinstance(value, dict):
        return "".join(
            f"{pad}{k}:\n{_yamlish(v, indent + 2)}"
            if isinstance(v, (dict, list)) and v
            else f"{pad}{k}: {json.dumps(v)}\n"
            for k, v in value.items()
        )
    if isinstance(value, list):
        return "".join(f"{pad}- {json.dumps(v)}\n" for v in value)
    return f"{pad}{json.dumps(value)}\n"


def corpus(examples: int) -> list[tuple[str, str]]:
    """(suffix, text) pairs drawn from the fuzz strategies, whole and cut short."""
    out: list[tuple[str, str]] = []

    @settings(max_examples=examples, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(stack=stacks(), context=contexts(), macros=macro_text(), cut=st.floats(0, 1))
    def draw(stack: Any, context: Any, macros: str, cut: float) -> None:
        text = json.dumps(stack, ensure_ascii=False)
        out.append((".json", text))
        out.append((".json", text[: int(len(text) * cut)]))
        yaml = _yamlish(stack) if isinstance(stack, dict) else json.dumps(stack)
        out.append((".yaml", yaml))
        out.append((".yaml", yaml[: int(len(yaml) * cut)] + "{{" + macros))
        out.append((".yaml", f'id: x\nitems:\n  - kind: block\n    content: "{macros}\n'))
        out.append((".json", json.dumps(context, ensure_ascii=False)[: int(200 * cut) or None]))

    draw()
    out += [(".json", "\x00\x01{{{{[[[[" * 50), (".yaml", "- - - :\n\t{ ] }\n&a *a *b !!python/object:os.system\n"),
            (".yaml", "a: &x [*x]\n" + "[" * 3000), (".json", "[" * 10_000), (".json", "")]  # fmt: skip
    return [(suffix, _plain(text)) for suffix, text in out]


async def _answers(client: LanguageClient, uri: str, text: str) -> None:
    """Every request gets a reply (a result or ``None``), not an error and not silence."""
    lines = text.split("\n")
    line = len(lines) // 2
    position = types.Position(line, len(lines[line]) // 2 if lines else 0)
    document = types.TextDocumentIdentifier(uri)
    whole = types.Range(types.Position(0, 0), types.Position(len(lines), 0))
    await asyncio.wait_for(asyncio.gather(
        client.text_document_hover_async(types.HoverParams(document, position)),
        client.text_document_completion_async(types.CompletionParams(document, position)),
        client.text_document_document_symbol_async(types.DocumentSymbolParams(document)),
        client.text_document_code_action_async(types.CodeActionParams(document, whole, types.CodeActionContext([]))),
        client.text_document_definition_async(types.DefinitionParams(document, position)),
        client.workspace_execute_command_async(types.ExecuteCommandParams("forgec.preview", [uri])),
    ), timeout=60)  # fmt: skip


async def test_malformed_text_of_every_kind_never_stops_the_server(
    client: LanguageClient, tmp_path: Path
) -> None:
    root = project(tmp_path, {
        f"{STACKS}/fuzz.json": '{"schemaVersion": 1, "id": "fuzz", "items": []}\n',
        f"{STACKS}/fuzz.yaml": "schemaVersion: 1\nid: fuzz2\nitems: []\n",
    })  # fmt: skip
    await start(client, root, {"debounceMs": 0})
    uris = {
        ".json": open_document(client, root / STACKS / "fuzz.json"),
        ".yaml": open_document(client, root / STACKS / "fuzz.yaml"),
    }
    versions = dict.fromkeys(uris, 1)
    texts = corpus(12)
    assert len(texts) > 60
    for suffix, text in texts:
        versions[suffix] += 1
        change_document(client, uris[suffix], text, versions[suffix])
        await _answers(client, uris[suffix], text)

    # no handler failed (the server's guard would have logged "internal error" and answered None)
    failures = [m.message for m in client.log_messages if "internal error" in m.message]
    assert failures == []

    # still checking: a last, valid text gets its (empty) diagnostics
    seen = published(client, uris[".yaml"])
    change_document(client, uris[".yaml"], "schemaVersion: 1\nid: fuzz2\nitems: []\n", versions[".yaml"] + 1)
    await diagnostics_for(client, uris[".yaml"], after=seen)  # every open file is published, in order
    seen = published(client, uris[".json"])
    valid = (
        '{"schemaVersion": 1, "id": "fuzz", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}]}\n'
    )
    change_document(client, uris[".json"], valid, versions[".json"] + 1)
    assert await diagnostics_for(client, uris[".json"], after=seen) == []
