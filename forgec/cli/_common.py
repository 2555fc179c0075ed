"""Small helpers shared by forgec's commands: the no-traceback guard, error messages, ``--out``
files, colour detection and the load-and-compile step of the commands that take one STACK.

Every usage or I/O problem a command reports (not click's own usage errors) has one shape,
``forgec <command>: error: <message>``, so scripts and people can tell which command complained.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

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
            click.echo(f"{prog()}: internal error: {type(exc).__name__}: {exc}", err=True)
            click.echo(REPORT_HINT, err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def prog() -> str:
    """``forgec <command>`` (``forgec snapshot check``) of the running command, for messages.

    Built from the click contexts below the root, so it reads the same whether forgec runs as a
    console script or in-process (``CliRunner``, whose root is not called ``forgec``).
    """
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

    click.echo(f"{prog()}: error: {escape_controls(message)}", err=True)


def fail(message: str) -> NoReturn:
    """A usage problem that is not about the command line's syntax: message and exit code 2."""
    error(message)
    sys.exit(2)


def reject_empty_paths(paths: tuple[str, ...] | list[str]) -> None:
    """An empty PATH argument is a usage error (exit 2), not the current folder.

    ``forgec validate "$STACK"`` with ``STACK`` unset passes ``''``; read as ``.`` it would check
    (or snapshot) some other folder and could pass while the intended file was never looked at.
    """
    if any(str(p) == "" for p in paths):
        raise click.UsageError("an empty PATH ('') was given (an unset variable?); name a file or folder, "
                               "or give no PATH for the current project")


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
        click.echo(text, nl=False)
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


def stdin_stack_name(stdin_filename: str | None) -> str:
    """The file name a stack read from standard input is loaded as (JSON unless it ends in .yaml/.yml)."""
    return os.path.basename(stdin_filename) if stdin_filename else "stdin.json"


def stdin_hint() -> None:
    """Say so on standard error when ``-`` would read from a terminal.

    ``forgec validate -`` typed without a pipe otherwise waits silently, which looks like a hang.
    """
    isatty = getattr(sys.stdin, "isatty", None)
    if isatty is not None and isatty():
        click.echo(f"{prog()}: reading standard input; end it with Ctrl-D, or pipe a file in "
                   "(cat stack.json | forgec …)", err=True)


def load_stdin_stack(stdin_filename: str | None, registry: Any = None) -> Any:
    """A :class:`forgec.codecs.stack.LoadedStack` read from standard input, as ``validate -`` reads it.

    Bytes are decoded as pi-forge's ``readFile(path, "utf8")`` does (invalid UTF-8 becomes U+FFFD);
    the name (``--stdin-filename``, default ``stdin.json``) gives the fallback id and JSON vs YAML.
    """
    from forgec.codecs.stack import load_stack_data

    slots = None
    if registry is not None:
        from forgec.compile.slots import supported_slot_names

        slots = supported_slot_names(registry)
    stdin_hint()
    try:
        raw = sys.stdin.buffer.read()
    except OSError as exc:
        fail(f"cannot read standard input: {exc.strerror or exc}")
    display = stdin_filename or "-"
    text = raw.decode("utf-8", errors="replace")
    return load_stack_data(text, stdin_stack_name(stdin_filename), scope="project", path=display,
                           supported_slots=slots)


def config_start(stack: Path, stdin_filename: str | None) -> Path:
    """Where to look for ``pyproject.toml`` for a STACK argument (``-``: the stdin name's folder)."""
    if str(stack) != "-":
        return stack
    path = Path(stdin_filename) if stdin_filename else Path.cwd()
    while not may_exist(path) and path != path.parent:
        path = path.parent
    return path if str(path) else Path.cwd()


def may_exist(path: Path) -> bool:
    """``path.exists()``, but True when the answer is "permission denied" (a file in a folder we may
    not search): it is there, and the command that opens it reports the problem with its name."""
    try:
        return path.exists()
    except OSError:
        return True


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


def echo_load_errors(loaded: Any, display: str) -> tuple[bool, bool]:
    """Print the loader's error diagnostics of a stack as concise lines on standard error.

    ``path:line:col: FG001 [error] message``, exactly as ``forgec validate --format concise``
    prints them.  Returns ``(has_errors, parsed)``: whether the loader reported an error (pi-forge
    would not use the stack) and whether the file parsed at all (when not, everything compiled
    from it is pi-forge's fallback stack, not the user's).
    """
    from forgec.lint import Finding
    from forgec.output.concise import format_finding
    from forgec.source import resolve_spans

    errors = [d for d in getattr(loaded, "diagnostics", ()) if d.level == "error"]
    document = getattr(loaded, "document", None)
    parsed = document is not None and bool(getattr(document, "parsed", False))
    resolve_spans(errors, document)
    for diagnostic in errors:
        click.echo(format_finding(display, Finding(diagnostic, diagnostic.level)), err=True)
    return bool(errors), parsed


def echo_context_errors(exc: Any) -> NoReturn:
    """Report a refused context file (:class:`forgec.codecs.context.ContextError`) and exit 2.

    Every problem is one concise line on standard error, ``ctx.json:3:14: FG011 [error] message``
    (the shape :func:`echo_load_errors` prints for a stack), so all of them can be fixed in one
    edit; a last ``forgec <command>: error:`` line names the file.
    """
    from forgec.lint import Finding
    from forgec.output.concise import format_finding

    display = exc.path or "<context>"
    problems = list(getattr(exc, "problems", None) or ())
    if not problems:  # pragma: no cover - every ContextError carries at least its own problem
        fail(str(exc))
    for diagnostic in problems:
        click.echo(format_finding(display, Finding(diagnostic, diagnostic.level)), err=True)
    count = f"{len(problems)} problem" + ("" if len(problems) == 1 else "s")
    fail(f"the context file {display} cannot be used ({count})")


@dataclass(frozen=True, slots=True)
class CompiledStack:
    """What :func:`compile_stack_argument` hands back to its command."""

    inputs: Any  #: :class:`forgec.report.ReportInputs`: the loaded stack (``.loaded``) and context
    report: dict[str, Any]  #: the compile report
    plugins: Any  #: :class:`forgec.cli._plugins.PluginSetup` of this run (``.errors`` for the exit code)
    display: str  #: the stack's name in messages: its path, or the ``--stdin-filename`` (``-``)
    from_stdin: bool  #: STACK was ``-``: there is no stack file to protect from ``--out``


def stack_and_context(context_help: str) -> Callable[[F], F]:
    """The ``STACK`` argument (a file, or ``-`` for standard input) and ``--context FILE`` option.

    Declared once so that ``forgec preview`` and ``forgec compile`` accept the same inputs (what
    :func:`compile_stack_argument` reads); only the ``--context`` help text is the command's own.
    """

    def decorate(fn: F) -> F:
        fn = click.option(
            "--context",
            "context_path",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help=context_help,
        )(fn)
        return click.argument(  # type: ignore[return-value]
            "stack", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
        )(fn)

    return decorate


def compile_stack_argument(
    stack: Path,
    context_path: Path | None,
    *,
    stdin_filename: str | None,
    trust_plugins: bool,
    command: str,
    payloads: bool = False,
    diagnostics_out: list[Any] | None = None,
) -> CompiledStack:
    """Load STACK (a path or ``-``) and ``--context``, set up the plugins and build the compile report.

    ``forgec preview`` and ``forgec compile`` read their input the same way, and a difference
    would be a bug (the same stack, plugins or stdin name giving another report): this one step is
    the contract both follow.  A stack or context the readers refuse ends the command (exit 2,
    after the plugin diagnostics, a refused context's findings one per line) and never shows a
    traceback.  ``command`` (``forgec preview``) prefixes the plugin diagnostics; ``payloads``
    and ``diagnostics_out`` are passed to :func:`forgec.report.build_report`.
    """
    from forgec.cli._plugins import echo_plugin_diagnostics, plugin_setup_for, report_needs_plugin
    from forgec.codecs.context import ContextError
    from forgec.report import build_report, load_for_report

    from_stdin = str(stack) == "-"
    if stdin_filename is not None and not from_stdin:
        raise click.UsageError("--stdin-filename needs STACK '-' (the stack is read from standard input)")
    display = (stdin_filename or "-") if from_stdin else str(stack)
    plugins = plugin_setup_for(config_start(stack, stdin_filename), trust_plugins)
    try:
        source: Any = load_stdin_stack(stdin_filename, plugins.registry) if from_stdin else stack
        inputs = load_for_report(source, context_path, registry=plugins.registry)
        report = build_report(inputs, payloads=payloads, registry=plugins.registry, diagnostics_out=diagnostics_out)
    except Exception as exc:  # a context or stack the readers refuse: report it, never a traceback
        echo_plugin_diagnostics(plugins, command)
        if isinstance(exc, ContextError):
            echo_context_errors(exc)
        fail(str(exc))
    plugins.note_untrusted(report_needs_plugin(report))
    echo_plugin_diagnostics(plugins, command)
    return CompiledStack(inputs, report, plugins, display, from_stdin)
