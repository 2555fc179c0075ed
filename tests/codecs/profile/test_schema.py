"""``schemas/agent-profile.schema.json`` agrees with the loader: a profile pi-forge loads without an
error validates, and the schema rejects what the loader rejects at load time."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.codecs.profile import load_profile_data
from forgec.resources import schema_path

SCHEMA = json.loads(schema_path("agent-profile").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GOOD = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer",
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "high", "promptStack": None}  # fmt: skip


def test_the_schema_is_valid_and_its_example_loads() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for example in SCHEMA["examples"]:
        assert VALIDATOR.is_valid(example)
        assert load_profile_data(example, "x.json").usable


@pytest.mark.parametrize(
    "doc",
    [
        {**GOOD, "tools": ["read"]},
        {**GOOD, "$schema": "x"},
        {**GOOD, "model": {"provider": "a", "id": "b", "temperature": 1}},
        {**GOOD, "schemaVersion": True},
        {**GOOD, "thinkingLevel": "HIGH"},
        {**GOOD, "promptStack": ""},
        {k: v for k, v in GOOD.items() if k != "promptStack"},
        {**GOOD, "name": None},
        {**GOOD, "id": "a b"},
        {**GOOD, "model": {"provider": " ", "id": "b"}},
    ],
)
def test_the_schema_rejects_what_the_loader_rejects(doc: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(doc)
    assert not load_profile_data(doc, "x.json").usable


_TEXT = st.sampled_from(
    ["", " ", "reviewer", " reviewer ", "a b", "-x", "global:x", "HIGH", "high", "off", "p", "é"]
)
_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-1, 2), _TEXT, st.lists(_TEXT, max_size=1))


@st.composite
def profiles(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key in (
        "schemaVersion",
        "type",
        "id",
        "name",
        "description",
        "autoActivate",
        "thinkingLevel",
        "promptStack",
        "extra",
    ):
        if draw(st.booleans()):
            doc[key] = draw(_VALUE)
    if draw(st.booleans()):
        doc["schemaVersion"] = 1
        doc["type"] = "pi-forge.agent-profile"
    if draw(st.booleans()):
        doc["model"] = {k: draw(_VALUE) for k in draw(st.sets(st.sampled_from(["provider", "id", "x"])))}
    return doc


@settings(max_examples=400, deadline=None)
@given(profiles())
def test_loadable_profiles_validate_and_back(doc: dict[str, Any]) -> None:
    loads_cleanly = load_profile_data(doc, "x.json").usable
    assert VALIDATOR.is_valid(doc) == loads_cleanly
