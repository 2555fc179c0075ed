"""Everything but a good answer becomes one of the §4.9 statuses, never a traceback (profiles-exec.md §6.5).

One request, no retries: the stand-in counts what it received.  Timeouts and cancellations return
as soon as they happen, with the text that had arrived (``partial``).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from forgec.execute.transport import ProviderCall, send
from forgec.testing.provider_server import ProviderServer, Reply

from .conftest import APIS


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("status", [429, 500])
def test_an_http_error_fails_with_its_status_and_the_providers_message_once(
    api: str, status: int, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.error(status, "Too many requests, try later."))
    outcome = send(call_for(api))
    assert outcome.status == "failed" and outcome.partial
    assert outcome.error is not None
    assert outcome.error.to_json() == {"code": f"http.{status}", "message": "Too many requests, try later."}
    assert len(server.requests) == 1, "no retries"


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("malformation", ["json", "shape", "truncated"])
def test_a_malformed_stream_fails_with_a_clear_message(
    api: str, malformation: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.malformed(malformation))  # type: ignore[arg-type]
    outcome = send(call_for(api))
    assert outcome.status == "failed"
    assert outcome.error is not None and outcome.error.code == "transport"
    message = outcome.error.message
    if malformation == "truncated":
        assert message == "The response stream ended before the provider marked it complete."
        assert outcome.text == "Hello "  # what arrived is kept
    else:
        assert message.startswith(("Malformed response from the provider: ", "The response stream ended"))
    assert "Traceback" not in message
    assert len(server.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_a_stalled_stream_times_out_with_what_arrived(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.slow(5.0, "first then the rest"))
    started = time.monotonic()
    # 1.5 s, not less: the SDK's first request (client set-up, connection) must fit in it on a loaded
    # 2-core machine, or the first chunk never arrives in time (seen with google-genai at 0.4 s)
    outcome = send(call_for(api, timeout_s=1.5))
    assert time.monotonic() - started < 4.0
    assert outcome.status == "timed-out" and outcome.partial
    assert outcome.text == "first "
    assert outcome.enforced_timeout_ms == 1500
    assert outcome.reason == "no complete response within 1.5 s"
    assert outcome.error is None
    assert outcome.to_json()["enforcedTimeoutMs"] == 1500


@pytest.mark.parametrize("api", APIS)
def test_no_response_at_all_times_out(api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    server.reply(Reply.slow(5.0, before_headers=True))
    outcome = send(call_for(api, timeout_s=0.3))
    assert outcome.status == "timed-out" and outcome.text == ""
    assert 250 <= outcome.duration_ms < 2000


@pytest.mark.parametrize("api", APIS)
def test_the_cancel_event_aborts_the_stream(api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    server.reply(Reply.slow(5.0, "first then the rest"))
    cancel = threading.Event()
    outcome = send(call_for(api), on_text=lambda _: cancel.set(), cancel=cancel)
    assert outcome.status == "cancelled"
    assert outcome.reason == "cancelled by the caller" and not outcome.interrupted
    assert outcome.text == "first "
    assert outcome.duration_ms < 2000


def test_a_call_cancelled_before_it_starts_sends_nothing(
    server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    cancel = threading.Event()
    cancel.set()
    outcome = send(call_for("openai-completions"), cancel=cancel)
    assert outcome.status == "cancelled" and outcome.text == ""
    time.sleep(0.3)  # the worker had its chance to send
    assert server.requests == []


@pytest.mark.parametrize("api", APIS)
def test_ctrl_c_cancels_the_call(api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    """A real SIGINT, delivered while the stream is open, as a terminal's Ctrl-C would be."""
    server.reply(Reply.slow(5.0, "first then the rest"))
    outcome = send(call_for(api), on_text=lambda _: os.kill(os.getpid(), signal.SIGINT))
    assert outcome.status == "cancelled" and outcome.interrupted
    assert outcome.reason == "interrupted (Ctrl-C)"
    assert outcome.text == "first "


@pytest.mark.parametrize("api", APIS)
def test_a_length_stop_with_a_token_budget_is_limit_reached(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.length("cut off at"))
    outcome = send(call_for(api, token_budget=3))
    assert outcome.status == "limit-reached" and outcome.reached_limit == "tokenBudget"
    assert outcome.text == "cut off at" and outcome.partial
    assert outcome.to_json()["reachedLimit"] == "tokenBudget"


@pytest.mark.parametrize("api", APIS)
def test_a_length_stop_without_a_budget_is_completed_with_a_warning(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.length("cut off at"))
    outcome = send(call_for(api))
    assert outcome.status == "completed" and outcome.reached_limit is None
    assert outcome.stop_reason in ("length", "max_output_tokens", "max_tokens", "MAX_TOKENS")
    assert outcome.warnings == (
        f"The provider stopped at the output-token cap ({outcome.stop_reason}); the text may be cut off.",
    )


@pytest.mark.parametrize("api", APIS)
def test_an_unreachable_provider_is_a_transport_failure(api: str, call_for: Callable[..., ProviderCall]) -> None:
    with ProviderServer() as gone:
        base = gone.base_url(api)
    call = call_for(api)
    outcome = send(ProviderCall(api, base, call.model, call.body, api_key=call.api_key, timeout_s=5))
    assert outcome.status == "failed"
    assert outcome.error is not None and outcome.error.code == "transport"


def test_an_exception_in_on_text_is_the_callers_and_stops_the_call(
    server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    def boom(_: str) -> None:
        raise BrokenPipeError("stdout closed")

    with pytest.raises(BrokenPipeError):
        send(call_for("openai-completions"), on_text=boom)


@pytest.mark.parametrize("api", APIS)
def test_an_error_event_inside_the_stream_fails_the_call(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.stream_error("Overloaded, try again."))
    outcome = send(call_for(api))
    assert outcome.status == "failed" and outcome.error is not None
    assert "Overloaded, try again." in outcome.error.message
    # Gemini's error chunk carries its own status code, which its SDK raises as that HTTP error
    assert outcome.error.code == ("http.500" if api == "google-generative-ai" else "transport")
    assert outcome.text == "Hello "
    assert len(server.requests) == 1
