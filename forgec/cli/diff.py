"""``forgec diff``: a compiled prompt's changes message by message, or its four provider bodies.

One library call each (:mod:`forgec.analysis.diff`), then printing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import fail, no_traceback, trust_plugins_option

_EPILOG = """\b
Examples:
  forgec diff old.json new.json --context ctx.yaml
  forgec diff coding.json --git HEAD --context ctx.yaml --format markdown > comment.md
  forgec diff coding.json --context ctx.yaml --targets all

Two stacks: both are compiled under one context (default: the built-in sample context) and
the system prompt and messages are compared in order, each with its source (stack item or
chat-history position); a changed message shows a line diff. --git REF compares the file as
it was at REF (git show REF:./FILE) with the file as it is now. --format markdown is made to be
posted as a pull-request comment (a table and collapsed diffs); json for tools.

--targets all compares what the four provider APIs receive for one compile: messages sent,
dropped or merged messages, roles, what custom messages become, the thinking level after the
clamp, rewritten tool-call ids, images, cache markers and the output-token cap.

Exit codes: 0 printed (with --exit-code: 0 only when nothing differs, else 1); 2 usage error,
unreadable input or a git revision that does not hold the file."""


@click.command("diff", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("stacks", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--context", "context_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Context file (JSON or YAML); default: the built-in sample context.")
@click.option("--git", "revision", metavar="REF", help="Compare STACK at git revision REF with the file now.")
@click.option("--targets", type=click.Choice(["all"]), default=None, help="all: compare the four provider bodies of STACK.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.option("--all-messages", is_flag=True, help="Also list unchanged messages.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when the prompts (or the provider bodies) differ.")
@trust_plugins_option
@no_traceback
def diff_command(
    stacks: tuple[Path, ...], context_path: Path | None, revision: str | None, targets: str | None,
    fmt: str, all_messages: bool, exit_code: bool, trust_plugins: bool = False,
) -> None:  # fmt: skip
    """Show what changed in a compiled prompt (two stacks, or STACK against --git REF), or what
    differs between the four provider bodies of one stack (--targets all)."""
    from forgec.analysis import diff as analysis
    from forgec.analysis.render import render_prompt_diff, render_targets_diff
    from forgec.cli._stack import echo_context_errors, stack_environment
    from forgec.codecs.context import ContextError
    from forgec.errors import InputError

    single = targets is not None or revision is not None
    if single and len(stacks) != 1:
        raise click.UsageError(f"{'--targets' if targets else '--git'} takes exactly one STACK")
    if not single and len(stacks) != 2:
        raise click.UsageError("give two stacks (STACK_A STACK_B), or one STACK with --git REF or --targets all")
    if targets is not None and revision is not None:
        raise click.UsageError("--git and --targets cannot be combined")
    env = stack_environment(stacks[0], None, trust_plugins)
    try:
        if targets is not None:
            result = analysis.diff_stack_targets(stacks[0], context_path, env=env)
            click.echo(render_targets_diff(result, fmt), nl=False)
            sys.exit(1 if exit_code and result.differing_rows() else 0)
        if revision is not None:
            diff = analysis.diff_revision(str(stacks[0]), revision, context_path, env=env)
        else:
            diff = analysis.diff_stacks(stacks[0], stacks[1], context_path, env=env)
    except ContextError as exc:
        echo_context_errors(exc)
    except InputError as exc:
        fail(str(exc))
    click.echo(render_prompt_diff(diff, fmt, show_equal=all_messages), nl=False)
    sys.exit(1 if exit_code and not diff.identical else 0)
