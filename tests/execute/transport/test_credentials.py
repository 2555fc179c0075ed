"""The API key is a value of the call: sent in its header, and nowhere else (profiles-exec.md §6.3).

A recognisable key is planted; the stand-in echoes it back in an error message, in the model's
text and in a stream's event, and it must not appear in any outcome, message, warning, event, log
record or printed output.  The SDKs' own environment variables are set to other values and must
not be read: the call's key goes to the call's base URL.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from forgec.execute.transport import ProviderCall, ProviderOutcome, send
from forgec.testing.provider_server import ProviderServer, Reply

from .conftest import APIS, KEY

ENV_DECOYS = {
    "OPENAI_API_KEY": "sk-env-decoy-openai",
    "OPENAI_ADMIN_KEY": "sk-env-decoy-admin",
    "OPENAI_ORG_ID": "org-env-decoy",
    "OPENAI_PROJECT_ID": "proj-env-decoy",
    "OPENAI_BASE_URL": "http://192.0.2.1/v1",
    "ANTHROPIC_API_KEY": "sk-ant-env-decoy",
    "ANTHROPIC_AUTH_TOKEN": "env-decoy-token",
    "ANTHROPIC_BASE_URL": "http://192.0.2.1",
    "GEMINI_API_KEY": "env-decoy-gemini",
    "GOOGLE_API_KEY": "env-decoy-google",
    "GOOGLE_GEMINI_BASE_URL": "http://192.0.2.1",
    "GOOGLE_GENAI_USE_VERTEXAI": "true",
}


def _everything(outcome: ProviderOutcome) -> str:
    """All the text an outcome carries, in every form a caller could print or save."""
    return "\n".join([repr(outcome), str(outcome.to_json()), repr(outcome.events)])


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "reply",
    [
        Reply.error(401, f"Incorrect API key provided: {KEY}. You can find your key at the dashboard."),
        Reply.normal(f"Your key is {KEY} and nothing else"),
        Reply.slow(8.0, f"{KEY} leaks"),
    ],
    ids=["in-an-error", "in-the-text", "before-a-timeout"],
)
def test_the_key_never_appears_in_an_outcome_a_log_or_the_output(
    api: str, reply: Reply, server: ProviderServer, call_for: Callable[..., ProviderCall],
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    caplog.set_level(logging.DEBUG)
    server.reply(reply)
    pieces: list[str] = []
    # only the slow reply is meant to time out: the others get time enough on a loaded machine
    outcome = send(call_for(api, timeout_s=1.0 if reply.kind == "slow" else 15.0), on_text=pieces.append)
    assert outcome.status in ("failed", "completed", "timed-out")
    assert KEY not in _everything(outcome)
    assert KEY not in "".join(pieces)
    assert KEY not in caplog.text
    out, err = capfd.readouterr()
    assert KEY not in out and KEY not in err
    assert server.last_request.credential_is(KEY), "the key was sent, in its header"
    if reply.kind == "error":
        assert outcome.error is not None and "[redacted]" in outcome.error.message


def test_the_call_does_not_show_its_key() -> None:
    call = ProviderCall("openai-completions", "http://127.0.0.1:1/v1", "m", {}, api_key=KEY)
    assert KEY not in repr(call) and KEY not in str(call)


@pytest.mark.parametrize("api", APIS)
def test_the_sdks_read_no_environment_variable_of_their_own(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in ENV_DECOYS.items():
        monkeypatch.setenv(name, value)
    outcome = send(call_for(api))
    assert outcome.status == "completed", outcome.error
    request = server.last_request  # the call's base URL, not the environment's
    assert request.credential_is(KEY)
    assert not any(request.credential_is(decoy) for decoy in ENV_DECOYS.values())
    assert request.header("openai-organization") is None and request.header("openai-project") is None


def test_a_short_placeholder_key_is_not_cut_out_of_the_text(
    server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    """A local server's dummy key ("none") is no secret; scrubbing it would mangle the answer."""
    server.reply(Reply.normal("none of this is secret"))
    outcome = send(call_for("openai-completions", api_key="none"))
    assert outcome.text == "none of this is secret"
