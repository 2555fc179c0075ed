"""``forgec run PLAN`` (or ``forgec run SELECTOR TASK``): approve, send once, print a bounded result.

The checks are the library's (:mod:`forgec.execute.running`): every fingerprint re-verified, the
profile and stack on disk compared, egress consent and the credentials variable checked, and the
approval bound to the execution fingerprint -- any refusal exits 3 before anything is sent.  This
module asks the person (on a terminal), shows the stream as it arrives (rich, on a terminal
only), and prints and writes what came back.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from forgec.cli._common import fail, no_traceback
from forgec.cli.plan import echo_plan_findings, echo_refusal, make_plan, plan_options, say

if TYPE_CHECKING:
    from forgec.execute.running import RunResult, VerifiedPlan

_EPILOG = """\b
Examples:
  forgec run plan.json                          show the summary, ask, send
  forgec run plan.json --approve sha256:v1:...  approve in a script (the full fingerprint)
  forgec run reviewer "Review HEAD~1" --out run.json    plan and run in one go
  forgec run plan.json --unattended --trust --allow-egress   a trusted config approves

\b
Before anything is sent, forgec re-verifies the plan: every §4 validator, the prompt-runtime,
conversation and execution fingerprints, the exact request body (built again from the sealed
prompt and the model catalog), the profile and stack on disk (--allow-drift runs what was
approved even if they changed), egress consent, and that the model's credentials variable
(auth.env in the catalog) is set. Then the run needs an approval bound to this plan's
execution fingerprint:
  - on a terminal: the approval summary, then Approve and run / View full prompt / Reject;
  - --approve sha256:v1:... : the fingerprint `forgec plan` printed (a stale one is refused);
  - --unattended: only with --trust (you trust the project's .pi/forge/config.json), which must
    set subagents.allowAgentInvocationWithoutApproval and enable the profile pinned to this
    backend, and --allow-egress (consent to send without a person looking).

\b
Then one request -- no retries, no fallback -- through the official SDK of the model's API
(pip install 'forgec[run]'), streamed (a live display on a terminal). Ctrl-C cancels it. The
result is printed, cut at the plan's resultProjection.maxChars (12000); --out FILE writes the
whole response and a redacted transcript (JSON, atomically); --capture FILE writes pi-forge's
§5 capture records of the request sent and the provider's stream. The credential's value is
never printed or written.

\b
Exit codes: 0 completed (or stopped at the output-token cap); 1 failed, timed out, or the
response did not validate against the plan; 2 usage error (unreadable plan, missing SDK, an
--out that exists); 3 refused: nothing was sent; 130 cancelled (Ctrl-C)."""


def _load_plan(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read the plan {path}: {getattr(exc, 'strerror', None) or exc} "
             "(to plan and run in one go, give an agent profile SELECTOR and a TASK)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg}); a plan is what `forgec plan --out` writes")


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask(document: dict[str, Any]) -> bool:
    """pi-forge's approval dialog on the terminal; returns whether the full prompt was viewed.
    Rejecting is a refusal (exit 3)."""
    from forgec.execute.approval import full_prompt, plan_summary
    from forgec.execute.running import RunRefused

    viewed = False
    say("\n".join(plan_summary(document)))
    while True:
        try:
            choice = click.prompt("[a] Approve and run  [v] View full prompt  [r] Reject", default="r",
                                  type=click.Choice(["a", "v", "r"]), show_choices=False)  # fmt: skip
        except click.exceptions.Abort:  # Ctrl-C or end of input at the question: no approval
            raise RunRefused("not approved (interrupted): nothing was sent") from None
        if choice == "v":
            viewed = True
            from forgec.output import escape_controls

            click.echo_via_pager(escape_controls(full_prompt(document), keep_newlines=True))
            continue
        if choice == "a":
            return viewed
        raise RunRefused("rejected: nothing was sent")


def _send(verified: VerifiedPlan) -> RunResult:
    """One request; on a terminal a live display of the stream (transient: the result is printed after)."""
    from forgec.execute.running import run_plan

    if not sys.stdout.isatty():
        return run_plan(verified)
    import time

    from rich.console import Console, Group
    from rich.live import Live
    from rich.spinner import Spinner
    from rich.text import Text

    received: list[str] = []
    start = time.monotonic()
    model = verified.document["transport"]["model"]

    def view() -> Group:
        text = "".join(received)
        tail = "\n".join(text.splitlines()[-8:])
        status = f"{model} · {time.monotonic() - start:.1f} s · {len(text)} chars (Ctrl-C cancels)"
        return Group(Spinner("dots", text=status), Text(tail))

    with Live(view(), console=Console(), transient=True, refresh_per_second=8, get_renderable=view):
        return run_plan(verified, on_text=received.append)


def _report(verified: VerifiedPlan, result: RunResult) -> int:
    """Print the bounded result (standard output) and how the run ended (standard error)."""
    from forgec.execute.transcript import bounded_text, exit_code, status_lines

    limit = int((verified.document["request"].get("resultProjection") or {}).get("maxChars") or 12_000)
    text = result.outcome.text
    shown, cut = bounded_text(text, limit)
    if shown:
        say(shown)
    if cut:
        say(f"[output cut at {limit} of {len(text)} chars; --out FILE keeps all of it]", err=True)
    for line in status_lines(result):
        say(f"forgec run: {line}", err=True)
    return exit_code(result)


@click.command("run", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("target", nargs=-1, required=True, metavar="PLAN | SELECTOR TASK")
@plan_options
@click.option("--approve", "approve", metavar="FINGERPRINT",
              help="Approve without asking: this plan's full execution fingerprint (sha256:v1:...).")
@click.option("--unattended", is_flag=True, help="Let a trusted project config approve (needs --trust and --allow-egress).")
@click.option("--trust", is_flag=True, help="Trust this project's .pi/forge/config.json to approve unattended runs.")
@click.option("--allow-egress", is_flag=True, help="Consent to the prompt leaving this machine without a person approving it.")
@click.option("--allow-drift", is_flag=True, help="Run even if the profile or stack on disk changed since the plan was made.")
@click.option("--out", "out", metavar="FILE", help="Write the response and a redacted transcript (JSON) to FILE, atomically.")
@click.option("--capture", "capture_file", metavar="FILE", help="Write §5 capture records of the request sent and the stream received.")
@click.option("--overwrite", is_flag=True, help="Let --out and --capture replace existing files.")
@no_traceback
def run_command(
    target: tuple[str, ...],
    context_path: Path | None,
    models_file: Path | None,
    now: str | None,
    timeout_ms: int | None,
    global_dir: Path | None,
    approve: str | None,
    unattended: bool,
    trust: bool,
    allow_egress: bool,
    allow_drift: bool,
    out: str | None,
    capture_file: str | None,
    overwrite: bool,
) -> None:
    """Send a plan once to its provider, after checking it and its approval; print the result."""
    from forgec.cli._io import write_out
    from forgec.environment import Environment
    from forgec.execute.planning import PlanRefused
    from forgec.execute.running import approve_run, verify_plan
    from forgec.execute.transcript import capture_records, run_record
    from forgec.execute.transport import ensure_sdk
    from forgec.js.clock import iso_timestamp, now_ms, parse_instant

    at = parse_instant(now) if now is not None else now_ms()
    if len(target) == 1:
        if context_path is not None or timeout_ms is not None:
            raise click.UsageError("--context and --timeout make a plan; a plan file already has them")
        document = _load_plan(target[0])
        if models_file is not None and not models_file.is_file():
            fail(f"--models {models_file}: no such file")
        env = Environment.discover(Path.cwd(), global_dir=global_dir, models_file=models_file)
    elif len(target) == 2:
        try:
            env, plan = make_plan(target[0], target[1], context_path=context_path, models_file=models_file, now=now,
                                  timeout_ms=timeout_ms, global_dir=global_dir, check_auth=False)  # fmt: skip
        except PlanRefused as refusal:
            echo_refusal(refusal)
            sys.exit(refusal.exit_code)
        echo_plan_findings(plan)
        document = plan.document
    else:
        raise click.UsageError("give a plan file, or an agent profile SELECTOR and a TASK")
    for path in (out, capture_file):
        if path not in (None, "-") and not overwrite and os.path.lexists(path):  # before anything is sent
            fail(f"{path} already exists; pass --overwrite to replace it")
    verified = verify_plan(document, env=env, allow_drift=allow_drift)
    ensure_sdk(verified.model.api)  # before anyone is asked to approve what could not be sent
    approval = approve_run(verified, env=env, approved_at=iso_timestamp(at), approve=approve, unattended=unattended,
                           trusted=trust, allow_egress=allow_egress, ask=_ask if _interactive() else None)  # fmt: skip
    secret = os.environ.get(verified.credential_variable) if verified.credential_variable else None
    result = _send(verified)
    code = _report(verified, result)
    if out is not None:
        text = json.dumps(run_record(verified, result, approval, secret=secret), indent=2, ensure_ascii=False) + "\n"
        write_out(out, text, overwrite=overwrite, inputs=(models_file,))
    if capture_file is not None:
        records = capture_records(verified, result, captured_at=iso_timestamp(at), secret=secret)
        write_out(capture_file, json.dumps(records, indent=2, ensure_ascii=False) + "\n", overwrite=overwrite,
                  inputs=(models_file,))  # fmt: skip
    sys.exit(code)
