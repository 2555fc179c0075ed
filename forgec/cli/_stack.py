"""The ``STACK`` and ``--context`` inputs of ``forgec preview`` and ``forgec compile``.

Both commands read their input the same way, and a difference would be a bug (the same stack,
plugins or stdin name giving another report): :func:`compile_stack_argument` is the contract both
follow.  It builds the run's :class:`~forgec.environment.Environment`, reads standard input for
STACK ``-``, and calls the library's compile workflow (:mod:`forgec.report`); what is left here is
printing -- the plugin diagnostics, a refused context's findings one per line -- and exit codes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from forgec.cli._common import echo_diagnostics, echo_notes, fail
from forgec.cli._io import read_stdin

if TYPE_CHECKING:
    from forgec.codecs.context import ContextError
    from forgec.codecs.stack import LoadedStack
    from forgec.environment import Environment
    from forgec.report import CompileResult

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class CompiledStack:
    """What :func:`compile_stack_argument` hands back to its command."""

    result: CompileResult  #: the compile (``.to_report()`` is the compile report)
    env: Environment  #: the run's environment (``.plugins.errors`` for the exit code)
    display: str  #: the stack's name in messages: its path, or the ``--stdin-filename`` (``-``)
    from_stdin: bool  #: STACK was ``-``: there is no stack file to protect from ``--out``
    #: the ``--context`` file's messages a provider would refuse (FG804-FG806), already printed
    context_errors: int = 0


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
        return click.argument(
            "stack", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
        )(fn)

    return decorate


def echo_context_errors(exc: ContextError) -> NoReturn:
    """Report a refused context file and exit 2.

    Every problem is one concise line on standard error, ``ctx.json:3:14: FG011 [error] message``
    (the shape :func:`echo_load_errors` prints for a stack), so all of them can be fixed in one
    edit; a last ``forgec <command>: error:`` line names the file.
    """
    display = exc.path or "<context>"
    echo_diagnostics(display, exc.problems)
    count = f"{len(exc.problems)} problem" + ("" if len(exc.problems) == 1 else "s")
    fail(f"the context file {display} cannot be used ({count})")


def echo_load_errors(loaded: LoadedStack, display: str) -> tuple[bool, bool]:
    """Print the loader's error diagnostics of a stack as concise lines on standard error.

    Returns ``(has_errors, parsed)``: whether the loader reported an error (pi-forge would not use
    the stack) and whether the file parsed at all (when not, everything compiled from it is
    pi-forge's fallback stack, not the user's).
    """
    from forgec.source import resolve_spans

    errors = [d for d in loaded.diagnostics if d.level == "error"]
    document = loaded.document
    echo_diagnostics(display, resolve_spans(errors, document))
    return bool(errors), document is not None and document.parsed


def stack_environment(
    stack: Path, stdin_filename: str | None, trust_plugins: bool, *, models_file: Path | None = None
) -> Environment:
    """The run's environment: ``[tool.forgec]`` found from STACK (or the ``--stdin-filename``).

    Raises :class:`~forgec.errors.SettingsError` for a broken ``pyproject.toml`` (exit 2), and
    checks the option pair first: ``--stdin-filename`` belongs to STACK ``-``.
    """
    from forgec.environment import Environment
    from forgec.workspace import config_start

    if stdin_filename is not None and str(stack) != "-":
        raise click.UsageError("--stdin-filename needs STACK '-' (the stack is read from standard input)")
    return Environment.discover(config_start([stack], stdin_filename), trust_plugins=trust_plugins, models_file=models_file)


def compile_stack_argument(
    env: Environment,
    stack: Path,
    context_path: Path | None,
    *,
    stdin_filename: str | None,
    command: str,
    payloads: bool = False,
) -> CompiledStack:
    """Load STACK (a path or ``-``) and ``--context`` with the run's plugins, and compile.

    A stack or context the library refuses ends the command (exit 2, after the plugin diagnostics,
    a refused context's findings one per line) and never shows a traceback.  ``command``
    (``forgec preview``) prefixes the plugin diagnostics; ``payloads`` adds the provider bodies.
    """
    from forgec.codecs.context import ContextError
    from forgec.errors import InputError
    from forgec.plugins import needs_plugin
    from forgec.report import compile_inputs, load_inputs, load_stdin_stack

    from_stdin = str(stack) == "-"
    display = (stdin_filename or "-") if from_stdin else str(stack)
    try:
        source: Any = load_stdin_stack(read_stdin(), stdin_filename, env=env) if from_stdin else stack
        result = compile_inputs(load_inputs(source, context_path, env=env), env=env, payloads=payloads)
    except InputError as exc:  # a context or stack file the library refuses: report it, never a traceback
        echo_notes(env.plugin_diagnostics, command)
        if isinstance(exc, ContextError):
            echo_context_errors(exc)
        fail(str(exc))
    env.plugins.note_untrusted(needs_plugin([*result.loaded.diagnostics, *result.diagnostics]))
    echo_notes(env.plugin_diagnostics, command)
    hazards = []
    if context_path is not None:
        # what the context format accepts but a provider body fails on, at the context's line and column
        from forgec.lint.context import context_file_findings

        hazards = context_file_findings(context_path)
        echo_diagnostics(str(context_path), hazards)
    return CompiledStack(result, env, display, from_stdin, len(hazards))
