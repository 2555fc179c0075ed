"""A compiled body goes through each API's official SDK to the loopback stand-in and back.

The issue's requirement: the JSON body the server receives equals ``forgec compile``'s body for
the same prompt, target and model, compared as parsed JSON.  For the three HTTP APIs that is the
body itself.  For ``google-generative-ai`` the compile prints pi-ai's SDK parameters
``{model, contents, config}``, which the google-genai SDK turns into the REST body; what is
compared there is :func:`gemini_rest_body` of the compile's parameters -- ``contents`` unchanged;
``config.systemInstruction`` as ``{"parts": [{"text": …}], "role": "user"}``; ``tools`` and
``toolConfig`` at the top; every other ``config`` member under ``generationConfig``; ``model`` in
the URL -- with field names spelt in lowerCamelCase on both sides (the Python SDK writes some as
snake_case, ``parameters_json_schema``, ``thinking_budget``, ``mime_type``: the same protobuf field
to the Gemini API) but never inside the members that hold user data (``args``, ``response``,
``parametersJsonSchema``), which must arrive byte-for-byte as parsed JSON.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from forgec.execute.transport import ProviderCall, send
from forgec.testing.provider_server import DEFAULT_TEXT, ProviderServer, Reply

from .conftest import APIS, COMPILES, KEY

#: the path each API's SDK posts to, under the stand-in's base URL
PATHS = {
    "openai-completions": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic-messages": "/v1/messages",
    "google-generative-ai": "/v1beta/models/{model}:streamGenerateContent",
}
#: Gemini members whose content is user data, compared without any renaming
OPAQUE = frozenset({"args", "response", "parametersJsonSchema", "parameters_json_schema"})
#: ``config`` members the REST body holds at the top level, not under ``generationConfig``
TOP_LEVEL = ("tools", "toolConfig", "safetySettings", "cachedContent")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def camel_fields(value: Any) -> Any:
    """Field names in lowerCamelCase, user data (:data:`OPAQUE` members) left exactly as it is."""
    if isinstance(value, dict):
        return {_camel(k): (v if k in OPAQUE else camel_fields(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [camel_fields(v) for v in value]
    return value


def gemini_rest_body(params: dict[str, Any]) -> dict[str, Any]:
    """The ``streamGenerateContent`` body of pi-ai's ``{model, contents, config}`` (see the module doc)."""
    config = dict(params.get("config") or {})
    body: dict[str, Any] = {"contents": params["contents"]}
    system = config.pop("systemInstruction", None)
    if system is not None:
        body["systemInstruction"] = {"parts": [{"text": system}], "role": "user"}
    for name in TOP_LEVEL:
        if name in config:
            body[name] = config.pop(name)
    if config:
        body["generationConfig"] = config
    return body


def expected_body(api: str, body: dict[str, Any]) -> dict[str, Any]:
    return camel_fields(gemini_rest_body(body)) if api == "google-generative-ai" else body


def received_body(api: str, server: ProviderServer) -> Any:
    received = server.last_request.body
    return camel_fields(received) if api == "google-generative-ai" else received


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("compiled", sorted(COMPILES))
def test_the_server_receives_the_compile_body(
    api: str, compiled: str, bodies: dict[tuple[str, str], dict[str, Any]], server: ProviderServer,
    call_for: Callable[..., ProviderCall],
) -> None:  # fmt: skip
    body = bodies[compiled, api]
    before = copy.deepcopy(body)
    outcome = send(call_for(api, body))
    assert body == before, "the caller's body is not changed"
    assert outcome.status == "completed", outcome.error
    assert len(server.requests) == 1
    request = server.last_request
    assert request.method == "POST"
    assert request.path == PATHS[api].format(model=body["model"])
    assert received_body(api, server) == expected_body(api, body)


@pytest.mark.parametrize("api", APIS)
def test_streamed_text_arrives_in_order_with_usage_and_stop_reason(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    server.reply(Reply.normal("one two three four"))
    pieces: list[str] = []
    body = {**call_for(api).body}
    if api == "openai-completions":
        body["stream_options"] = {"include_usage": True}
    outcome = send(call_for(api, body), on_text=pieces.append)
    assert outcome.status == "completed"
    assert pieces == ["one ", "two ", "three ", "four"]
    assert outcome.text == "one two three four"
    assert outcome.usage is not None and outcome.usage.output == 4 and outcome.usage.input > 0
    assert outcome.usage.total == outcome.usage.input + outcome.usage.output
    assert outcome.stop_reason == {"openai-completions": "stop", "openai-responses": "completed",
                                   "anthropic-messages": "end_turn", "google-generative-ai": "STOP"}[api]  # fmt: skip
    assert outcome.error is None and outcome.warnings == () and not outcome.partial
    assert outcome.duration_ms >= 0
    assert outcome.events, "the raw events are kept for a capture"


def test_chat_usage_comes_only_when_the_body_asks_for_it(
    server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    outcome = send(call_for("openai-completions"))  # the minimal body has no stream_options
    assert outcome.status == "completed" and outcome.usage is None


@pytest.mark.parametrize("api", APIS)
def test_the_credential_arrives_in_the_sdk_header(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    send(call_for(api))
    request = server.last_request
    assert request.credential_is(KEY)
    assert request.credential_header == ("x-goog-api-key" if api == "google-generative-ai" else "authorization")
    assert request.headers[request.credential_header] == "[present]"


def test_anthropic_requests_carry_the_api_version(server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    send(call_for("anthropic-messages"))
    assert server.last_request.header("anthropic-version")


def test_gemini_user_data_arrives_untouched(server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    """Tool-call arguments, tool results and JSON schemas keep their own key spelling; thought
    signatures and inline data keep their bytes; the client-side options forgec adds stay out."""
    params = {
        "model": "gemini-2.5-pro",
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]},
            {"role": "model", "parts": [
                {"thought": True, "text": "plan", "thoughtSignature": "c2lnbmF0dXJl"},
                {"functionCall": {"name": "read", "args": {"file_path": "a.py", "maxLines": 3, "deep": {"x_y": [1, None]}}}},
            ]},
            {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": "ok", "snake_case": True}}}]},
        ],
        "config": {
            "maxOutputTokens": 1000, "temperature": 0.5, "systemInstruction": "Sys.",
            "tools": [{"functionDeclarations": [{"name": "read", "description": "d", "parametersJsonSchema": {
                "type": "object", "properties": {"file_path": {"type": "string"}, "maxLines": {"type": "integer"}},
                "required": ["file_path"], "additionalProperties": False}}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
            "thinkingConfig": {"includeThoughts": True, "thinkingBudget": 1024},
        },
    }  # fmt: skip
    outcome = send(call_for("google-generative-ai", params))
    assert outcome.status == "completed", outcome.error
    received = server.last_request.body
    assert camel_fields(received) == camel_fields(gemini_rest_body(params))
    declaration = received["tools"][0]["functionDeclarations"][0]
    schema = declaration.get("parametersJsonSchema", declaration.get("parameters_json_schema"))
    assert schema == params["config"]["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]
    assert "automaticFunctionCalling" not in str(received) and "automatic_continuation" not in str(received)


def test_a_gemini_config_the_sdk_does_not_know_fails_before_sending(
    server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    params = {"model": "m", "contents": [{"role": "user", "parts": [{"text": "hi"}]}], "config": {"notAField": 1}}
    outcome = send(call_for("google-generative-ai", params))
    assert outcome.status == "failed" and outcome.error is not None
    assert outcome.error.code == "transport"
    assert "nothing was sent" in outcome.error.message and "notAField" in outcome.error.message
    assert server.requests == []


@pytest.mark.parametrize("api", APIS)
def test_model_headers_and_a_gateway_auth_header_are_sent(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    send(call_for(api, headers={"X-Team": "docs"}, auth_header="X-Gateway-Key"))
    request = server.last_request
    assert request.header("x-team") == "docs"
    assert request.credential_is(KEY, "x-gateway-key")
    if api != "google-generative-ai":  # Google's SDK always sends its own key header too
        assert request.header("authorization") is None and request.header("x-api-key") is None


@pytest.mark.parametrize("api", ["openai-completions", "openai-responses", "anthropic-messages"])
def test_a_model_without_credentials_sends_no_auth_header(
    api: str, server: ProviderServer, call_for: Callable[..., ProviderCall]
) -> None:
    outcome = send(call_for(api, api_key=None))
    assert outcome.status == "completed"
    request = server.last_request
    assert request.credentials == {}, request.headers


def test_the_default_reply_is_the_canned_text(server: ProviderServer, call_for: Callable[..., ProviderCall]) -> None:
    assert send(call_for("openai-responses")).text == DEFAULT_TEXT
