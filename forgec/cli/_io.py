"""What the commands read and write besides their inputs' contents: ``--out``/``-o`` files and
standard input (with the hint that a terminal is being read, and the size bound).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from forgec.cli._common import fail, prog
from forgec.cli._echo import echo

__all__ = ["read_stdin", "stdin_hint", "write_out"]


def write_out(target: str, text: str, *, overwrite: bool, inputs: tuple[Path | None, ...] = ()) -> None:
    """Write ``text`` to ``--out``/``-o`` ``target``; every problem is a clean exit 2.

    ``-`` is standard output.  An existing file is replaced (atomically) only with ``overwrite``;
    a missing folder is not created (a typo should not grow a folder tree).  See
    :func:`forgec.atomic.write_output`.

    ``inputs`` are the files the command read (stack, context): ``target`` naming one of them --
    by any spelling, a hard link or a symbolic link -- is refused even with ``overwrite``, since
    the output would destroy the input it was made from.  A symbolic link at ``target`` is
    replaced itself, never written through: the file it points to stays unchanged (writing
    through a link could change a file anywhere on the disk).
    """
    from forgec.atomic import ExistingFilesError, write_output

    if target == "-":
        echo(text, nl=False)
        return
    if target == "":
        fail("cannot write '': empty file name")
    for source in inputs:
        if source is not None and _same_file(Path(target), source):
            fail(f"{target} is an input of this command ({source}); refusing to overwrite it")
    try:
        write_output(Path(target), text, overwrite=overwrite)
    except ExistingFilesError:
        fail(f"{target} already exists; pass --overwrite to replace it")
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are the same file (following links); False when either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def stdin_hint() -> None:
    """Say so on standard error when ``-`` would read from a terminal.

    ``forgec validate -`` typed without a pipe otherwise waits silently, which looks like a hang.
    """
    isatty = getattr(sys.stdin, "isatty", None)
    if isatty is not None and isatty():
        echo(f"{prog()}: reading standard input; end it with Ctrl-D, or pipe a file in "
                   "(cat stack.json | forgec …)", err=True)


def read_stdin() -> bytes:
    """Standard input's bytes, after :func:`stdin_hint`; an unreadable stream is exit 2.

    At most one byte more than the largest input forgec reads is taken: the reader then refuses
    the input as too large (FG004), as it refuses such a file, instead of holding an endless
    stream in memory.
    """
    from forgec.source import MAX_FILE_BYTES

    stdin_hint()
    try:
        return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        fail(f"cannot read standard input: {exc.strerror or exc}")
