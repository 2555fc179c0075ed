"""``forgec import-silly``: SillyTavern preset -> ``.pi/forge/prompt-stacks/<id>.json`` + report.

The conversion is pi-forge 0.4.1's (:mod:`forgec.importers.sillytavern`); this module adds the
command's file handling: output under the project (or ``--out-dir``), ``--dry-run``, refusal to
replace files without ``--overwrite``, atomic replacement, JSON output and the fidelity report.

Exit codes: 0 imported (or dry run), 1 the preset could not be converted or an output file exists
(without ``--overwrite``), 2 usage error (bad ``--id``, bad CHARACTER_ID), unreadable/unparsable
preset file, or output that cannot be written (a missing permission, a name too long...).

Stack ids are at most :data:`MAX_ID_LENGTH` characters: the id names three files (``<id>.json``,
``<id>.md``, ``<id>.fidelity.json``), and file systems limit a name to 255 bytes.  A longer
``--id`` is refused; an id derived from a very long preset file name is cut to that length.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from forgec.cli._common import no_traceback
from forgec.importers.sillytavern.project import MAX_ID_LENGTH

if TYPE_CHECKING:
    from forgec.importers.sillytavern.project import ProjectImport

_EPILOG = f"""\b
Exit codes:
  0  imported (or --dry-run)
  1  the preset cannot be converted (pi-forge's error, e.g. no prompts, or a
     CHARACTER_ID that is not in the preset), or an output file exists and
     --overwrite was not given
  2  usage error: unreadable or unparsable PRESET, a CHARACTER_ID that is not a
     number, an --id that is not letters, digits, _ and - or is longer than
     {MAX_ID_LENGTH} characters, or output files that cannot be written

\b
Ids derived from the preset's file name are cut to {MAX_ID_LENGTH} characters."""


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str, int, int], None]]:
    """A rich progress line on stderr while importing (only when stderr is a terminal)."""
    if not enabled:
        yield lambda phase, done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

    console = Console(stderr=True)
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        console=console, transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("reading preset", total=None)
        bar.refresh()  # draw the first frame now, not at the next tick: reading a big file takes a while

        def update(phase: str, done: int, total: int) -> None:
            bar.update(task, description=phase, completed=done, total=total or None)

        yield update


@click.command("import-silly", epilog=_EPILOG)
@click.argument("preset", type=click.Path(dir_okay=True, path_type=Path))
@click.argument("character_id", required=False)
@click.option(
    "--id", "stack_id", metavar="ID", help="Stack id to write (default: from the preset's file name)."
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Project folder to write into (default: the current folder).",
)
@click.option("--dry-run", is_flag=True, help="Show what would be written; write nothing.")
@click.option("--overwrite", is_flag=True, help="Replace existing stack/report files (atomically).")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help='json prints {"import": {"stack", "report"}} (pi-forge\'s), plus "fidelity" with --report-format json '
    'and "written" (the files written, absolute paths) unless --dry-run; or {"import": {"error"}}.',
)  # fmt: skip
@click.option(
    "--report-format", type=click.Choice(["md", "json"]), default="md", show_default=True,
    help="json also writes <id>.fidelity.json: every prompt, marker, macro and regex script with its "
    "status (converted/approximated/unsupported) and a reason code.",
)  # fmt: skip
@click.option(
    "--pi-forge-report", is_flag=True,
    help="Write <id>.md exactly as pi-forge does, without forgec's fidelity section and next steps.",
)  # fmt: skip
@no_traceback
def import_silly(
    preset: Path,
    character_id: str | None,
    stack_id: str | None,
    out_dir: Path | None,
    dry_run: bool,
    overwrite: bool,
    output_format: str,
    report_format: str,
    pi_forge_report: bool = False,
) -> None:
    """Import a SillyTavern chat-completion PRESET as a pi-forge prompt stack.

    Converts exactly as pi-forge 0.4.1's /preset import-silly does and writes
    .pi/forge/prompt-stacks/<id>.json and .pi/forge/import-reports/<id>.md: pi-forge's report, then
    forgec's fidelity section (every loss counted per reason, as in --report-format json) and next
    steps as forgec commands (--pi-forge-report: pi-forge's text alone). Most exported presets
    have two prompt_order entries (100000 and 100001): pass CHARACTER_ID, usually 100001.

    \b
    Examples:
      forgec import-silly "My Preset.json" 100001 --dry-run
      forgec import-silly preset.json 100001 --overwrite --report-format json
    """
    from forgec.importers.sillytavern.project import ImportFailure, collector_pause, import_into_project
    from forgec.js.values import dumps_report
    from forgec.output import escape_controls

    with collector_pause(preset):  # from the read to the printed document (see collector_pause)
        try:
            with _progress(sys.stderr.isatty() and output_format == "text") as progress:
                done = import_into_project(
                    preset, character_id, out_dir=out_dir, stack_id=stack_id, dry_run=dry_run, overwrite=overwrite,
                    fidelity_report=report_format == "json", progress=progress, pi_forge_report=pi_forge_report,
                    texts=output_format == "text",  # a JSON dry run shows the files' paths, never their texts
                )  # fmt: skip
        except ImportFailure as failure:
            if output_format == "json":
                click.echo(dumps_report({"import": {"error": failure.message}}), nl=False)
            else:
                click.echo(f"forgec import-silly: error: {escape_controls(failure.message)} [{failure.code}]", err=True)
            if failure.hint:  # forgec's own advice: never part of the JSON document
                click.echo(f"forgec import-silly: hint: {escape_controls(failure.hint)}", err=True)
            sys.exit(failure.exit_code)
        for warning in done.warnings:
            click.echo(f"forgec import-silly: warning: {escape_controls(warning)}", err=True)
        if output_format == "json":
            _print_json(done)
        else:
            _print_text(done)
        del done  # freed inside the pause: no collection walks the import (it holds the parsed prompts)


def _print_json(done: ProjectImport) -> None:
    """``{"import": …}`` exactly pi-forge's; forgec's additions are separate top-level keys."""
    from forgec.js.report_utf8 import dumps_report_utf8

    doc: dict[str, object] = {"import": done.result.import_section()}
    if done.with_fidelity:
        doc["fidelity"] = done.result.fidelity
    if done.written:
        doc["written"] = [str(path) for path, _ in done.files]
    _echo_utf8(dumps_report_utf8(doc))


def _echo_utf8(data: bytes) -> None:
    """``click.echo(data.decode("utf-8"), nl=False)``, with the bytes written as they are where that
    writes the same bytes: standard output (the stream ``click.echo`` writes a text to) encodes UTF-8,
    has a binary buffer, and ends lines with ``\\n`` (not Windows, whose text streams write
    ``\\r\\n``).  The document is valid UTF-8 (no surrogate: ``JSON.stringify`` escapes lone ones, so the
    stream's error handler never acts) and holds no escape character (``\\u001b`` is written
    escaped), so click's ANSI stripping of a text not sent to a terminal has nothing to remove.  The
    text path decoded a megabyte, scanned it for ANSI codes and encoded it again."""
    import codecs
    import os

    stream = sys.stdout
    encoding = getattr(stream, "encoding", None)
    if (
        os.linesep == "\n"
        and isinstance(encoding, str)
        and codecs.lookup(encoding).name == "utf-8"
        and getattr(stream, "buffer", None) is not None
    ):
        click.echo(data, nl=False)
    else:
        click.echo(data.decode("utf-8"), nl=False)


def _print_text(done: ProjectImport) -> None:
    result, fidelity_wanted = done.result, done.with_fidelity
    assert result.stack is not None and result.fidelity is not None
    summary = result.fidelity["summary"]
    fidelity_line = (
        f"Fidelity: {summary['converted']} converted, {summary['approximated']} approximated, "
        f"{summary['unsupported']} unsupported"
    )
    if not done.written:
        click.echo(f"pi-forge import dry run: {result.stack['id']}\n")
        click.echo(f"Would write stack to: {done.stack_path}\nWould write report to: {done.report_path}")
        if fidelity_wanted:
            click.echo(f"Would write fidelity report to: {done.fidelity_path}")
        click.echo(f"\n## Generated stack JSON\n\n```json\n{done.files[0][1]}\n```\n")
        click.echo(done.files[1][1])
        if fidelity_wanted:
            click.echo("\n" + done.files[2][1])
        click.echo(fidelity_line, err=True)
        return
    click.echo(f"forgec: imported {result.stack['id']} ({len(result.stack['items'])} items)")
    click.echo(f"Stack written to: {done.stack_path}\nReport written to: {done.report_path}")
    if fidelity_wanted:
        click.echo(f"Fidelity report written to: {done.fidelity_path}")
    click.echo(fidelity_line)
