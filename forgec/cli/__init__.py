"""The ``forgec`` command line.

Each command lives in its own module under :mod:`forgec.cli` and is imported only when it runs, so
``forgec --help`` and ``forgec validate`` stay fast: heavy libraries are loaded by the command that
needs them.  This module only knows the command names and the entry point; the click group is
:mod:`forgec.cli._group` (``from forgec.cli import cli`` loads it), which a plain
``forgec validate PATH...`` never imports (:mod:`forgec.cli._fast`, docs/architecture.md).
"""

from __future__ import annotations

import contextlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.cli._group import LazyGroup, cli

__all__ = ["COMMANDS", "LazyGroup", "cli", "main"]

#: command name -> (module, attribute, one-line help shown by ``forgec --help``)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("forgec.cli.validate", "validate", "Lint stacks, agent profiles, forge config, model catalogs."),
    "schema": ("forgec.cli.schema", "schema", "Print a bundled JSON Schema (for editors and CI)."),
    "rule": ("forgec.cli.rule", "rule", "Explain a diagnostic code, with a bad and a good example."),
    "import-silly": ("forgec.cli.import_silly", "import_silly", "Import a SillyTavern preset as a prompt stack."),
    "preview": ("forgec.cli.preview", "preview", "Compile a stack and show its prompt, messages and diagnostics."),
    "compile": ("forgec.cli.compile", "compile_command", "Print the provider request body Pi would send (offline)."),
    "fingerprint": ("forgec.cli.fingerprint", "fingerprint", "Print sha256:v1 fingerprints of stacks, profiles and JSON."),
    "snapshot": ("forgec.cli.snapshot", "snapshot", "Check or update golden files of compiled prompts."),
    "profile": ("forgec.cli.profile", "profile", "Agent profiles: list, validate, show, resolve against a model catalog."),
    "plan": ("forgec.cli.plan", "plan_command", "Plan a delegation to an agent profile: what would be sent, where (offline)."),
    "run": ("forgec.cli.run", "run_command", "Approve and send a plan once through the provider's SDK; print the result."),
    "migrate-stacks": ("forgec.cli.migrate_stacks", "migrate_stacks", "Copy legacy .pi/prompt-stacks into .pi/forge/prompt-stacks."),
    "init": ("forgec.cli.init", "init", "Create a project: a stack, a context, a golden test, a pre-commit hook."),
    "completion": ("forgec.cli.completion", "completion", "Print the shell completion script (bash, zsh, fish)."),
    "ui": ("forgec.cli.ui", "ui", "Edit stacks and profiles in a local web editor (the [ui] extra)."),
    "cache-check": ("forgec.cli.cache_check", "cache_check_command", "Will the provider's prompt cache hit next turn? (two turns compared)"),
    "diff": ("forgec.cli.diff", "diff_command", "A compiled prompt's changes message by message, or its four provider bodies."),
    "tokens": ("forgec.cli.tokens", "tokens_command", "Token counts per message and request; the max-prompt-tokens budget."),
    "lsp": ("forgec.cli.lsp", "lsp", "Run the language server (stdio) for editors: diagnostics, completion, preview."),
}


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    click's standalone mode turns Ctrl-C into ``Aborted!`` and exit code 1, which a script cannot
    tell from "findings".  forgec runs click without it and maps the outcomes itself: usage errors
    exactly as click prints them (exit 2), ``Exit`` codes unchanged, and an interrupt -- wherever
    it happens, even while a command imports its libraries -- to ``forgec: interrupted`` and exit
    code 130 (128 + SIGINT, the shell convention).  The interrupt guard covers the whole function,
    including the handlers themselves and the import of click.

    A plain ``forgec validate [PATH]...`` runs without click (:mod:`forgec.cli._fast`: ~30 ms of a
    cold start); every other command line, or one the fast path is unsure of, goes to click.
    """
    try:
        _defer_inspect()
        _printable_streams()
        args = sys.argv[1:] if argv is None else list(argv)
        if args[:1] == ["validate"]:
            from forgec.cli._fast import run_plain_validate

            run_plain_validate(args[1:])  # exits when it recognises the command line; else click runs it
        import click

        from forgec.cli._group import cli

        try:
            code = cli.main(args=argv, prog_name="forgec", standalone_mode=False)
        except click.exceptions.Abort as exc:
            if isinstance(exc.__context__, EOFError):  # end of input at a prompt: click's behaviour
                click.echo("Aborted!", err=True)
                sys.exit(1)
            _interrupted()
        except click.exceptions.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _interrupted()
    sys.exit(code if isinstance(code, int) else 0)


class _InspectOnDemand(ModuleType):
    """What :mod:`dataclasses` binds as ``inspect`` in the command-line process (:func:`_defer_inspect`):
    the first attribute read imports the real :mod:`inspect`, rebinds ``dataclasses.inspect`` to it and
    answers from it, so every use gets the real module's objects."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("inspect") is self:  # read while dataclasses is still importing: step aside
            del sys.modules["inspect"]
        import inspect

        dataclasses = sys.modules.get("dataclasses")
        if dataclasses is not None and getattr(dataclasses, "inspect", None) is self:
            dataclasses.inspect = inspect  # type: ignore[attr-defined]
        return getattr(inspect, name)


def _defer_inspect() -> None:
    """Import :mod:`dataclasses` with a stand-in for :mod:`inspect`, which it imports (with ``ast``,
    ``dis``, ``tokenize``: ~36 M instructions, ~9 ms of a cold ``forgec validate``) only to write the
    docstring of a dataclass that has none, which forgec's records all have.

    Only the console script calls this, and only before anything has imported either module.  The
    stand-in sits in ``sys.modules`` for the length of that one import and is then removed, so any
    later ``import inspect`` -- by forgec, click or a plugin -- loads and gets the real module; the
    stand-in stays bound only as ``dataclasses.inspect`` and turns into the real module on its first
    use (:class:`_InspectOnDemand`).  A library import of forgec never runs this
    (docs/performance-log.md, "Stop 31: cold validate")."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    stand_in = _InspectOnDemand("inspect")
    sys.modules["inspect"] = stand_in
    try:
        import dataclasses  # noqa: F401  (the import is the point: it binds the stand-in)
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]


def _printable_streams() -> None:
    """Never fail on printing: characters the output encoding cannot hold are written as escapes.

    A stack may hold lone surrogates (JavaScript strings can) and a file name that is not UTF-8
    arrives as one; with Python's default ``strict`` error handler, printing such text would end
    the command with ``UnicodeEncodeError`` halfway through its output.  ``\\ud800`` is printed
    instead, on every encoding (an ASCII-only terminal gets ``\\u2026`` for ``…``).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):  # a closed or detached stream: nothing to print to
                reconfigure(errors="backslashreplace")


def _interrupted() -> None:
    try:
        sys.stderr.write("forgec: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):  # stderr closed, or a second Ctrl-C
        pass
    sys.exit(130)


def __getattr__(name: str) -> Any:
    """``cli`` and ``LazyGroup`` (PEP 562): importing them imports click, which the console script
    does only for command lines the click-free path leaves to click."""
    if name in ("cli", "LazyGroup"):
        from forgec.cli import _group

        return getattr(_group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
