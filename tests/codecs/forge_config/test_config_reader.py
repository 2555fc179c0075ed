"""One config file's ``subagents`` section (profiles-exec.md §2.3, §2.4): values, entries, warnings."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from forgec.codecs.forge_config import (
    ConfigScope,
    ForgeConfigFile,
    ProfileSettings,
    SubagentsSection,
    config_key_for_selector,
    is_valid_timeout_ms,
    parse_config_text,
    read_config_file,
    read_subagents_section,
)
from forgec.js.values import JSBigInt

P = "/p/.pi/forge/config.json"


def section(text: str, scope: ConfigScope = "project") -> tuple[SubagentsSection, list[str]]:
    read = read_subagents_section(parse_config_text(text, P), scope)
    return read, read.warnings


def sub(body: object) -> str:
    return json.dumps({"subagents": body})


def test_an_absent_file_contributes_nothing(tmp_path: Path) -> None:
    file = read_config_file(tmp_path / "config.json")
    assert not file.exists and file.error is None
    read = read_subagents_section(file, "global")
    assert read.warnings == [] and read.backend is None and dict(read.profiles) == {}


def test_a_dangling_link_does_not_exist(tmp_path: Path) -> None:
    link = tmp_path / "config.json"
    link.symlink_to(tmp_path / "nowhere.json")
    assert not read_config_file(link).exists


def test_a_file_that_is_not_json_is_ignored_with_v8s_reason() -> None:
    _, warnings = section('{ "subagents": { "backend": "x", }\n')
    assert warnings == [
        f"pi-forge: failed to read {P}; its subagent settings are ignored. "
        "Expected double-quoted property name in JSON at position 33"
    ]


def test_a_byte_order_mark_fails_as_json_parse_fails(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(b"\xef\xbb\xbf{}")
    file = read_config_file(path)
    assert file.error == "Unexpected token '\ufeff', \"\ufeff{}\" is not valid JSON"
    assert [d.code for d in file.hints] == ["FG009"]


def test_a_folder_is_unreadable_with_nodes_text(tmp_path: Path) -> None:
    folder = tmp_path / "config.json"
    folder.mkdir()
    read = read_subagents_section(read_config_file(folder), "global")
    assert read.warnings == [
        f"pi-forge: failed to read {folder}; its subagent settings are ignored. "
        "EISDIR: illegal operation on a directory, read"
    ]


@pytest.mark.parametrize("text", ["[1, 2]", '"x"', "42", "null", "true"])
def test_the_root_must_be_an_object(text: str) -> None:
    _, warnings = section(text)
    assert warnings == [f"pi-forge: {P} must be a JSON object; its subagent settings are ignored."]


def test_subagents_absent_is_silent_and_unknown_keys_are_ignored() -> None:
    read, warnings = section('{"other": 1, "webEditor": {"port": "x"}}')
    assert warnings == []
    read, warnings = section(sub({"futureKey": [1], "backend": "b"}))
    assert warnings == [] and read.backend == "b"


@pytest.mark.parametrize("value", [[], "pi-rpc-readonly", None, 3])
def test_subagents_must_be_an_object(value: object) -> None:
    read, warnings = section(sub(value))
    assert warnings == [f"pi-forge: {P} subagents must be a JSON object; its subagent settings are ignored."]
    assert read.backend is None


def test_valid_defaults_are_read_as_given() -> None:
    read, warnings = section(sub({"backend": "  spaced  ", "timeoutMs": 1e3, "summaryInToolDescription": True}))
    assert warnings == []
    assert read.backend == "  spaced  "  # stored untrimmed
    assert read.timeout_ms == 1000 and isinstance(read.timeout_ms, int)
    assert read.summary_in_tool_description is True


@pytest.mark.parametrize("value", [42, "", "   ", "\ufeff\u3000", None, True, ["x"]])
def test_a_blank_or_non_string_backend_warns(value: object) -> None:
    read, warnings = section(sub({"backend": value}))
    assert warnings == [
        f"pi-forge: {P} subagents.backend must be a non-empty string; the configured value is ignored."
    ]
    assert read.backend is None


def test_javascript_trim_keeps_u0085() -> None:
    read, warnings = section(sub({"backend": "\u0085"}))
    assert warnings == [] and read.backend == "\u0085"


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (1000, True), (3600000, True), (60000.0, True), (999, False), (3600001, False), (60000.5, False),
        ("60000", False), (True, False), (None, False), (math.nan, False), (math.inf, False), (-0.0, False),
        (2**53, False), (JSBigInt(60000), False), ([60000], False),
    ],
)
def test_timeout_validity(value: object, valid: bool) -> None:
    assert is_valid_timeout_ms(value) is valid


def test_an_invalid_timeout_warns_with_the_range() -> None:
    _, warnings = section('{"subagents": {"timeoutMs": 60000.5}}')
    assert warnings == [
        f"pi-forge: {P} subagents.timeoutMs must be an integer from 1000 to 3600000; the configured value is ignored."
    ]


@pytest.mark.parametrize("value", [1, "true", None, 0])
def test_the_summary_flag_must_be_boolean(value: object) -> None:
    _, warnings = section(sub({"summaryInToolDescription": value}))
    assert warnings == [
        f"pi-forge: {P} subagents.summaryInToolDescription must be boolean; the configured value is ignored."
    ]


def test_the_unattended_flag_is_read_from_a_project_file_only() -> None:
    text = sub({"allowAgentInvocationWithoutApproval": "yes"})
    read, warnings = section(text, "global")
    assert warnings == [] and read.allow_agent_invocation_without_approval is None
    read, warnings = section(text, "project")
    assert warnings == [
        f"pi-forge: {P} subagents.allowAgentInvocationWithoutApproval must be boolean; per-run subagent "
        "approval remains required."
    ]
    assert read.allow_agent_invocation_without_approval is None
    read, _ = section(sub({"allowAgentInvocationWithoutApproval": True}), "global")
    assert read.allow_agent_invocation_without_approval is None
    read, _ = section(sub({"allowAgentInvocationWithoutApproval": True}), "project")
    assert read.allow_agent_invocation_without_approval is True


def test_warnings_follow_the_reading_order_whatever_the_key_order() -> None:
    text = sub(
        {
            "allowAgentInvocationWithoutApproval": 1,
            "profiles": [],
            "summaryInToolDescription": 1,
            "timeoutMs": 1,
            "backend": 1,
        }
    )
    _, warnings = section(text)
    assert [w.split(" subagents.")[1].split(" ")[0] for w in warnings] == [
        "backend", "timeoutMs", "summaryInToolDescription", "profiles", "allowAgentInvocationWithoutApproval",
    ]


@pytest.mark.parametrize("value", [["reviewer"], "reviewer", None, 1])
def test_profiles_must_be_an_object(value: object) -> None:
    _, warnings = section(sub({"profiles": value}))
    assert warnings == [
        f"pi-forge: {P} subagents.profiles must be a JSON object; its per-profile settings are ignored."
    ]


def test_profile_entries_are_stored_under_the_files_scope() -> None:
    text = sub({"profiles": {"reviewer": {"enabled": True, "backend": " b ", "timeoutMs": 2000.0}}})
    for scope, source in (("global", "global-profile"), ("project", "project-profile")):
        read, warnings = section(text, scope)
        assert warnings == []
        assert dict(read.profiles) == {
            f"{scope}:reviewer": ProfileSettings(True, source, " b ", source, 2000, source)
        }


@pytest.mark.parametrize("key", ["bad id", "project:reviewer", "global:reviewer", "-x", ".x", "a/b", "", "é"])
def test_an_entry_key_must_be_a_bare_resource_id(key: str) -> None:
    read, warnings = section(sub({"profiles": {key: {"enabled": True}}}))
    assert warnings == [f"pi-forge: {P} subagents.profiles.{key} has an invalid profile id; the entry is ignored."]
    assert dict(read.profiles) == {}


@pytest.mark.parametrize("value", [True, "enabled", None, [], 0])
def test_an_entry_must_be_an_object(value: object) -> None:
    _, warnings = section(sub({"profiles": {"reviewer": value}}))
    assert warnings == [f"pi-forge: {P} subagents.profiles.reviewer must be a JSON object; the entry is ignored."]


def test_an_entrys_unsupported_keys_come_first_then_its_fields_in_order() -> None:
    text = (
        '{"subagents": {"profiles": {"w": {"timeoutMs": "1", "zeta": 1, "backend": 7, "enabled": "yes", '
        '"10": 1, "2": 1, "note": null}}}}'
    )
    read, warnings = section(text)
    where = f"pi-forge: {P} subagents.profiles.w"
    assert warnings == [
        f"{where}.2 is unsupported and ignored.",
        f"{where}.10 is unsupported and ignored.",
        f"{where}.zeta is unsupported and ignored.",
        f"{where}.note is unsupported and ignored.",
        f"{where}.enabled must be boolean; the configured value is ignored.",
        f"{where}.backend must be a non-empty string; the configured value is ignored.",
        f"{where}.timeoutMs must be an integer from 1000 to 3600000; the configured value is ignored.",
    ]
    assert dict(read.profiles) == {}  # every field invalid: not stored


def test_entries_are_walked_in_javascript_key_order() -> None:
    text = '{"subagents": {"profiles": {"b": {"enabled": true}, "10": {"enabled": true}, "a": 1, "2": {"enabled": false}}}}'
    read, warnings = section(text, "global")
    assert list(read.profiles) == ["global:2", "global:10", "global:b"]
    assert warnings == [f"pi-forge: {P} subagents.profiles.a must be a JSON object; the entry is ignored."]


def test_an_entry_keeps_its_valid_fields_only() -> None:
    read, _ = section(sub({"profiles": {"w": {"enabled": False, "backend": "", "timeoutMs": 5000}}}))
    assert read.profiles["project:w"].to_json() == {
        "enabled": False, "enabledSource": "project-profile", "timeoutMs": 5000, "timeoutSource": "project-profile",
    }


def test_an_empty_entry_is_not_stored() -> None:
    read, warnings = section(sub({"profiles": {"w": {}}}))
    assert warnings == [] and dict(read.profiles) == {}


@pytest.mark.parametrize(
    ("selector", "key"),
    [
        ("reviewer", "project:reviewer"),
        ("  reviewer\n", "project:reviewer"),
        ("project:reviewer", "project:reviewer"),
        ("global:reviewer", "global:reviewer"),
        ("bad:reviewer", None),
        ("project:", None),
        ("project:a:b", None),
        ("  ", None),
        ("", None),
        ("a b", None),
    ],
)
def test_the_key_a_selector_looks_up(selector: str, key: str | None) -> None:
    assert config_key_for_selector(selector) == key


def test_a_file_read_twice_gives_the_same_document(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(sub({"backend": "b"}), encoding="utf-8")
    file = read_config_file(path)
    assert isinstance(file, ForgeConfigFile) and file.exists and file.parsed and file.root == {"subagents": {"backend": "b"}}
    assert read_subagents_section(file, "global") == read_subagents_section(file, "global")
