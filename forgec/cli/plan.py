"""``forgec plan SELECTOR TASK``: what would be sent, sealed into a plan a person approves (§6.6 step 1).

Options, one library call (:func:`forgec.execute.planning.plan_delegation`) and printing: the
approval summary of profiles-exec.md §4.10, the full fingerprint to approve with, and with
``--show-prompt`` the exact provider-bound prompt.  Nothing here touches the network or reads a
credential's value.  ``forgec run`` reuses :func:`make_plan` to plan and run in one go.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from forgec.cli._common import fail, no_traceback

if TYPE_CHECKING:
    from forgec.environment import Environment
    from forgec.execute.planning import DelegationPlan, PlanRefused

__all__ = ["echo_plan_findings", "make_plan", "plan_command", "plan_options", "say"]

_EPILOG = """\b
Examples:
  forgec plan reviewer "Review the diff in HEAD~1" --out plan.json
  forgec plan local-pair "Explain utils.py" --show-prompt
  forgec plan reviewer "Summarise" --context picked.yaml --now 2026-03-14T09:00:00Z --out plan.json
  forgec run plan.json                      approve on the terminal, then send

\b
SELECTOR is an agent profile id (the project's, else the global one), project:ID or global:ID.
The profile is resolved against the model catalog (bundled < ~/.config/forgec/models.json <
.pi/forge/models.json < --models), its prompt stack compiled for the model's API, and the exact
request body sealed with the plan's fingerprints. The summary is pi-forge's approval summary
(profiles-exec.md §4.10) with an honest egress line: where the prompt would go.

\b
--context FILE is the selected context handed to the subagent (JSON or YAML):
  {maxBytes: 4000, items: [{id: notes, kind: summary, text: "...", required: true,
                            provenance: {source: user}}]}
kind is summary, user-excerpt, assistant-excerpt, tool-result-excerpt or resource-excerpt;
optional items are dropped newest first until the rendering fits maxBytes (§4.6).

\b
No network, and no secret: the plan names the credentials variable through the catalog
(auth.env) and checks that it is set, never reads or writes its value. --now (or
$SOURCE_DATE_EPOCH) fixes the preparation time, so the same inputs give the same plan and
the same fingerprints on every machine.

\b
Exit codes: 0 plan made; 1 the profile cannot be used or the contract refused the plan (the
findings are printed); 2 usage error (unknown selector, unreadable file, an --out that exists)."""


def plan_options(func: Any) -> Any:
    """The options ``plan`` and ``run`` share (how a plan is made)."""
    options = [
        click.option("--context", "context_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
                     help="Selected context for the subagent (JSON or YAML {maxBytes, items}), budgeted as §4.6 says."),
        click.option("--models", "models_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
                     help="A model catalog merged over the bundled, user and project ones."),
        click.option("--now", "now", metavar="INSTANT",
                     help="When the plan is made (run: also approvedAt, capturedAt); ISO 8601 or epoch seconds; default $SOURCE_DATE_EPOCH, else the clock."),
        click.option("--timeout", "timeout_ms", type=click.IntRange(1000, 3_600_000), metavar="MS",
                     help="The run's timeout in ms; default: the forge config's subagent timeout for the profile."),
        click.option("--global-dir", "global_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
                     help="The user-global forge folder (default: $PI_FORGE_GLOBAL_DIR or ~/.pi/forge)."),
    ]  # fmt: skip
    for option in reversed(options):
        func = option(func)
    return func


def say(text: str, *, err: bool = False) -> None:
    """Text made of file content (a profile or a task may hold anything): controls made visible."""
    from forgec.output import escape_controls

    click.echo(escape_controls(text, keep_newlines=True), err=err)


def _selected_context(path: Path) -> dict[str, Any]:
    from forgec.source import read_source

    doc = read_source(path)
    errors = [d for d in doc.diagnostics if d.level == "error"]
    if errors:
        fail(f"--context {path}: {errors[0].message}")
    if not isinstance(doc.data, dict):
        fail(f"--context {path}: the selected context must be an object {{maxBytes, items}}")
    return doc.data


def make_plan(
    selector: str,
    task: str,
    *,
    context_path: Path | None,
    models_file: Path | None,
    now: str | None,
    timeout_ms: int | None,
    global_dir: Path | None,
    check_auth: bool = True,
) -> tuple[Environment, DelegationPlan]:
    """The environment of the current folder and the plan of ``task`` for ``selector``."""
    from forgec.environment import Environment
    from forgec.execute.planning import plan_delegation
    from forgec.js.clock import now_ms, parse_instant

    if models_file is not None and not models_file.is_file():
        fail(f"--models {models_file}: no such file")
    at = parse_instant(now) if now is not None else now_ms()
    selected = _selected_context(context_path) if context_path is not None else None
    env = Environment.discover(Path.cwd(), global_dir=global_dir, models_file=models_file)
    plan = plan_delegation(selector, task, env=env, now_ms=at, timeout_ms=timeout_ms, selected_context=selected,
                           check_auth=check_auth)  # fmt: skip
    return env, plan


def echo_plan_findings(plan: DelegationPlan) -> None:
    """The contract's warnings and notes of a made plan, on standard error (``tools.unmatched-allow``…)."""
    for d in plan.diagnostics:
        if d.level != "error":
            say(f"{d.level}: {d.code} {d.path or '$'}: {d.message}", err=True)


def echo_refusal(refusal: PlanRefused) -> None:
    """Why the plan could not be made: pi-forge's profile findings and the contract's, one per line."""
    from forgec.cli._common import error

    error(str(refusal))
    for d in refusal.profile_diagnostics:
        say(f"  {d.level.upper()}: {d.field or '$'}: {d.message}", err=True)
    for c in refusal.contract:
        say(f"  {c.level}: {c.code} {c.path or '$'}: {c.message}", err=True)


@click.command("plan", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("selector")
@click.argument("task")
@plan_options
@click.option("--out", "out", metavar="FILE", help="Write the plan (JSON) to FILE, atomically; `forgec run FILE` runs it.")
@click.option("--overwrite", is_flag=True, help="Let --out replace an existing file.")
@click.option("--show-prompt", is_flag=True, help="Also print the full provider-bound prompt and all three fingerprints.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: print the plan document itself instead of the summary.")
@no_traceback
def plan_command(
    selector: str,
    task: str,
    context_path: Path | None,
    models_file: Path | None,
    now: str | None,
    timeout_ms: int | None,
    global_dir: Path | None,
    out: str | None,
    overwrite: bool,
    show_prompt: bool,
    fmt: str,
) -> None:
    """Plan delegating TASK to the agent profile SELECTOR: what would be sent, where (no network)."""
    from forgec.cli._io import write_out
    from forgec.execute.approval import full_prompt, plan_summary
    from forgec.execute.planning import PlanRefused

    try:
        _env, plan = make_plan(selector, task, context_path=context_path, models_file=models_file, now=now,
                               timeout_ms=timeout_ms, global_dir=global_dir)  # fmt: skip
    except PlanRefused as refusal:
        echo_refusal(refusal)
        sys.exit(refusal.exit_code)
    text = json.dumps(plan.document, indent=2, ensure_ascii=False) + "\n"
    if out is not None:
        write_out(out, text, overwrite=overwrite, inputs=(context_path, models_file))
    echo_plan_findings(plan)
    if fmt == "json":
        if out != "-":
            from forgec.output import escape_json_controls

            click.echo(escape_json_controls(text), nl=False)
        return
    if out == "-":
        return
    say("\n".join(plan_summary(plan.document)))
    say(f"Execution fingerprint: {plan.execution_fingerprint}")
    if show_prompt:
        say("")
        say(full_prompt(plan.document), err=False)
    if out is None:
        say("Provider transport: not started; dry plan discarded.")
    else:
        say(f"Plan written to {out}. To send it: forgec run {out}  (or --approve {plan.execution_fingerprint})")
