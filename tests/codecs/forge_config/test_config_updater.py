"""The config updater's pure part (profiles-exec.md §2.6): the new text of a file, or the refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from forgec.codecs.forge_config import (
    ForgeConfigFile,
    ProfileConfigUpdate,
    parse_config_text,
    plan_profile_update,
    validate_profile_update,
)
from forgec.js.values import UNDEFINED, JSBigInt

P = "/p/.pi/forge/config.json"
MISSING = ForgeConfigFile(P, False)


def update(text: str | None, profile_id: str = "reviewer", **fields: Any) -> str:
    """The new text (asserting the update is accepted)."""
    file = MISSING if text is None else parse_config_text(text, P)
    plan = plan_profile_update(file, profile_id, ProfileConfigUpdate.from_json(fields))
    assert plan.ok and plan.error is None and plan.text is not None, plan.error
    return plan.text


def refusal(text: str | None, profile_id: str = "reviewer", **fields: Any) -> str:
    file = MISSING if text is None else parse_config_text(text, P)
    plan = plan_profile_update(file, profile_id, ProfileConfigUpdate.from_json(fields))
    assert not plan.ok and plan.text is None and plan.error is not None
    return plan.error


def stringify(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# --- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile_id", ["bad id", "project:reviewer", "global:reviewer", "", "-x", " reviewer"])
def test_the_id_must_be_a_bare_resource_id(profile_id: str) -> None:
    assert refusal(None, profile_id, enabled=True) == f"Invalid agent profile id: {profile_id}"


@pytest.mark.parametrize("backend", ["", "  ", 5, True, ["x"], {}])
def test_a_backend_must_be_non_blank_or_null(backend: object) -> None:
    assert refusal(None, backend=backend) == "subagent backend must be a non-empty string or null to clear the override."


@pytest.mark.parametrize("timeout", [500, 999, 3600001, 1000.5, "2000", True, float("nan"), JSBigInt(2000)])
def test_a_timeout_must_be_valid_or_null(timeout: object) -> None:
    assert refusal(None, timeoutMs=timeout) == (
        "subagent timeoutMs must be an integer from 1000 to 3600000 or null to clear the override."
    )


def test_input_is_checked_before_the_file_in_pi_forges_order() -> None:
    broken = "not json"
    assert refusal(broken, "bad id", backend="", timeoutMs=1).startswith("Invalid agent profile id")
    assert refusal(broken, backend="", timeoutMs=1).startswith("subagent backend")
    assert refusal(broken, timeoutMs=1).startswith("subagent timeoutMs")
    assert validate_profile_update("reviewer", ProfileConfigUpdate(backend=None, timeout_ms=None)) is None


def test_refusals_about_the_file() -> None:
    assert refusal('{"subagents": ', enabled=True) == (
        f"Refusing to update unreadable {P}: Unexpected end of JSON input"
    )
    assert refusal("[]", enabled=True) == f"Refusing to update {P}: the config root must be a JSON object."
    assert refusal('{"subagents": null}', enabled=True) == f"Refusing to update {P}: subagents must be a JSON object."
    assert refusal('{"subagents": {"profiles": []}}', enabled=True) == (
        f"Refusing to update {P}: subagents.profiles must be a JSON object."
    )
    assert refusal('{"subagents": {"profiles": {"reviewer": null}}}', enabled=True) == (
        f"Refusing to update {P}: subagents.profiles.reviewer must be a JSON object."
    )
    unreadable = ForgeConfigFile(P, True, error="EISDIR: illegal operation on a directory, read")
    plan = plan_profile_update(unreadable, "reviewer", ProfileConfigUpdate(enabled=True))
    assert plan.error == f"Refusing to update unreadable {P}: EISDIR: illegal operation on a directory, read"


def test_object_prototype_names_are_refused_unless_the_file_has_them() -> None:
    # pi-forge reads ``profiles[id]`` on a plain object: ``constructor`` finds Object's function
    assert refusal(None, "constructor", enabled=True) == (
        f"Refusing to update {P}: subagents.profiles.constructor must be a JSON object."
    )
    assert refusal("{}", "toString", enabled=True).endswith("subagents.profiles.toString must be a JSON object.")
    own = '{"subagents": {"profiles": {"valueOf": {"backend": "b"}}}}'
    assert json.loads(update(own, "valueOf", enabled=True)) == {
        "subagents": {"profiles": {"valueOf": {"backend": "b", "enabled": True}}}
    }


# --- semantics -------------------------------------------------------------------------------------


def test_a_missing_file_is_created_with_only_the_entry() -> None:
    assert update(None, enabled=True, timeoutMs=3600000) == stringify(
        {"subagents": {"profiles": {"reviewer": {"enabled": True, "timeoutMs": 3600000}}}}
    )


def test_an_update_that_changes_nothing_still_writes_the_file() -> None:
    assert update(None) == "{}\n"
    assert update(None, enabled=False, backend=None, timeoutMs=None) == "{}\n"
    assert update('{"a":1,"b":[1,2]}') == '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}\n'


def test_unknown_keys_are_preserved_at_every_level() -> None:
    text = json.dumps(
        {"top": {"x": [1, None]}, "subagents": {"backend": "d", "future": 1, "profiles": {
            "reviewer": {"enabled": True, "note": "keep"}, "other": {"timeoutMs": 2000}}}}
    )
    assert json.loads(update(text, backend="b")) == {
        "top": {"x": [1, None]},
        "subagents": {"backend": "d", "future": 1, "profiles": {
            "reviewer": {"enabled": True, "note": "keep", "backend": "b"}, "other": {"timeoutMs": 2000}}},
    }


def test_enabled_is_read_for_its_truthiness() -> None:
    for value in (True, "no", 1, [], {}):
        assert json.loads(update(None, enabled=value))["subagents"]["profiles"]["reviewer"] == {"enabled": True}
    base = '{"subagents": {"profiles": {"reviewer": {"enabled": true, "backend": "b"}}}}'
    for value in (False, 0, "", None, float("nan"), JSBigInt(0)):
        assert json.loads(update(base, enabled=value))["subagents"]["profiles"]["reviewer"] == {"backend": "b"}


def test_a_backend_is_stored_trimmed_and_null_deletes_it() -> None:
    text = update(None, backend="\u3000 pi-rpc-readonly \n")
    assert json.loads(text)["subagents"]["profiles"]["reviewer"] == {"backend": "pi-rpc-readonly"}
    assert update(text, backend=None) == "{}\n"


def test_empty_entry_profiles_and_subagents_are_removed() -> None:
    base = json.dumps({"keep": 1, "subagents": {"profiles": {"reviewer": {"timeoutMs": 2000}}}})
    assert update(base, timeoutMs=None) == stringify({"keep": 1})
    base = json.dumps({"subagents": {"backend": "d", "profiles": {"reviewer": {"enabled": True}}}})
    assert update(base, enabled=False) == stringify({"subagents": {"backend": "d"}})
    base = json.dumps({"subagents": {"profiles": {"reviewer": {"enabled": True}, "other": {"enabled": True}}}})
    assert update(base, enabled=False) == stringify({"subagents": {"profiles": {"other": {"enabled": True}}}})


def test_undefined_fields_are_left_alone() -> None:
    base = '{"subagents": {"profiles": {"reviewer": {"enabled": true, "backend": "b", "timeoutMs": 2000}}}}'
    same = update(base, enabled=UNDEFINED, backend=UNDEFINED, timeoutMs=UNDEFINED)
    assert json.loads(same) == json.loads(base)


# --- key order and number printing ------------------------------------------------------------------


def test_existing_keys_keep_their_place_and_new_keys_are_appended() -> None:
    base = '{"subagents": {"profiles": {"reviewer": {"timeoutMs": 2000, "note": 1}}}, "z": 1}'
    text = update(base, backend="b", timeoutMs=3000)
    assert text == (
        '{\n  "subagents": {\n    "profiles": {\n      "reviewer": {\n        "timeoutMs": 3000,\n'
        '        "note": 1,\n        "backend": "b"\n      }\n    }\n  },\n  "z": 1\n}\n'
    )


def test_a_key_deleted_and_set_again_moves_to_the_end() -> None:
    base = '{"subagents": {"profiles": {"reviewer": {"enabled": true, "note": 1}}}}'
    off = update(base, enabled=False)
    on = update(off, enabled=True)
    assert list(json.loads(on)["subagents"]["profiles"]["reviewer"]) == ["note", "enabled"]
    # setting a key that is already there keeps its place
    assert list(json.loads(update(base, enabled=True))["subagents"]["profiles"]["reviewer"]) == ["enabled", "note"]


def test_a_new_entry_subagents_section_go_to_the_end() -> None:
    base = '{"a": 1, "b": 2}'
    assert list(json.loads(update(base, enabled=True))) == ["a", "b", "subagents"]
    base = '{"subagents": {"profiles": {"x": {"enabled": true}}, "backend": "d"}}'
    assert list(json.loads(update(base, enabled=True))["subagents"]["profiles"]) == ["x", "reviewer"]


def test_integer_like_keys_come_first() -> None:
    base = '{"b": 1, "10": 2, "a": 3, "2": 4, "01": 5, "subagents": {"profiles": {"x": {"enabled": true}}}}'
    text = update(base, "7", enabled=True)
    keys = [line.split('"')[1] for line in text.splitlines() if line.startswith('  "')]
    assert keys == ["2", "10", "b", "a", "01", "subagents"]
    assert text.index('"7"') < text.index('"x"')  # the new profile "7" prints before "x"


def test_numbers_print_as_javascript_prints_them() -> None:
    base = '{"n": 1e3, "m": 3600000.0, "f": 0.5, "big": 1e21, "neg": -0.0, "subagents": {"profiles": {}}}'
    text = update(base, timeoutMs=1e3)
    assert '"n": 1000,' in text and '"m": 3600000,' in text and '"f": 0.5,' in text
    assert '"big": 1e+21,' in text and '"neg": 0,' in text
    assert '"timeoutMs": 1000\n' in text


def test_strings_are_escaped_as_json_stringify_escapes_them() -> None:
    base = '{"s": "\\u2028 \\ud800 é \\u0007 \\"q\\""}'
    assert update(base).split("\n")[1] == '  "s": "\u2028 \\ud800 é \\u0007 \\"q\\""'


def test_duplicate_keys_keep_the_last_value_at_the_first_place() -> None:
    base = '{"a": 1, "b": 2, "a": 3}'
    assert update(base) == '{\n  "a": 3,\n  "b": 2\n}\n'


def test_the_file_read_is_not_changed() -> None:
    file = parse_config_text('{"subagents": {"profiles": {"reviewer": {"enabled": true}}}}', P)
    before = json.dumps(file.root)
    plan_profile_update(file, "reviewer", ProfileConfigUpdate(enabled=False, backend="b"))
    plan_profile_update(file, "other", ProfileConfigUpdate(enabled=True))
    assert json.dumps(file.root) == before
