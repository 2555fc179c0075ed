"""The golden-file workflow as a new user meets it (issue: golden-file testing).

An empty folder with one stack, one context and a three-line test: ``pytest --snapshot-update``
writes a readable golden file, the next run passes, and editing one block of the stack fails with a
diff that names the message that changed.
"""

from __future__ import annotations

import json

import pytest

STACK = {
    "schemaVersion": 1,
    "id": "reviewer",
    "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "You review code."},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
        {"kind": "block", "id": "ask", "role": "user", "content": "Focus on {{focus}}."},
    ],
    "variables": {"focus": "tests"},
}
CONTEXT = """\
now: "2026-03-14T09:26:53+01:00"
timezone: Asia/Tokyo
messages:
  - {role: user, content: "Please look at retry.py", timestamp: 1773476001000}
"""
TEST = """\
def test_reviewer(forgec_compile, prompt_snapshot):
    assert forgec_compile("reviewer.json", context="ctx.yaml") == prompt_snapshot
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".json", reviewer=json.dumps(STACK, indent=2))
    pytester.makefile(".yaml", ctx=CONTEXT)
    pytester.makepyfile(test_my_stack_prompts=TEST)
    return pytester


def test_update_writes_a_readable_golden_file_and_the_next_run_passes(project: pytest.Pytester) -> None:
    first = project.runpytest("--snapshot-update", "-p", "no:cacheprovider")
    first.assert_outcomes(passed=1)
    golden = project.path / "__snapshots__" / "test_my_stack_prompts" / "test_reviewer.prompt.md"
    text = golden.read_text(encoding="utf-8")
    assert "## system prompt" in text and "You review code." in text
    assert "## message 2 · user · stack item ask" in text
    assert "Focus on tests." in text
    assert "## canonical JSON" in text

    second = project.runpytest("-p", "no:cacheprovider")
    second.assert_outcomes(passed=1)


def test_editing_a_block_fails_with_a_diff_naming_the_message(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update", "-p", "no:cacheprovider").assert_outcomes(passed=1)
    edited = json.loads(json.dumps(STACK))
    edited["items"][2]["content"] = "Focus on {{focus}} and naming."
    (project.path / "reviewer.json").write_text(json.dumps(edited, indent=2), encoding="utf-8")

    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "changed: message 2 · user · stack item ask" in output
    assert "-Focus on tests." in output
    assert "+Focus on tests and naming." in output


def test_target_returns_the_provider_request_body(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_body="""
def test_body(forgec_compile):
    body = forgec_compile("reviewer.json", context="ctx.yaml", target="anthropic-messages")
    assert body["model"] == "claude-sonnet-4-5"
    assert body["system"][0]["text"] == "You review code."
"""
    )
    project.runpytest("-p", "no:cacheprovider", "test_body.py").assert_outcomes(passed=1)


def test_a_missing_or_broken_stack_fails_the_test_instead_of_snapshotting_a_fallback(
    project: pytest.Pytester,
) -> None:
    (project.path / "broken.json").write_text('{"schemaVersion": 1, "id": "b", "items": [,]}', encoding="utf-8")
    project.makepyfile(
        test_typos="""
def test_missing(forgec_compile, prompt_snapshot):
    assert forgec_compile("nope.json", context="ctx.yaml") == prompt_snapshot

def test_broken(forgec_compile, prompt_snapshot):
    assert forgec_compile("broken.json", context="ctx.yaml") == prompt_snapshot

def test_broken_on_purpose(forgec_compile):
    report = forgec_compile("broken.json", context="ctx.yaml", allow_errors=True)
    assert report["validation"]["usable"] is False

def test_unknown_target(forgec_compile):
    forgec_compile("reviewer.json", context="ctx.yaml", target="openai")
"""
    )
    result = project.runpytest("--snapshot-update", "-p", "no:cacheprovider", "test_typos.py")
    result.assert_outcomes(passed=1, failed=3)
    output = result.stdout.str()
    assert "nope.json: no such stack file" in output
    assert "the stack has loader errors: Failed to parse JSON" in output
    assert "unknown target 'openai'" in output
    assert not (project.path / "__snapshots__" / "test_typos").exists()


def test_an_unknown_model_fails_the_test_with_one_line(project: pytest.Pytester) -> None:
    """``model="nope/x"`` used to end the test in a traceback through forgec's payload internals."""
    project.makepyfile(
        test_model="""
def test_model(forgec_compile):
    forgec_compile("reviewer.json", context="ctx.yaml", target="openai-responses", model="nope/x")
"""
    )
    result = project.runpytest("-p", "no:cacheprovider", "-rN", "test_model.py")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "forgec_compile: Unknown model: nope/x; known models: anthropic/claude-sonnet-4-5" in output
    assert "CatalogError" not in output and "Traceback" not in output
