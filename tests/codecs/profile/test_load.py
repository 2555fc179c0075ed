"""Loading one agent-profile file (profiles-exec.md §1.2-§1.4), checks in pi-forge's order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.profile import (
    PROFILE_FIELDS,
    fallback_profile,
    legacy_fingerprint,
    load_profile_data,
    load_profile_file,
    normalize_profile,
    profile_file_stem,
    render_diagnostics,
)
from forgec.diagnostics import Diagnostic
from forgec.fingerprint import profile_fingerprint, sha256_v1
from forgec.source import resolve_spans

VALID: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "pi-forge.agent-profile",
    "id": "reviewer",
    "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
    "thinkingLevel": "high",
    "promptStack": "reviewer",
}
ORDER = [
    "schemaVersion",
    "type",
    "id",
    "name",
    "description",
    "autoActivate",
    "model",
    "thinkingLevel",
    "promptStack",
]


def messages(loaded: Any) -> list[str]:
    return [d.message for d in loaded.diagnostics]


def fields(loaded: Any) -> list[str | None]:
    return [d.field for d in loaded.diagnostics]


def test_the_verified_example_of_section_1_3() -> None:
    text = (
        '{"zeta": 1, "10": "ten", "schemaVersion": true, "type": "pi-forge.agent-profile", "2": "two", '
        '"id": "keys", "name": null, "model": {"provider": " p ", "id": "m", "extra": 1}, '
        '"thinkingLevel": "off", "promptStack": null}'
    )
    loaded = load_profile_data(text, "keys.json")
    assert messages(loaded) == [
        "Unsupported profile field: 2",
        "Unsupported profile field: 10",
        "Unsupported profile field: zeta",
        "schemaVersion must be 1.",
        "Unsupported model field: extra",
        "name must be a string when provided.",
    ]
    assert fields(loaded) == ["2", "10", "zeta", "schemaVersion", "model.extra", "name"]
    assert loaded.profile["model"] == {"provider": "p", "id": "m"}
    assert all(d.level == "error" and d.code.startswith("FG5") for d in loaded.diagnostics)
    assert not loaded.usable


def test_a_valid_profile() -> None:
    loaded = load_profile_data(
        {**VALID, "name": "Reviewer", "description": "Reviews.", "autoActivate": True}, "x.json"
    )
    assert loaded.diagnostics == [] and loaded.usable
    assert str(loaded.key) == "project:reviewer" and loaded.profile_id == "reviewer"
    assert list(loaded.profile) == ORDER
    assert loaded.rendered == "No diagnostics."


def test_normalised_key_order_ignores_the_file_order() -> None:
    reversed_doc = dict(reversed(list({**VALID, "name": "N", "autoActivate": False}.items())))
    loaded = load_profile_data(reversed_doc, "r.json")
    assert list(loaded.profile) == [k for k in ORDER if k != "description"]


def test_example_b_fingerprint_and_legacy_fingerprint() -> None:
    text = """{
      "promptStack": null,
      "thinkingLevel": "high",
      "model": { "id": "claude-sonnet-4-5", "provider": " anthropic " },
      "name": "Reviewer",
      "id": "reviewer",
      "type": "pi-forge.agent-profile",
      "schemaVersion": 1
    }"""
    loaded = load_profile_data(text, "reviewer.json")
    normalised = (
        '{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"reviewer","name":"Reviewer",'
        '"model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"high","promptStack":null}'
    )
    assert loaded.legacy_fingerprint == normalised == legacy_fingerprint(loaded.profile)
    digest = "sha256:v1:c6d6728a2d22b7b77ab94292103ae066759f9136b2345c977086ac3968a66a93"
    assert sha256_v1(loaded.profile) == digest
    assert profile_fingerprint(json.loads(text)) == digest  # forgec.fingerprint uses the same normalisation


def test_pinned_worker_profile_vector() -> None:
    doc = {
        "schemaVersion": 1,
        "type": "pi-forge.agent-profile",
        "id": "worker",
        "model": {"provider": "test", "id": "model"},
        "thinkingLevel": "high",
        "promptStack": "worker",
    }
    digest = "sha256:v1:f209ac6b0ec3e1c7decc3cea8807856931596509dcdbce1a4c7d3eaeb1ccb8df"
    assert sha256_v1(load_profile_data(doc, "worker.json").profile) == digest


def test_unparsable_file_is_one_error_and_the_fallback_profile(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{ nope\n", encoding="utf-8")
    loaded = load_profile_file(path)
    assert len(loaded.diagnostics) == 1
    only = loaded.diagnostics[0]
    assert only.level == "error" and only.field is None
    assert only.message.startswith("Failed to parse JSON: ")
    assert only.message == "Failed to parse JSON: Expected property name or '}' in JSON at position 2"
    assert loaded.profile == fallback_profile("broken.json") == {
        "schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "broken",
        "model": {"provider": "", "id": ""}, "thinkingLevel": "off", "promptStack": None,
    }  # fmt: skip
    assert loaded.raw is None and str(loaded.key) == "project:broken"


def test_a_folder_named_like_a_profile_is_a_read_error(tmp_path: Path) -> None:
    (tmp_path / "odd.json").mkdir()
    loaded = load_profile_file(tmp_path / "odd.json", scope="global")
    assert messages(loaded) == ["Failed to parse JSON: EISDIR: illegal operation on a directory, read"]
    assert str(loaded.key) == "global:odd"


def test_a_byte_order_mark_fails_like_json_parse(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(VALID).encode())
    loaded = load_profile_file(path)
    assert not loaded.usable
    pi = [d for d in loaded.diagnostics if not d.extra]
    assert len(pi) == 1 and pi[0].message.startswith("Failed to parse JSON: ")
    assert loaded.rendered.count("\n") == 0  # forgec's own BOM hint is not rendered


@pytest.mark.parametrize("text", ["[]", '"reviewer"', "null", "42"])
def test_non_object_roots(text: str) -> None:
    loaded = load_profile_data(text, "root.json")
    assert messages(loaded) == [
        "Agent profile root must be a JSON object.",
        "model.provider must not be empty.",
        "model.id must not be empty.",
    ]
    assert fields(loaded) == [None, "model.provider", "model.id"]
    assert loaded.profile == fallback_profile("root.json")


def test_non_object_root_with_a_file_name_that_is_no_id() -> None:
    loaded = load_profile_data("[]", "bad name.json")
    assert messages(loaded)[:2] == [
        "Agent profile root must be a JSON object.",
        "Profile id must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens.",
    ]
    assert len(loaded.diagnostics) == 4 and str(loaded.key) == "project:bad name"


def test_missing_model_gives_three_errors() -> None:
    doc = {k: v for k, v in VALID.items() if k != "model"}
    loaded = load_profile_data(doc, "x.json")
    assert messages(loaded) == [
        "model must be an object containing provider and id.",
        "model.provider must not be empty.",
        "model.id must not be empty.",
    ]
    assert loaded.profile["model"] == {"provider": "", "id": ""}


def test_an_empty_object_reports_every_required_key_in_order() -> None:
    loaded = load_profile_data({}, "empty.json")
    assert fields(loaded) == [
        "schemaVersion", "type", "id", "model", "thinkingLevel", "promptStack", "model.provider", "model.id",
    ]  # fmt: skip
    assert messages(loaded)[5] == "promptStack is required and must be a stack id or null."
    assert loaded.profile["id"] == "empty"


def test_blank_id_falls_back_to_the_file_name() -> None:
    loaded = load_profile_data({**VALID, "id": "   "}, "named.json")
    assert messages(loaded) == ["Profile id must be a non-empty string."]
    assert loaded.profile["id"] == "named"


def test_id_and_model_fields_are_trimmed_name_is_not() -> None:
    loaded = load_profile_data(
        {**VALID, "id": " reviewer\n", "name": " Spaced ", "model": {"provider": "\ta ", "id": " b"}},
        "x.json",
    )
    assert loaded.diagnostics == []
    assert loaded.profile["id"] == "reviewer" and loaded.profile["name"] == " Spaced "
    assert loaded.profile["model"] == {"provider": "a", "id": "b"}


def test_the_id_grammar_is_checked_after_normalisation() -> None:
    loaded = load_profile_data({**VALID, "id": "../bad"}, "x.json")
    assert fields(loaded) == ["id"]
    assert loaded.profile["id"] == "../bad"


def test_model_members_blank_or_wrong_type_become_empty_without_their_own_message() -> None:
    loaded = load_profile_data({**VALID, "model": {"provider": 3, "id": " "}}, "x.json")
    assert messages(loaded) == ["model.provider must not be empty.", "model.id must not be empty."]


@pytest.mark.parametrize("level", ["HIGH", " high", 3, None, "turbo", True])
def test_invalid_thinking_levels_become_off(level: Any) -> None:
    loaded = load_profile_data({**VALID, "thinkingLevel": level}, "x.json")
    assert messages(loaded) == ["thinkingLevel must be one of: off, minimal, low, medium, high, xhigh, max."]
    assert loaded.profile["thinkingLevel"] == "off"


@pytest.mark.parametrize(
    ("value", "normalised", "errors"),
    [
        (None, None, []),
        (" local ", "local", []),
        ("team:local", "team:local", []),  # the selector grammar is checked at resolution, not here
        ("my stack", "my stack", []),
        ("", None, ["promptStack must be a non-empty stack id or null."]),
        ("  ", None, ["promptStack must be a non-empty stack id or null."]),
        (7, None, ["promptStack must be a non-empty stack id or null."]),
        ({"id": "local"}, None, ["promptStack must be a non-empty stack id or null."]),
    ],
)
def test_prompt_stack_values(value: Any, normalised: Any, errors: list[str]) -> None:
    loaded = load_profile_data({**VALID, "promptStack": value}, "x.json")
    assert messages(loaded) == errors and loaded.profile["promptStack"] == normalised


def test_optional_fields_of_the_wrong_type() -> None:
    loaded = load_profile_data({**VALID, "name": None, "description": ["x"], "autoActivate": "yes"}, "x.json")
    assert messages(loaded) == [
        "name must be a string when provided.",
        "description must be a string when provided.",
        "autoActivate must be a boolean when provided.",
    ]
    assert "name" not in loaded.profile and "autoActivate" not in loaded.profile


def test_schema_version_and_type() -> None:
    for version in (2, "1", True, None):
        loaded = load_profile_data({**VALID, "schemaVersion": version}, "x.json")
        assert messages(loaded) == ["schemaVersion must be 1."] and loaded.profile["schemaVersion"] == 1
    assert (
        load_profile_data({**VALID, "schemaVersion": 1.0}, "x.json").diagnostics == []
    )  # JS has one number type
    loaded = load_profile_data({**VALID, "type": "other"}, "x.json")
    assert messages(loaded) == ['type must be "pi-forge.agent-profile".']


def test_unknown_keys_include_inert_settings() -> None:
    loaded = load_profile_data({**VALID, "tools": ["read"], "$schema": "x"}, "x.json")
    assert messages(loaded) == ["Unsupported profile field: tools", "Unsupported profile field: $schema"]
    assert set(PROFILE_FIELDS) == set(ORDER)


def test_positions_of_profile_diagnostics(tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_text(
        "{\n"
        '  "schemaVersion": 1,\n'
        '  "type": "pi-forge.agent-profile",\n'
        '  "id": "pos",\n'
        '  "model": {"provider": "a", "id": "b", "temperature": 0.2},\n'
        '  "thinkingLevel": "HIGH",\n'
        '  "topP": 1,\n'
        '  "promptStack": null\n'
        "}\n",
        encoding="utf-8",
    )
    loaded = load_profile_file(path)
    spans = {
        d.field: (d.span.line, d.span.column)
        for d in resolve_spans(loaded.diagnostics, loaded.document)
        if d.span
    }
    assert spans == {"topP": (7, 11), "model.temperature": (5, 56), "thinkingLevel": (6, 20)}


def test_position_of_a_missing_member_is_its_parent(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        '{"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "p",\n "model": {"provider": "a"},'
        ' "thinkingLevel": "off", "promptStack": null}',
        encoding="utf-8",
    )
    loaded = load_profile_file(path)
    (found,) = resolve_spans(loaded.diagnostics, loaded.document)
    assert (
        found.field == "model.id"
        and found.span is not None
        and (found.span.line, found.span.column) == (2, 11)
    )


def test_parse_error_position_comes_from_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text('{\n  "id": "b",\n  oops\n}', encoding="utf-8")
    (found,) = load_profile_file(path).diagnostics
    assert found.span is not None and (found.span.line, found.span.column) == (3, 3)


def test_rendering() -> None:
    assert render_diagnostics([]) == "No diagnostics."
    found = [
        Diagnostic("error", "model.id must not be empty.", "FG515", field="model.id"),
        Diagnostic("warning", "Root-level warning.", "FG543"),
        Diagnostic("info", "forgec only", "FG009", extra=True),
    ]
    assert (
        render_diagnostics(found)
        == "ERROR: model.id: model.id must not be empty.\nWARNING: Root-level warning."
    )


def test_normalize_profile_without_diagnostics() -> None:
    assert normalize_profile({**VALID, "extra": 1, "model": {"provider": " a ", "id": "b", "x": 2}}) == {
        **VALID, "model": {"provider": "a", "id": "b"},
    }  # fmt: skip
    assert normalize_profile([], "fallback") == fallback_profile("fallback.json")
    assert normalize_profile({"promptStack": None})["id"] == ""


@pytest.mark.parametrize(
    ("name", "stem"), [("a.json", "a"), (".json", ".json"), ("a.json.json", "a.json"), ("a.JSON", "a.JSON")]
)
def test_file_stem_is_node_basename_without_json(name: str, stem: str) -> None:
    assert profile_file_stem(name) == stem


def test_to_json_is_pi_forges_view() -> None:
    loaded = load_profile_data({**VALID, "tools": []}, "x.json", scope="global", path="/g/x.json")
    assert loaded.to_json() == {
        "file": "x.json",
        "filePath": "/g/x.json",
        "scope": "global",
        "key": "global:reviewer",
        "profile": VALID,
        "diagnostics": [{"level": "error", "message": "Unsupported profile field: tools", "field": "tools"}],
        "usable": False,
    }
