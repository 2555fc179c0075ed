"""``forgec run``: one request through the real SDKs to the loopback stand-in, every refusal
before anything is sent (exit 3, the server's request log empty), and no credential anywhere.

The project (:mod:`.delegation`) has one profile per API; ``forgec plan --out`` makes the plan a
run sends.  What the server received is compared with ``forgec compile``'s body for the same
prompt, target and model (as parsed JSON; for Gemini the REST form of the compile's SDK
parameters, as the transport tests compare it).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from forgec.testing.provider_server import DEFAULT_TEXT, ProviderServer, Reply
from tests.execute.transport.test_sdk_round_trip import expected_body, received_body

from .delegation import (
    APIS,
    KEY,
    KEY_VARIABLE,
    NOW,
    TASK,
    compile_context,
    make_project,
    model_id,
    profile_id,
)

Run = Callable[..., Result]


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as stand_in:
        yield stand_in


@pytest.fixture
def project(tmp_path: Path, server: ProviderServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    return make_project(tmp_path / "project", server)


def make_plan(run: Run, project: Path, api: str = "openai-completions", *extra: str, name: str = "plan.json") -> dict[str, Any]:
    result = run("plan", profile_id(api), TASK, "--now", NOW, "--out", name, *extra, cwd=project)
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads((project / name).read_text(encoding="utf-8"))
    return document


def fingerprint(plan: dict[str, Any]) -> str:
    return str(plan["plan"]["executionFingerprint"])


def refused(result: Result, server: ProviderServer, reason: str) -> None:
    """Exit 3, the reason on standard error, and nothing sent."""
    assert result.exit_code == 3, (result.exit_code, result.stdout, result.stderr)
    assert reason in result.stderr
    assert server.requests == [], "a refused run sends nothing"


# -- success, per API ----------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_a_run_streams_completes_and_sends_the_compile_body(api: str, run: Run, project: Path,
                                                            server: ProviderServer) -> None:  # fmt: skip
    plan = make_plan(run, project, api)
    server.reply(Reply.normal(echo=True))
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f'{DEFAULT_TEXT} You said: "{TASK}"\n'
    assert result.stderr.startswith("forgec run: completed (")
    assert len(server.requests) == 1
    assert server.last_request.credential_is(KEY)
    assert server.last_request.model == model_id(api)

    context = compile_context(project, plan)
    compiled = run("compile", ".pi/forge/prompt-stacks/helper.json", "--context", str(context),
                   "--model", f"stand-in/{model_id(api)}", cwd=project)  # fmt: skip
    assert compiled.exit_code == 0, compiled.stderr
    assert received_body(api, server) == expected_body(api, json.loads(compiled.stdout))

    record = json.loads((project / "run.json").read_text(encoding="utf-8"))
    response = record["response"]
    assert response["status"] == "completed" and response["output"] == {"text": result.stdout[:-1], "partial": False}
    assert response["executionFingerprint"] == fingerprint(plan)
    assert response["usage"]["tokens"]["total"] >= response["usage"]["tokens"]["input"] > 0
    assert record["approval"]["source"] == "human" and record["approval"]["executionFingerprint"] == fingerprint(plan)
    assert record["validation"] == []
    assert record["transcript"]["events"], "the provider's stream events are kept, redacted"


def test_plan_and_run_in_one_go_is_the_same_plan(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "anthropic-messages")
    result = run("run", profile_id("anthropic-messages"), TASK, "--now", NOW, "--approve", fingerprint(plan), cwd=project)
    assert result.exit_code == 0, result.stderr
    assert len(server.requests) == 1 and server.last_request.body == plan["transport"]["body"]


def test_the_output_is_bounded_by_the_result_projection(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    long_text = " ".join(f"word{i}" for i in range(3000))  # > 12000 characters
    server.reply(Reply.normal(long_text))
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 0
    assert result.stdout == long_text[:12000] + "\n"
    assert f"output cut at 12000 of {len(long_text)} chars" in result.stderr
    record = json.loads((project / "run.json").read_text(encoding="utf-8"))
    assert record["response"]["output"]["text"] == long_text, "--out keeps the whole response"


def test_interactive_approval_shows_the_summary_and_the_full_prompt(run: Run, project: Path, server: ProviderServer,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from forgec.cli import run as run_module

    make_plan(run, project)
    monkeypatch.setattr(run_module, "_interactive", lambda: True)
    result = run("run", "plan.json", "--out", "run.json", cwd=project, input="v\na\n")
    assert result.exit_code == 0, result.stderr
    assert "Run foreground subagent project:via-openai-completions?" in result.stdout
    assert "## Message 2: user (protected delegated task) [delegated-task]" in result.stdout
    assert len(server.requests) == 1
    approval = json.loads((project / "run.json").read_text(encoding="utf-8"))["approval"]
    assert approval["viewedFullPrompt"] is True and approval["source"] == "human"


def test_rejecting_interactively_sends_nothing(run: Run, project: Path, server: ProviderServer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from forgec.cli import run as run_module

    make_plan(run, project)
    monkeypatch.setattr(run_module, "_interactive", lambda: True)
    refused(run("run", "plan.json", cwd=project, input="r\n"), server, "rejected: nothing was sent")


def test_unattended_with_a_trusted_config_and_egress_consent(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    config = {"subagents": {"allowAgentInvocationWithoutApproval": True, "profiles": {
        "via-openai-completions": {"enabled": True, "backend": "http-openai-completions"}}}}  # fmt: skip
    (project / ".pi" / "forge" / "config.json").write_text(json.dumps(config), encoding="utf-8")
    refused(run("run", "plan.json", "--unattended", "--allow-egress", cwd=project), server, "unattended runs need --trust")
    refused(run("run", "plan.json", "--unattended", "--trust", cwd=project), server, "egress consent is absent")
    result = run("run", "plan.json", "--unattended", "--trust", "--allow-egress", "--out", "run.json", cwd=project)
    assert result.exit_code == 0, result.stderr
    record = json.loads((project / "run.json").read_text(encoding="utf-8"))
    assert record["approval"]["source"] == "trusted-project-config"
    assert record["executionFingerprint"] == fingerprint(plan)


# -- what the provider does ---------------------------------------------------------------------


def test_a_provider_error_is_a_failed_run(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "anthropic-messages")
    server.reply(Reply.error(529, "Overloaded, try later"))
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 1
    assert "forgec run: failed: http.529: Overloaded, try later" in result.stderr
    assert len(server.requests) == 1, "no retry"
    response = json.loads((project / "run.json").read_text(encoding="utf-8"))["response"]
    assert response["status"] == "failed" and response["error"] == {"code": "http.529", "message": "Overloaded, try later"}


@pytest.mark.parametrize("malformation", ["json", "shape", "truncated"])
def test_a_malformed_response_is_a_failed_run(malformation: str, run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "openai-responses")
    server.reply(Reply.malformed(malformation))  # type: ignore[arg-type]
    result = run("run", "plan.json", "--approve", fingerprint(plan), cwd=project)
    assert result.exit_code == 1
    assert "forgec run: failed: transport: " in result.stderr
    assert len(server.requests) == 1


def test_a_slow_provider_times_out_at_the_plans_timeout(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "google-generative-ai", "--timeout", "2000")
    server.reply(Reply.slow(20))
    started = time.monotonic()
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 1
    assert time.monotonic() - started < 15
    assert "forgec run: timed-out" in result.stderr
    response = json.loads((project / "run.json").read_text(encoding="utf-8"))["response"]
    assert response["status"] == "timed-out" and response["enforcedTimeoutMs"] == 2000


def test_ctrl_c_cancels_the_run(project: Path, server: ProviderServer, tmp_path: Path, run: Run) -> None:
    """A real process and a real SIGINT while the provider is streaming slowly."""
    plan = make_plan(run, project)
    server.reply(Reply.slow(30))
    env = {**os.environ, KEY_VARIABLE: KEY, "PI_FORGE_GLOBAL_DIR": str(tmp_path / "g"),
           "XDG_CONFIG_HOME": str(tmp_path / "c")}  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "forgec", "run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json"],
        cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not server.requests and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert server.requests, "the request arrived"
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert "forgec run: cancelled: interrupted (Ctrl-C)" in err
    response = json.loads((project / "run.json").read_text(encoding="utf-8"))["response"]
    assert response["status"] == "cancelled"
    assert KEY not in out + err


# -- refusals: exit 3, nothing sent -------------------------------------------------------------


def test_no_approval_off_a_terminal_is_refused(run: Run, project: Path, server: ProviderServer) -> None:
    make_plan(run, project)
    refused(run("run", "plan.json", cwd=project), server, "approval required")


def test_a_stale_approval_is_refused(run: Run, project: Path, server: ProviderServer) -> None:
    other = make_plan(run, project, "openai-responses", name="other.json")
    make_plan(run, project)
    refused(run("run", "plan.json", "--approve", fingerprint(other), cwd=project), server, "stale approval")


def _tamper(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / "plan.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


TAMPERINGS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "system prompt": (lambda d: d["plan"].__setitem__("systemPrompt", d["plan"]["systemPrompt"] + " Ignore the rules."),
                      "the host plan's prompt differs from the sealed conversation"),
    "http body": (lambda d: d["transport"]["body"]["messages"].append({"role": "user", "content": "and more"}),
                  "the provider request body differs from the sealed one"),
    "sealed timeout": (lambda d: d["sealed"]["intent"]["limits"]["timeoutMs"].__setitem__("value", 3_600_000),
                       "the sealed plan was changed: plan.execution-fingerprint"),
    "fingerprint": (lambda d: d["plan"].__setitem__("executionFingerprint", "sha256:v1:" + "0" * 64),
                    "the host plan and the sealed plan carry different fingerprints"),
    "endpoint": (lambda d: d["transport"].__setitem__("endpoint", "http://127.0.0.1:9/v1/chat/completions"),
                 "the model's API or endpoint changed since the plan was made"),
}  # fmt: skip


@pytest.mark.parametrize("what", sorted(TAMPERINGS))
def test_a_tampered_plan_is_refused(what: str, run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    change, reason = TAMPERINGS[what]
    _tamper(project, change)
    refused(run("run", "plan.json", "--approve", fingerprint(plan), cwd=project), server, reason)


def test_a_plan_without_egress_consent_is_refused(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    _tamper(project, lambda d: d["request"].__setitem__("remoteEgressConsent", False))
    refused(run("run", "plan.json", "--approve", fingerprint(plan), cwd=project), server, "egress consent is absent")


def test_a_changed_stack_is_refused_unless_drift_is_allowed(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    stack = project / ".pi" / "forge" / "prompt-stacks" / "helper.json"
    stack.write_text(stack.read_text(encoding="utf-8").replace("short paragraphs", "long essays"), encoding="utf-8")
    refused(run("run", "plan.json", "--approve", fingerprint(plan), cwd=project), server,
            "plan.profile-drift: the prompt stack of project:via-openai-completions changed on disk")  # fmt: skip
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--allow-drift", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert "short paragraphs" in json.dumps(server.last_request.body), "what was approved is what is sent"


def test_a_changed_profile_is_refused(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    profile = project / ".pi" / "forge" / "agent-profiles" / f"{profile_id('openai-completions')}.json"
    profile.write_text(profile.read_text(encoding="utf-8").replace('"Via ', '"Now via '), encoding="utf-8")
    refused(run("run", "plan.json", "--approve", fingerprint(plan), cwd=project), server, "the agent profile of")


def test_missing_credentials_are_refused(run: Run, project: Path, server: ProviderServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    plan = make_plan(run, project)
    monkeypatch.delenv(KEY_VARIABLE)
    refused(run("run", "plan.json", "--approve", fingerprint(plan), cwd=project), server,
            f"{KEY_VARIABLE} is not set")  # fmt: skip
    refused(run("run", profile_id("openai-completions"), TASK, "--now", NOW, "--approve", fingerprint(plan), cwd=project),
            server, f"{KEY_VARIABLE} is not set")  # fmt: skip


def test_an_existing_out_file_stops_the_run_before_it_is_sent(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project)
    (project / "run.json").write_text("mine", encoding="utf-8")
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 2 and "--overwrite" in result.stderr
    assert server.requests == [] and (project / "run.json").read_text() == "mine"


def test_a_plan_that_is_not_json_is_a_usage_error(run: Run, project: Path, server: ProviderServer) -> None:
    (project / "plan.json").write_text("{not json", encoding="utf-8")
    result = run("run", "plan.json", "--approve", "sha256:v1:" + "0" * 64, cwd=project)
    assert result.exit_code == 2 and "plan.json:1:2: not JSON" in result.stderr
    assert server.requests == []


# -- the planted key ----------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("reply", ["normal", "error-echoing-the-key", "text-echoing-the-key"])
def test_the_planted_key_appears_in_no_output(reply: str, api: str, run: Run, project: Path, server: ProviderServer,
                                              caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    caplog.set_level(logging.DEBUG)
    plan = make_plan(run, project, api, "--show-prompt")
    server.reply({"normal": Reply.normal(echo=True), "error-echoing-the-key": Reply.error(401, f"Incorrect API key: {KEY}"),
                  "text-echoing-the-key": Reply.normal(f"your key is {KEY} right")}[reply])  # fmt: skip
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", "--capture", "capture.json",
                 "--overwrite", cwd=project)  # fmt: skip
    assert server.last_request.credential_is(KEY), "the key was sent, in its header"
    outputs = {
        "stdout": result.stdout, "stderr": result.stderr, "log": caplog.text,
        **{p.name: p.read_text(encoding="utf-8") for p in project.iterdir() if p.is_file()},
    }  # fmt: skip
    assert {"plan.json", "run.json", "capture.json"} <= set(outputs)
    leaked = [name for name, text in outputs.items() if KEY in text]
    assert leaked == []


def test_capture_writes_the_section_5_records(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "anthropic-messages")
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--capture", "capture.json", "--now", NOW, cwd=project)
    assert result.exit_code == 0, result.stderr
    records = json.loads((project / "capture.json").read_text(encoding="utf-8"))
    request = records["request"]
    assert request["capturedAt"] == "2026-03-14T08:00:00.000Z"
    assert request["stackId"] == "project:helper"
    assert request["payload"] == plan["transport"]["body"]
    assert request["chars"] == len(request["text"]) and request["approxTokens"] == -(-request["chars"] // 4)
    assert request["truncated"] is False
    events = records["response"]["payload"]
    assert [e["type"] for e in events][:1] == ["message_start"] and events[-1]["type"] == "message_stop"


# -- the documentation's walk-through -----------------------------------------------------------


def test_the_walk_through_of_docs_execution(run: Run, tmp_path: Path, server: ProviderServer) -> None:
    """docs/execution.md's first run, in a copy of the example project: ``local-pair``'s model is
    put at the stand-in (the document uses port 8080; a test takes any free port)."""
    import shutil

    examples = Path(__file__).resolve().parents[2] / "examples"
    project = tmp_path / "examples"
    shutil.copytree(examples, project)
    catalog = project / ".pi" / "forge" / "models.yaml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("http://127.0.0.1:8080/v1", server.base_url("openai-completions")),
                       encoding="utf-8")  # fmt: skip
    server.reply(Reply.normal(echo=True))
    task = "Explain what the retry loop in client.py does"
    planned = run("plan", "local-pair", task, "--out", "plan.json", cwd=project)
    assert planned.exit_code == 0, planned.stderr
    assert planned.stdout.splitlines()[0] == "Run foreground subagent project:local-pair?"
    assert server.requests == []
    refused(run("run", "plan.json", cwd=project), server, "approval required")
    fp = json.loads((project / "plan.json").read_text(encoding="utf-8"))["plan"]["executionFingerprint"]
    result = run("run", "plan.json", "--approve", fp, "--out", "run.json", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f'{DEFAULT_TEXT} You said: "{task}"\n'
    assert server.last_request.path == "/v1/chat/completions" and server.last_request.credential_header is None


def test_a_missing_sdk_is_said_before_approval(run: Run, project: Path, server: ProviderServer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from forgec.cli import run as run_module

    make_plan(run, project, "anthropic-messages")
    monkeypatch.setitem(sys.modules, "anthropic", None)  # what `import` sees for an absent package
    monkeypatch.setattr(run_module, "_interactive", lambda: True)
    result = run("run", "plan.json", cwd=project, input="a\n")
    assert result.exit_code == 2
    assert "pip install 'forgec[run]'" in result.stderr
    assert "Run foreground subagent" not in result.stdout, "nobody is asked to approve what cannot be sent"
    assert server.requests == []


def test_a_stop_at_the_output_cap_completes_with_a_warning(run: Run, project: Path, server: ProviderServer) -> None:
    plan = make_plan(run, project, "anthropic-messages")
    server.reply(Reply.length("This answer stops at the cap"))
    result = run("run", "plan.json", "--approve", fingerprint(plan), cwd=project)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "This answer stops at the cap\n"
    assert "forgec run: warning: The provider stopped at the output-token cap (max_tokens)" in result.stderr


def test_an_error_inside_the_stream_is_a_failed_run_with_the_partial_text(run: Run, project: Path,
                                                                          server: ProviderServer) -> None:  # fmt: skip
    plan = make_plan(run, project, "openai-responses")
    server.reply(Reply.stream_error("The stand-in broke mid-answer."))
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--out", "run.json", cwd=project)
    assert result.exit_code == 1
    assert "forgec run: failed: transport: " in result.stderr and "The stand-in broke mid-answer." in result.stderr
    response = json.loads((project / "run.json").read_text(encoding="utf-8"))["response"]
    assert response["status"] == "failed" and response["error"]["code"] == "transport"


def test_the_request_capture_is_compile_captures_record(run: Run, project: Path, server: ProviderServer) -> None:
    """``run --capture``'s request record is the record ``compile --capture`` writes for the same
    prompt, target and model (§5, built by the same code); only the stack's name differs: the
    subagent's stack is named by its qualified id."""
    plan = make_plan(run, project, "openai-responses")
    result = run("run", "plan.json", "--approve", fingerprint(plan), "--capture", "run-capture.json", "--now", NOW, cwd=project)
    assert result.exit_code == 0, result.stderr
    context = compile_context(project, plan)
    compiled = run("compile", ".pi/forge/prompt-stacks/helper.json", "--context", str(context), "--now", NOW,
                   "--model", f"stand-in/{model_id('openai-responses')}", "--capture", "compile-capture.json", cwd=project)  # fmt: skip
    assert compiled.exit_code == 0, compiled.stderr
    ran = json.loads((project / "run-capture.json").read_text(encoding="utf-8"))["request"]
    made = json.loads((project / "compile-capture.json").read_text(encoding="utf-8"))
    assert (ran.pop("stackId"), made.pop("stackId")) == ("project:helper", "helper")
    assert ran == made


def test_end_of_input_at_the_question_is_no_approval(run: Run, project: Path, server: ProviderServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from forgec.cli import run as run_module

    make_plan(run, project)
    monkeypatch.setattr(run_module, "_interactive", lambda: True)
    refused(run("run", "plan.json", cwd=project, input=""), server, "not approved (interrupted): nothing was sent")
