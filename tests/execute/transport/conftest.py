"""Fixtures of the transport tests: the loopback stand-in, compiled bodies, and a call builder.

Every test talks to :class:`~forgec.testing.provider_server.ProviderServer` on 127.0.0.1 through
the real SDKs; nothing reaches the internet.  The bodies are what ``forgec compile`` prints for the
example project's stacks, so "the server received the compile body" is checked on the real thing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from forgec.execute.transport import ProviderCall, send
from forgec.testing.provider_server import ProviderServer

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
APIS = ("openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai")
#: a recognisable planted key: it must never show up in an outcome, a message, a log or the output
KEY = "sk-forgec-PLANTED-7f3a9c1e5b"
#: the compiles the round-trip tests send: (stack, extra ``forgec compile`` options)
COMPILES = {
    "storyteller": (".pi/forge/prompt-stacks/storyteller.json", ()),
    "reviewer-high": (".pi/forge/prompt-stacks/code-reviewer.yaml",
                      ("--context", "contexts/coding-session.yaml", "--thinking", "high")),
}  # fmt: skip


def compile_body(stack: str, target: str, *options: str) -> dict[str, Any]:
    """The body ``forgec compile STACK --target TARGET`` prints, run in the example project."""
    from forgec.cli import cli

    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(EXAMPLES)
        result = CliRunner().invoke(cli, ["compile", stack, "--target", target, *options], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert isinstance(body, dict)
    return body


@pytest.fixture(scope="session")
def bodies() -> dict[tuple[str, str], dict[str, Any]]:
    """(compile name, API) -> the compile's body."""
    return {(name, api): compile_body(stack, api, *options) for name, (stack, options) in COMPILES.items() for api in APIS}


@pytest.fixture(scope="session", autouse=True)
def _warm_sdks() -> None:
    """Import the SDKs once, so the first test's short timeout measures the exchange, not the import."""
    with ProviderServer() as server:
        for api in APIS:
            send(ProviderCall(api, server.base_url(api), "warm-up", _minimal(api), api_key=KEY, timeout_s=30))


def _minimal(api: str) -> dict[str, Any]:
    if api == "google-generative-ai":
        return {"model": "m", "contents": [{"role": "user", "parts": [{"text": "hi"}]}], "config": {}}
    if api == "openai-responses":
        return {"model": "m", "input": [{"role": "user", "content": "hi"}], "stream": True}
    if api == "anthropic-messages":
        return {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8, "stream": True}
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True}


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as stand_in:
        yield stand_in


@pytest.fixture
def call_for(server: ProviderServer) -> Callable[..., ProviderCall]:
    """``call_for(api, body=None, **fields)``: a call of ``api`` to the stand-in (a minimal body by default)."""

    def make(api: str, body: dict[str, Any] | None = None, **fields: Any) -> ProviderCall:
        body = body if body is not None else _minimal(api)
        fields.setdefault("api_key", KEY)
        fields.setdefault("timeout_s", 10.0)
        return ProviderCall(api, server.base_url(api), str(body.get("model", "m")), body, **fields)

    return make
