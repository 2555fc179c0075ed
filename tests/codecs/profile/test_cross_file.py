"""Folders of profiles and the cross-file checks (§1.1, §1.5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forgec.codecs.profile import annotate_profiles, load_profile_data, load_profile_folder


def profile(profile_id: str, **extra: Any) -> dict[str, Any]:
    return {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": profile_id,
            "model": {"provider": "p", "id": "m"}, "thinkingLevel": "off", "promptStack": None, **extra}  # fmt: skip


def write(folder: Path, name: str, doc: Any) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")


def test_only_direct_json_children_in_utf16_order(tmp_path: Path) -> None:
    write(tmp_path, "b-file.json", profile("alpha"))
    write(tmp_path, "a-file.json", profile("beta"))
    write(tmp_path, "Zed.json", profile("zed"))
    write(tmp_path, "notes.txt", "not a profile")
    write(tmp_path, "old.json.bak", "{}")
    write(tmp_path / "nested", "inner.json", profile("inner"))
    loaded = load_profile_folder([tmp_path])
    assert [p.file_name for p in loaded] == ["Zed.json", "a-file.json", "b-file.json"]
    assert [p.profile_id for p in loaded] == ["zed", "beta", "alpha"]  # the id inside wins over the file name
    assert all(p.usable for p in loaded)


def test_missing_folder_is_empty(tmp_path: Path) -> None:
    assert load_profile_folder([tmp_path / "nope"]) == []


def test_duplicate_ids_mark_every_member_with_the_files_in_load_order(tmp_path: Path) -> None:
    write(tmp_path, "b.json", profile("same"))
    write(tmp_path, "a.json", profile("same"))
    write(tmp_path, "c.json", profile("other"))
    loaded = load_profile_folder([tmp_path])
    text = "Duplicate project profile id: same appears in multiple files (a.json, b.json)."
    assert [[d.message for d in p.diagnostics] for p in loaded] == [[text], [text], []]
    assert loaded[0].diagnostics[0].field is None and not loaded[0].usable


def test_a_broken_file_takes_part_with_its_file_name(tmp_path: Path) -> None:
    write(tmp_path, "dup.json", "{oops")
    write(tmp_path, "x.json", profile("dup"))
    loaded = load_profile_folder([tmp_path], "global")
    assert loaded[0].diagnostics[-1].message == (
        "Duplicate global profile id: dup appears in multiple files (dup.json, x.json)."
    )
    assert len(loaded[0].diagnostics) == 2


def test_same_id_in_two_scopes_is_not_a_duplicate() -> None:
    both = [
        load_profile_data(profile("reviewer"), "reviewer.json", scope="global"),
        load_profile_data(profile("reviewer"), "reviewer.json", scope="project"),
    ]
    annotate_profiles(both)
    assert all(p.diagnostics == [] for p in both)


def test_auto_activation_conflicts_per_scope() -> None:
    loaded = [
        load_profile_data(profile("g", autoActivate=True), "g.json", scope="global"),
        load_profile_data(profile("a", autoActivate=True), "a.json"),
        load_profile_data(profile("b", autoActivate=True), "b.json"),
        load_profile_data(profile("c", autoActivate=False), "c.json"),
    ]
    annotate_profiles(loaded)
    text = "Multiple project profiles request auto-activation (a.json, b.json); exactly one is allowed."
    assert [[(d.field, d.message) for d in p.diagnostics] for p in loaded] == [
        [], [("autoActivate", text)], [("autoActivate", text)], [],
    ]  # fmt: skip


def test_duplicates_come_before_auto_activation_conflicts() -> None:
    loaded = [
        load_profile_data(profile("x", autoActivate=True), "1.json"),
        load_profile_data(profile("x", autoActivate=True), "2.json"),
    ]
    annotate_profiles(loaded)
    assert [d.code for d in loaded[0].diagnostics] == ["FG520", "FG521"]
