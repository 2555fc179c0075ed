"""``forgec snapshot check|update``: golden files of compiled prompts, for teams without pytest."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._plugins import PluginSetup, echo_plugin_diagnostics, plugin_setup_for, trust_plugins_option

EPILOG = """\b
Examples:
  forgec snapshot update                      write golden files for the project's stacks
  forgec snapshot check --context ctx.yaml    fail (exit 1) when a compiled prompt changed
  forgec snapshot check .pi/forge/prompt-stacks/reviewer.json

Golden files live in a __golden__ folder next to each stack (<stack>.prompt.md): the
system prompt and every message as text with its role and source, then the canonical
JSON. A golden file records the context it was written with, so a later check or
update without --context uses the same one. Exit codes: 0 all current, 1 a golden file
is missing or differs (or a stack has loader errors), 2 usage or file errors. The pytest plugin (fixtures forgec_compile and prompt_snapshot) writes the same format.
Custom macros and slots come from trusted plugins: --trust-plugins, or
[tool.forgec] plugins = ["name"] in pyproject.toml.
"""


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the current folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _stacks(paths: tuple[Path, ...]) -> list[Path]:
    """The stack files named by PATH arguments, found the way ``forgec validate`` finds them."""
    from forgec.codecs.stack import list_stack_files
    from forgec.discovery import expand_paths

    found = expand_paths([str(p) for p in paths])
    if found.errors:
        for message in found.errors:
            click.echo(f"forgec: {message}", err=True)
        sys.exit(2)
    stacks: list[Path] = []
    for target in found.targets:
        if target.stdin:
            click.echo("forgec: snapshots need stack files, not standard input", err=True)
            sys.exit(2)
        if target.path is not None:
            stacks.append(target.path)
        elif target.group is not None:
            stacks.extend(list_stack_files(target.group))
    if not stacks:
        click.echo("forgec: no stack files found (give a path, or run inside a Pi project)", err=True)
        sys.exit(2)
    return stacks


@click.group(epilog=EPILOG)
def snapshot() -> None:
    """Compare compiled prompts with golden files, or write them."""


def _common(func):  # type: ignore[no-untyped-def]
    func = click.option(
        "--context",
        "context",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Context file (JSON/YAML) to compile with; default: the one each golden file records, else the built-in sample context.",
    )(func)
    func = trust_plugins_option(func)
    func = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))(func)
    return func


def _plugins(paths: tuple[Path, ...], trust_plugins: bool) -> PluginSetup:
    """The registry for this run; configuration is looked up from the first PATH (else the cwd)."""
    setup = plugin_setup_for(paths[0] if paths else Path.cwd(), trust_plugins)
    echo_plugin_diagnostics(setup, "forgec snapshot")
    if setup.errors:
        # a golden file compiled without a trusted plugin's macros and slots would be wrong
        click.echo("forgec snapshot: a trusted plugin failed to load; no golden file was compared or written", err=True)
        sys.exit(1)
    return setup


def _run(action: str, paths: tuple[Path, ...], context: Path | None, trust_plugins: bool) -> None:
    """Check or update every stack; one line per stack, diffs under changed ones."""
    from forgec.codecs.context import ContextError
    from forgec.lint import Finding
    from forgec.output.concise import format_finding
    from forgec.snapshots import SnapshotError, check, update
    from forgec.textsafe import escape_controls

    stacks = _stacks(paths)
    registry = _plugins(paths, trust_plugins).registry
    run = update if action == "update" else check
    failed = problems = 0
    bad_contexts: set[str | None] = set()
    for stack in stacks:
        try:
            result = run(stack, context, registry=registry)
        except SnapshotError as exc:
            click.echo(f"forgec snapshot: error: {escape_controls(str(exc))}", err=True)
            problems += 1
            continue
        except ContextError as exc:  # every problem of the context, once per context file
            problems += 1
            if exc.path not in bad_contexts:
                bad_contexts.add(exc.path)
                for diagnostic in exc.problems:
                    click.echo(format_finding(exc.path or "<context>", Finding(diagnostic, diagnostic.level)), err=True)
            click.echo(f"forgec snapshot: error: {escape_controls(_shown(stack))}: the context file "
                       f"{escape_controls(exc.path or '<context>')} cannot be used", err=True)
            continue
        shown, golden = _shown(stack), _shown(result.golden)
        if result.status == "same":
            click.echo(f"{'ok' if action == 'check' else 'same':8} {shown}")
        elif result.status == "written":
            click.echo(f"written  {golden}")
        elif result.status == "unusable":
            failed += 1
            click.echo(f"error    {shown}: the stack has loader errors; run `forgec validate {shown}`")
            for message in result.errors:
                click.echo(f"           {escape_controls(message)}")
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
def check_cmd(paths: tuple[Path, ...], context: Path | None, trust_plugins: bool = False) -> None:
    """Exit 1 when a stack's compiled prompt differs from its golden file.

    Without --context, each golden file's recorded context is used (the one `update` wrote it with).
    """
    _run("check", paths, context, trust_plugins)


@snapshot.command("update", epilog=EPILOG)
@_common
def update_cmd(paths: tuple[Path, ...], context: Path | None, trust_plugins: bool = False) -> None:
    """Write golden files that are missing or out of date.

    Without --context, each golden file keeps the context it was written with.
    """
    _run("update", paths, context, trust_plugins)
