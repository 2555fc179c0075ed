"""``forgec plan SELECTOR TASK``: the approval summary, the sealed plan file, no network, no secret."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from forgec.testing.provider_server import ProviderServer

from .delegation import KEY, KEY_VARIABLE, NOW, TASK, make_project, model_id, profile_id


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as stand_in:
        yield stand_in


@pytest.fixture
def project(tmp_path: Path, server: ProviderServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    return make_project(tmp_path / "project", server)


def test_plan_prints_the_approval_summary_and_sends_nothing(run: Callable[..., Result], project: Path,
                                                             server: ProviderServer) -> None:  # fmt: skip
    result = run("plan", profile_id("anthropic-messages"), TASK, "--now", NOW, cwd=project)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:8] == [
        "Run foreground subagent project:via-anthropic-messages?",
        f"Task: {TASK}",
        "Backend: http-anthropic-messages",
        "Model: " + ("stand-in/" + model_id("anthropic-messages") + " · thinking off")[:41] + "...",
        "Stack/tools: project:helper · none",
        "Directory: .",
        "Boundary: isolated · 60000 ms host-abort",
        lines[7],
    ]
    assert lines[7].startswith("Payload: ") and lines[7].endswith(" system chars + 2 messages")
    assert lines[8].startswith("Execution: sha256:v1:") and lines[8].endswith(" (see full prompt)")
    assert lines[9] == f"Egress: the prompt above is sent to {server.base_url('anthropic-messages')}/v1/messages; " \
                       "no file is read, no tool is run."  # fmt: skip
    assert lines[10].startswith("Execution fingerprint: sha256:v1:") and len(lines[10].split(": ")[1]) == 74
    assert "dry plan discarded" in lines[-1]
    assert server.requests == []


def test_the_model_line_is_cut_to_44_characters(run: Callable[..., Result], project: Path) -> None:
    result = run("plan", profile_id("google-generative-ai"), TASK, "--now", NOW, cwd=project)
    model_line = result.stdout.splitlines()[3]
    value = model_line.removeprefix("Model: ")
    assert len(value) == 44 and value.endswith("...")


def test_the_plan_file_is_deterministic_and_holds_no_secret(run: Callable[..., Result], project: Path,
                                                            server: ProviderServer) -> None:  # fmt: skip
    first = run("plan", profile_id("openai-completions"), TASK, "--now", NOW, "--out", "a.json", cwd=project)
    second = run("plan", profile_id("openai-completions"), TASK, "--now", NOW, "--out", "b.json", cwd=project)
    assert first.exit_code == second.exit_code == 0
    a, b = (project / "a.json").read_text(), (project / "b.json").read_text()
    assert a == b
    document = json.loads(a)
    assert document["type"] == "forgec.delegation-plan"
    assert document["request"]["remoteEgressConsent"] is True
    assert document["plan"]["executionFingerprint"] in first.stdout
    assert KEY not in a and KEY not in first.stdout + first.stderr
    assert str(project) not in a, "no absolute path in a plan"
    assert server.requests == []


def test_another_task_is_another_execution_fingerprint(run: Callable[..., Result], project: Path) -> None:
    run("plan", profile_id("openai-responses"), TASK, "--now", NOW, "--out", "a.json", cwd=project)
    run("plan", profile_id("openai-responses"), TASK + "!", "--now", NOW, "--out", "b.json", cwd=project)
    a, b = (json.loads((project / n).read_text())["plan"]["executionFingerprint"] for n in ("a.json", "b.json"))
    assert a != b


def test_show_prompt_prints_the_exact_provider_bound_prompt(run: Callable[..., Result], project: Path) -> None:
    result = run("plan", profile_id("openai-completions"), TASK, "--now", NOW, "--show-prompt", cwd=project)
    assert result.exit_code == 0
    out = result.stdout
    for heading in ("Prompt runtime fingerprint: sha256:v1:", "Conversation fingerprint: sha256:v1:",
                    "Execution fingerprint: sha256:v1:", "## System prompt", "You are a careful reviewer of Python code.",
                    "## Message 1: user", "Keep it brief, please.",
                    "## Message 2: user (protected delegated task) [delegated-task]", TASK):  # fmt: skip
        assert heading in out


def test_selected_context_is_budgeted_into_the_first_message(run: Callable[..., Result], project: Path) -> None:
    context = {"maxBytes": 400, "items": [
        {"id": "old", "kind": "summary", "text": "an older note " * 20, "provenance": {"source": "user"}},
        {"id": "new", "kind": "summary", "text": "the newest note", "provenance": {"source": "user"}},
    ]}  # fmt: skip
    (project / "picked.json").write_text(json.dumps(context), encoding="utf-8")
    result = run("plan", profile_id("openai-completions"), TASK, "--now", NOW, "--context", "picked.json",
                 "--format", "json", cwd=project)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    plan = json.loads(result.stdout)["plan"]
    first = plan["messages"][0]
    assert first["source"] == "selected-context"
    text = first["content"][0]["text"]
    assert "the newest note" in text and "an older note" not in text
    assert "context.optional-omitted" in result.stderr


def test_a_bad_selected_context_is_refused_with_its_contract_code(run: Callable[..., Result], project: Path) -> None:
    (project / "picked.json").write_text(json.dumps({"maxBytes": 100, "items": "nope"}), encoding="utf-8")
    result = run("plan", profile_id("openai-completions"), TASK, "--context", "picked.json", cwd=project)
    assert result.exit_code == 1
    assert "the delegation request is invalid" in result.stderr and "selectedContext" in result.stderr


def test_unknown_profile_is_a_usage_error(run: Callable[..., Result], project: Path) -> None:
    result = run("plan", "nobody", TASK, cwd=project)
    assert result.exit_code == 2
    assert "no agent profile 'nobody'" in result.stderr and "via-openai-completions" in result.stderr


def test_an_unset_credential_variable_makes_the_profile_unusable(run: Callable[..., Result], project: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.delenv(KEY_VARIABLE)
    result = run("plan", profile_id("openai-completions"), TASK, cwd=project)
    assert result.exit_code == 1
    assert "Model stand-in/openai-completions-model has no configured authentication." in result.stderr


def test_an_existing_out_file_is_kept(run: Callable[..., Result], project: Path) -> None:
    (project / "plan.json").write_text("mine", encoding="utf-8")
    result = run("plan", profile_id("openai-completions"), TASK, "--out", "plan.json", cwd=project)
    assert result.exit_code == 2 and "--overwrite" in result.stderr
    assert (project / "plan.json").read_text() == "mine"
