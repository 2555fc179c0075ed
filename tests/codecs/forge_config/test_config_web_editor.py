"""``webEditor.port`` of a trusted project's file (profiles-exec.md §2.7)."""

from __future__ import annotations

import json

import pytest

from forgec.codecs.forge_config import parse_config_text, read_web_editor_port

P = "/p/.pi/forge/config.json"
BAD_PORT = f"pi-forge: {P} webEditor.port must be an integer from 1 to 65535; using an available editor port."


def port(doc: object) -> tuple[int | None, list[str]]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    found = read_web_editor_port(parse_config_text(text, P))
    return found.preferred_port, found.warnings


@pytest.mark.parametrize("value", [1, 41738, 65535, 5000.0])
def test_a_valid_port(value: float) -> None:
    found, warnings = port({"webEditor": {"port": value}})
    assert found == int(value) and isinstance(found, int) and warnings == []


@pytest.mark.parametrize("value", [0, 65536, -1, 1.5, "41738", True, [], {}])
def test_an_invalid_port_warns_and_gives_no_port(value: object) -> None:
    assert port({"webEditor": {"port": value}}) == (None, [BAD_PORT])


def test_null_falls_back_to_the_legacy_key() -> None:
    assert port({"webEditor": {"port": None}, "webEditorPort": 5000}) == (5000, [])
    assert port({"webEditor": {}, "webEditorPort": 5000}) == (5000, [])
    assert port({"webEditorPort": 8080}) == (8080, [])
    assert port({"webEditor": "not an object", "webEditorPort": 8080}) == (8080, [])


def test_only_a_final_absent_value_is_silent() -> None:
    assert port({"webEditor": {"port": None}}) == (None, [])
    assert port({}) == (None, [])
    assert port({"webEditor": {"port": None}, "webEditorPort": None}) == (None, [BAD_PORT])
    assert port({"webEditorPort": None}) == (None, [BAD_PORT])
    assert port({"webEditorPort": "8080"}) == (None, [BAD_PORT])


def test_the_preferred_port_wins_over_the_legacy_key() -> None:
    assert port({"webEditor": {"port": 41738}, "webEditorPort": "ignored"}) == (41738, [])


def test_an_unreadable_or_non_object_file() -> None:
    assert port('{"webEditor": }') == (
        None,
        [f"pi-forge: failed to read {P}; using an available editor port. " + """Unexpected token '}', "{"webEditor": }" is not valid JSON"""],
    )
    assert port("[1, 2, 3]") == (None, [f"pi-forge: {P} must be a JSON object; using an available editor port."])


def test_to_json_is_pi_forges_object() -> None:
    found = read_web_editor_port(parse_config_text('{"webEditor": {"port": 41738}}', P))
    assert list(found.to_json().items()) == [("preferredPort", 41738), ("configPath", P), ("warnings", [])]
    empty = read_web_editor_port(parse_config_text("{}", P))
    assert empty.to_json() == {"configPath": P, "warnings": []}
