"""``forgec.source.read_file_bytes``: the unbuffered reader both input files go through."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from forgec.source import read_file_bytes, read_source


def test_whole_files_and_the_size_cap(tmp_path: Path) -> None:
    data = os.urandom(200_000)
    path = tmp_path / "big.json"
    path.write_bytes(data)
    assert read_file_bytes(path) == data
    assert read_file_bytes(path, 200_000) == data
    assert read_file_bytes(path, 199_999) == data  # limit + 1 bytes: exactly the file
    assert read_file_bytes(path, 1_000) == data[:1_001]  # enough to tell it is too large
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert read_file_bytes(empty) == b""


def test_files_without_a_known_size_are_read_in_chunks() -> None:
    read_end, write_end = os.pipe()

    def write() -> None:
        os.write(write_end, b"x" * 70_000)  # more than a pipe buffer holds
        os.close(write_end)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert read_file_bytes(f"/dev/fd/{read_end}") == b"x" * 70_000
    finally:
        writer.join()
        os.close(read_end)


def test_errors_are_those_open_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_file_bytes(tmp_path / "missing.json")
    with pytest.raises(IsADirectoryError):
        read_file_bytes(tmp_path)
    assert [d.message for d in read_source(tmp_path).diagnostics] == [
        "Failed to parse JSON: EISDIR: illegal operation on a directory, read"
    ]


def test_files_read_at_their_end_offset_and_the_rest(tmp_path: Path) -> None:
    """The end-offset read (``lseek`` + ``pread``) against plain ``open().read()``: sizes around the
    cap, a file read twice (the offset left at its end must not matter), ``/proc`` files (size 0,
    seekable or not) and ``/dev/null`` (a device that seeks to 0)."""
    for size in (1, 2, 999, 1_000, 1_001, 1_002, 65_536, 65_537):
        path = tmp_path / f"f{size}.json"
        data = os.urandom(size)
        path.write_bytes(data)
        for limit in (None, 1_000, size - 1, size, size + 1):
            expected = data if limit is None else data[: limit + 1]
            assert read_file_bytes(path, limit) == expected, (size, limit)
            assert read_file_bytes(str(path), limit) == expected, (size, limit)
    for special in ("/proc/version", "/proc/self/cmdline", "/dev/null"):
        if os.path.exists(special):
            with open(special, "rb") as handle:
                expected = handle.read()
            assert read_file_bytes(special) == expected, special
            assert read_file_bytes(special, 4) == expected[:5], special


def test_a_file_that_grew_after_its_end_was_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The end offset is older than the content (the file grew in between): the rest is read on."""
    data = os.urandom(5_000)
    path = tmp_path / "grows.json"
    path.write_bytes(data)
    real_lseek = os.lseek

    def stale_end(fd: int, pos: int, how: int) -> int:
        end = real_lseek(fd, pos, how)
        return end - 100 if how == os.SEEK_END else end

    monkeypatch.setattr(os, "lseek", stale_end)
    assert read_file_bytes(path) == data
    assert read_file_bytes(path, 4_949) == data[:4_950]
