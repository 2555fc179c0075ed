"""Scope-guarded writes and deletes of profile files (profiles-exec.md §1.11)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from forgec.agents import profiles as agents
from forgec.agents.profiles import delete_profile, is_safe_profile_path, load_workspace, write_profile
from forgec.codecs.profile import load_profile_file

from .profile_helpers import Tree, profile_doc


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def write(tree: Tree, doc: dict[str, Any], **options: Any) -> agents.WriteResult:
    return write_profile(doc, project=tree.project, global_dir=tree.global_dir, **options)


def test_a_new_profile_is_created_as_two_space_json(tree: Tree) -> None:
    doc = profile_doc("fresh", promptStack="global:shared", name="Fresh")
    result = write(tree, doc)
    target = tree.project / ".pi" / "forge" / "agent-profiles" / "fresh.json"
    assert result.ok and result.file_path == str(target) and result.profile is doc
    assert target.read_text(encoding="utf-8") == (
        '{\n  "schemaVersion": 1,\n  "type": "pi-forge.agent-profile",\n  "id": "fresh",\n'
        '  "model": {\n    "provider": "anthropic",\n    "id": "claude-sonnet-4-5"\n  },\n'
        '  "thinkingLevel": "high",\n  "promptStack": "global:shared",\n  "name": "Fresh"\n}\n'
    )
    assert result.to_json() == {"ok": True, "profile": doc, "filePath": str(target)}
    mode = target.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # not the temporary file's 0600
    assert [p.name for p in target.parent.iterdir()] == ["fresh.json"]  # no temporary file left behind


def test_global_profiles_go_to_the_global_folder(tree: Tree) -> None:
    result = write(tree, profile_doc("g-writer", promptStack="shared"), scope="global")
    assert result.ok and result.file_path == str(tree.global_dir / "agent-profiles" / "g-writer.json")


def test_an_existing_file_is_not_replaced_without_overwrite(tree: Tree) -> None:
    path = tree.project_profile("reviewer.json", profile_doc("reviewer", name="Kept"))
    before = path.read_text(encoding="utf-8")
    result = write(tree, profile_doc("reviewer"))
    assert result.to_json() == {"ok": False, "reason": "exists", "diagnostics": []}
    assert path.read_text(encoding="utf-8") == before
    replaced = write(tree, profile_doc("reviewer", name="New"), overwrite=True)
    assert replaced.ok and '"name": "New"' in path.read_text(encoding="utf-8")


def test_validation_comes_first(tree: Tree) -> None:
    result = write(
        tree, profile_doc("broken", model={"provider": "", "id": "x"}), file_path="/nowhere/x.json"
    )
    assert result.to_json() == {
        "ok": False,
        "reason": "validation",
        "diagnostics": [
            {"level": "error", "field": "model.provider", "message": "model.provider must not be empty."}
        ],
    }
    guarded = write(tree, profile_doc("g", promptStack="project:local"), scope="global")
    assert guarded.reason == "validation"
    assert guarded.diagnostics[0].message == "Global profile g cannot reference project prompt stack local."


def test_paths_outside_the_storage_are_refused(tree: Tree) -> None:
    outside = str(tree.project / "elsewhere" / "outside.json")
    result = write(tree, profile_doc("outside"), file_path=outside)
    assert result.to_json() == {
        "ok": False,
        "reason": "invalid-path",
        "diagnostics": [],
        "error": f"Profile path is outside project agent-profile storage or traverses a symbolic link: {outside}",
    }
    assert not Path(outside).exists()
    storage = tree.project / ".pi" / "forge" / "agent-profiles"
    for path in (
        storage,
        storage / ".." / "agent-profiles-x.json",
        tree.global_dir / "agent-profiles" / "g.json",
    ):
        assert write(tree, profile_doc("x"), file_path=str(path)).reason == "invalid-path"
    assert write(
        tree, profile_doc("x"), file_path=str(storage / "sub" / "x.json")
    ).ok  # deeper inside is inside


def test_a_symbolic_link_on_the_way_is_refused(tree: Tree, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    forge = tree.project / ".pi" / "forge"
    forge.mkdir(parents=True)
    (forge / "agent-profiles").symlink_to(elsewhere, target_is_directory=True)
    result = write(tree, profile_doc("linked"))
    assert result.reason == "invalid-path" and "traverses a symbolic link" in (result.error or "")
    assert list(elsewhere.iterdir()) == []


def test_a_symbolic_link_as_the_file_is_refused(tree: Tree, tmp_path: Path) -> None:
    victim = tmp_path / "victim.json"
    victim.write_text("keep", encoding="utf-8")
    link = tree.project / ".pi" / "forge" / "agent-profiles" / "linked.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(victim)
    result = write(tree, profile_doc("linked"), overwrite=True)
    assert result.reason == "invalid-path" and victim.read_text(encoding="utf-8") == "keep"
    assert not is_safe_profile_path(link, scope="project", project=tree.project, global_dir=tree.global_dir)


def test_the_project_root_itself_may_be_a_link(tree: Tree, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(tree.project, target_is_directory=True)
    assert write_profile(profile_doc("ok"), project=alias, global_dir=tree.global_dir).ok


def test_a_dangling_link_is_never_written_through(tree: Tree, tmp_path: Path) -> None:
    storage = tree.project / ".pi" / "forge" / "agent-profiles"
    storage.mkdir(parents=True)
    (storage / "dangling.json").symlink_to(tmp_path / "missing-target")
    result = write(tree, profile_doc("dangling"))
    assert result.reason == "exists"  # pi-forge's exclusive create fails there too (EEXIST)
    assert not (tmp_path / "missing-target").exists()


def test_a_file_created_between_the_check_and_the_write_is_reported_as_existing(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tree.project / ".pi" / "forge" / "agent-profiles" / "race.json"
    real = agents.serialize_profile

    def racing(profile: Any) -> str:  # runs after the existence check, before the write
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("someone else", encoding="utf-8")
        return real(profile)

    monkeypatch.setattr(agents, "serialize_profile", racing)
    result = write(tree, profile_doc("race"))
    assert result.reason == "exists"
    assert target.read_text(encoding="utf-8") == "someone else"
    assert [p.name for p in target.parent.iterdir()] == ["race.json"]


def test_io_failures_carry_the_system_message(tree: Tree) -> None:
    storage = tree.project / ".pi" / "forge" / "agent-profiles"
    (storage / "dir.json").mkdir(parents=True)
    result = write(tree, profile_doc("dir"), overwrite=True)
    assert result.reason == "io" and result.error is not None and result.error.startswith("EISDIR")


def test_delete(tree: Tree) -> None:
    tree.project_profile("reviewer.json", profile_doc("reviewer"))
    tree.project_profile("changed.json", profile_doc("changed"))
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    changed, reviewer = ws.profiles
    tree.project_profile("changed.json", profile_doc("changed", name="edited since"))
    assert ws.delete(changed).reason == "changed"
    assert ws.delete(reviewer).to_json() == {"ok": True, "filePath": reviewer.path}
    assert not Path(reviewer.path).exists()
    assert ws.delete(reviewer).reason == "missing"


def test_delete_refuses_files_outside_storage(tree: Tree, tmp_path: Path) -> None:
    stray = tmp_path / "stray.json"
    stray.write_text("{}", encoding="utf-8")
    loaded = load_profile_file(stray)
    result = delete_profile(loaded, project=tree.project, global_dir=tree.global_dir)
    assert result.reason == "invalid-path" and stray.exists()
