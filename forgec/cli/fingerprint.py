"""``forgec fingerprint PATH…``: pi-forge's ``sha256:v1`` digests (profiles-exec.md §3).

A prompt stack is fingerprinted in its *normalised* form (as pi-forge's loader produces it), an
agent profile in its normalised form, a prompt runtime without its own fingerprint key, and any
other JSON document as it is.

Files are read by :func:`forgec.source.decode_source`, the reader ``forgec validate`` and the
compiler use: the same limits (alias expansion, nesting, size), the same decoding (invalid UTF-8
becomes U+FFFD, as pi-forge reads it) and the same diagnostics, printed as
``path:line:col: FGnnn [level] message``.  A stack is fingerprinted in the loader's normalised form
exactly as the compile report's ``fingerprints.promptStack``; a stack the loader refuses (an
error-level diagnostic, e.g. FG124 for an empty YAML file) is not fingerprinted.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from forgec.cli._common import echo_diagnostics, no_traceback, reject_empty_paths
from forgec.cli._io import read_stdin

if TYPE_CHECKING:
    from forgec.source import SourceDocument

_EPILOG = """\b
Examples:
  forgec fingerprint .pi/forge/prompt-stacks/*.json
  forgec fingerprint --as json plan.json
  echo '{"z":1,"a":2}' | forgec fingerprint --canonical -

\b
--as auto (default) recognises agent profiles (type pi-forge.agent-profile),
prompt runtimes (baseSystemPrompt + options) and prompt stacks (items); other
documents are hashed as plain JSON; an empty YAML file is read as a stack
(and refused, FG124, as validate does). Standard input is read as JSON.
--as profile / --as runtime refuse a document that is not one (FG811): a
profile has "type": "pi-forge.agent-profile", a runtime is an object with
baseSystemPrompt and an options object.
A folder PATH stands for its *.json/*.yaml/*.yml files (not recursive, like
validate); a folder without any (e.g. __golden__ matched by DIR/*) is skipped
with a note on stderr.
Exit codes: 0 all fingerprinted, 1 invalid input (a diagnostic is printed) or a
value that cannot be fingerprinted (FG810), 2 unreadable input (FG002)."""


def _read(path: str) -> SourceDocument:
    """The parsed document, through the shared reader (never raises)."""
    from forgec.source import decode_source, read_source

    return read_source(path) if path != "-" else decode_source(read_stdin(), "-", "json")


def _expand(paths: tuple[str, ...]) -> list[str]:
    """PATH arguments with each folder replaced by its stack files (sorted as pi-forge sorts).

    ``forgec fingerprint DIR/*`` also matches sub-folders such as ``__golden__``: a folder without
    stack files is skipped with a note (not an error -- the glob, not the user, named it).
    """
    from forgec.output import escape_controls
    from forgec.workspace import STACK_SUFFIXES, list_folder_files

    out: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            out.append(path)
            continue
        try:
            files = list_folder_files(path)
        except OSError:
            out.append(path)  # unreadable folder: the reader reports it (FG002)
            continue
        if not files:
            click.echo(f"forgec fingerprint: note: skipping folder {escape_controls(path)}: "
                       f"no {', '.join('*' + s for s in STACK_SUFFIXES)} files", err=True)
        out.extend(os.path.join(path, file.name) for file in files)
    return out


@click.command("fingerprint", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--as",
    "kind",
    type=click.Choice(["auto", "json", "stack", "profile", "runtime"]),
    default="auto",
    show_default=True,
    help="How to read each document before hashing.",
)
@click.option("--canonical", is_flag=True, help="Also print the canonical JSON text that is hashed.")
@no_traceback
def fingerprint(paths: tuple[str, ...], kind: str, canonical: bool) -> None:
    """Print the sha256:v1 fingerprint of each PATH ('-' reads standard input)."""
    from forgec.fingerprint import canonical_json, fingerprint_document

    reject_empty_paths(paths)
    status = 0
    for path in _expand(paths):
        document = _read(path)
        found = fingerprint_document(document, kind, file_name=os.path.basename(path) if path != "-" else None)
        echo_diagnostics(path, found.diagnostics)
        status = max(status, found.exit_code)
        if found.digest is not None:
            click.echo(f"{found.digest}  {path}")
            if canonical:
                click.echo(canonical_json(found.value))
    sys.exit(status)
