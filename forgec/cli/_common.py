"""Small helpers shared by forgec's commands: the no-traceback guard and colour detection."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

REPORT_HINT = (
    "This is a bug in forgec; please report it with the command line and the input that caused it "
    "(set FORGEC_DEBUG=1 to see the traceback)."
)


def no_traceback(fn: F) -> F:
    """Turn an unexpected exception into ``forgec: internal error: …`` and exit code 2.

    Users never see a traceback (spec: "No command prints a traceback for bad input"); developers
    get it back with ``FORGEC_DEBUG=1``.  click's own exceptions (usage errors, ``Exit``) pass through.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (KeyboardInterrupt, SystemExit):
            raise
        except BrokenPipeError:
            # the reader went away (``forgec validate | head``): stop quietly, like other CLI tools
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except Exception as exc:
            if os.environ.get("FORGEC_DEBUG"):
                raise
            click.echo(f"forgec: internal error: {type(exc).__name__}: {exc}", err=True)
            click.echo(REPORT_HINT, err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def fail(message: str) -> None:
    """A usage problem that is not about the command line's syntax: message and exit code 2."""
    click.echo(f"forgec: error: {message}", err=True)
    sys.exit(2)


def use_color(flag: bool | None) -> bool:
    """``--color``/``--no-color`` if given; otherwise colour only on a terminal, honouring NO_COLOR
    and FORCE_COLOR (https://no-color.org)."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())
