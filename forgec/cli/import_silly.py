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

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from forgec.js.values import dumps_report, json_stringify

_ID_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
#: longest stack id forgec writes (``<id>.fidelity.json`` and the temporary files stay < 255 bytes)
MAX_ID_LENGTH = 200

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


class _Failure(Exception):
    def __init__(self, message: str, code: str, exit_code: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.code, self.exit_code, self.hint = message, code, exit_code, hint


def _error_code(message: str) -> str:
    from forgec.rules import importer as r

    if message.startswith("Failed to read or parse"):
        return r.PRESET_UNREADABLE
    if message.startswith("Preset root"):
        return r.PRESET_ROOT
    if message.startswith("Preset has no prompts"):
        return r.PRESET_NO_PROMPTS
    if message.startswith("Preset has no prompt_order"):
        return r.PRESET_NO_PROMPT_ORDER
    if message.startswith("Multiple character configs"):
        return r.PRESET_CHARACTER
    return r.PRESET_MALFORMED


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


def _check_no_symlinks(root: Path, targets: list[Path]) -> None:
    from forgec.rules.importer import IMPORT_SYMLINK

    seen: set[Path] = set()
    for target in targets:
        relative = target.relative_to(root)
        current = root
        for part in relative.parts:
            current = current / part
            if current in seen:
                continue
            seen.add(current)
            if current.is_symlink():
                raise _Failure(
                    "pi-forge: refusing to import outside project prompt-stack storage or through a symbolic link.",
                    IMPORT_SYMLINK,
                    1,
                )


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
def import_silly(
    preset: Path,
    character_id: str | None,
    stack_id: str | None,
    out_dir: Path | None,
    dry_run: bool,
    overwrite: bool,
    output_format: str,
    report_format: str,
) -> None:
    """Import a SillyTavern chat-completion PRESET as a pi-forge prompt stack.

    Converts exactly as pi-forge 0.4.1's /preset import-silly does and writes
    .pi/forge/prompt-stacks/<id>.json and .pi/forge/import-reports/<id>.md. Most exported presets
    have two prompt_order entries (100000 and 100001): pass CHARACTER_ID, usually 100001.

    \b
    Examples:
      forgec import-silly "My Preset.json" 100001 --dry-run
      forgec import-silly preset.json 100001 --overwrite --report-format json
    """
    try:
        try:
            result, fidelity = _run(
                preset, character_id, stack_id, out_dir, dry_run, overwrite, output_format, report_format
            )
        except RecursionError:
            # Serialising a stack whose values nest thousands of levels deep (forgec's own text).
            from forgec.importers.sillytavern import NESTED_TOO_DEEPLY
            from forgec.rules.importer import PRESET_MALFORMED

            raise _Failure(NESTED_TOO_DEEPLY, PRESET_MALFORMED, 1) from None
    except _Failure as failure:
        from forgec.output import escape_controls

        if output_format == "json":
            click.echo(dumps_report({"import": {"error": failure.message}}), nl=False)
        else:
            click.echo(f"forgec import-silly: error: {escape_controls(failure.message)} [{failure.code}]", err=True)
        if failure.hint:  # forgec's own advice: never part of the JSON document
            click.echo(f"forgec import-silly: hint: {escape_controls(failure.hint)}", err=True)
        sys.exit(failure.exit_code)
    del result, fidelity


def _run(
    preset: Path,
    token: str | None,
    stack_id: str | None,
    out_dir: Path | None,
    dry_run: bool,
    overwrite: bool,
    output_format: str,
    report_format: str,
) -> tuple[Any, Any]:
    from forgec.atomic import ExistingFilesError, existing, write_files
    from forgec.importers.sillytavern import convert_preset
    from forgec.importers.sillytavern.jsonread import JsonParseError, parse_json, read_text
    from forgec.importers.sillytavern.preset import character_id_from_token, member
    from forgec.js.values import UNDEFINED
    from forgec.rules import importer as codes

    if stack_id is not None and not _ID_RE.fullmatch(stack_id):
        raise _Failure(
            f"Invalid stack id: {stack_id} (letters, digits, _ and - only)", codes.IMPORT_BAD_CHARACTER_ID, 2
        )
    if stack_id is not None and len(stack_id) > MAX_ID_LENGTH:
        raise _Failure(
            f"Invalid stack id: {stack_id[:40]}… is {len(stack_id)} characters long (at most {MAX_ID_LENGTH})",
            codes.IMPORT_BAD_CHARACTER_ID,
            2,
        )
    # pi-forge joins a relative path to the working directory with Node's ``path`` module, which
    # also normalises it lexically (``sub/../x.json`` -> ``x.json``): the report's *Source file*
    # line shows that normalised path, so forgec normalises the same way (never resolving links).
    path = preset if preset.is_absolute() else Path(os.path.normpath(Path.cwd() / preset))
    if stack_id is None:
        from forgec.importers.sillytavern.preset import file_name_of, stack_id_of

        derived = stack_id_of(file_name_of(str(path)))
        if len(derived) > MAX_ID_LENGTH:
            stack_id = derived[:MAX_ID_LENGTH].rstrip("-") or "imported"
    show_progress = sys.stderr.isatty() and output_format == "text"
    with _progress(show_progress) as progress:
        try:
            raw = parse_json(read_text(path))
        except (OSError, JsonParseError) as exc:
            message = f"Failed to read or parse {path}: {exc.args[0] if exc.args else exc}"
            raise _Failure(message, codes.PRESET_UNREADABLE, 2) from None
        given: Any = UNDEFINED
        if token is not None:
            try:
                given = character_id_from_token(token, member(raw, "prompt_order"))
            except ValueError:
                raise _Failure(
                    f"Invalid character_id: {token}", codes.IMPORT_BAD_CHARACTER_ID, 2, _ids_hint(raw)
                ) from None
        result = convert_preset(raw, str(path), str(path), given, stack_id=stack_id, progress=progress)
    if result.error is not None:
        code = _error_code(result.error)
        hint = _ids_hint(raw, token) if token is not None and code == codes.PRESET_CHARACTER else None
        raise _Failure(result.error, code, 1, hint)
    assert result.stack is not None and result.report is not None
    final_id = result.stack["id"]
    root = (out_dir or Path.cwd()).absolute()
    stack_path = root / ".pi" / "forge" / "prompt-stacks" / f"{final_id}.json"
    report_path = root / ".pi" / "forge" / "import-reports" / f"{final_id}.md"
    fidelity_path = report_path.with_name(f"{final_id}.fidelity.json")
    files = [(stack_path, json_stringify(result.stack, 2) or ""), (report_path, result.report)]
    if report_format == "json":
        files.append((fidelity_path, json_stringify(result.fidelity, 2) or ""))
    _check_no_symlinks(root, [p for p, _ in files])
    if not dry_run:
        found = existing([p for p, _ in files])
        if found and not overwrite:
            joined = ", ".join(str(p) for p in found)
            raise _Failure(
                f"pi-forge: import would overwrite existing file(s): {joined}. Re-run with --overwrite.",
                codes.IMPORT_WOULD_OVERWRITE,
                1,
            )
        try:
            write_files(files, overwrite=overwrite)
        except ExistingFilesError as exc:  # created by someone else meanwhile
            raise _Failure(
                f"pi-forge: import would overwrite existing file(s): {exc}. Re-run with --overwrite.",
                codes.IMPORT_WOULD_OVERWRITE,
                1,
            ) from None
        except OSError as exc:
            where = exc.filename if isinstance(exc.filename, str) and not _is_temp(exc.filename) else None
            target = where or str(stack_path.parent)
            raise _Failure(
                f"cannot write {target}: {exc.strerror or exc}", codes.IMPORT_WOULD_OVERWRITE, 2
            ) from None
    _print(result, stack_path, report_path, fidelity_path, dry_run, output_format, report_format)
    return result, result.fidelity


def _is_temp(name: str) -> bool:
    """Whether ``name`` is one of :mod:`forgec.atomic`'s temporary files (not worth showing)."""
    return Path(name).name.startswith(".") and name.endswith(".tmp")


def _ids_hint(raw: Any, token: str | None = None) -> str | None:
    """``available character ids: 100000, 100001`` from the preset's ``prompt_order``."""
    from forgec.importers.sillytavern.preset import member
    from forgec.js.values import UNDEFINED, js_string

    order = member(raw, "prompt_order") if isinstance(raw, dict) else UNDEFINED
    if not isinstance(order, list):
        return None
    ids = []
    for entry in order:
        value = member(entry, "character_id") if isinstance(entry, dict) else UNDEFINED
        if value is not UNDEFINED and value is not None:
            ids.append(js_string(value))
    if not ids:
        return None
    head = f"character id {token} is not in this preset; " if token is not None else ""
    return f"{head}available character ids: {', '.join(ids)}"


def _print(
    result: Any,
    stack_path: Path,
    report_path: Path,
    fidelity_path: Path,
    dry_run: bool,
    output_format: str,
    report_format: str,
) -> None:
    if output_format == "json":
        # ``import`` stays exactly pi-forge's; forgec's additions are separate top-level keys
        doc: dict[str, Any] = {"import": result.import_section()}
        if report_format == "json":
            doc["fidelity"] = result.fidelity
        if not dry_run:
            written = [stack_path, report_path, *([fidelity_path] if report_format == "json" else [])]
            doc["written"] = [str(p) for p in written]
        click.echo(dumps_report(doc), nl=False)
        return
    stack_id = result.stack["id"]
    summary = result.fidelity["summary"]
    fidelity_line = (
        f"Fidelity: {summary['converted']} converted, {summary['approximated']} approximated, "
        f"{summary['unsupported']} unsupported"
    )
    if dry_run:
        click.echo(f"pi-forge import dry run: {stack_id}\n")
        click.echo(f"Would write stack to: {stack_path}\nWould write report to: {report_path}")
        if report_format == "json":
            click.echo(f"Would write fidelity report to: {fidelity_path}")
        click.echo(f"\n## Generated stack JSON\n\n```json\n{json_stringify(result.stack, 2)}\n```\n")
        click.echo(result.report)
        if report_format == "json":
            click.echo("\n" + (json_stringify(result.fidelity, 2) or ""))
        click.echo(fidelity_line, err=True)
        return
    click.echo(f"forgec: imported {stack_id} ({len(result.stack['items'])} items)")
    click.echo(f"Stack written to: {stack_path}\nReport written to: {report_path}")
    if report_format == "json":
        click.echo(f"Fidelity report written to: {fidelity_path}")
    click.echo(fidelity_line)
