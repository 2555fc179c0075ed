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
