"""Canonical JSON and ``sha256:v1`` digests against the worked examples of profiles-exec.md §3.6."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forgec.fingerprint import (
    FingerprintError,
    canonical_json,
    is_fingerprint,
    normalize_profile,
    profile_fingerprint,
    prompt_runtime_fingerprint,
    sha256_v1,
    stack_fingerprint,
)
from forgec.js.values import UNDEFINED

EXAMPLE_D = (
    '{"\\uffff":3,"\\ud83d\\ude00":4,"\\u00e9":2,"a":1,"Z":5,"10":6,"9":7,"":8,'
    '"n":[1e21,1e20,1e-7,0.000001,-0.0,1.0,9007199254740993,0.1,-1.5e-9],'
    '"s":"line\\nbreak \\"q\\" \\\\ \\u0001 \\u2028 \\u00e9"}'
)


def test_example_a_key_sorting_and_undefined() -> None:
    value = json.loads('{"z":1,"a":{"d":2,"b":1}}')
    assert canonical_json(value) == '{"a":{"b":1,"d":2},"z":1}'
    digest = "sha256:v1:7abf5da5469eb969a507f9772e693effee5ed11b4ad9dcdccbe160d292dfcd68"
    assert sha256_v1(value) == digest
    assert sha256_v1({"z": 1, "a": {"d": 2, "b": 1}, "omitted": UNDEFINED}) == digest
    assert sha256_v1({"z": 1, "a": {"d": 2, "b": 1}, "kept": None}) != digest


def test_example_b_profile() -> None:
    profile = {
        "promptStack": None,
        "thinkingLevel": "high",
        "model": {"id": "claude-sonnet-4-5", "provider": " anthropic "},
        "name": "Reviewer",
        "id": "reviewer",
        "type": "pi-forge.agent-profile",
        "schemaVersion": 1,
    }
    normalised = normalize_profile(profile)
    assert canonical_json(normalised) == (
        '{"id":"reviewer","model":{"id":"claude-sonnet-4-5","provider":"anthropic"},"name":"Reviewer",'
        '"promptStack":null,"schemaVersion":1,"thinkingLevel":"high","type":"pi-forge.agent-profile"}'
    )
    assert profile_fingerprint(profile) == (
        "sha256:v1:c6d6728a2d22b7b77ab94292103ae066759f9136b2345c977086ac3968a66a93"
    )


@pytest.mark.parametrize("text", ['[1,"two",null,true,{"k":[3.5,-0]}]', '[1,"two",null,true,{"k":[3.5,-0.0]}]'])
def test_example_c_negative_zero(text: str) -> None:
    value = json.loads(text)
    assert canonical_json(value) == '[1,"two",null,true,{"k":[3.5,0]}]'
    assert sha256_v1(value) == "sha256:v1:4007e4aed33cd61f0e0536980bbeef8325130d3fda275b747ddd58f1bbd42139"


def test_example_d_numbers_escaping_utf16_order() -> None:
    value = json.loads(EXAMPLE_D)
    text = canonical_json(value)
    assert text == (
        '{"":8,"10":6,"9":7,"Z":5,"a":1,"n":[1e+21,100000000000000000000,1e-7,0.000001,0,1,'
        '9007199254740992,0.1,-1.5e-9],"s":"line\\nbreak \\"q\\" \\\\ \\u0001 \u2028 é","é":2,"😀":4,"\uffff":3}'
    )
    assert len(text.encode("utf-8")) == 177
    assert sha256_v1(value) == "sha256:v1:2f60f84ef07cc69c432e52e1421d8d973e2d54f544b09258672ed3789fdf9874"


@pytest.mark.parametrize(
    ("value", "digest"),
    [
        ("fixture", "b086de7b32510701e873f3d4ae742917ca1cc1141ffe4a8387d604ef474ef9e4"),
        ("fixture-conversation", "a9ae72b3ac47021e83e2ee403b669e1526ad6668da2f33ab441301ea130c7228"),
        ("fixture-execution", "58441ab284b974d9e1c9844b5d1ec18d25fb02901526e00f734b275d0449d748"),
        (
            {
                "schemaVersion": 1,
                "type": "pi-forge.agent-profile",
                "id": "worker",
                "model": {"provider": "test", "id": "model"},
                "thinkingLevel": "high",
                "promptStack": "worker",
            },
            "f209ac6b0ec3e1c7decc3cea8807856931596509dcdbce1a4c7d3eaeb1ccb8df",
        ),
        (
            {
                "systemPrompt": "You are a reviewer.",
                "messages": [{"role": "user", "content": [{"type": "text", "text": "Review src/a.ts"}]}],
            },
            "1e51d666f461bc4e72657e72fe8df466734d945b2bc2b32129859e8e0549ca83",
        ),
    ],
)
def test_pinned_vectors(value: Any, digest: str) -> None:
    assert sha256_v1(value) == "sha256:v1:" + digest


def test_pinned_stack_vector() -> None:
    stack = {
        "schemaVersion": 1,
        "id": "worker",
        "mode": "replace",
        "tools": {"allow": ["read", "paint_*"]},
        "items": [
            {
                "kind": "block",
                "id": "system",
                "role": "system",
                "content": "Built in {{date}} and custom {{ extensions.customMacro }}.",
            }
        ],
    }
    assert stack_fingerprint(stack) == (
        "sha256:v1:1bb1aa5f470fc57bf136f63026ee63acfff6e46f97eadbea49029781391742c5"
    )


def test_prompt_runtime_ignores_its_own_fingerprint_key() -> None:
    runtime = {
        "baseSystemPrompt": "base",
        "options": {
            "selectedTools": [],
            "toolSnippets": {},
            "promptGuidelines": [],
            "cwd": ".",
            "contextFiles": [],
            "skills": [],
        },
        "model": {"provider": "test", "id": "model"},
        "preparedAt": "2026-07-14T00:00:00.000Z",
        "fidelity": "backend-assisted",
    }
    digest = "sha256:v1:296fc580aef0f9ce18bc33f182a75cd9a7f9e25a9684f20181e39363019f95b4"
    assert prompt_runtime_fingerprint(runtime) == digest
    assert prompt_runtime_fingerprint({**runtime, "promptRuntimeFingerprint": "sha256:v1:" + "0" * 64}) == digest


class _Plain:
    pass


def _cyclic() -> dict[str, Any]:
    inner: dict[str, Any] = {}
    inner["self"] = inner
    return {"outer": [inner]}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"value": math.nan}, "Cannot fingerprint non-finite number at $.value."),
        ([1, math.inf], "Cannot fingerprint non-finite number at $[1]."),
        ([1, 10**400], "Cannot fingerprint non-finite number at $[1]."),
        (_cyclic(), "Cannot fingerprint cyclic value at $.outer[0].self."),
        ({"d": _Plain()}, "Cannot fingerprint non-plain object at $.d."),
        (UNDEFINED, "Cannot fingerprint undefined at $."),
        ([1, UNDEFINED], "Cannot fingerprint undefined at $[1]."),
        ({"f": len}, "Cannot fingerprint function at $.f."),
    ],
)
def test_error_vectors(value: Any, message: str) -> None:
    with pytest.raises(FingerprintError) as info:
        sha256_v1(value)
    assert str(info.value) == message


def test_shared_references_are_not_cycles() -> None:
    shared = {"a": 1}
    assert canonical_json({"x": shared, "y": [shared, shared]}) == '{"x":{"a":1},"y":[{"a":1},{"a":1}]}'


def test_tuples_are_arrays_and_shape_check() -> None:
    assert canonical_json((1, 2)) == "[1,2]"
    assert is_fingerprint(sha256_v1(1))
    assert not is_fingerprint("sha256:v1:" + "A" * 64)
    assert not is_fingerprint("sha256:v2:" + "a" * 64)


# --- properties ------------------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_canonical_text_is_json_of_the_same_value(value: Any) -> None:
    text = canonical_json(value)
    assert json.loads(text, parse_int=float) == _as_floats(value)


def _as_floats(value: Any) -> Any:
    """Numbers compared as doubles, as JavaScript holds them."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [_as_floats(v) for v in value]
    return {k: _as_floats(v) for k, v in value.items()}


@given(st.dictionaries(st.text(), st.integers(), max_size=6))
def test_key_order_is_utf16_and_insertion_independent(mapping: dict[str, int]) -> None:
    reversed_mapping = dict(reversed(list(mapping.items())))
    assert canonical_json(mapping) == canonical_json(reversed_mapping)
    keys = list(json.loads(canonical_json(mapping), object_pairs_hook=lambda pairs: [k for k, _ in pairs]))
    assert keys == sorted(mapping, key=lambda k: k.encode("utf-16-be", "surrogatepass"))


@given(json_values)
def test_digest_is_sha256_of_utf8_canonical_text(value: Any) -> None:
    expected = hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
    assert sha256_v1(value) == "sha256:v1:" + expected
