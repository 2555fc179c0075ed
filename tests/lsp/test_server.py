"""``forgec lsp`` end to end: a real client (pytest-lsp) drives the server as an editor would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from forgec.rules import rule_for
from forgec.rules.loader import DUPLICATE_STACK_ID
from tests.lsp.conftest import (
    SERVER_ENV,
    change_document,
    diagnostics_for,
    open_document,
    project,
    published,
    start,
)

pytestmark = pytest.mark.asyncio

BROKEN = Path(__file__).resolve().parents[2] / "examples" / "broken" / "typos.yaml"
STACKS = ".pi/forge/prompt-stacks"
CLEAN = """\
schemaVersion: 1
id: typos
items:
  - { kind: block, id: role, role: system, content: "You are a careful reviewer." }
  - { kind: slot, id: history, slot: chat-history }
  - { kind: block, id: ask, role: user, content: "Review this: {{lastUserMessage}}" }
  - { kind: block, id: brief, role: user, content: "Be brief." }
"""


def validate_json(root: Path, *paths: str) -> dict[str, set[tuple[str, int, int, int, int]]]:
    """``forgec validate --format json``'s findings per file: (code, line, column, end line, end column)."""
    run = subprocess.run(
        [sys.executable, "-m", "forgec", "validate", *paths, "--format", "json"],
        cwd=root, env=SERVER_ENV, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    out: dict[str, set[tuple[str, int, int, int, int]]] = {}
    for file in json.loads(run.stdout)["files"]:
        found = out.setdefault(str((root / file["path"]).resolve()), set())
        for d in file["diagnostics"]:
            found.add((d["code"], d["line"], d["column"], d["endLine"], d["endColumn"]))
    return out


def apply_edit(text: str, edit: types.TextEdit) -> str:
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        return sum(len(line) + 1 for line in lines[: p.line]) + p.character

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


def flattened(diagnostics: list[types.Diagnostic]) -> set[tuple[str, int, int, int, int]]:
    """Every finding the server published: the diagnostics and the notes folded under them."""
    out = set()
    for d in diagnostics:
        r = d.range
        out.add((str(d.code), r.start.line + 1, r.start.character + 1, r.end.line + 1, r.end.character + 1))
        for note in d.related_information or []:
            n = note.location.range
            code = note.message.split(" ", 1)[0]
            out.add((code, n.start.line + 1, n.start.character + 1, n.end.line + 1, n.end.character + 1))
    return out


async def test_a_broken_yaml_stack_gets_validates_findings_and_a_fix_clears_them(
    client: LanguageClient, tmp_path: Path
) -> None:
    root = project(tmp_path, {f"{STACKS}/typos.yaml": BROKEN.read_text(encoding="utf-8")})
    stack = root / STACKS / "typos.yaml"
    await start(client, root)
    uri = open_document(client, stack)
    found = await diagnostics_for(client, uri)

    expected = validate_json(root, f"{STACKS}/typos.yaml")[str(stack.resolve())]
    assert expected, "the example must be broken"
    assert flattened(found) == expected
    by_code = {str(d.code): d for d in found}
    assert by_code["FG118"].severity == types.DiagnosticSeverity.Error
    assert by_code["FG118"].code_description is not None
    assert by_code["FG118"].code_description.href == rule_for("FG118").url
    # the folded note: FG141 (block ignored) was caused by FG118 (invalid role)
    notes = by_code["FG118"].related_information or []
    assert [n.message.split(" ", 1)[0] for n in notes] == ["FG141"]

    # typing the fix (unsaved: the file on disk keeps its mistakes) clears them
    seen = published(client, uri)
    change_document(client, uri, CLEAN, 2)
    assert await diagnostics_for(client, uri, after=seen) == []
    assert stack.read_text(encoding="utf-8") == BROKEN.read_text(encoding="utf-8")


async def test_cross_file_duplicate_ids_follow_the_other_buffer(
    client: LanguageClient, tmp_path: Path
) -> None:
    history = "items:\n  - { kind: slot, id: history, slot: chat-history }\n"
    a = "schemaVersion: 1\nid: shared\n" + history
    b = "schemaVersion: 1\nid: other\n" + history
    root = project(tmp_path, {f"{STACKS}/a.yaml": a, f"{STACKS}/b.yaml": b})
    await start(client, root)
    uri_a = open_document(client, root / STACKS / "a.yaml")
    assert await diagnostics_for(client, uri_a) == []
    uri_b = open_document(client, root / STACKS / "b.yaml")
    await diagnostics_for(client, uri_b)

    seen = published(client, uri_a)
    change_document(client, uri_b, "schemaVersion: 1\nid: shared\n" + history, 2)  # unsaved in b
    found = await diagnostics_for(client, uri_a, after=seen)
    assert [str(d.code) for d in found] == [DUPLICATE_STACK_ID]
    assert "a.yaml, b.yaml" in found[0].message
    assert found[0].range.start.line == 1  # at the id

    seen = published(client, uri_a)
    change_document(client, uri_b, b, 3)  # and back: the finding goes away again
    assert await diagnostics_for(client, uri_a, after=seen) == []


async def test_completion_slot_options_macros_and_profile_stack_ids(
    client: LanguageClient, tmp_path: Path
) -> None:
    stack_text = (
        "schemaVersion: 1\nid: writer\nitems:\n"
        "  - kind: slot\n    id: tools\n    slot: tools\n    options:\n      \n"
        '  - kind: block\n    id: ask\n    role: user\n    content: "Hi {{las"\n'
    )
    profile_text = '{"schemaVersion": 1, "id": "rev", "promptStack": ""}\n'
    root = project(tmp_path, {
        f"{STACKS}/writer.yaml": stack_text,
        ".pi/forge/agent-profiles/rev.json": profile_text,
    })  # fmt: skip
    await start(client, root)
    stack_uri = open_document(client, root / STACKS / "writer.yaml")
    profile_uri = open_document(client, root / ".pi/forge/agent-profiles/rev.json")

    options = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(stack_uri), types.Position(7, 6))
    )
    assert options is not None
    labels = [i.label for i in (options.items if isinstance(options, types.CompletionList) else options)]
    assert labels == ["format", "onlyWithSnippets"]

    macros = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(stack_uri), types.Position(11, 25))
    )
    assert macros is not None
    names = [i.label for i in (macros.items if isinstance(macros, types.CompletionList) else macros)]
    assert "lastUserMessage" in names and "getvar" in names and "contnet" not in names

    stacks = await client.text_document_completion_async(
        types.CompletionParams(
            types.TextDocumentIdentifier(profile_uri), types.Position(0, profile_text.index('""') + 1)
        )
    )
    assert stacks is not None
    ids = [i.label for i in (stacks.items if isinstance(stacks, types.CompletionList) else stacks)]
    assert ids == ["writer", "project:writer"]


async def test_hover_a_rule_code_and_go_from_a_profile_to_its_stack(
    client: LanguageClient, tmp_path: Path
) -> None:
    stack_text = "schemaVersion: 1\nid: writer\nitems:\n  - { kind: block, id: a, role: user, content: hi }  # forgec: ignore[FG118]\n"
    profile_text = '{\n  "schemaVersion": 1,\n  "id": "rev",\n  "promptStack": "writer"\n}\n'
    root = project(tmp_path, {
        f"{STACKS}/writer.yaml": stack_text,
        ".pi/forge/agent-profiles/rev.json": profile_text,
    })  # fmt: skip
    await start(client, root)
    stack_uri = open_document(client, root / STACKS / "writer.yaml")
    profile_uri = open_document(client, root / ".pi/forge/agent-profiles/rev.json")

    line = stack_text.split("\n")[3]
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(stack_uri), types.Position(3, line.index("FG118") + 2))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert f"FG118 {rule_for('FG118').name}" in hover.contents.value
    assert "forgec rule FG118" in hover.contents.value

    where = await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(profile_uri), types.Position(3, 20))
    )
    assert isinstance(where, list) and len(where) == 1
    assert isinstance(where[0], types.Location)
    assert where[0].uri == (root / STACKS / "writer.yaml").resolve().as_uri()


async def test_a_quick_fix_repairs_the_unsaved_text(client: LanguageClient, tmp_path: Path) -> None:
    text = '{\n  "schemaVersion": 1,\n  "id": "w",\n  "items": [\n    {"kind": "block", "id": "a", "role": "user", "contnet": "hi"}\n  ]\n}\n'
    root = project(tmp_path, {f"{STACKS}/w.json": text})
    await start(client, root)
    uri = open_document(client, root / STACKS / "w.json")
    found = await diagnostics_for(client, uri)
    typo = next(d for d in found if "contnet" in d.message)

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), typo.range, types.CodeActionContext([typo]))
    )
    assert actions
    fix = next(
        a for a in actions if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix
    )
    assert fix.edit is not None and fix.edit.changes is not None
    (edit,) = fix.edit.changes[uri]
    fixed = apply_edit(text, edit)
    assert fixed == text.replace("contnet", "content")  # only the key's letters changed

    seen = published(client, uri)
    change_document(client, uri, fixed, 2)
    assert not [d for d in await diagnostics_for(client, uri, after=seen) if "content" in d.message.lower()]


async def test_the_preview_command_compiles_the_open_stack_against_the_workspace_context(
    client: LanguageClient, tmp_path: Path
) -> None:
    stack_text = (
        "schemaVersion: 1\nid: w\nitems:\n"
        '  - { kind: block, id: a, role: system, content: "Work in {{cwd}}." }\n'
        "  - { kind: slot, id: h, slot: chat-history }\n"
    )
    context = "cwd: /srv/app\nmessages:\n  - { role: user, content: hello, timestamp: 1 }\n"
    root = project(tmp_path, {f"{STACKS}/w.yaml": stack_text, "contexts/session.yaml": context})
    await start(client, root, {"context": "contexts/session.yaml"})
    uri = open_document(client, root / STACKS / "w.yaml")
    change_document(client, uri, stack_text.replace("Work in", "Build in"), 2)  # unsaved

    shown = await client.workspace_execute_command_async(types.ExecuteCommandParams("forgec.preview", [uri]))
    assert shown["systemPrompt"] == "Build in /srv/app."
    assert shown["context"] == str(root / "contexts/session.yaml")
    # the same compile `forgec preview --format json` makes (of the saved file: preview reads disk)
    run = subprocess.run(
        [sys.executable, "-m", "forgec", "preview", f"{STACKS}/w.yaml", "--context", "contexts/session.yaml", "--format", "json"],
        cwd=root, env=SERVER_ENV, capture_output=True, text=True, check=True,
    )  # fmt: skip
    report = json.loads(run.stdout)
    assert shown["messages"] == report["messages"]["messages"]
    assert report["system"]["prompt"] == "Work in /srv/app."

    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    (stack,) = symbols
    assert isinstance(stack, types.DocumentSymbol)
    assert [child.name for child in stack.children or []] == ["a", "h"]


async def test_a_file_changed_outside_the_editor_refreshes_the_open_profiles_findings(
    client: LanguageClient, tmp_path: Path
) -> None:
    stack = "schemaVersion: 1\nid: writer\nitems:\n  - { kind: slot, id: h, slot: chat-history }\n"
    profile = (
        '{\n  "schemaVersion": 1,\n  "type": "pi-forge.agent-profile",\n  "id": "rev",\n  "name": "Reviewer",\n'
        '  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},\n  "thinkingLevel": "low",\n'
        '  "promptStack": "writer"\n}\n'
    )
    root = project(tmp_path, {f"{STACKS}/writer.yaml": stack, ".pi/forge/agent-profiles/rev.json": profile})
    await start(client, root)
    uri = open_document(client, root / ".pi/forge/agent-profiles/rev.json")
    assert await diagnostics_for(client, uri) == []
    expected = validate_json(root, ".pi/forge/agent-profiles/rev.json")
    assert expected == {str((root / ".pi/forge/agent-profiles/rev.json").resolve()): set()}

    # another tool renames the stack: the file is not open in the editor
    (root / STACKS / "writer.yaml").write_text(stack.replace("id: writer", "id: author"), encoding="utf-8")
    seen = published(client, uri)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent((root / STACKS / "writer.yaml").as_uri(), types.FileChangeType.Changed)]
        )
    )
    found = await diagnostics_for(client, uri, after=seen)
    expected = validate_json(root, ".pi/forge/agent-profiles/rev.json")
    assert flattened(found) == expected[str((root / ".pi/forge/agent-profiles/rev.json").resolve())]
    assert found and any("writer" in d.message for d in found)
