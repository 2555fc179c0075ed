"""Printing as ``click.echo`` prints, without importing click, for the click-free ``forgec validate``.

``import click`` costs ~30 ms of a cold start (click imports ``inspect``, ``gettext``, its types and
parser), about half of a plain ``forgec validate FILE``.  The console script therefore runs the plain
forms of ``validate`` without click (:mod:`forgec.cli._fast`); everything shared with the click
command prints through :func:`echo` here, which is ``click.echo`` itself whenever click drives the
command, and a small equivalent while the click-free path runs.

The equivalent holds only on the streams :func:`plain_streams` accepts -- the ones ``click.echo``
writes to unchanged (a real text stream with a non-ASCII encoding and an error handler, off
Windows): click re-wraps any other stream, and the fast path then leaves the run to click.  What it
copies of click: a newline appended, a flush after every write, and ANSI escape sequences removed
unless colour is forced on, or unless the stream is a terminal when colour is not said
(``click._compat.should_strip_ansi``; ``tests/cli/test_click_free_validate.py`` holds both equal).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import re
import sys
from collections.abc import Iterator
from typing import TextIO

__all__ = ["click_free_command", "echo", "plain_streams", "running_click_free", "strip_ansi"]

#: click's ``_compat._ansi_re``: one CSI escape sequence (ECMA-48), as click strips it off non-terminals
#: (compiled on first use: most runs print no escape at all)
ANSI_ESCAPE = r"\033\[[0-?]*[ -/]*[@-~]"

#: the command (``forgec validate``) the click-free path is running, or empty while click drives the CLI
_running: list[str] = []


def plain_streams() -> bool:
    """Whether ``click.echo`` would write to ``sys.stdout`` and ``sys.stderr`` as they are.

    click wraps a stream whose encoding is ASCII (or missing) in a UTF-8 writer, and uses its own
    console writer on Windows; a test harness's capture stream may behave otherwise again.  Only a
    real ``io.TextIOWrapper`` with an encoding that is not ASCII and an error handler qualifies.
    """
    if sys.platform.startswith("win"):
        return False
    for stream in (sys.stdout, sys.stderr):
        if type(stream) is not io.TextIOWrapper or stream.errors is None or not stream.encoding:
            return False
        try:
            if codecs.lookup(stream.encoding).name == "ascii":
                return False
        except LookupError:
            return False
    return True


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences (``click._compat.strip_ansi``); every one starts with ESC."""
    return re.sub(ANSI_ESCAPE, "", text) if "\x1b" in text else text


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):  # a closed or detached stream: not a terminal (click: any exception)
        return False


def echo(message: str, *, err: bool = False, nl: bool = True, color: bool | None = None) -> None:
    """``click.echo(message, err=err, nl=nl, color=color)``, without click on the click-free path."""
    if not _running:
        import click

        click.echo(message, err=err, nl=nl, color=color)
        return
    stream = sys.stderr if err else sys.stdout
    out = message + "\n" if nl else message
    if not out:
        stream.flush()
        return
    if not color if color is not None else not _isatty(stream):
        out = strip_ansi(out)
    stream.write(out)
    stream.flush()


def running_click_free() -> str | None:
    """The command the click-free path runs (``forgec validate``), None while click drives the CLI."""
    return _running[-1] if _running else None


@contextlib.contextmanager
def click_free_command(command: str) -> Iterator[None]:
    """Within the block, messages name ``command`` (``forgec validate``) and print without click;
    afterwards click drives printing again (an in-process caller may run click commands next)."""
    _running.append(command)
    try:
        yield
    finally:
        _running.pop()
