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

from forgec.cli._common import (
    config_start,
    echo_context_errors,
    echo_load_errors,
    fail,
    load_stdin_stack,
    no_traceback,
    use_color,
)
from forgec.cli._plugins import (
    echo_plugin_diagnostics,
    plugin_setup_for,
    report_needs_plugin,
    trust_plugins_option,
)


@click.command("preview")
@click.argument("stack", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path))
@click.option(
    "--context",
    "context_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Context file (JSON or YAML) with the host snapshot; default: the built-in sample context.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text: pi-forge's preview (coloured on a terminal); markdown; json: the compile report.",
)
@click.option("--no-color", is_flag=True, help="Plain text even on a terminal (so does NO_COLOR=1).")
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
    stdin_filename: str | None = None,
    trust_plugins: bool = False,
) -> None:
    """Compile STACK and show its system prompt, messages (with sources) and diagnostics.

    Exit codes: 0 when no diagnostic is an error; 1 otherwise: an error diagnostic, a trusted
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

    \b
    Examples:
      forgec preview .pi/forge/prompt-stacks/coding.json
      cat coding.yaml | forgec preview - --stdin-filename coding.yaml
      forgec preview coding.json --context ctx.yaml --format markdown
      forgec preview coding.json --context ctx.json --format json > report.json
    """
    from forgec.codecs.context import ContextError
    from forgec.jscompat import dumps_report
    from forgec.preview import preview_diagnostics, render_markdown, render_rich, render_text
    from forgec.report import compile_report, load_for_report
    from forgec.textsafe import escape_controls

    from_stdin = str(stack) == "-"
    if stdin_filename is not None and not from_stdin:
        raise click.UsageError("--stdin-filename needs STACK '-' (the stack is read from standard input)")
    display = (stdin_filename or "-") if from_stdin else str(stack)
    plugins = plugin_setup_for(config_start(stack, stdin_filename), trust_plugins)
    try:
        source: Any = load_stdin_stack(stdin_filename, plugins.registry) if from_stdin else stack
        inputs = load_for_report(source, context_path, registry=plugins.registry)
        report = compile_report(inputs, payloads=(fmt == "json"), registry=plugins.registry)
    except Exception as exc:  # a context or stack the readers refuse: report it, never a traceback
        echo_plugin_diagnostics(plugins, "forgec preview")
        if isinstance(exc, ContextError):
            echo_context_errors(exc)
        fail(str(exc))

    plugins.note_untrusted(report_needs_plugin(report))
    echo_plugin_diagnostics(plugins, "forgec preview")
    document = inputs.loaded.document
    if document is not None and not document.parsed:
        # the parse error first and alone: a full preview of the fallback stack would look as if
        # the user's stack had compiled
        echo_load_errors(inputs.loaded, display)
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
    echo_load_errors(inputs.loaded, display)
    if fmt == "json":
        click.echo(dumps_report(report), nl=False)
    elif fmt == "markdown":
        click.echo(render_markdown(report), nl=False)
    elif use_color(False if no_color else None):
        from rich.console import Console

        render_rich(_escaped(report), Console())
    else:
        # pi-forge's text, with control characters from the stack made visible (not executed)
        click.echo(escape_controls(render_text(report), keep_newlines=True))
    has_error = bool(plugins.errors) or any(d.get("level") == "error" for d in preview_diagnostics(report))
    sys.exit(1 if has_error else 0)


def _escaped(value: Any) -> Any:
    """The report with every string's control characters escaped, for the rich terminal view
    (rich strips a few controls but passes ESC through)."""
    from forgec.textsafe import escape_controls

    if isinstance(value, str):
        return escape_controls(value, keep_newlines=True)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value
