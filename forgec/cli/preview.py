"""``forgec preview STACK [--context F] [--format text|markdown|json]``.

Compiles one stack against a context (or the built-in sample context) and shows the system prompt,
every message with its role and source, and all diagnostics.  ``json`` prints the compile report,
the stable machine interface (the same document as a conformance case's ``expected.json``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from forgec.cli._common import no_traceback, trust_plugins_option, use_color
from forgec.cli._stack import compile_stack_argument, echo_load_errors, stack_and_context, stack_environment


@click.command("preview")
@stack_and_context("Context file (JSON or YAML) with the host snapshot; default: the built-in sample context.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text: pi-forge's preview (coloured on a terminal); markdown; json: the compile report.",
)
@click.option("--no-color", is_flag=True, help="Plain text even on a terminal (so does NO_COLOR=1).")
@click.option("--max-messages", type=click.IntRange(min=1), metavar="N",
              help="Show the first N messages in full (text: instead of pi-forge's cut after 8000 "
                   "characters) and say how many were left out.")
@click.option("--all", "show_all", is_flag=True,
              help="Show every message in full (text: no 8000-character cut).")
@click.option("--stdin-filename", metavar="NAME",
              help="With STACK '-': the name of the stack read from standard input (default stdin.json; "
                   "YAML when it ends in .yaml/.yml).")
@trust_plugins_option
@no_traceback
def preview(
    stack: Path,
    context_path: Path | None,
    fmt: str,
    no_color: bool,
    max_messages: int | None = None,
    show_all: bool = False,
    stdin_filename: str | None = None,
    trust_plugins: bool = False,
) -> None:
    """Compile STACK and show its system prompt, messages (with sources) and diagnostics.

    Exit codes: 0 when no diagnostic is an error; 1 otherwise: an error diagnostic, a context
    message every provider would refuse (FG804-FG806, printed on stderr as
    ctx.yaml:line:col: FGnnn [error] ...), a trusted
    plugin that is installed but fails to load (FG950, printed on stderr), or a stack file that
    cannot be parsed; 2 for unreadable input or a broken pyproject.toml.  A plugin named in
    [tool.forgec] plugins that is not installed is a warning (FG952): the preview is shown and
    does not fail because of it.  Custom macros and slots come from trusted plugins:
    --trust-plugins, or [tool.forgec] plugins = ["name"].

    A stack file that cannot be parsed (invalid, truncated, empty or too deeply nested JSON or
    YAML) is reported first, as file:line:col: FGnnn [error] message on stderr; the text and
    markdown formats then show no preview (pi-forge would compile its fallback stack instead),
    json still prints the compile report.

    STACK '-' reads the stack from standard input (--stdin-filename NAME names it).

    The text format is pi-forge's preview, whose message layout stops after 8000 characters with
    [preview truncated]; forgec then says on stderr in which message of how many it stopped.
    --max-messages N shows the first N messages in full, --all every message (text, markdown and
    the terminal view alike).

    \b
    Examples:
      forgec preview .pi/forge/prompt-stacks/coding.json
      cat coding.yaml | forgec preview - --stdin-filename coding.yaml
      forgec preview coding.json --context ctx.yaml --format markdown
      forgec preview coding.json --context ctx.json --format json > report.json
      forgec preview coding.json --context long-chat.yaml --all
      forgec preview coding.json --context long-chat.yaml --max-messages 30
    """
    from forgec.js.values import dumps_report
    from forgec.output.preview import (
        Shown,
        layout_cut,
        preview_diagnostics,
        render_markdown,
        render_rich,
        render_text,
    )
    from forgec.output.textsafe import escape_controls

    if show_all and max_messages is not None:
        raise click.UsageError("--all and --max-messages N cannot be used together")
    shown = Shown(max_messages, pi_forge=not show_all)

    env = stack_environment(stack, stdin_filename, trust_plugins)
    run = compile_stack_argument(
        env, stack, context_path, stdin_filename=stdin_filename, command="forgec preview", payloads=(fmt == "json")
    )
    loaded, report, display = run.result.loaded, run.result.to_report(), run.display
    document = loaded.document
    if document is not None and not document.parsed:
        # the parse error first and alone: a full preview of the fallback stack would look as if
        # the user's stack had compiled
        echo_load_errors(loaded, display)
        click.echo(
            f"forgec preview: error: {escape_controls(display)} could not be parsed; pi-forge would use its "
            "fallback stack" + ("" if fmt == "json" else ", so no preview is shown"),
            err=True,
        )
        if fmt == "json":
            click.echo(dumps_report(report), nl=False)
        sys.exit(1)
    # the loader's errors with their file:line:col on stderr (as compile prints them): the preview's
    # own Diagnostics section is pi-forge's, which has no positions
    echo_load_errors(loaded, display)
    if fmt == "json":
        click.echo(dumps_report(report), nl=False)
    elif fmt == "markdown":
        click.echo(render_markdown(report, shown), nl=False)
    elif use_color(False if no_color else None):
        from rich.console import Console

        render_rich(_escaped(report), Console(), shown)
    else:
        # pi-forge's text, with control characters from the stack made visible (not executed)
        click.echo(escape_controls(render_text(report, shown), keep_newlines=True))
        cut = layout_cut(report) if shown.pi_forge else None
        if cut is not None:
            click.echo(
                f"forgec preview: the layout was cut after 8000 characters, in message {cut[0]} of {cut[1]} "
                f"({cut[1] - cut[0]} more not shown); --max-messages N or --all shows more",
                err=True,
            )
    has_error = bool(run.env.plugins.errors) or run.context_errors > 0 or any(d.get("level") == "error" for d in preview_diagnostics(report))
    sys.exit(1 if has_error else 0)


def _escaped(value: Any) -> Any:
    """The report with every string's control characters escaped, for the rich terminal view
    (rich strips a few controls but passes ESC through)."""
    from forgec.output.textsafe import escape_controls

    if isinstance(value, str):
        return escape_controls(value, keep_newlines=True)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value
