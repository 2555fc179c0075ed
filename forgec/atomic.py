"""Atomic file output: a file is either fully written or left exactly as it was.

Each file is written to a temporary file in its target folder (same filesystem) and then put in
place.  Replacing (``overwrite``) uses :func:`os.replace`, atomic on POSIX and Windows.  Creating a
*new* file uses :func:`os.link`, which fails when the name exists: of two forgec runs creating the
same file at once, exactly one wins and the other is told the file exists -- a check-then-replace
would let both "succeed", each destroying the other's output.  :func:`write_files` writes a group:
every temporary file is complete before the first one is put in place, so a failure while writing
(disk full, bad permissions) leaves no partial or stray file behind, and a group that loses a race
for one of its new files takes back the ones it had already created.

Text is encoded as Node's ``fs.writeFile`` encodes a JavaScript string: UTF-8, a lone surrogate
(which a JavaScript string may hold, and a stack or preset may carry) written as U+FFFD.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from forgec.errors import OutputError

__all__ = [
    "ExistingFilesError",
    "encode_utf8",
    "existing",
    "symlink_on_path",
    "write_bytes_atomic",
    "write_files",
    "write_output",
    "write_text_atomic",
]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class ExistingFilesError(OutputError, FileExistsError):
    """Raised when files exist and ``overwrite`` was not given; ``paths`` lists them."""

    def __init__(self, paths: Sequence[Path]) -> None:
        super().__init__(", ".join(str(p) for p in paths))
        self.paths = list(paths)


def encode_utf8(text: str) -> bytes:
    """UTF-8 as Node writes a string: lone surrogates become U+FFFD instead of failing."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def existing(paths: Sequence[Path]) -> list[Path]:
    """The paths that already exist (files, folders or symlinks, even dangling ones)."""
    return [p for p in paths if p.exists() or p.is_symlink()]


def symlink_on_path(root: Path, target: Path) -> Path | None:
    """The first component from below ``root`` down to ``target`` that is a symbolic link, if any.

    Writers that must stay inside a project (golden files, imported stacks, profiles) refuse to
    write through a link: it could point anywhere on the disk.
    """
    try:
        relative = target.relative_to(root)
    except ValueError:
        return target
    current = root
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


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


def _create(temp: Path, path: Path) -> None:
    """Put ``temp`` in place as the new file ``path``; :class:`ExistingFilesError` if it exists by now."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise ExistingFilesError([path]) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # a file system without hard links (FAT, some network mounts): create exclusively, then copy
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.write(temp.read_bytes())


def write_files(
    files: Sequence[tuple[Path, str]], *, overwrite: bool = False, create_dirs: bool = True
) -> None:
    """Write every ``(path, text)`` atomically per file (UTF-8, see :func:`encode_utf8`).

    Without ``overwrite`` an existing target raises :class:`ExistingFilesError` before anything is
    written, and a target created by someone else meanwhile raises it too, with the files this call
    had already created removed again.  New files get the usual ``0o666 & ~umask`` permissions;
    replaced files keep their mode.  ``create_dirs=False`` makes a missing parent folder an error
    (``FileNotFoundError``) instead of creating it: a typo in ``--out`` must not grow a folder tree.
    """
    if not overwrite:
        found = existing([p for p, _ in files])
        if found:
            raise ExistingFilesError(found)
    temps: list[tuple[Path, Path]] = []
    created: list[Path] = []
    try:
        for path, text in files:
            temp = _write_temp(path, encode_utf8(text), create_dirs)
            temps.append((temp, path))
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(temp, mode)
        for temp, path in temps:
            if overwrite:
                os.replace(temp, path)
            else:
                _create(temp, path)
                created.append(path)
    except ExistingFilesError:
        for path in created:  # lost a race for one file of the group: leave none of it behind
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    finally:
        for temp, _ in temps:
            with contextlib.suppress(OSError):
                if temp.exists():
                    temp.unlink()


def write_text_atomic(path: Path, text: str, *, overwrite: bool = False, create_dirs: bool = True) -> None:
    """Write one file atomically (see :func:`write_files`)."""
    write_files([(path, text)], overwrite=overwrite, create_dirs=create_dirs)


def write_bytes_atomic(path: Path, data: bytes, *, overwrite: bool = False, mode: int | None = None) -> None:
    """Write bytes as they are (a file copied exactly), atomically; a new file created exclusively.

    ``mode``: the permission bits the file gets (an edited file keeps its own; the temporary file
    would otherwise leave it readable by its owner only).
    """
    if not overwrite and existing([path]):
        raise ExistingFilesError([path])
    temp = _write_temp(path, data)
    try:
        if mode is not None:
            os.chmod(temp, mode)
        if overwrite:
            os.replace(temp, path)
        else:
            _create(temp, path)
    finally:
        with contextlib.suppress(OSError):
            if temp.exists():
                temp.unlink()


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
        with open(path, "wb") as handle:
            handle.write(encode_utf8(text))
        return
    if not path.parent.is_dir():
        raise FileNotFoundError(2, "No such file or directory (the folder does not exist)", str(path.parent))
    write_text_atomic(path, text, overwrite=overwrite, create_dirs=False)
