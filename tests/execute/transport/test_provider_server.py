"""The loopback stand-in itself: where it listens, what it records, what it refuses, its command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest

from forgec.codecs.catalog import catalog_from_json
from forgec.execute.transport import ProviderCall, send
from forgec.testing.provider_server import (
    APIS,
    ProviderServer,
    Reply,
    credential_digest,
    error_body,
    last_user_text,
)

from .conftest import KEY


def _post(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if not isinstance(body, bytes) else body
    request = urllib.request.Request(url, data, {"Content-Type": "application/json", **(headers or {})}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_it_listens_on_loopback_only_with_a_base_url_per_api(server: ProviderServer) -> None:
    assert server.url == f"http://127.0.0.1:{server.port}"
    assert {api: server.base_url(api).removeprefix(server.url) for api in APIS} == {
        "anthropic-messages": "",
        "google-generative-ai": "/v1beta",
        "openai-completions": "/v1",
        "openai-responses": "/v1",
    }
    with pytest.raises(ValueError, match="unknown API"):
        server.base_url("nope")


def test_credentials_are_recorded_as_present_with_a_digest_only(server: ProviderServer) -> None:
    _post(server.url + "/v1/chat/completions", {"model": "m", "messages": [], "stream": True},
          {"Authorization": f"Bearer {KEY}", "X-Custom-Token": "tok-123", "X-Plain": "kept"})  # fmt: skip
    request = server.last_request
    assert request.headers["authorization"] == "[present]" and request.headers["x-custom-token"] == "[present]"
    assert request.headers["x-plain"] == "kept"
    assert request.credentials == {"authorization": credential_digest(KEY), "x-custom-token": credential_digest("tok-123")}
    assert request.credential_is(KEY) and request.credential_is(KEY, "Authorization")
    assert not request.credential_is(KEY, "x-custom-token") and not request.credential_is("other")
    assert KEY not in repr(request)


def test_a_key_in_the_query_is_recorded_the_same_way(server: ProviderServer) -> None:
    status, _ = _post(server.url + "/v1beta/models/gemini-x:streamGenerateContent?alt=sse&key=" + KEY,
                      {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})  # fmt: skip
    assert status == 200
    request = server.last_request
    assert request.query == {"alt": "sse", "key": "[present]"} and request.credential_is(KEY, "?key")
    assert request.api == "google-generative-ai" and request.model == "gemini-x"


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/v1/unknown", {}, 404, "forgec provider stand-in: no API at POST /v1/unknown"),
        ("/v1/chat/completions", b"[not json", 400, "The request body is not a JSON object."),
        ("/v1/chat/completions", {"model": "m", "messages": []}, 400,
         "The stand-in serves streaming requests only (pi-ai always streams)."),
    ],
)  # fmt: skip
def test_what_it_cannot_answer_is_an_error_in_the_apis_shape(
    server: ProviderServer, path: str, body: Any, status: int, message: str
) -> None:
    got, data = _post(server.url + path, body)
    assert got == status
    assert json.loads(data)["error"]["message"] == message


def test_a_required_key_refuses_other_keys_with_401(call_for: Any) -> None:
    with ProviderServer(api_key=KEY) as guarded:
        call = call_for("anthropic-messages")
        good = send(ProviderCall(call.api, guarded.base_url(call.api), call.model, call.body, api_key=KEY))
        bad = send(ProviderCall(call.api, guarded.base_url(call.api), call.model, call.body, api_key="sk-wrong-key-000"))
    assert good.status == "completed"
    assert bad.status == "failed" and bad.error is not None and bad.error.to_json() == {"code": "http.401", "message": "Invalid API key."}


@pytest.mark.parametrize("api", APIS)
def test_errors_use_each_apis_own_shape(api: str) -> None:
    body = error_body(api, 429, "slow")
    error = body["error"]
    assert error["message"] == "slow"
    if api == "anthropic-messages":
        assert body["type"] == "error" and error["type"] == "rate_limit_error"
    elif api == "google-generative-ai":
        assert error["code"] == 429 and error["status"] == "RESOURCE_EXHAUSTED"


@pytest.mark.parametrize(
    ("api", "body"),
    [
        ("openai-completions", {"messages": [{"role": "user", "content": "first"}, {"role": "assistant", "content": "x"},
                                             {"role": "user", "content": [{"type": "text", "text": "last"}]}]}),
        ("openai-responses", {"input": [{"role": "user", "content": [{"type": "input_text", "text": "last"}]}]}),
        ("anthropic-messages", {"messages": [{"role": "user", "content": "last"}]}),
        ("google-generative-ai", {"contents": [{"role": "user", "parts": [{"text": "last"}]}]}),
    ],
)  # fmt: skip
def test_the_echo_finds_the_last_user_message(api: str, body: dict[str, Any]) -> None:
    assert last_user_text(api, body) == "last"


def test_the_echoing_reply_repeats_what_the_user_said(server: ProviderServer, call_for: Any) -> None:
    server.reply(Reply.normal(echo=True))
    outcome = send(call_for("openai-completions"))
    assert outcome.text == 'Hello from the forgec provider stand-in. You said: "hi"'


def test_stopping_ends_a_slow_reply_at_once(call_for: Any) -> None:
    import time

    with ProviderServer(reply=Reply.slow(30.0, before_headers=True)) as slow:
        call = call_for("openai-responses")
        outcome = send(ProviderCall(call.api, slow.base_url(call.api), call.model, call.body, api_key=KEY, timeout_s=0.2))
        started = time.monotonic()
    assert outcome.status == "timed-out"
    assert time.monotonic() - started < 1.0


def test_the_command_prints_base_urls_and_serves_a_canned_reply(tmp_path: Any) -> None:
    """``python -m forgec.testing.provider_server --port 0``, as a newcomer runs it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "forgec.testing.provider_server", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(7)]
        assert lines[0].startswith("forgec provider stand-in on http://127.0.0.1:")
        urls = dict(line.split() for line in lines[3:7])
        assert set(urls) == set(APIS) and all(url.startswith("http://127.0.0.1:") for url in urls.values())
        catalog_text = "".join(iter(process.stdout.readline, "}\n")) + "}\n"
        catalog = json.loads(catalog_text[catalog_text.index("{"):])
        assert [m["baseUrl"] for m in catalog["models"]] == [urls[api] for api in APIS]
        assert len(catalog_from_json(catalog).models) == 4, "a valid model catalog"
        body = {"model": "m", "messages": [{"role": "user", "content": "Is anyone there?"}], "max_tokens": 50, "stream": True}
        outcome = send(ProviderCall("anthropic-messages", urls["anthropic-messages"], "m", body, api_key=KEY))
        assert outcome.status == "completed"
        assert outcome.text == 'Hello from the forgec provider stand-in. You said: "Is anyone there?"'
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    assert "POST /v1/messages anthropic-messages model=m credential in authorization" in err
    assert KEY not in err
