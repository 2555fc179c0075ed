"""Contexts are linted like stacks (issue 15, point 7): a conversation the context format accepts
but every provider body fails on is found by ``validate`` and ``preview`` at file:line:col, and
``compile``'s payload error names the message and why."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from forgec.emit.hazards import message_hazards
from tests.cli.helpers import CLEAN_STACK, write_json

_CONTEXT = """# a conversation written by hand
model: { provider: anthropic, id: claude-sonnet-4-5, api: anthropic-messages }
messages:
  - role: user
    content: hello
    timestamp: 1
  - role: assistant
    content:
      - { type: text, text: "hi" }
    timestamp: 2
  - role: user
    content:
      - { type: image, mimeType: image/png }
    timestamp: 3
"""


@pytest.fixture
def context(tmp_path: Path) -> Path:
    path = tmp_path / "ctx.yaml"
    path.write_text(_CONTEXT, encoding="utf-8")
    return path


def test_validate_finds_each_message_at_its_line(run, context: Path) -> None:
    result = run("validate", str(context), "--format", "concise")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    # the assistant turn without usage: at its role's value; the image without data: at the part
    assert lines[0].startswith(f"{context}:7:11: FG804 [error] Message 2: assistant message has no usage")
    assert lines[1].startswith(f"{context}:13:9: FG805 [error] Message 3: image has no data")
    assert lines[2] == "Found 2 errors, 0 warnings, 0 info in 1 file."


def test_validate_json_names_the_context_kind(run, context: Path) -> None:
    report = json.loads(run("validate", str(context), "--format", "json").output)
    (entry,) = report["files"]
    assert entry["kind"] == "context"
    assert [(d["code"], d["line"], d["column"], d["endColumn"]) for d in entry["diagnostics"]] == [
        ("FG804", 7, 11, 20),
        ("FG805", 13, 9, 45),
    ]


def test_a_context_format_error_is_positioned(run, tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text("messages: 3\nnow: yesterday\n", encoding="utf-8")
    lines = run("validate", str(path), "--format", "concise").output.splitlines()
    assert lines[0] == f"{path}:1:11: FG011 [error] messages must be an array of objects, got 3"
    assert lines[1].startswith(f"{path}:2:6: FG011 [error] now must be a date-time")


def test_the_shipped_example_context_is_clean(run) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "contexts" / "coding-session.yaml"
    result = run("validate", str(example))
    assert result.exit_code == 0, result.output
    assert "1 file checked" in result.output


def test_a_stack_is_never_taken_for_a_context(run, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "s.json", {**CLEAN_STACK, "messages": []})
    report = json.loads(run("validate", str(stack), "--format", "json").output)
    assert report["files"][0]["kind"] == "stack"


def test_preview_reports_them_before_compile(run, context: Path, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "s.json", CLEAN_STACK)
    result = run("preview", str(stack), "--context", str(context))
    assert result.exit_code == 1
    assert f"{context}:7:11: FG804 [error]" in result.output
    assert f"{context}:13:9: FG805 [error]" in result.output


def test_compile_error_names_the_message_and_why(run, context: Path, tmp_path: Path) -> None:
    stack = write_json(tmp_path / "s.json", CLEAN_STACK)
    result = run("compile", str(stack), "--context", str(context), "--target", "anthropic-messages")
    assert result.exit_code != 0
    # pi-ai's text unchanged, then which compiled message and why
    assert (
        "Cannot read properties of undefined (reading 'totalTokens') -- compiled message 2 (assistant): "
        "assistant message has no usage" in result.output
    )


def test_the_payload_report_keeps_pi_ais_error_text(context: Path, tmp_path: Path) -> None:
    from forgec.report import compile_inputs, load_inputs

    stack = write_json(tmp_path / "s.json", CLEAN_STACK)
    report = compile_inputs(load_inputs(stack, context), payloads=True).to_report()
    assert report["payloads"]["anthropic-messages"]["error"] == "Cannot read properties of undefined (reading 'totalTokens')"


def test_hazards_match_the_reference_payload_errors() -> None:
    """The shared case whose OpenAI bodies fail on a tool call without an id: found as FG806 on that message."""
    cases = Path(os.environ.get("FORGEC_SHARED_CASES", "")) / "history-tool-repair-dangling"
    if not cases.is_dir():
        cases = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "history-tool-repair-dangling"
    data = json.loads((cases / "context.json").read_text(encoding="utf-8"))
    expected = json.loads((cases / "expected.json").read_text(encoding="utf-8"))
    assert "reading 'includes'" in expected["payloads"]["openai-completions"]["error"]
    assert [(h.index, h.code) for h in message_hazards(data["messages"])] == [(3, "FG806")]


def test_usage_is_only_required_where_pi_ai_reads_it() -> None:
    messages = [
        {"role": "user", "content": "a", "timestamp": 1},
        {"role": "assistant", "content": [], "stopReason": "error", "timestamp": 2},  # not read
        {"role": "assistant", "content": [], "usage": None, "timestamp": 3},
        {"role": "assistant", "content": [], "usage": {"totalTokens": 5}, "timestamp": 4},
    ]
    assert [(h.index, h.code, h.reason.split(";")[0]) for h in message_hazards(messages)] == [
        (2, "FG804", "assistant message has usage: null"),
    ]
