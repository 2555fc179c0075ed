"""What a run leaves behind: the ``--out`` record (response and redacted transcript) and the
``--capture`` records (profiles-exec.md §5, §6.5).

Both are built from values that never held the credential (the plan has none; the transport
already scrubbed the key out of the provider's text and events), and both are walked once more
here: through §5's key-based redaction (a ``token`` or ``authorization`` key anywhere is
``[redacted]``) and a value scrub of the credential itself, so a key echoed by a provider in an
ordinary string cannot reach a file either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from forgec.execute.running import RunResult, VerifiedPlan

__all__ = ["RECORD_TYPE", "bounded_text", "capture_records", "exit_code", "run_record", "status_lines"]

RECORD_TYPE: Final = "forgec.run-record"


def _scrub(value: Any, secret: str | None) -> Any:
    from forgec.execute.transport.common import scrub

    return scrub(value, secret)


def bounded_text(text: str, max_chars: int) -> tuple[str, bool]:
    """The result as printed: at most ``max_chars`` characters (pi-forge's ``resultProjection``),
    and whether it was cut."""
    return (text, False) if len(text) <= max_chars else (text[:max_chars], True)


def status_lines(result: RunResult) -> list[str]:
    """How the run ended, for standard error: the status and its detail, duration and tokens,
    the outcome's warnings, and every validation error of the response against the plan."""
    response, outcome = result.response, result.outcome
    detail = ""
    if outcome.status == "failed":
        detail = f": {response['error']['code']}: {response['error']['message']}"
    elif outcome.status in ("timed-out", "cancelled"):
        detail = f": {response.get('reason')}"
    elif outcome.status == "limit-reached":
        detail = f": {response.get('reachedLimit')}"
    usage = outcome.usage
    tokens = f" · tokens {usage.input} in / {usage.output} out / {usage.total} total" if usage else ""
    lines = [f"{outcome.status}{detail} ({outcome.duration_ms} ms{tokens})"]
    lines += [f"warning: {warning}" for warning in outcome.warnings]
    lines += [f"error: the response does not validate: {p.code} {p.path or '$'}: {p.message}"
              for p in result.problems if p.level == "error"]  # fmt: skip
    return lines


def exit_code(result: RunResult) -> int:
    """0 completed (or stopped at the token cap), 1 failed, timed out or invalid, 130 cancelled."""
    if result.outcome.status == "cancelled":
        return 130
    invalid = any(p.level == "error" for p in result.problems)
    return 1 if invalid or result.outcome.status in ("failed", "timed-out") else 0


def run_record(verified: VerifiedPlan, result: RunResult, approval: dict[str, Any], *, secret: str | None) -> dict[str, Any]:
    """The ``--out`` document: the validated ``AgentResponse``, its validation findings, the
    approval, and the transcript -- where it went, the body sent and the provider's events, both
    redacted as §5 says (and scrubbed of ``secret``)."""
    from forgec.emit.redact import redact_payload

    plan, transport = verified.document["plan"], verified.document["transport"]
    outcome = result.outcome
    transcript = {
        "endpoint": transport["endpoint"],
        "api": transport["api"],
        "model": transport["model"],
        "request": redact_payload(verified.body),
        "events": redact_payload(list(outcome.events)),
        "text": outcome.text,
        "stopReason": outcome.stop_reason,
        "warnings": list(outcome.warnings),
    }
    record = {
        "schemaVersion": 1,
        "type": RECORD_TYPE,
        "executionFingerprint": plan["executionFingerprint"],
        "approval": approval,
        "response": result.response,
        "validation": [p.to_json() for p in result.problems],
        "transcript": transcript,
    }
    return dict(_scrub(record, secret))


def capture_records(verified: VerifiedPlan, result: RunResult, *, captured_at: str, secret: str | None) -> dict[str, Any]:
    """``run --capture``: pi-forge's §5 capture record of the request body sent, and one of the
    provider's raw stream events (§6.5: "the raw provider response is captured through section 5
    redaction")."""
    from forgec.emit.redact import capture_payload

    stack_id = verified.document["plan"]["profile"].get("promptStackId")
    request = capture_payload(verified.body, captured_at=captured_at, stack_id=stack_id).to_json()
    response = capture_payload(list(result.outcome.events), captured_at=captured_at, stack_id=stack_id).to_json()
    return dict(_scrub({"request": request, "response": response}, secret))
