"""schemas/prompt-stack.schema.json: a valid draft 2020-12 schema that accepts every usable stack."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import jsonschema
import pytest

from forgec.resources import schema_path

_SPEC = importlib.util.spec_from_file_location(
    "forgec_conformance_helpers", Path(__file__).resolve().parents[2] / "conformance" / "conftest.py"
)
assert _SPEC is not None and _SPEC.loader is not None
_helpers = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = _helpers
_SPEC.loader.exec_module(_helpers)
load_expected, stack_cases = _helpers.load_expected, _helpers.stack_cases


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_path("prompt-stack").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith("prompt-stack.schema.json")
    return jsonschema.Draft202012Validator(schema)


def test_usable_corpus_stacks_validate(validator: jsonschema.Draft202012Validator) -> None:
    checked = 0
    for case in stack_cases():
        if not load_expected(case)["validation"]["usable"]:
            continue
        data = json.loads((case / "stack.json").read_text(encoding="utf-8"))
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], case.name
        checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "bad",
    [
        {"items": []},
        {"id": "bad id!", "items": []},
        {"id": "x"},
        {"id": "x", "items": [{"kind": "text", "id": "a"}]},
        {"id": "x", "items": [{"kind": "block", "id": "a", "role": "developer", "content": ""}]},
        {"id": "x", "items": [{"kind": "slot", "id": "a"}]},
        {"id": "x", "items": [], "tools": {"allow": ["a"], "deny": ["b"]}},
        {"id": "x", "items": [], "regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "x", "flags": "gg"}]}},
    ],
)
def test_stacks_pi_forge_rejects_do_not_validate(validator: jsonschema.Draft202012Validator, bad: dict) -> None:
    assert list(validator.iter_errors(bad))


def test_warnings_are_not_schema_errors(validator: jsonschema.Draft202012Validator) -> None:
    lenient = {"$schema": "x", "schemaVersion": 2, "id": "x", "regex": "no",
               "items": [{"kind": "slot", "id": "a", "slot": "my-slot"}, {"kind": "block", "id": "b", "content": ""}]}
    assert list(validator.iter_errors(lenient)) == []
