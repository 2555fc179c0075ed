"""What every command shares: the no-traceback guard, error messages, ``--out`` files, colour,
diagnostic lines on standard error, and the ``--trust-plugins`` option.

Every usage or I/O problem a command reports (not click's own usage errors) has one shape,
``forgec <command>: error: <message>``, so scripts and people can tell which command complained.
Library errors arrive as :class:`~forgec.errors.ForgecError`, which carries its exit code; the
guard maps the whole family in one place, and anything else is a bug (``internal error``).

Importing this module does not import click: the click-free ``forgec validate`` (:mod:`forgec.cli._fast`)
runs the same guard and messages, printing through :func:`forgec.cli._echo.echo`.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from forgec.cli._echo import echo, running_click_free
from forgec.errors import ForgecError

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic

F = TypeVar("F", bound=Callable[..., Any])

REPORT_HINT = (
    "This is a bug in forgec; please report it with the command line and the input that caused it "
    "(set FORGEC_DEBUG=1 to see the traceback)."
)

TRUST_HELP = (
    "Load every installed forgec plugin (entry-point group forgec.plugins): their custom macros "
    "and slots. Plugins run code; without this flag only those named in [tool.forgec] plugins load."
)


def no_traceback(fn: F) -> F:
    """Map what a command raises to a message and an exit code; never a traceback.

    A :class:`ForgecError` prints ``forgec <command>: error: <message>`` and exits with its
    ``exit_code`` (a command that wants the error's positioned diagnostics printed too catches it
    first, as the STACK commands do for a refused context).  Anything else is a bug:
    ``forgec: internal error: …`` and exit code 2 (spec: "No command prints a traceback for bad
    input"); developers get the traceback back with ``FORGEC_DEBUG=1``.  click's own exceptions
    (usage errors, ``Exit``) pass through.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BrokenPipeError:
            # the reader went away (``forgec validate | head``): stop quietly, like other CLI tools
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except ForgecError as exc:
            error(str(exc))
            sys.exit(exc.exit_code)
        except Exception as exc:  # a bug: reported as one, never disguised as a usage problem
            if _is_click_control(exc) or os.environ.get("FORGEC_DEBUG"):
                raise
            echo(f"{prog()}: internal error: {type(exc).__name__}: {exc}", err=True)
            echo(REPORT_HINT, err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _is_click_control(exc: Exception) -> bool:
    """click's own exceptions (usage errors, ``Exit``, ``Abort``) pass the guard untouched.  None
    can exist before click is imported, so the click-free path never imports click to ask."""
    click = sys.modules.get("click")
    if click is None:
        return False
    return isinstance(exc, (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort))


def prog() -> str:
    """``forgec <command>`` (``forgec snapshot check``) of the running command, for messages.

    Built from the click contexts below the root, so it reads the same whether forgec runs as a
    console script or in-process (``CliRunner``, whose root is not called ``forgec``); the
    click-free path names its command itself.
    """
    command = running_click_free()
    if command is not None:
        return command
    import click

    names: list[str] = []
    ctx = click.get_current_context(silent=True)
    while ctx is not None and ctx.parent is not None:
        if ctx.info_name:
            names.append(ctx.info_name)
        ctx = ctx.parent
    return " ".join(["forgec", *reversed(names)])


def error(message: str) -> None:
    """Print ``forgec <command>: error: message`` on standard error (no exit).

    Messages quote paths and values the user or a file supplied: control characters are shown
    escaped so they cannot drive the terminal.
    """
    from forgec.output import escape_controls

    echo(f"{prog()}: error: {escape_controls(message)}", err=True)


def fail(message: str) -> NoReturn:
    """A usage problem that is not about the command line's syntax: message and exit code 2."""
    error(message)
    sys.exit(2)


def echo_diagnostics(path: str, diagnostics: Iterable[Diagnostic], *, err: bool = True) -> None:
    """Each diagnostic as ``path:line:col: FGnnn [level] message`` on standard error (``err``
    False: standard output, where they are the command's result), exactly as ``forgec validate
    --format concise`` prints it (an editor can jump to each)."""
    from forgec.diagnostics.findings import Finding
    from forgec.output.concise import format_finding

    for diagnostic in diagnostics:
        echo(format_finding(path, Finding(diagnostic, diagnostic.level)), err=err)


def echo_notes(diagnostics: Iterable[Diagnostic], command: str, *, quiet: bool = False) -> None:
    """Findings about the run rather than a place in a file -- plugin loading (FG950-FG952), a
    provider body's clamps (FG80x) -- as ``forgec <command>: <level>: <message> [FGnnn]`` on
    standard error (``quiet`` drops ``info``)."""
    from forgec.output import escape_controls

    for diagnostic in diagnostics:
        if quiet and diagnostic.level == "info":
            continue
        message = escape_controls(diagnostic.message)
        echo(f"{command}: {diagnostic.level}: {message} [{diagnostic.code}]", err=True)


def trust_plugins_option(func: F) -> F:
    """The ``--trust-plugins`` flag, with one help text for every command."""
    import click

    return click.option("--trust-plugins", "trust_plugins", is_flag=True, help=TRUST_HELP)(func)


def reject_empty_paths(paths: tuple[str, ...] | list[str]) -> None:
    """An empty PATH argument is a usage error (exit 2), not the current folder.

    ``forgec validate "$STACK"`` with ``STACK`` unset passes ``''``; read as ``.`` it would check
    (or snapshot) some other folder and could pass while the intended file was never looked at.
    """
    if any(str(p) == "" for p in paths):
        import click

        raise click.UsageError("an empty PATH ('') was given (an unset variable?); name a file or folder, "
                               "or give no PATH for the current project")


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
