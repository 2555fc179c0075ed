"""Every message shape the context schema admits, against the reference's recorded outcome (issue 12, point 3).

``schemas/context.schema.json`` admits any object as a message, so each field of each message kind
(and of each content part) may hold any JSON type.  ``scripts/gen_payload_shapes.py`` built one small
conversation per (kind, field, value) -- a value of every JSON type, with the falsy ones JavaScript
branches on -- and recorded what Pi 0.83.0's own code (Node v20.20.2) made of it for each target API:
the request body, or the error text pi-ai throws (``msg.content.map is not a function``, ``content
is not iterable``…).  Each shape is recorded twice: where pi-ai's token estimate reads the message
first (``estimated``) and where a later usage anchor leaves it to the transform and the converter
(``anchored``).  forgec must give the same body or the same error for both.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from forgec.emit import Prompt, build_payloads
from forgec.js.values import dumps_report
from forgec.model import API_ORDER

ROOT = Path(__file__).resolve().parents[2]
RECORDING = json.loads(gzip.decompress((Path(__file__).parent / "payload_shapes.json.gz").read_bytes()))
CASES: dict[str, dict[str, Any]] = {case["id"]: case for case in RECORDING["cases"]}
POSITIONS = ("estimated", "anchored")
SHAPES = sorted({case_id.split(":", 1)[1] for case_id in CASES if case_id.split(":", 1)[0] in POSITIONS})
PAIRS = [case_id for case_id in CASES if case_id.startswith("pair:")]
HISTORIES = [case_id for case_id in CASES if case_id.startswith(("history:", "edge:"))]


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gen_payload_shapes", ROOT / "scripts" / "gen_payload_shapes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _section(case_id: str) -> dict[str, Any]:
    case = CASES[case_id]
    prompt = Prompt(case["systemPrompt"], case["messages"], case["tools"], case.get("thinkingLevel"))
    section: dict[str, Any] = json.loads(dumps_report(build_payloads(prompt)))
    return section


@pytest.mark.parametrize("api", API_ORDER)
@pytest.mark.parametrize("shape", SHAPES)
def test_shape_matches_the_reference(shape: str, api: str) -> None:
    for position in POSITIONS:
        case_id = f"{position}:{shape}"
        got = dict(_section(case_id)[api])
        assert got.pop("model")["api"] == api
        assert got == CASES[case_id]["payloads"][api], case_id


@pytest.mark.parametrize("case_id", PAIRS + HISTORIES)
def test_several_shapes_fail_first_where_the_reference_does(case_id: str) -> None:
    for api in API_ORDER:
        got = dict(_section(case_id)[api])
        got.pop("model")
        assert got == CASES[case_id]["payloads"][api], api


def test_the_recording_is_the_generators() -> None:
    """The recorded conversations are exactly the ones the generator builds today (regenerate the
    recording with ``scripts/gen_payload_shapes.py`` whenever the list of shapes changes)."""
    generated = _generator().conversations()
    assert [c["id"] for c in generated] == [c["id"] for c in RECORDING["cases"]]
    assert all(json.loads(json.dumps(c["messages"])) == CASES[c["id"]]["messages"] for c in generated)
    assert RECORDING["reference"] == {"pi-ai": "0.83.0", "node": "v20.20.2"}
    generator = _generator()
    assert (len(PAIRS), len(HISTORIES)) == (generator.PAIRS, generator.HISTORIES + len(generator.edges()))


def test_every_field_gets_every_json_type() -> None:
    generator = _generator()
    labels = [label for label, _ in generator.VALUES]
    types = {type(value).__name__ for _, value in generator.VALUES if value is not generator.MISSING}
    assert types == {"NoneType", "bool", "int", "str", "list", "dict"}
    fields: dict[str, set[str]] = {}
    for shape in SHAPES:
        field, _, label = shape.rpartition("=")
        fields.setdefault(field, set()).add(label)
    for field, seen in fields.items():
        wanted = set(labels[1:]) if field.endswith("]") else set(labels)  # a part is never "absent"
        assert seen == wanted, field
    kinds = {field.split(".")[0] for field in fields}
    assert kinds == {
        "user",
        "toolResult",
        "custom",
        "bashExecution",
        "branchSummary",
        "compactionSummary",
        "tool",
        *(f"assistant/{who}" for who in generator.IDENTITIES),
    }


def test_the_recording_holds_both_outcomes() -> None:
    """Both bodies and errors are pinned, so neither a builder that always fails nor one that never
    does could pass."""
    entries = [entry for case in RECORDING["cases"] for entry in case["payloads"].values()]
    errors = {entry["error"] for entry in entries if "error" in entry}
    assert sum("body" in entry for entry in entries) > 1000 and len(errors) > 20
    assert {
        "content is not iterable",
        "msg.content.map is not a function",
        "Cannot read properties of null (reading 'type')",
    } <= errors
