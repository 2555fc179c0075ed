"""The editor's workflows over HTTP, checked against what the command line does with the same files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.conftest import FIXTURES, Running

YAML_REF = "project/code-reviewer.yaml"
JSON_REF = "project/pair-programmer.json"
TYPO = "project/typo.json"


def _validate_json(path: Path) -> list[dict[str, object]]:
    out = subprocess.run([sys.executable, "-m", "forgec", "validate", "--format", "json", str(path)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    return json.loads(out.stdout)["files"][0]["diagnostics"]


def test_state_lists_both_scopes_with_badges_and_shadowing(editor: Running, tmp_path: Path) -> None:
    stacks = tmp_path / "global" / "prompt-stacks"
    stacks.mkdir(parents=True)
    (stacks / "storyteller.json").write_text('{"schemaVersion": 1, "id": "storyteller", "items": []}')
    (stacks / "shared.json").write_text('{"schemaVersion": 1, "id": "shared", "items": []}')
    status, state = editor.get("/api/state")
    assert status == 200
    rows = {(r["scope"], r["id"]): r for r in state["stacks"]}
    assert rows[("global", "storyteller")]["shadowed"] is True  # the project's storyteller wins
    assert rows[("project", "storyteller")]["shadowed"] is False
    assert rows[("global", "shared")]["shadowed"] is False and rows[("global", "shared")]["writable"] is False
    assert {p["key"] for p in state["profiles"]} == {"project:local-pair", "project:reviewer"}


def test_findings_are_validates(editor: Running) -> None:
    text = (editor.root / "broken" / "typos.yaml").read_text()
    status, result = editor.post("/api/analyze", {"text": text, "file": "typos.yaml"})
    assert status == 200
    expected = _validate_json(editor.root / "broken" / "typos.yaml")
    assert [(f["code"], f["message"], f["line"], f["column"]) for f in result["findings"]] == [
        (f["code"], f["message"], f["line"], f["column"]) for f in expected
    ]
    assert result["findings"], "the example has mistakes"


def test_compile_body_fingerprint_and_diff(editor: Running) -> None:
    _, loaded = editor.get(f"/api/stack?ref={JSON_REF}")
    data = loaded["data"]
    data["items"][0]["content"] = "EDITED " + data["items"][0]["content"]
    _, rendered = editor.post("/api/render", {"data": data, "format": "json"})
    status, result = editor.post("/api/analyze", {"text": rendered["text"], "file": "pair-programmer.json",
                                                  "ref": JSON_REF, "target": "openai-completions"})  # fmt: skip
    assert status == 200, result
    assert "EDITED" in result["system"] + "".join(m["text"] for m in result["messages"])
    assert all("source" in m for m in result["messages"])
    from forgec.fingerprint import stack_fingerprint
    from forgec.report import load_stack

    saved_fp = stack_fingerprint(load_stack(editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").stack)
    assert result["fingerprint"].startswith("sha256:v1:") and result["fingerprint"] != saved_fp
    assert "+" in result["diff"] and "EDITED" in result["diff"]
    body = json.loads(result["payload"]["text"])
    assert body["messages"][0]["role"] in ("system", "developer")


def test_payload_is_redacted(editor: Running) -> None:
    stack = {"schemaVersion": 1, "id": "s", "items": [
        {"kind": "block", "id": "a", "role": "system", "content": "key sk-ant-api03-" + "A" * 40}]}  # fmt: skip
    _, result = editor.post("/api/analyze", {"text": json.dumps(stack), "file": "s.json", "target": "anthropic-messages"})
    from forgec.emit.redact import redact_payload

    assert redact_payload("sk-ant-api03-" + "A" * 40, deep=True) != "sk-ant-api03-" + "A" * 40  # the shape is known
    assert "A" * 40 not in result["payload"]["text"]


def test_yaml_comments_survive_a_structured_edit(editor: Running) -> None:
    _, loaded = editor.get(f"/api/stack?ref={YAML_REF}")
    data = loaded["data"]
    data["items"].reverse()
    data["name"] = "Reviewer (edited)"
    _, rendered = editor.post("/api/render", {"data": data, "format": "yaml", "original": loaded["text"]})
    text = rendered["text"]
    for line in loaded["text"].splitlines():
        if line.lstrip().startswith("#") or "  # " in line:
            comment = line[line.index("#"):]
            assert comment in text, comment
    status, _saved = editor.post("/api/save", {"ref": YAML_REF, "text": text, "hash": loaded["hash"]})
    assert status == 200
    on_disk = (editor.root / ".pi/forge/prompt-stacks/code-reviewer.yaml").read_text()
    assert on_disk == text
    from forgec.source import parse_source_text

    assert parse_source_text(on_disk, "x.yaml", "yaml").data == data


def test_structured_json_save_is_what_forgec_writes(editor: Running) -> None:
    from forgec.js.values import json_stringify

    _, loaded = editor.get(f"/api/stack?ref={JSON_REF}")
    data = loaded["data"]
    data["items"].append({"kind": "block", "id": "extra", "role": "user", "content": "Ünïcode ✓ </script>"})
    _, rendered = editor.post("/api/render", {"data": data, "format": "json"})
    status, _ = editor.post("/api/save", {"ref": JSON_REF, "text": rendered["text"], "hash": loaded["hash"]})
    assert status == 200
    on_disk = (editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").read_bytes()
    assert on_disk == (json_stringify(data, 2) or "").encode("utf-8")


def test_unparsable_text_is_not_saved(editor: Running) -> None:
    _, loaded = editor.get(f"/api/stack?ref={JSON_REF}")
    status, body = editor.post("/api/save", {"ref": JSON_REF, "text": '{"id": ', "hash": loaded["hash"]})
    assert status == 422 and "does not parse" in body["error"]
    assert (editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").read_text() == loaded["text"]


def test_new_from_template_fork_export_delete(editor: Running) -> None:
    status, made = editor.post("/api/new", {"id": "fresh", "template": "coding", "format": "yaml"})
    assert status == 200 and made["ref"] == "project/fresh.yaml"
    assert _validate_json(Path(made["path"])) == []  # a template is a clean stack
    status, _bad = editor.post("/api/new", {"id": "no/slash"})
    assert status == 400
    status, forked = editor.post("/api/fork", {"ref": YAML_REF, "id": "reviewer-2"})
    assert status == 200 and forked["ref"] == "project/reviewer-2.yaml"
    assert "id: reviewer-2" in forked["text"] and "# a reviewer reads" in forked["text"]
    status, _again = editor.post("/api/fork", {"ref": YAML_REF, "id": "reviewer-2"})
    assert status == 409  # a fork never replaces a stack
    status, _exported, response = editor.request("GET", "/api/export?ref=project/reviewer-2.yaml")
    assert status == 200 and 'filename="reviewer-2.yaml"' in (response.getheader("Content-Disposition") or "")
    status, _deleted = editor.post("/api/delete", {"ref": forked["ref"], "hash": forked["hash"]})
    assert status == 200 and not Path(forked["path"]).exists()


@pytest.mark.skipif(not (FIXTURES / "marinara-special.json").is_file(), reason=f"real presets not found at {FIXTURES}")
def test_import_is_byte_identical_to_import_silly(editor: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1773476813")  # the import's timestamp, the same in both runs
    shutil.copy(FIXTURES / "marinara-special.json", editor.root / "presets" / "marinara-special.json")
    _, state = editor.get("/api/state")
    preset = next(p for p in state["presets"] if p["path"] == "presets/marinara-special.json")
    assert preset["characters"] == ["100000", "100001"]
    status, done = editor.post("/api/import", {"path": "presets/marinara-special.json", "character": "100001"})
    assert status == 200, done
    assert done["ref"] == "project/marinara-special.json" and "# " in done["report"]
    other = tmp_path / "cli"
    other.mkdir()
    subprocess.run([sys.executable, "-m", "forgec", "import-silly", str(editor.root / "presets" / "marinara-special.json"),
                    "100001", "--out-dir", str(other)], check=True, capture_output=True, env=dict(os.environ))  # fmt: skip
    name = "marinara-special.json"
    assert (editor.root / ".pi/forge/prompt-stacks" / name).read_bytes() == (other / ".pi/forge/prompt-stacks" / name).read_bytes()
    status, again = editor.post("/api/import", {"path": "presets/marinara-special.json"})
    assert status == 400 and "Choose a character_id" in again["error"]  # several characters: one must be chosen
    status, again = editor.post("/api/import", {"path": "presets/marinara-special.json", "character": "100000"})
    assert status == 400 and "--overwrite" in again["error"]
    status, again = editor.post("/api/import", {"path": "presets/marinara-special.json", "character": "100000", "overwrite": True})
    assert status == 200
    status, wrong = editor.post("/api/import", {"path": "presets/marinara-special.json", "character": "7", "id": "m2"})
    assert status == 400 and "100000" in (wrong["hint"] or "")


def test_profiles_save_one_auto_activation_per_scope_and_delegation(editor: Running) -> None:
    profile = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "helper",
               "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "low",
               "promptStack": "pair-programmer", "autoActivate": True}  # fmt: skip
    status, done = editor.post("/api/profile/save", {"scope": "project", "profile": profile})
    assert status == 200, done
    assert json.loads(Path(done["filePath"]).read_text())["id"] == "helper"
    second = {**profile, "id": "other"}
    status, refused = editor.post("/api/profile/save", {"scope": "project", "profile": second})
    assert status == 409 and "auto-activates" in refused["error"]
    # replacing an existing profile needs the hash it was loaded with
    status, _stale = editor.post("/api/profile/save", {"scope": "project", "profile": {**profile, "thinkingLevel": "high"}})
    assert status == 409
    _, loaded = editor.get("/api/profile?key=project:helper")
    status, _ = editor.post("/api/profile/save", {"scope": "project", "profile": {**profile, "thinkingLevel": "high"},
                                                  "hash": loaded["hash"]})  # fmt: skip
    assert status == 200
    status, config = editor.post("/api/profile/config", {"id": "helper", "update": {"enabled": True, "timeoutMs": 60000}})
    assert status == 200, config
    written = json.loads(Path(config["configPath"]).read_text())
    assert written["subagents"]["profiles"]["helper"] == {"enabled": True, "timeoutMs": 60000}
    _, state = editor.get("/api/state")
    assert state["delegation"]["profiles"]["project:helper"]["enabled"] is True
    row = next(r for r in state["profiles"] if r["key"] == "project:helper")
    assert row["autoActivate"] is True and row["autoActivated"] is True and row["thinkingLevel"] == "high"


def test_import_a_pi_forge_stack_keeps_its_bytes(editor: Running) -> None:
    text = (editor.root / "broken" / "typos.yaml").read_text()
    status, stored = editor.post("/api/import-stack", {"text": text, "file": "typos.yaml"})
    assert status == 200, stored
    assert stored["ref"] == "project/typos.yaml"
    assert (editor.root / ".pi/forge/prompt-stacks/typos.yaml").read_bytes() == (editor.root / "broken" / "typos.yaml").read_bytes()
    status, again = editor.post("/api/import-stack", {"text": text, "file": "typos.yaml"})
    assert status == 409 and again["conflict"] is True  # an existing stack is replaced only when asked
    status, _ = editor.post("/api/import-stack", {"text": text.replace("typos", "typos"), "file": "typos.yaml", "overwrite": True})
    assert status == 200
    status, refused = editor.post("/api/import-stack", {"text": '{"temperature": 1}', "file": "x.json"})
    assert status == 422 and "not a pi-forge stack" in refused["error"]
    status, refused = editor.post("/api/import-stack", {"text": '{"id": "../x", "items": []}', "file": "x.json"})
    assert status == 400 and "invalid stack id" in refused["error"]


def test_with_global_the_user_global_folder_is_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web.conftest import copy_examples, start, stop

    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "global"))
    running = start(copy_examples(tmp_path), tmp_path / "global", allow_global=True)
    try:
        status, made = running.post("/api/new", {"id": "storyteller", "location": "global"})
        assert status == 200 and Path(made["path"]) == tmp_path / "global" / "prompt-stacks" / "storyteller.json"
        _, state = running.get("/api/state")
        row = next(r for r in state["stacks"] if r["ref"] == "global/storyteller.json")
        assert row["writable"] is True and row["shadowed"] is True  # the project's storyteller wins
        profile = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "mine",
                   "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "low",
                   "promptStack": "global:storyteller"}  # fmt: skip
        status, done = running.post("/api/profile/save", {"scope": "global", "profile": profile})
        assert status == 200, done
        assert Path(done["filePath"]).parent == tmp_path / "global" / "agent-profiles"
    finally:
        stop(running)


def test_an_invalid_configured_port_warns_as_pi_forge_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from forgec.web.server import prepare
    from tests.web.conftest import copy_examples

    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "global"))
    root = copy_examples(tmp_path)
    (root / ".pi/forge/config.json").write_text('{"webEditor": {"port": "8080"}}')
    editor = prepare(root)
    try:
        assert editor.port > 0
        assert any("webEditor.port must be an integer from 1 to 65535; using an available editor port" in w for w in editor.warnings)
    finally:
        editor.sock.close()
