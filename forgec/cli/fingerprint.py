"""``forgec fingerprint PATH…``: pi-forge's ``sha256:v1`` digests (profiles-exec.md §3).

A prompt stack is fingerprinted in its *normalised* form (as pi-forge's loader produces it), an
agent profile in its normalised form, a prompt runtime without its own fingerprint key, and any
other JSON document as it is.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from forgec.cli._common import no_traceback

_EPILOG = """\b
Examples:
  forgec fingerprint .pi/forge/prompt-stacks/*.json
  forgec fingerprint --as json plan.json
  echo '{"z":1,"a":2}' | forgec fingerprint --canonical -

\b
--as auto (default) recognises agent profiles (type pi-forge.agent-profile),
prompt runtimes (baseSystemPrompt + options) and prompt stacks (items); other
documents are hashed as plain JSON. Exit codes: 0 all fingerprinted, 1 a value
cannot be fingerprinted (FG810), 2 unreadable input."""


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "-"
    return Path(path).read_text(encoding="utf-8"), path


def _parse(text: str, name: str) -> Any:
    if name.endswith((".yaml", ".yml")):
        from ruamel.yaml import YAML

        return YAML(typ="safe", pure=True).load(text)
    from forgec.jsonparse import loads

    return loads(text)


def _kind(doc: Any) -> str:
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

    status = 0
    for path in paths:
        try:
            text, name = _read(path)
            doc = _parse(text, name)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            click.echo(f"forgec fingerprint: {path}: {exc}", err=True)
            status = max(status, 2)
            continue
        chosen = _kind(doc) if kind == "auto" else kind
        value = doc
        if chosen == "stack":
            from forgec.codecs.stack import load_stack_data

            value = load_stack_data(doc, Path(name).name if name != "-" else "stack.json").stack
        elif chosen == "profile":
            value = normalize_profile(doc, Path(name).stem if name != "-" else "")
        elif chosen == "runtime" and isinstance(doc, dict):
            value = {k: v for k, v in doc.items() if k != "promptRuntimeFingerprint"}
        try:
            digest = sha256_v1(value)
        except FingerprintError as exc:
            click.echo(f"{path}: error: {exc} [FG810]", err=True)
            status = max(status, 1)
            continue
        click.echo(f"{digest}  {path}")
        if canonical:
            click.echo(canonical_json(value))
    sys.exit(status)
