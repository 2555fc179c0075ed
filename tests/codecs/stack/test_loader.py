"""The stack loader against statements of compile-core.md §10 and §16.8 (the corpus is in
tests/conformance/test_validation.py)."""

from __future__ import annotations

import json
from pathlib import Path

from forgec.codecs.stack import (
    file_stem,
    load_stack_data,
    load_stack_file,
    load_stack_folder,
)
from forgec.diagnostics import to_pi_list
from forgec.rules import rule_for
from forgec.source import resolve_spans
from forgec.workspace import list_resource_files

HISTORY = {"kind": "slot", "id": "h", "slot": "chat-history"}


def _stack(**fields: object) -> dict[str, object]:
    return {"schemaVersion": 1, "id": "s", "items": [HISTORY], **fields}


def test_item_normalisation_keeps_only_known_fields() -> None:
    # §16.8, verified examples
    block = {"kind": "block", "id": "b", "role": "system", "content": "x", "slot": "tools", "options": {},
             "foo": 1, "tags": ["a", 2], "source": {}}
    slot = {"kind": "slot", "id": "s2", "slot": "tools", "content": "x", "bar": 1, "options": {"format": "plain"}}
    weird = {"kind": "weird", "id": 7}
    loaded = load_stack_data(_stack(items=[HISTORY, block, slot, weird]), "s.json")
    _, b, s, w = loaded.stack["items"]
    assert b == {"kind": "block", "id": "b", "role": "system", "tags": ["a"], "source": {}, "content": "x"}
    assert s == {"kind": "slot", "id": "s2", "slot": "tools", "options": {"format": "plain"}}
    assert w == {"kind": "block", "id": "7", "content": ""}


def test_raw_checks_run_twice_and_schema_field_is_dropped() -> None:
    loaded = load_stack_data(_stack(**{"$schema": "x", "defaults": {"syntheticMessagesVisible": "false"}}), "s.json")
    messages = [d["message"] for d in to_pi_list(loaded.diagnostics)]
    assert messages == ["defaults.syntheticMessagesVisible must be a boolean when provided."] * 2
    assert "$schema" not in loaded.stack
    assert not loaded.usable


def test_valid_stack_has_no_diagnostics_and_schema_is_silent() -> None:
    loaded = load_stack_data(_stack(**{"$schema": "https://forgec.dev/schemas/prompt-stack.schema.json"}), "s.json")
    assert loaded.diagnostics == [] and loaded.usable and loaded.stack_id == "s"


def test_every_diagnostic_has_a_registered_code_and_a_pointer() -> None:
    raw = {
        "id": "bad id!", "type": "x", "name": 1, "mode": "merge", "variables": {"n": 2}, "state": {"a": 1},
        "tools": {"allow": ["a", ""], "deny": ["b"]}, "regex": {"rules": [{"id": "r", "stage": "x", "pattern": "("}]},
        "items": [{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 0}}, 5,
                  {"kind": "block", "id": "h", "content": "x"}],
    }
    loaded = load_stack_data(json.dumps(raw, indent=2), "writer.json")
    assert loaded.stack_id == "writer"
    for diag in loaded.diagnostics:
        assert rule_for(diag.code).level in ("error", "warning", "info")
        assert diag.pointer is not None, diag.message
    resolved = resolve_spans(loaded.diagnostics, loaded.document)
    assert all(d.span is None for d in loaded.diagnostics)  # the loaded stack's own list is not changed
    assert all(d.span is not None for d in resolved)
    by_message = {d.message: d for d in resolved}
    lines = json.dumps(raw, indent=2).splitlines()
    last_h = max(i for i, line in enumerate(lines) if line.strip() == '"id": "h",')
    assert by_message["Duplicate item id: h"].span.line == last_h + 1


def test_parse_failure_gives_fallback_stack(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"id": "broken", "items": [ {"kind": "block", "id": "a", } ]}', encoding="utf-8")
    loaded = load_stack_file(path)
    assert loaded.stack == {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "broken",
                            "name": "broken.json", "items": []}
    assert to_pi_list(loaded.diagnostics) == [
        {"level": "error", "message": "Failed to parse JSON: Expected double-quoted property name in JSON at position 57"}
    ]
    assert loaded.raw is None and not loaded.usable


def test_default_json_warning_and_file_stem() -> None:
    loaded = load_stack_data(_stack(), "default.json")
    assert [d.code for d in loaded.diagnostics] == ["FG147"]
    assert load_stack_data(_stack(autoActivate=None), "default.json").diagnostics[0].code == "FG105"
    assert file_stem(".json") == ".json" and file_stem("a.json") == "a" and file_stem("a.yaml") == "a"


def test_folder_listing_shadowing_sorting_and_duplicates(tmp_path: Path) -> None:
    primary, legacy = tmp_path / "forge", tmp_path / "legacy"
    primary.mkdir()
    legacy.mkdir()
    for name, folder in [("m.json", primary), ("a.json", primary), ("B.json", primary), ("é.json", primary),
                         ("z.json", legacy), ("a.json", legacy), ("notes.txt", primary), ("Y.JSON", primary)]:
        (folder / name).write_text(json.dumps(_stack(id="dup" if name in ("m.json", "B.json", "a.json") else name[0])),
                                   encoding="utf-8")
    (primary / "_x.json").write_text("{", encoding="utf-8")
    files = list_resource_files([primary, legacy, tmp_path / "missing"], (".json",))
    assert [(p.parent.name, p.name) for p in files] == [
        ("forge", "B.json"), ("forge", "_x.json"), ("forge", "a.json"), ("forge", "m.json"), ("forge", "é.json"),
        ("legacy", "z.json"),
    ]
    loaded = load_stack_folder([primary, legacy], "project", include_yaml=False)
    message = "Duplicate project stack id: dup appears in multiple files (B.json, a.json, m.json)."
    assert [d.message for d in loaded[0].diagnostics] == [message]
    assert [d.message for d in loaded[3].diagnostics] == [message]
    assert loaded[1].stack_id == "_x" and not loaded[1].usable


def test_yaml_stacks_in_folders(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(_stack(id="one")), encoding="utf-8")
    (tmp_path / "b.yaml").write_text("schemaVersion: 1\nid: one\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n",
                                     encoding="utf-8")
    loaded = load_stack_folder([tmp_path])
    assert [s.file_name for s in loaded] == ["a.json", "b.yaml"]
    assert loaded[1].document.format == "yaml"
    assert [d.code for d in loaded[1].diagnostics] == ["FG148"]
    assert [s.file_name for s in load_stack_folder([tmp_path], include_yaml=False)] == ["a.json"]


def test_policy_and_validation_order() -> None:
    loaded = load_stack_data(
        _stack(mode="append", skills={"deny": ["web", " web ", 3]}, tools={"allow": "read"}), "s.json"
    )
    assert [d["message"] for d in to_pi_list(loaded.diagnostics)] == [
        "tools.allow must be an array of strings when provided.",
        "skills.deny[2] must be a non-empty string.",
        "Duplicate skills.deny pattern: web.",
        "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not disable "
        "explicit skill invocation and is not a security boundary.",
        'skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base Pi prompt to '
        "omit filtered skills.",
    ]
    assert loaded.stack["tools"] == {} and loaded.stack["skills"] == {"deny": ["web", "web"]}
