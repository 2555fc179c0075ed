"""The approval summary of profiles-exec.md §4.10: ten lines, each value whitespace-collapsed and cut
to its limit (first limit-3 characters and ``...``), the fingerprint abbreviated to 24 characters."""

from __future__ import annotations

from typing import Any

from forgec.execute.approval import abbreviate_fingerprint, approval_record, full_prompt, plan_summary

FINGERPRINT = "sha256:v1:" + "0123456789abcdef" * 4


def document(**changes: Any) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "profile": {"profileId": "project:reviewer", "promptStackId": "project:code-reviewer"},
        "backendId": "http-anthropic-messages",
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
        "thinkingLevel": "high",
        "effectiveToolIds": [],
        "access": {"executionBoundary": "isolated"},
        "limits": {"timeoutMs": {"value": 60000, "enforcement": "host-abort"}},
        "preflight": {"promptRuntime": {"options": {"cwd": "."}}},
        "systemPrompt": "You review code.",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Review it"}], "protectedTask": True,
                      "source": "delegated-task"}],
        "promptRuntimeFingerprint": "sha256:v1:" + "a" * 64,
        "conversationFingerprint": "sha256:v1:" + "b" * 64,
        "executionFingerprint": FINGERPRINT,
    }  # fmt: skip
    plan.update(changes)
    return {"plan": plan, "request": {"input": {"text": "Review it"}},
            "transport": {"endpoint": "https://api.anthropic.com/v1/messages"}}  # fmt: skip


def test_the_ten_lines() -> None:
    assert plan_summary(document()) == [
        "Run foreground subagent project:reviewer?",
        "Task: Review it",
        "Backend: http-anthropic-messages",
        "Model: anthropic/claude-sonnet-4-5 · thinking high",
        "Stack/tools: project:code-reviewer · none",
        "Directory: .",
        "Boundary: isolated · 60000 ms host-abort",
        "Payload: 16 system chars + 1 messages",
        f"Execution: {FINGERPRINT[:11]}...{FINGERPRINT[-10:]} (see full prompt)",
        "Egress: the prompt above is sent to https://api.anthropic.com/v1/messages; no file is read, no tool is run.",
    ]


def test_values_are_collapsed_and_cut() -> None:
    doc = document(access={"executionBoundary": "a-very-long-boundary-name"}, limits={})
    doc["request"]["input"]["text"] = "Review\n\n   the   change " + "x" * 60
    lines = plan_summary(doc)
    task = lines[1].removeprefix("Task: ")
    assert len(task) == 48 and task.startswith("Review the change x") and task.endswith("...")
    assert lines[6] == "Boundary: a-very-long-b... · none"


def test_the_abbreviated_fingerprint_is_24_characters() -> None:
    short = abbreviate_fingerprint(FINGERPRINT)
    assert len(short) == 24 and short == FINGERPRINT[:11] + "..." + FINGERPRINT[-10:]


def test_the_full_view_shows_all_three_fingerprints_and_the_prompt() -> None:
    text = full_prompt(document())
    for line in ("Prompt runtime fingerprint: sha256:v1:" + "a" * 64, "Conversation fingerprint: sha256:v1:" + "b" * 64,
                 f"Execution fingerprint: {FINGERPRINT}", "## System prompt\n\nYou review code.",
                 "## Message 1: user (protected delegated task) [delegated-task]\n\nReview it"):  # fmt: skip
        assert line in text


def test_the_approval_record() -> None:
    assert approval_record(FINGERPRINT, approved_at="2026-03-14T08:00:00.000Z", source="human", viewed_full_prompt=True) == {
        "required": True, "approved": True, "viewedFullPrompt": True, "source": "human",
        "executionFingerprint": FINGERPRINT, "approvedAt": "2026-03-14T08:00:00.000Z",
    }  # fmt: skip
