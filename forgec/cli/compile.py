"""``forgec compile STACK --context F --target API``: the request body Pi would send.

Compiles the stack like ``forgec preview`` and turns the compiled prompt into one provider request
body (payloads.md), offline.  ``--redact`` applies pi-forge's ``/payload`` redaction so the output
can be attached to a bug report.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from forgec.cli._common import echo_diagnostics, echo_notes, fail, no_traceback, trust_plugins_option
from forgec.cli._io import write_out
from forgec.cli._stack import compile_stack_argument, echo_load_errors, stack_and_context, stack_environment
from forgec.model import API_ORDER, THINKING_LEVELS
from forgec.output import escape_controls

if TYPE_CHECKING:
    from forgec.codecs.catalog import Catalog
    from forgec.diagnostics import Diagnostic
    from forgec.report import CompileResult

_EPILOG = """\b
Examples:
  forgec compile coding.json --context ctx.json --target anthropic-messages
  forgec compile coding.json --model openai/gpt-5.1 --out body.json
  forgec compile coding.json --target openai-completions \\
      --models my-models.json --model acme/fast-1 --redact

--target all prints the whole `payloads` section of the compile report (the four
reference models). --capture FILE writes the capture record pi-forge's /payload
keeps (profiles-exec.md §5; its key-based redaction, not --redact's deeper one). --out FILE writes atomically and never replaces an existing
file unless --overwrite is given; --out - is standard output.

STACK '-' reads the stack from standard input, named by --stdin-filename
(default stdin.json; YAML when the name ends in .yaml/.yml).

Diagnostics: the loader's errors and the compile's own errors (macro failures,
FG203 expansion too long, FG623/FG624 regex timeout or budget, a slot that
failed...) are printed on stderr as file:line:col: FGnnn [error] message; the
body is still printed (it is what pi-forge would send). Warnings and info of the
compile are printed too only with --verbose.

--out never replaces the input stack, context or --models file (exit 2), even
with --overwrite. An --out path that is a symbolic link is replaced by a regular file
(the link itself); the file it pointed to is left unchanged.

Exit codes: 0 body written; 1 the stack has loader or compile errors (the body
is still printed when the file parsed, none when it could not be parsed) or pi-ai
would fail to build the request; 2 usage error, unreadable input or an --out file
that cannot be written (or is an input).

Custom macros and slots come from trusted plugins: --trust-plugins, or
[tool.forgec] plugins = ["name"] in pyproject.toml; a trusted plugin that fails to
load is printed on stderr and the stack compiles without it."""

def _unknown_model(catalog: Catalog, key: str, message: str) -> str:
    """``Unknown model: x`` plus the models the catalog knows, so the user can pick one."""
    known = sorted(catalog.models)
    if not known or key in known:
        return message
    return f"{message}; known models: {', '.join(known)}"


@click.command("compile", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@stack_and_context("Context file (JSON or YAML); default: the built-in sample context.")
@click.option(
    "--target",
    type=click.Choice([*API_ORDER, "all"]),
    help="Provider API of the body. Default: the API of --model (required without --model).",
)
@click.option("--model", "model_key", metavar="PROVIDER/ID", help="Catalog model; default: the target's reference model.")
@click.option(
    "--models",
    "models_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A model catalog (schemas/model-catalog.schema.json) merged over the bundled one.",
)
@click.option("--thinking", "thinking", type=click.Choice(THINKING_LEVELS),
              help="Thinking level; default: the context's thinkingLevel (else off).")
@click.option("--session-id", default=None, metavar="ID",
              help="Pi session id (OpenAI Responses prompt_cache_key); default 01950000-0000-7000-8000-000000000000.")
@click.option("--redact", is_flag=True,
              help="Apply pi-forge's payload redaction and truncation, plus forgec's: keys inside JSON strings "
                   "(tool-call arguments) and credential-shaped values (sk-…, Bearer …, private keys); a size line on stderr.")
@click.option("--out", "out", metavar="FILE",
              help="Write the body to FILE (atomically; '-' is standard output).")
@click.option("--capture", "capture_file", metavar="FILE",
              help="Also write pi-forge's payload capture record (redacted payload, text, chars, ~tokens, truncated) as JSON.")
@click.option("--now", "now", metavar="INSTANT",
              help="The capture's capturedAt (ISO 8601 or epoch seconds); default $SOURCE_DATE_EPOCH, else the clock.")
@click.option("--overwrite", is_flag=True,
              help="Let --out replace an existing file (never the input stack, context or --models file).")
@click.option("--stdin-filename", metavar="NAME",
              help="With STACK '-': the name of the stack read from standard input (default stdin.json).")
@click.option("-v", "--verbose", is_flag=True, help="Also print the compile's warnings and info on stderr.")
@trust_plugins_option
@no_traceback
def compile_command(
    stack: Path,
    context_path: Path | None,
    target: str | None,
    model_key: str | None,
    models_file: Path | None,
    thinking: str | None,
    session_id: str | None,
    redact: bool,
    out: str | None,
    capture_file: str | None = None,
    now: str | None = None,
    overwrite: bool = False,
    stdin_filename: str | None = None,
    verbose: bool = False,
    trust_plugins: bool = False,
) -> None:
    """Compile STACK and print the provider request body Pi would send (no network access)."""
    from forgec.codecs.catalog import CatalogError
    from forgec.emit import build_payloads, build_request
    from forgec.js.clock import parse_instant
    from forgec.js.values import json_stringify

    now_at = parse_instant(now) if now is not None else None  # a bad --now fails before any work
    env = stack_environment(stack, stdin_filename, trust_plugins, models_file=models_file)
    catalog = env.catalog
    try:
        model = catalog.get(model_key) if model_key is not None else None
    except CatalogError as exc:
        fail(_unknown_model(catalog, model_key or "", str(exc)))
    if target is None:
        if model is None:
            raise click.UsageError("give --target API or --model PROVIDER/ID")
        target = model.api
    if model is not None and target not in ("all", model.api):
        fail(f"model {model.key} uses the {model.api} API, not {target}")

    run = compile_stack_argument(env, stack, context_path, stdin_filename=stdin_filename, command="forgec compile")
    result, display = run.result, run.display
    # pi-forge would not use a stack with loader errors; one that did not even parse compiles as
    # the fallback stack, whose body would look plausible and mean nothing: print none
    load_failed, parsed = echo_load_errors(result.loaded, display)
    if load_failed and not parsed:
        click.echo(f"forgec compile: error: {escape_controls(display)} could not be parsed; "
                   "no request body printed", err=True)
        sys.exit(1)
    compile_failed = _echo_compile_diagnostics(result, display, verbose=verbose)
    prompt = result.request_prompt(thinking_level=thinking, session_id=session_id)
    value: Any
    if target == "all":
        section = build_payloads(prompt, models=catalog)
        failed = any("error" in entry for entry in section.values())
        # the outer document by API name; each body keeps pi-ai's own key order (as one target does)
        value = {api: section[api] for api in sorted(section)}
    else:
        body = build_request(target, prompt, model, catalog=catalog)
        echo_notes(body.diagnostics, "forgec compile")
        if body.error is not None:
            sys.exit(1)
        failed, value = False, body.body
    text = (json_stringify(value, 2) or "") + "\n"
    if redact:
        from forgec.emit.redact import capture_payload

        capture = capture_payload(value, deep=True)
        text = capture.text + "\n"
        click.echo(
            f"forgec compile: redacted payload: {capture.chars} chars, ~{capture.approx_tokens} tokens"
            + (" (truncated)" if capture.truncated else ""),
            err=True,
        )
    inputs = (None if run.from_stdin else stack, context_path, models_file)
    if capture_file is not None:
        _write_capture(capture_file, value, result.loaded.stack_id, now_at, overwrite=overwrite, inputs=inputs)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_out(out, text, overwrite=overwrite, inputs=inputs)
    sys.exit(1 if failed or load_failed or compile_failed else 0)


def _write_capture(path: str, body: Any, stack_id: str, now: int | None, *, overwrite: bool, inputs: Any) -> None:
    """pi-forge's §5 capture record of ``body``, exactly as its ``/payload`` builds it (key-based
    redaction only), as 2-space JSON; ``capturedAt`` from ``--now``, ``SOURCE_DATE_EPOCH`` or the clock."""
    from forgec.emit.redact import capture_payload
    from forgec.js.clock import iso_timestamp, now_ms
    from forgec.js.values import json_stringify

    captured_at = iso_timestamp(now if now is not None else now_ms())
    record = capture_payload(body, captured_at=captured_at, stack_id=stack_id).to_json()
    write_out(path, (json_stringify(record, 2) or "") + "\n", overwrite=overwrite, inputs=inputs)


def _echo_compile_diagnostics(result: CompileResult, display: str, *, verbose: bool) -> bool:
    """The compile's own diagnostics (system, then messages) as concise lines on standard error.

    Errors always (pi-forge shows them in its preview, and ``forgec preview`` fails on them);
    warnings and info only with ``verbose``.  forgec-only findings (``extra``) are ``validate``'s
    business and are not printed.  pi-forge compiles the items for the system prompt and again for
    the messages, so the same finding often comes twice: it is printed once.  Returns whether
    there was an error.
    """
    from forgec.source import resolve_spans

    shown: list[Diagnostic] = []
    seen = set()
    for d in result.diagnostics:
        key = (d.level, d.code, d.message, d.item_id, repr(d.pointer), d.offset, d.length)
        if d.extra or (not verbose and d.level != "error") or key in seen:
            continue
        seen.add(key)
        shown.append(d)
    echo_diagnostics(display, resolve_spans(shown, result.loaded.document))
    return any(d.level == "error" for d in shown)
