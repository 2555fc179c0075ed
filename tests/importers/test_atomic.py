"""forgec.atomic: all-or-nothing writes, no stray temporary files, overwrite refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.atomic import ExistingFilesError, write_files, write_text_atomic


def test_refuses_existing_without_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(ExistingFilesError) as info:
        write_text_atomic(target, "new")
    assert info.value.paths == [target]
    assert target.read_text("utf-8") == "old"
    write_text_atomic(target, "new", overwrite=True)
    assert target.read_text("utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_failure_in_a_group_writes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    first = tmp_path / "out" / "stack.json"
    with pytest.raises(OSError):
        write_files([(first, "x"), (blocker / "sub" / "report.md", "y")])
    assert not first.exists()
    assert list((tmp_path / "out").iterdir()) == []


def test_keeps_mode_of_replaced_file(tmp_path: Path) -> None:
    target = tmp_path / "a.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_text_atomic(target, "é", overwrite=True)
    assert target.stat().st_mode & 0o777 == 0o640
    assert target.read_bytes() == "é".encode()
