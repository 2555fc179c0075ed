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

from forgec.errors import OutputError

__all__ = ["ExistingFilesError", "existing", "write_files", "write_output", "write_text_atomic"]


class ExistingFilesError(OutputError, FileExistsError):
    """Raised when files exist and ``overwrite`` was not given; ``paths`` lists them."""

    def __init__(self, paths: Sequence[Path]) -> None:
        super().__init__(", ".join(str(p) for p in paths))
        self.paths = list(paths)


def existing(paths: Sequence[Path]) -> list[Path]:
    """The paths that already exist (files, folders or symlinks, even dangling ones)."""
    return [p for p in paths if p.exists() or p.is_symlink()]


def _write_temp(path: Path, data: bytes, create_dirs: bool = True) -> Path:
    if create_dirs:
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


def write_files(
    files: Sequence[tuple[Path, str]], *, overwrite: bool = False, create_dirs: bool = True
) -> None:
    """Write every ``(path, text)`` as UTF-8, atomically per file.

    Without ``overwrite`` an existing target raises :class:`ExistingFilesError` before anything is
    written.  New files get the usual ``0o666 & ~umask`` permissions; replaced files keep their mode.
    ``create_dirs=False`` makes a missing parent folder an error (``FileNotFoundError``) instead of
    creating it: a typo in ``--out`` must not silently create a folder tree.
    """
    if not overwrite:
        found = existing([p for p, _ in files])
        if found:
            raise ExistingFilesError(found)
    temps: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            temp = _write_temp(path, text.encode("utf-8"), create_dirs)
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


def write_text_atomic(path: Path, text: str, *, overwrite: bool = False, create_dirs: bool = True) -> None:
    """Write one file atomically (see :func:`write_files`)."""
    write_files([(path, text)], overwrite=overwrite, create_dirs=create_dirs)


def write_output(path: Path, text: str, *, overwrite: bool = False) -> None:
    """A command's ``--out FILE``/``-o FILE``: one report or body, written safely.

    * a regular file (or a symlink) that exists is replaced only with ``overwrite``
      (:class:`ExistingFilesError` otherwise), atomically;
    * an existing non-regular file -- ``/dev/null``, ``/dev/stdout``, a named pipe -- is written
      into directly: it cannot be "replaced", and renaming a temporary file over a device would
      destroy it;
    * the parent folder must exist; an empty name, a folder, a read-only place or a full disk
      raise :class:`OSError` with the system's reason, for the caller to print.
    """
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError as exc:
        raise NotADirectoryError(exc.errno, exc.strerror, str(path)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    if not path.parent.is_dir():
        raise FileNotFoundError(2, "No such file or directory (the folder does not exist)", str(path.parent))
    write_text_atomic(path, text, overwrite=overwrite, create_dirs=False)
