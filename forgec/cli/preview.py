"""``forgec preview STACK [--context F] [--format text|markdown|json]``.

Compiles one stack against a context (or the built-in sample context) and shows the system prompt,
every message with its role and source, and all diagnostics.  ``json`` prints the compile report,
the stable machine interface (the same document as a conformance case's ``expected.json``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._plugins import (
    echo_plugin_diagnostics,
    plugin_setup_for,
    report_needs_plugin,
    trust_plugins_option,
)


@click.command("preview")
@click.argument("stack", type=click.Path(exists=True, dir_okay=False, path_type=Path))
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
@click.option("--no-color", is_flag=True, help="Plain text even on a terminal.")
@trust_plugins_option
def preview(stack: Path, context_path: Path | None, fmt: str, no_color: bool, trust_plugins: bool = False) -> None:
    """Compile STACK and show its system prompt, messages (with sources) and diagnostics.

    Exit status: 0 when no diagnostic is an error, 1 otherwise (a trusted plugin that fails to
    load counts, and is printed on stderr), 2 for unreadable input.  Custom macros and slots come
    from trusted plugins: --trust-plugins, or [tool.forgec] plugins = ["name"].

    \b
    Examples:
      forgec preview .pi/forge/prompt-stacks/coding.json
      forgec preview coding.json --context ctx.yaml --format markdown
      forgec preview coding.json --context ctx.json --format json > report.json
    """
    from forgec.jscompat import dumps_report
    from forgec.preview import preview_diagnostics, render_markdown, render_rich, render_text
    from forgec.report import compile_report

    plugins = plugin_setup_for(stack, trust_plugins)
    try:
        report = compile_report(stack, context_path, payloads=(fmt == "json"), registry=plugins.registry)
    except Exception as exc:  # a context or stack the readers refuse: report it, never a traceback
        echo_plugin_diagnostics(plugins, "forgec preview")
        click.echo(f"forgec preview: {exc}", err=True)
        sys.exit(2)

    plugins.note_untrusted(report_needs_plugin(report))
    echo_plugin_diagnostics(plugins, "forgec preview")
    if fmt == "json":
        click.echo(dumps_report(report), nl=False)
    elif fmt == "markdown":
        click.echo(render_markdown(report), nl=False)
    elif sys.stdout.isatty() and not no_color:
        from rich.console import Console

        render_rich(report, Console())
    else:
        click.echo(render_text(report))
    has_error = bool(plugins.errors) or any(d.get("level") == "error" for d in preview_diagnostics(report))
    sys.exit(1 if has_error else 0)
