"""Building bodies is offline and light: no socket is opened and no provider SDK is imported."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads

CASE = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "payload-same-model-replay"


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("network access during compile")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def _inputs() -> tuple[str, list[Any], Any, Any]:
    import json

    expected = json.loads((CASE / "expected.json").read_text(encoding="utf-8"))
    context = json.loads((CASE / "context.json").read_text(encoding="utf-8"))
    return expected["system"]["prompt"], expected["messages"]["messages"], context.get("tools"), "high"


def test_payloads_without_network(no_network: None) -> None:
    section = build_payloads(Prompt(*_inputs()))
    assert all("body" in entry for entry in section.values())


def test_compile_command_without_network(no_network: None) -> None:
    from click.testing import CliRunner

    from forgec.cli import cli

    args = ["compile", str(CASE / "stack.json"), "--context", str(CASE / "context.json"), "--target", "all"]
    outcome = CliRunner().invoke(cli, args)
    assert outcome.exit_code == 0, outcome.output


def test_hot_path_imports_no_sdk() -> None:
    code = (
        "import sys\n"
        "from forgec.emit import Prompt, build_payloads\n"
        "import forgec.emit.redact, forgec.fingerprint\n"
        "build_payloads(Prompt('S', [{'role': 'user', 'content': 'hi', 'timestamp': 1}], None, 'high'))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('openai', 'anthropic', 'httpx', 'pydantic')"
        " or m.startswith('google.genai')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
