"""The SDKs are the optional ``run`` extra: without one, sending says how to install it."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from forgec.errors import ForgecError, UsageError
from forgec.execute.transport import MissingSdkError, ProviderCall, send

from .conftest import APIS

SDK_MODULES = {
    "openai-completions": "openai",
    "openai-responses": "openai",
    "anthropic-messages": "anthropic",
    "google-generative-ai": "google.genai",
}


@pytest.mark.parametrize("api", APIS)
def test_a_missing_sdk_names_the_extra_to_install(
    api: str, call_for: Callable[..., ProviderCall], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, SDK_MODULES[api], None)  # what `import` sees for an absent package
    with pytest.raises(MissingSdkError) as raised:
        send(call_for(api))
    message = str(raised.value)
    assert "pip install 'forgec[run]'" in message
    assert api in message
    assert isinstance(raised.value, ForgecError)


def test_an_api_without_a_transport_is_a_usage_error(call_for: Callable[..., ProviderCall]) -> None:
    call = call_for("openai-completions")
    with pytest.raises(UsageError, match="No transport for the bedrock-converse API"):
        send(ProviderCall("bedrock-converse", call.base_url, "m", {}, api_key="k"))


def test_the_run_extra_lists_the_three_sdks() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    names = sorted(requirement.split(">")[0].split("=")[0].strip() for requirement in extras["run"])
    assert names == ["anthropic", "google-genai", "openai"]
    assert extras["run"] == extras["sdk"], "the same bounds as the test extra"


def test_importing_the_transport_loads_no_sdk() -> None:
    import subprocess

    code = ("import sys, forgec.execute.transport as t; "
            "print(sorted(m for m in ('openai', 'anthropic', 'google.genai') if m in sys.modules))")  # fmt: skip
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_a_timeout_must_be_positive() -> None:
    with pytest.raises(UsageError, match="timeout_s must be positive"):
        ProviderCall("openai-completions", "http://127.0.0.1:1", "m", {}, timeout_s=0)
