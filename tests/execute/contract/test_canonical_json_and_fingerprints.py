"""Canonical JSON and the contract's fingerprints (profiles-exec.md §3): stability, agreement with
forgec's general canonical writer, the values JSON cannot hold, and what each fingerprint ignores."""

from __future__ import annotations

import random

import pytest

from forgec.execute import contract as c
from forgec.fingerprint import FingerprintError, canonical_json
from forgec.js.values import HOLE, UNDEFINED, JSBigInt, JSNonPlainObject


def _random_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -0.0, 1, -7, 2**53, 2**60, 1e21, 1e-7, 0.1, 123.456, -1.5e-9])
    if kind in (2, 3):
        return "".join(rng.choice(["a", "Z", "é", "\u2028", "\n", '"', "\\", "\x01", "😀", "\uffff", "10", "9"]) for _ in range(rng.randrange(4)))
    if kind == 4:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["", "a", "B", "10", "9", "é", "😀", "\uffff", "\ue000", "z"]
    return {rng.choice(keys): _random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def test_plain_json_prints_as_forgecs_general_canonical_writer() -> None:
    rng = random.Random(20260714)
    for _ in range(2000):
        value = _random_value(rng)
        assert c.canonical_subagent_json(value) == canonical_json(value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"b": JSBigInt(10)}, "Cannot fingerprint bigint at $.b."),
        ({"list": ["a", HOLE, "c"]}, "Cannot fingerprint sparse array item at $.list[1]."),
        ({"d": JSNonPlainObject("Date", "2026-01-01T00:00:00.000Z")}, "Cannot fingerprint non-plain object at $.d."),
        ({"f": lambda: None}, "Cannot fingerprint function at $.f."),
        ([1, UNDEFINED], "Cannot fingerprint undefined at $[1]."),
        (UNDEFINED, "Cannot fingerprint undefined at $."),
        ({"n": 10**400}, "Cannot fingerprint non-finite number at $.n."),
    ],
)
def test_values_json_cannot_hold_are_named_as_the_runtime_names_them(value: object, message: str) -> None:
    with pytest.raises(FingerprintError) as raised:
        c.canonical_subagent_json(value)
    assert str(raised.value) == message
    assert c.thrown_as_js(raised.value) == ("TypeError", message)


def test_undefined_members_vanish_but_null_members_stay() -> None:
    assert c.canonical_subagent_json({"a": UNDEFINED, "b": None}) == '{"b":null}'


def test_shared_references_are_not_cycles() -> None:
    shared = {"x": 1}
    assert c.canonical_subagent_json({"a": shared, "b": [shared, shared]}) == '{"a":{"x":1},"b":[{"x":1},{"x":1}]}'


def test_deep_values_do_not_hit_the_recursion_limit() -> None:
    value: object = "leaf"
    for _ in range(5000):
        value = [value]
    assert c.canonical_subagent_json(value).count("[") == 5000


def test_each_fingerprint_ignores_only_its_own_key() -> None:
    runtime = {"baseSystemPrompt": "base", "options": {}, "fidelity": "backend-assisted"}
    with_key = {**runtime, "promptRuntimeFingerprint": "sha256:v1:" + "0" * 64}
    assert c.prompt_runtime_fingerprint(with_key) == c.prompt_runtime_fingerprint(runtime) == c.subagent_fingerprint(runtime)
    sealed = {"schemaVersion": 1, "preparedRunId": "run"}
    assert c.execution_fingerprint({**sealed, "executionFingerprint": "x"}) == c.subagent_fingerprint(sealed)
    # the conversation fingerprint hashes exactly what it is given (the host strips bookkeeping first)
    conversation = {"systemPrompt": "s", "messages": [{"role": "user", "content": [], "source": "delegated-task"}]}
    assert c.conversation_fingerprint(conversation) != c.conversation_fingerprint(
        c.portable_conversation("s", conversation["messages"])  # type: ignore[arg-type]
    )


def test_a_missing_runtime_throws_as_destructuring_undefined_does() -> None:
    with pytest.raises(c.JSTypeError) as raised:
        c.prompt_runtime_fingerprint(UNDEFINED)
    assert c.thrown_as_js(raised.value) == ("TypeError", "Cannot destructure 'runtime' as it is undefined.")
