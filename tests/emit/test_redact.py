"""pi-forge's payload redaction (profiles-exec.md §5): credentials never reach a ``--redact`` dump."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from forgec.emit.redact import (
    PRESERVED_TOKEN_KEYS,
    capture_payload,
    is_secret_key,
    normalize_key,
    redact_payload,
)


@pytest.mark.parametrize(
    "key",
    ["token", "access_token", "refreshToken", "id_token", "sessionToken", "Authorization", "apiKey", "x-api-key",
     "cache_read_input_tokens", "prompt_tokens_details", "tokens", "client_secret", "Cookie", "password",
     "credentials", "bearerAuth", "API_KEY"],
)
def test_secret_keys(key: str) -> None:
    assert is_secret_key(key)
    assert redact_payload({key: {"nested": 1}}) == {key: "[redacted]"}


@pytest.mark.parametrize(
    "key", ["maxOutputTokens", "tokenBudget", "max_tokens", "max_completion_tokens", "total_tokens", "tokenizer",
            "model", "messages", "thinking"],
)
def test_kept_keys(key: str) -> None:
    assert not is_secret_key(key)


def test_normalize_key() -> None:
    assert normalize_key("maxOutputTokens") == "max_output_tokens"
    assert normalize_key("--X-Api-Key--") == "x_api_key"


def test_strings() -> None:
    assert redact_payload("data:image/png;base64,AAAA") == "[image data omitted]"
    blob = "QUJD" * 2001  # 8004 base64 characters
    assert redact_payload(blob) == "[base64-like data omitted: 8004 chars]"
    assert redact_payload("A" * 8000) == "A" * 8000
    long_text = "word " * 3000  # 15000 chars, not base64-like (spaces)
    assert redact_payload(long_text) == long_text[:12000] + "\n[pi-forge: string truncated from 15000 chars]"


def test_arrays_objects_depth() -> None:
    assert redact_payload(list(range(85))) == [*range(80), "[pi-forge: 5 more items omitted]"]
    wide = {f"k{i}": i for i in range(125)}
    out = redact_payload(wide)
    assert len(out) == 121
    assert out["[pi-forge: omitted]"] == "object has more than 120 keys"
    deep: Any = "leaf"
    for _ in range(10):
        deep = {"d": deep}
    text = capture_payload(deep).text
    assert "[pi-forge: max depth reached]" in text and "leaf" not in text


def test_capture_record() -> None:
    capture = capture_payload({"model": "m", "api_key": "sk-live-123"})
    assert capture.text == '{\n  "model": "m",\n  "api_key": "[redacted]"\n}'
    assert capture.chars == len(capture.text)
    assert capture.approx_tokens == -(-capture.chars // 4)
    assert not capture.truncated
    big = capture_payload([("x " * 5000) for _ in range(30)])
    assert big.truncated and big.payload is None
    assert big.text.endswith("\n\n[pi-forge: payload truncated after 200000 chars]")


# --- property: credential-shaped keys at any depth ------------------------------------------------

_MARKERS = ["api-key", "api_key", "apikey", "authorization", "bearer", "token", "secret", "password", "cookie",
            "credential"]
secret_keys = st.builds(
    lambda pre, marker, upper, post: pre + (marker.upper() if upper else marker) + post,
    st.sampled_from(["", "x-", "my", "Access", "refresh_", "client."]),
    st.sampled_from(_MARKERS),
    st.booleans(),
    st.sampled_from(["", "s", "_value", "Id", "-header"]),
)
plain_keys = st.sampled_from(["model", "messages", "content", "role", "text", "config", "data", "input"])


@st.composite
def bodies_with_secrets(draw: st.DrawFn) -> tuple[Any, list[str]]:
    secrets: list[str] = []

    def build(depth: int) -> Any:
        kind = draw(st.integers(0, 3 if depth < 12 else 0))
        if kind == 0:
            return draw(st.one_of(st.text(max_size=8), st.integers(), st.none(), st.booleans()))
        if kind == 1:
            return [build(depth + 1) for _ in range(draw(st.integers(0, 3)))]
        obj: dict[str, Any] = {}
        for _ in range(draw(st.integers(0, 3))):
            obj[draw(plain_keys)] = build(depth + 1)
        if kind == 3:
            key = draw(secret_keys)
            assume(normalize_key(key) not in PRESERVED_TOKEN_KEYS)
            secret = f"SECRET-{len(secrets)}-sk-ant-api03"
            secrets.append(secret)
            obj[key] = draw(st.sampled_from([secret, {"inner": secret}, [secret]]))
        return obj

    return build(0), secrets


@given(bodies_with_secrets())
def test_no_credential_survives_redaction(case: tuple[Any, list[str]]) -> None:
    body, secrets = case
    text = capture_payload(body).text
    for secret in secrets:
        assert secret not in text


def test_forgecs_deep_redaction_reaches_json_strings_and_secret_shaped_values() -> None:
    from forgec.emit.redact import capture_payload, redact_payload

    body = {
        "messages": [{"tool_calls": [{"function": {"arguments": '{"api_key":"k1","path":"a.txt","Authorization":"Bearer abcdefgh12345678"}'}}]}],
        "note": "use sk-ant-abcdefghijklmnopqrstuv or ghp_" + "a" * 36 + " and -----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----",
    }
    deep = redact_payload(body, deep=True)
    arguments = deep["messages"][0]["tool_calls"][0]["function"]["arguments"]
    assert arguments == '{"api_key":"[redacted]","path":"a.txt","Authorization":"[redacted]"}'
    assert deep["note"] == "use [redacted] or [redacted] and [redacted]"
    # pi-forge's redaction (the capture record) is key-based only: it keeps all of that
    exact = redact_payload(body)
    assert exact["messages"][0]["tool_calls"][0]["function"]["arguments"] == body["messages"][0]["tool_calls"][0]["function"]["arguments"]
    assert capture_payload(body).payload == exact
    for secret in ("k1", "abcdefgh12345678", "sk-ant-", "ghp_", "MII"):
        assert secret not in capture_payload(body, deep=True).text
