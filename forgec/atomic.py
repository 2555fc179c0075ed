"""Atomic file output: a file is either fully written or left exactly as it was.

Each file is written to a temporary file in its target folder (same filesystem) and moved into
place with :func:`os.replace`, which is atomic on POSIX and Windows.  :func:`write_files` writes a
group: every temporary file is complete before the first one is moved, so a failure while writing
(disk full, bad permissions) leaves no partial or stray file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ExistingFilesError", "existing", "write_files", "write_text_atomic"]


class ExistingFilesError(FileExistsError):
    """Raised when files exist and ``overwrite`` was not given; ``paths`` lists them."""

    def __init__(self, paths: Sequence[Path]) -> None:
        super().__init__(", ".join(str(p) for p in paths))
        self.paths = list(paths)


def existing(paths: Sequence[Path]) -> list[Path]:
    """The paths that already exist (files, folders or symlinks, even dangling ones)."""
    return [p for p in paths if p.exists() or p.is_symlink()]


def _write_temp(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def write_files(files: Sequence[tuple[Path, str]], *, overwrite: bool = False) -> None:
    """Write every ``(path, text)`` as UTF-8, atomically per file.

    Without ``overwrite`` an existing target raises :class:`ExistingFilesError` before anything is
    written.  New files get the usual ``0o666 & ~umask`` permissions; replaced files keep their mode.
    """
    if not overwrite:
        found = existing([p for p, _ in files])
        if found:
            raise ExistingFilesError(found)
    temps: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            temp = _write_temp(path, text.encode("utf-8"))
            temps.append((temp, path))
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(temp, mode)
        for temp, path in temps:
            os.replace(temp, path)
    finally:
        for temp, _ in temps:
            with contextlib.suppress(OSError):
                if temp.exists():
                    temp.unlink()


def write_text_atomic(path: Path, text: str, *, overwrite: bool = False) -> None:
    """Write one file atomically (see :func:`write_files`)."""
    write_files([(path, text)], overwrite=overwrite)
