"""Every emitted body is accepted by the official SDKs' request types (optional ``sdk`` extra).

The bodies are validated with pydantic against the SDKs' typed request params: ``openai``'s
``CompletionCreateParamsStreaming`` / ``ResponseCreateParamsStreaming``, ``anthropic``'s
``MessageCreateParamsStreaming`` and ``google-genai``'s ``GenerateContentConfig``/``Content``
models.  TypedDict validation ignores unknown keys, so top-level keys are checked separately; the
only key outside an SDK type is OpenRouter's ``reasoning`` object (an OpenAI-compatible extension).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads

from .scenarios import GEMINI, GPT, OPENROUTER, PNG, TOOLS, assistant, call, result, text, thinking, user

pytest.importorskip("pydantic")
openai_chat = pytest.importorskip("openai.types.chat.completion_create_params")
openai_responses = pytest.importorskip("openai.types.responses.response_create_params")
anthropic_params = pytest.importorskip("anthropic.types.message_create_params")
genai_types = pytest.importorskip("google.genai.types")

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
EXTRA_KEYS = {"openai-completions": {"reasoning"}}


def _typed(api: str) -> Any:
    return {
        "openai-completions": openai_chat.CompletionCreateParamsStreaming,
        "openai-responses": openai_responses.ResponseCreateParamsStreaming,
        "anthropic-messages": anthropic_params.MessageCreateParamsStreaming,
    }[api]


def check(api: str, body: dict[str, Any]) -> None:
    if api == "google-generative-ai":
        genai_types.GenerateContentConfig.model_validate(body["config"])
        for content in body["contents"]:
            genai_types.Content.model_validate(content)
        assert set(body) == {"model", "contents", "config"}
        return
    from pydantic import TypeAdapter

    typed = _typed(api)
    TypeAdapter(typed).validate_python(body)
    known = typed.__required_keys__ | typed.__optional_keys__ | EXTRA_KEYS.get(api, set())
    assert set(body) <= known, set(body) - known


def _scenarios() -> list[tuple[str, list[Any], Any, str | None]]:
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 900000}
    replay = [
        user([text("look"), PNG], ts=1),
        assistant([thinking("t", '{"type":"reasoning","id":"rs_1","summary":[]}'), text("a"), call("c1|fc_1")], who=GPT),
        result("c1|fc_1", [text("r"), PNG]),
        assistant([thinking("t", "reasoning"), text("b"), call("c2")], who=OPENROUTER, ts=4000),
        result("c2", [PNG], ts=5000),
        assistant([thinking("t", "c2ln"), text("c")], who=GEMINI, ts=6000, usage=usage),
        user("go", ts=7000),
    ]
    return [
        ("replay-off", replay, TOOLS, None),
        ("replay-high", replay, TOOLS, "high"),
        ("minimal", [user("x")], None, "minimal"),
        ("no-system", [user("")], [], "xhigh"),
    ]


@pytest.mark.parametrize(("name", "messages", "tools", "level"), _scenarios(), ids=lambda v: v if isinstance(v, str) else "")
def test_scenario_bodies_are_sdk_valid(name: str, messages: list[Any], tools: Any, level: str | None) -> None:
    section = build_payloads(Prompt("" if name == "no-system" else "S", messages, tools, level))
    for api, entry in section.items():
        check(api, entry["body"])


def _corpus() -> list[Path]:
    """Cases with provider payloads (an import that fails has none)."""
    return sorted(
        p
        for p in CASES.iterdir()
        if (p / "expected.json").is_file() and '"payloads"' in (p / "expected.json").read_text(encoding="utf-8")
    )


@pytest.mark.parametrize("case", _corpus(), ids=lambda p: p.name)
def test_corpus_bodies_are_sdk_valid(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    context = json.loads((case / "context.json").read_text(encoding="utf-8"))
    section = build_payloads(Prompt(expected["system"]["prompt"], expected["messages"]["messages"], context.get("tools"), context.get("thinkingLevel")))
    for api, entry in section.items():
        if "body" in entry:
            check(api, entry["body"])


def test_the_check_rejects_malformed_bodies() -> None:
    from pydantic import ValidationError

    body = build_payloads(Prompt("S", [user("x")], None, None))["anthropic-messages"]["body"]
    with pytest.raises(ValidationError):
        check("anthropic-messages", {**body, "max_tokens": "lots"})
    with pytest.raises(AssertionError):
        check("anthropic-messages", {**body, "temperature_typo": 1})
