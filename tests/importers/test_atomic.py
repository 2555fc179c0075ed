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


def test_racing_creators_of_one_new_file_have_exactly_one_winner(tmp_path: Path) -> None:
    """Without --overwrite a new file is created exclusively: of many writers at once, one wins."""
    import threading

    target = tmp_path / "out.json"
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        start.wait()
        try:
            write_text_atomic(target, f"writer {n}")
            outcomes.append("won")
        except ExistingFilesError:
            outcomes.append("refused")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 7 + ["won"]
    assert target.read_text("utf-8").startswith("writer ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file left


def test_a_group_that_loses_a_race_takes_back_what_it_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import forgec.atomic as atomic

    first, second = tmp_path / "stack.json", tmp_path / "report.md"
    real = atomic._create

    def create(temp: Path, path: Path) -> None:
        if path == second:  # someone else created the second file after the existence check
            path.write_text("theirs", encoding="utf-8")
        real(temp, path)

    monkeypatch.setattr(atomic, "_create", create)
    with pytest.raises(ExistingFilesError):
        write_files([(first, "mine"), (second, "mine")])
    assert not first.exists() and second.read_text("utf-8") == "theirs"


def test_lone_surrogates_are_written_as_node_writes_them(tmp_path: Path) -> None:
    target = tmp_path / "a.md"
    write_text_atomic(target, "name: Ma\udc80in 😀")
    assert target.read_bytes() == "name: Ma\ufffdin 😀".encode()
