"""``forgec compile`` and ``forgec fingerprint``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from forgec.cli import cli

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(cli, list(args), input=input)
    return outcome.exit_code, outcome.stdout, outcome.stderr


def test_fingerprint_plain_json(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"z":1,"a":{"d":2,"b":1}}', encoding="utf-8")
    code, out, _ = run("fingerprint", "--canonical", str(path))
    assert code == 0
    assert out == (
        f"sha256:v1:7abf5da5469eb969a507f9772e693effee5ed11b4ad9dcdccbe160d292dfcd68  {path}\n"
        '{"a":{"b":1,"d":2},"z":1}\n'
    )


def test_fingerprint_profile_and_stdin(tmp_path: Path) -> None:
    profile = tmp_path / "reviewer.json"
    profile.write_text(
        json.dumps({"promptStack": None, "thinkingLevel": "high", "model": {"id": "claude-sonnet-4-5",
                    "provider": " anthropic "}, "name": "Reviewer", "id": "reviewer",
                    "type": "pi-forge.agent-profile", "schemaVersion": 1}),
        encoding="utf-8",
    )
    code, out, _ = run("fingerprint", str(profile))
    assert out.startswith("sha256:v1:c6d6728a2d22b7b77ab94292103ae066759f9136b2345c977086ac3968a66a93")
    code, out, _ = run("fingerprint", "-", input='"fixture"')
    assert code == 0 and out.startswith("sha256:v1:b086de7b32510701e873f3d4ae742917ca1cc1141ffe4a8387d604ef474ef9e4")


def test_fingerprint_errors(tmp_path: Path) -> None:
    code, _, err = run("fingerprint", str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json" in err
    broken = tmp_path / "b.json"
    broken.write_text("{", encoding="utf-8")
    # a file that cannot be parsed is a finding (exit 1, as validate); only unreadable files are exit 2
    code, _, err = run("fingerprint", str(broken))
    assert code == 1 and "Failed to parse JSON" in err


def test_fingerprint_stack_uses_the_normalised_stack() -> None:
    case = CASES / "loader-legacy-fields"
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    code, out, _ = run("fingerprint", str(case / "stack.json"))
    assert code == 0
    assert out.split()[0] == expected["fingerprints"]["promptStack"]


def test_compile_all_reproduces_payloads() -> None:
    case = CASES / "payload-thinking-medium"
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    code, out, _ = run("compile", str(case / "stack.json"), "--context", str(case / "context.json"), "--target", "all")
    assert code == 0
    assert json.loads(out) == expected["payloads"]


def test_compile_one_target_with_redaction(tmp_path: Path) -> None:
    case = CASES / "example-default"
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    out_file = tmp_path / "body.json"
    args = ["compile", str(case / "stack.json"), "--context", str(case / "context.json")]
    code, _, err = run(*args, "--model", "openai/gpt-5.1", "--out", str(out_file), "--redact")
    assert code == 0
    assert json.loads(out_file.read_text(encoding="utf-8")) == expected["payloads"]["openai-responses"]["body"]
    assert "chars" in err
    code, _, err = run(*args, "--target", "anthropic-messages", "--model", "openai/gpt-5.1")
    assert code == 2 and "openai-responses" in err
    code, _, err = run(*args, "--model", "openai/gpt-9")
    assert code == 2 and "Unknown model: openai/gpt-9" in err


def test_compile_reports_pi_ai_failures() -> None:
    case = CASES / "history-tool-repair-dangling"
    args = ["compile", str(case / "stack.json"), "--context", str(case / "context.json")]
    code, _, err = run(*args, "--target", "openai-responses")
    assert code == 1 and "FG801" in err
    assert run(*args, "--target", "anthropic-messages")[0] == 0


def test_redact_leaks_no_planted_secret_in_any_provider_body(tmp_path: Path) -> None:
    """Issue 13 family 15: tool-call arguments with ``api_key`` and ``Authorization`` survived
    ``--redact`` in both OpenAI bodies, where ``arguments`` is a JSON string."""
    planted = {
        "api_key": "PLANTED-KEY-1",
        "Authorization": "PLANTED-AUTH-2",
        "note": "sk-PLANTEDPLANTEDPLANTED3",
        "header": "Bearer PLANTED4abcdefgh",
    }
    context = {"messages": [
        {"role": "user", "content": "hi", "timestamp": 1},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "t1", "name": "read", "arguments": planted}],
         "timestamp": 2, "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}},
        {"role": "toolResult", "toolCallId": "t1", "toolName": "read", "timestamp": 3,
         "content": [{"type": "text", "text": "-----BEGIN PRIVATE KEY-----\nPLANTED5\n-----END PRIVATE KEY-----"}]},
    ]}  # fmt: skip
    stack = {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "s", "items": [
        {"kind": "block", "id": "b", "role": "system", "content": "x"},
        {"kind": "slot", "id": "h", "slot": "chat-history"},
    ]}  # fmt: skip
    (tmp_path / "s.json").write_text(json.dumps(stack), encoding="utf-8")
    (tmp_path / "c.json").write_text(json.dumps(context), encoding="utf-8")
    args = ["compile", str(tmp_path / "s.json"), "--context", str(tmp_path / "c.json")]
    for target in ("openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"):
        code, plain, _ = run(*args, "--target", target)
        assert code == 0 and "PLANTED-KEY-1" in plain  # planted where the body carries tool calls
        code, body, _ = run(*args, "--target", target, "--redact")
        assert code == 0, target
        assert "PLANTED" not in body, (target, body)
        assert "[redacted]" in body
