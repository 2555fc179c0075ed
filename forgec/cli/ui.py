"""``forgec ui [PROJECT]``: the local web editor (needs the ``[ui]`` extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import no_traceback


@click.command("ui")
@click.argument("project", required=False, type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port on 127.0.0.1 (default: the project's webEditor.port, else a free port; 0: a free port).")
@click.option("--read-only", is_flag=True, help="Serve without writing anything (no save, import, fork or delete).")
@click.option("--global", "allow_global", is_flag=True,
              help="Also allow writes to the user-global stacks and profiles ($PI_FORGE_GLOBAL_DIR or ~/.pi/forge).")
@click.option("--open/--no-open", "open_browser", default=False, show_default=True,
              help="Open the URL in the default browser.")
@no_traceback
def ui(project: Path, port: int | None, read_only: bool, allow_global: bool, open_browser: bool) -> None:
    """Edit PROJECT's prompt stacks and agent profiles in a browser (default: the current folder).

    Starts a local server on 127.0.0.1 only and prints a URL with a random session token; requests
    without the token are refused (401), and so are requests whose Host or Origin is not this
    machine's loopback address.  The editor lists the project's and the user-global stacks (scope
    badges, shadowing), edits them structurally or as raw JSON/YAML (YAML comments are kept), shows
    validate's findings, the compiled prompt with each message's source, the redacted provider body
    for a chosen API, the fingerprint and a diff against the saved file as you type, imports
    SillyTavern presets found in the project, and edits agent profiles and their delegation
    settings.  Saves are atomic and never replace a file that changed on disk since it was loaded
    (the editor shows the conflict instead).  Writes go only to .pi/forge (and, with --global, the
    user-global forge folder).  Stop the server with Ctrl-C.

    \b
    Examples:
      forgec ui                      this project, on webEditor.port or a free port
      forgec ui examples --open      another folder, opened in the browser
      forgec ui --read-only --port 8765
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        click.echo('forgec ui: error: the web editor needs the [ui] extra: pip install "forgec[ui]"', err=True)
        sys.exit(2)
    if not project.is_dir():
        click.echo(f"forgec ui: error: {project} is not a folder", err=True)
        sys.exit(2)
    from forgec.web.server import prepare

    editor = prepare(project, port=port, read_only=read_only, allow_global=allow_global)
    for warning in editor.warnings:
        click.echo(warning, err=True)
    click.echo(f"forgec ui: editing {project.resolve()}{' (read-only)' if read_only else ''}")
    click.echo(f"forgec ui: open {editor.url}")
    click.echo("forgec ui: press Ctrl-C to stop")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(editor.url)
    editor.serve()
