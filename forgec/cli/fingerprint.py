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
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from forgec.cli._common import no_traceback, reject_empty_paths, stdin_hint

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
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
    from forgec.rules import loader as codes
    from forgec.source import decode_source, read_source

    if path != "-":
        return read_source(path)
    stdin_hint()
    try:
        raw = sys.stdin.buffer.read()
    except OSError as exc:  # pragma: no cover - a closed or unreadable standard input
        from forgec.diagnostics import Diagnostic
        from forgec.source import SourceDocument

        doc = SourceDocument("-", "json")
        doc.diagnostics.append(Diagnostic("error", f"Cannot read standard input: {exc.strerror or exc}", codes.FILE_UNREADABLE))
        return doc
    return decode_source(raw, "-", "json")


def _echo_diagnostics(path: str, diagnostics: list[Diagnostic], document: SourceDocument | None) -> None:
    """``path:line:col: FGnnn [level] message`` on standard error (1:1 when there is no position)."""
    from forgec.output import escape_controls
    from forgec.source import resolve_spans

    resolve_spans(diagnostics, document)
    for d in diagnostics:
        line, column = (d.span.line, d.span.column) if d.span is not None else (1, 1)
        click.echo(f"{escape_controls(path)}:{line}:{column}: {d.code} [{d.level}] {escape_controls(d.message)}", err=True)


def _expand(paths: tuple[str, ...]) -> list[str]:
    """PATH arguments with each folder replaced by its stack files (sorted as pi-forge sorts).

    ``forgec fingerprint DIR/*`` also matches sub-folders such as ``__golden__``: a folder without
    stack files is skipped with a note (not an error -- the glob, not the user, named it).
    """
    from forgec.output import escape_controls
    from forgec.workspace import STACK_SUFFIXES

    out: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            out.append(path)
            continue
        try:
            names = sorted(
                (e.name for e in os.scandir(path) if e.name.endswith(STACK_SUFFIXES) and e.is_file()),
                key=lambda name: name.encode("utf-16-be", "surrogatepass"),
            )
        except OSError:
            out.append(path)  # unreadable folder: the reader reports it (FG002)
            continue
        if not names:
            click.echo(f"forgec fingerprint: note: skipping folder {escape_controls(path)}: "
                       f"no {', '.join('*' + s for s in STACK_SUFFIXES)} files", err=True)
        out.extend(os.path.join(path, name) for name in names)
    return out


def _is_profile(doc: Any) -> bool:
    """An agent profile (profiles-exec.md §1.2): an object whose ``type`` is the profile type."""
    return isinstance(doc, dict) and doc.get("type") == "pi-forge.agent-profile"


def _is_runtime(doc: Any) -> bool:
    """A prompt runtime (profiles-exec.md §3.5): an object with ``baseSystemPrompt`` and ``options``."""
    return isinstance(doc, dict) and "baseSystemPrompt" in doc and isinstance(doc.get("options"), dict)


def _wrong_kind(doc: Any, document: SourceDocument, wanted: str) -> str | None:
    """Why ``doc`` cannot be fingerprinted ``--as wanted`` (None when it can)."""
    if wanted == "profile" and not _is_profile(doc):
        what = "an agent profile (no \"type\": \"pi-forge.agent-profile\")"
    elif wanted == "runtime" and not _is_runtime(doc):
        what = "a prompt runtime (an object with baseSystemPrompt and an options object)"
    else:
        return None
    seems = _kind(doc, document)
    looks = {"stack": "a prompt stack", "profile": "an agent profile", "runtime": "a prompt runtime"}.get(seems)
    hint = f"; it looks like {looks} (try --as {seems} or --as auto)" if looks else ""
    return f"not {what}{hint}"


def _kind(doc: Any, document: SourceDocument) -> str:
    if doc is None and document.format == "yaml":
        return "stack"  # an empty YAML file: validate reads it as a stack too (FG124)
    if isinstance(doc, dict):
        if doc.get("type") == "pi-forge.agent-profile":
            return "profile"
        if "baseSystemPrompt" in doc and "options" in doc:
            return "runtime"
        if "items" in doc:
            return "stack"
    return "json"


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
    from forgec.fingerprint import FingerprintError, canonical_json, normalize_profile, sha256_v1
    from forgec.rules import loader as codes

    reject_empty_paths(paths)
    status = 0
    for path in _expand(paths):
        document = _read(path)
        if document.diagnostics:
            _echo_diagnostics(path, document.diagnostics, document)
        if not document.parsed:
            unreadable = any(d.code == codes.FILE_UNREADABLE for d in document.diagnostics)
            status = max(status, 2 if unreadable else 1)
            continue
        doc = document.data
        chosen = _kind(doc, document) if kind == "auto" else kind
        problem = _wrong_kind(doc, document, chosen) if kind in ("profile", "runtime") else None
        if problem is not None:
            from forgec.output import escape_controls
            from forgec.rules.payloads import FINGERPRINT_WRONG_KIND

            click.echo(f"{escape_controls(path)}:1:1: {FINGERPRINT_WRONG_KIND} [error] {problem}", err=True)
            status = max(status, 1)
            continue
        value = doc
        if chosen == "stack":
            from forgec.codecs.stack import load_stack_data

            file_name = os.path.basename(path) if path != "-" else "stack.json"
            loaded = load_stack_data(doc, file_name, path=path)
            errors = [d for d in loaded.diagnostics if d.level == "error"]
            if errors:
                _echo_diagnostics(path, errors, document)
                status = max(status, 1)
                continue
            value = loaded.stack
        elif chosen == "profile":
            value = normalize_profile(doc, Path(path).stem if path != "-" else "")
        elif chosen == "runtime" and isinstance(doc, dict):
            value = {k: v for k, v in doc.items() if k != "promptRuntimeFingerprint"}
        try:
            digest = sha256_v1(value)
        except FingerprintError as exc:
            from forgec.output import escape_controls

            click.echo(f"{escape_controls(path)}:1:1: FG810 [error] {escape_controls(str(exc))}", err=True)
            status = max(status, 1)
            continue
        click.echo(f"{digest}  {path}")
        if canonical:
            click.echo(canonical_json(value))
    sys.exit(status)
