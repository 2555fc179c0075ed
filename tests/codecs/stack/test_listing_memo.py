"""Folder listings are memoised by the folder's state and never go stale."""

from __future__ import annotations

import os
import time
from pathlib import Path

from forgec import workspace
from forgec.workspace import list_resource_files


def _age(folder: Path, seconds: float = 5.0) -> None:
    """Set the folder's modification time into the past (out of the racy window)."""
    past = time.time() - seconds
    os.utime(folder, (past, past))


def test_an_unchanged_folder_is_listed_from_the_memo(tmp_path: Path) -> None:
    for name in ("b.json", "a.json", "note.txt"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    _age(tmp_path)
    first = list_resource_files([tmp_path])
    assert [p.name for p in first] == ["a.json", "b.json"]
    assert str(tmp_path) in workspace._LISTINGS
    assert list_resource_files([tmp_path]) == first


def test_adding_removing_or_renaming_a_file_is_seen(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    _age(tmp_path)
    assert [p.name for p in list_resource_files([tmp_path])] == ["a.json"]
    (tmp_path / "c.json").write_text("{}", encoding="utf-8")
    assert [p.name for p in list_resource_files([tmp_path])] == ["a.json", "c.json"]
    _age(tmp_path, 3)
    list_resource_files([tmp_path])
    (tmp_path / "a.json").rename(tmp_path / "z.json")
    assert [p.name for p in list_resource_files([tmp_path])] == ["c.json", "z.json"]
    (tmp_path / "c.json").unlink()
    assert [p.name for p in list_resource_files([tmp_path])] == ["z.json"]


def test_a_folder_changed_just_now_is_not_memoised(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    list_resource_files([tmp_path])
    assert str(tmp_path) not in workspace._LISTINGS


def test_missing_folders_and_files_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "file.json").write_text("{}", encoding="utf-8")
    assert list_resource_files([tmp_path / "missing", tmp_path / "file.json"]) == []
