"""``forgec snapshot check|update``: golden files of compiled prompts, for teams without pytest."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from forgec.cli._common import (
    echo_diagnostics,
    echo_notes,
    error,
    fail,
    no_traceback,
    prog,
    reject_empty_paths,
    trust_plugins_option,
)
from forgec.workspace import shown_path

if TYPE_CHECKING:
    from forgec.environment import Environment

F = TypeVar("F", bound=Callable[..., Any])

EPILOG = """\b
Examples:
  forgec snapshot update --context ctx.yaml   write golden files for the project's stacks
  forgec snapshot check --context ctx.yaml    fail (exit 1) when a compiled prompt changed
  forgec snapshot check .pi/forge/prompt-stacks/reviewer.json

PATHS are stack files or folders (their *.json/*.yaml/*.yml files), as for
`forgec validate`; without PATHS, the current project's .pi/forge/prompt-stacks.
Golden files live in a __golden__ folder next to each stack (<stack>.prompt.md): the
system prompt and every message as text with its role and source, then the canonical
JSON. A golden file records the context it was written with, so a later check or
update without --context uses the same one.
The pytest plugin (fixtures forgec_compile and prompt_snapshot) writes the same format
(docs/golden-tests.md). Custom macros and slots come from trusted plugins:
--trust-plugins, or [tool.forgec] plugins = ["name"] in pyproject.toml.

Output: one line per stack (ok/same, written, missing, changed, error) and, under a
changed stack, a diff that names the message or block that changed.

Exit codes: 0 all current (update: all written), 1 a golden file is missing or differs,
or a stack has loader errors, 2 usage error, unreadable stack, context or golden file.
"""




def _stacks(paths: tuple[str, ...]) -> list[Path]:
    """The stack files named by PATH arguments, found the way ``forgec validate`` finds them."""
    from forgec.workspace import STACK_SUFFIXES, expand_paths, list_resource_files

    found = expand_paths(list(paths))
    if found.errors:
        for message in found.errors:
            error(message)
        sys.exit(2)
    stacks: list[Path] = []
    for target in found.targets:
        if target.kind != "stack":
            continue  # profiles, the forge config and model catalogs have no golden files
        if target.stdin:
            fail("golden files belong to stack files: '-' (standard input) cannot be snapshotted")
        if target.path is not None:
            stacks.append(target.path)
        elif target.group is not None:
            stacks.extend(list_resource_files(target.group, STACK_SUFFIXES))
    if not stacks:
        fail("no stack files found (give a path, or run inside a Pi project)")
    return stacks


@click.group(epilog=EPILOG)
def snapshot() -> None:
    """Compare compiled prompts with golden files, or write them."""


def _common(func: F) -> F:
    func = click.option(
        "--context",
        "context",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Context file (JSON/YAML) to compile with; default: the one each golden file records, else the built-in sample context.",
    )(func)
    func = trust_plugins_option(func)
    # plain strings: click.Path(path_type=Path) would turn '' (an unset variable) into '.'
    func = click.argument("paths", nargs=-1, type=click.Path())(func)
    return func


def _environment(paths: tuple[str, ...], trust_plugins: bool) -> Environment:
    """The run's environment; configuration is looked up from the first PATH (else the cwd)."""
    from forgec.environment import Environment

    env = Environment.discover(Path(paths[0]) if paths else Path.cwd(), trust_plugins=trust_plugins)
    echo_notes(env.plugin_diagnostics, prog())
    if env.plugins.errors:
        # a golden file compiled without a trusted plugin's macros and slots would be wrong
        error("a trusted plugin failed to load; no golden file was compared or written")
        sys.exit(1)
    return env


def _run(action: str, paths: tuple[str, ...], context: Path | None, trust_plugins: bool) -> None:
    """Check or update every stack; one line per stack, diffs under changed ones."""
    from forgec.batch import Batch
    from forgec.codecs.context import ContextError
    from forgec.diagnostics.findings import Finding
    from forgec.errors import InputError
    from forgec.output.concise import format_finding
    from forgec.output.textsafe import escape_controls
    from forgec.snapshots import check, update

    reject_empty_paths(paths)
    stacks = _stacks(paths)
    env = _environment(paths, trust_plugins)
    run = update if action == "update" else check
    batch = Batch(env)  # one run: each context file is read once
    failed = problems = 0
    bad_contexts: set[str | None] = set()
    for stack in stacks:
        try:
            result = run(stack, context, env=env, batch=batch)
        except ContextError as exc:  # every problem of the context, once per context file
            problems += 1
            if exc.path not in bad_contexts:
                bad_contexts.add(exc.path)
                echo_diagnostics(exc.path or "<context>", exc.problems)
            error(f"{shown_path(stack)}: the context file {exc.path or '<context>'} cannot be used")
            continue
        except InputError as exc:  # a golden file or a stack file that cannot be read
            error(str(exc))
            problems += 1
            continue
        shown, golden = escape_controls(shown_path(stack)), escape_controls(shown_path(result.golden))
        if result.status == "same":
            click.echo(f"{'ok' if action == 'check' else 'same':8} {shown}")
        elif result.status == "written":
            click.echo(f"written  {golden}")
        elif result.status == "unusable":
            failed += 1
            click.echo(f"error    {shown}: the stack has loader errors; run `forgec validate {shown}`")
            for diagnostic in result.errors:  # path:line:col: FGnnn [error] message, as validate prints it
                line = format_finding(shown, Finding(diagnostic, diagnostic.level))
                click.echo(f"           {escape_controls(line)}")
        elif result.status == "missing":
            failed += 1
            click.echo(f"missing  {shown}: no golden file {golden} (run `forgec snapshot update`)")
        else:
            failed += 1
            click.echo(f"changed  {shown} (golden file {golden})")
            for line in result.diff:
                click.echo("  " + escape_controls(line))
    sys.exit(2 if problems else 1 if failed else 0)


@snapshot.command("check", epilog=EPILOG)
@_common
@no_traceback
def check_cmd(paths: tuple[str, ...], context: Path | None, trust_plugins: bool = False) -> None:
    """Compare compiled prompts with their golden files; exit 1 on any difference.

    Without --context, each golden file's recorded context is used (the one `update` wrote it with).
    """
    _run("check", paths, context, trust_plugins)


@snapshot.command("update", epilog=EPILOG)
@_common
@no_traceback
def update_cmd(paths: tuple[str, ...], context: Path | None, trust_plugins: bool = False) -> None:
    """Write the golden files that are missing or out of date.

    Without --context, each golden file keeps the context it was written with.
    """
    _run("update", paths, context, trust_plugins)
