"""Config warnings as forgec diagnostics: a registered FG57x-FG58x code, pi-forge's text, a pointer
to the offending value that resolves to a line and column; and the rule catalog that documents them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from forgec.codecs.forge_config import check_config_file, parse_config_text
from forgec.resources import schema_path
from forgec.rules import all_rules, rule_for

P = "/p/.pi/forge/config.json"
TEXT = """{
  "webEditor": {"port": "x"},
  "subagents": {
    "backend": 42,
    "timeoutMs": 999,
    "profiles": {
      "bad id": {},
      "reviewer": {
        "extra": 1,
        "enabled": "yes"
      }
    },
    "allowAgentInvocationWithoutApproval": "no"
  }
}
"""


def positions(text: str, scope: str = "project") -> list[tuple[str, int, int, str]]:
    check = check_config_file(parse_config_text(text, P), scope)  # type: ignore[arg-type]
    out = []
    for d in check.positioned():
        assert d.span is not None, d
        out.append((d.code, d.span.line, d.span.column, d.message))
    return out


def test_each_warning_is_a_diagnostic_at_its_value() -> None:
    found = positions(TEXT)
    assert [(code, line, column) for code, line, column, _ in found] == [
        ("FG573", 4, 16),  # backend: 42
        ("FG574", 5, 18),  # timeoutMs: 999
        ("FG578", 7, 17),  # "bad id": {}
        ("FG580", 9, 18),  # extra: 1
        ("FG581", 10, 20),  # enabled: "yes"
        ("FG576", 13, 44),  # allowAgentInvocationWithoutApproval: "no"
        ("FG586", 2, 25),  # webEditor.port: "x"
    ]
    check = check_config_file(parse_config_text(TEXT, P), "project")
    assert all(d.level == "warning" and not d.extra and d.field is None for d in check.diagnostics)
    assert check.diagnostics[0].message == (
        f"pi-forge: {P} subagents.backend must be a non-empty string; the configured value is ignored."
    )


def test_a_global_file_has_no_editor_or_unattended_findings() -> None:
    assert [code for code, *_ in positions(TEXT, "global")] == ["FG573", "FG574", "FG578", "FG580", "FG581"]


def test_the_legacy_port_is_pointed_at_where_it_was_read() -> None:
    assert positions('{\n  "webEditor": {"port": null},\n  "webEditorPort": "8080"\n}')[0][:3] == ("FG586", 3, 20)


def test_parse_errors_point_at_v8s_position() -> None:
    found = positions('{\n  "subagents": {\n    "backend": "x",\n  }\n}')
    assert [(code, line, column) for code, line, column, _ in found] == [("FG570", 4, 3), ("FG584", 4, 3)]
    assert found[0][3].endswith("Expected double-quoted property name in JSON at position 41")


def test_a_root_that_is_not_an_object_points_at_the_root() -> None:
    assert [(code, line, column) for code, line, column, _ in positions("\n  [1]")] == [("FG571", 2, 3), ("FG585", 2, 3)]


def test_reading_hints_come_first(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(b'{"subagents": {"backend": "caf\xe9"}}')
    check = check_config_file(path, "global")
    assert [d.code for d in check.diagnostics] == ["FG010"] and check.diagnostics[0].extra


# --- the catalog -----------------------------------------------------------------------------------

RULES = [r for r in all_rules() if "FG570" <= r.code <= "FG599"]


def test_one_rule_per_warning() -> None:
    assert len(RULES) == 17
    assert len({r.name for r in RULES}) == len(RULES)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in RULES)
    assert all(r.level == "warning" and r.pi_forge and r.summary and r.bad and r.good for r in RULES)
    assert rule_for("config-profile-id-invalid").code == "FG578" and rule_for("FG586").name == "web-editor-port-invalid"


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_each_rules_bad_example_raises_it_and_its_good_example_is_clean(rule: object) -> None:
    from forgec.rules import Rule

    assert isinstance(rule, Rule)
    bad = check_config_file(parse_config_text(rule.bad, P), "project")
    assert rule.code in [d.code for d in bad.diagnostics]
    good = check_config_file(parse_config_text(rule.good, P), "project")
    assert good.diagnostics == ()


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_the_schema_agrees_with_the_examples(rule: object) -> None:
    from forgec.rules import Rule

    assert isinstance(rule, Rule)
    validator = jsonschema.Draft202012Validator(json.loads(schema_path("forge-config").read_text(encoding="utf-8")))
    good = json.loads(rule.good)
    assert list(validator.iter_errors(good)) == []
    try:
        bad = json.loads(rule.bad)
    except json.JSONDecodeError:
        return  # not JSON at all: no schema can help
    assert list(validator.iter_errors(bad)) != []


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"$schema": "x", "other": 1, "subagents": {"future": 1}},
        {"webEditor": {"port": None}},
        {"webEditor": {"port": None}, "webEditorPort": 5000},
        {"webEditor": {"port": 41738}, "webEditorPort": "ignored"},
        {"webEditor": "ignored", "webEditorPort": 5000},
        {"subagents": {"backend": "b", "timeoutMs": 1000.0, "summaryInToolDescription": False,
                       "allowAgentInvocationWithoutApproval": True,
                       "profiles": {"a.b_c-1": {"enabled": False, "backend": " x ", "timeoutMs": 3600000}}}},
    ],
)
def test_files_pi_forge_reads_silently_validate(doc: object) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(schema_path("forge-config").read_text(encoding="utf-8")))
    assert list(validator.iter_errors(doc)) == []
    assert check_config_file(parse_config_text(json.dumps(doc), P), "project").diagnostics == ()


@pytest.mark.parametrize(
    "doc",
    [
        {"webEditor": {"port": None}, "webEditorPort": None},
        {"webEditorPort": None},
        {"webEditor": {"port": 0}},
        {"subagents": {"profiles": {"r": {"enabled": True, "timeout": 1}}}},
        {"subagents": {"profiles": {"r": {}, "x y": {}}}},
        {"subagents": {"timeoutMs": 60000.5}},
    ],
)
def test_files_pi_forge_warns_about_do_not_validate(doc: object) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(schema_path("forge-config").read_text(encoding="utf-8")))
    assert list(validator.iter_errors(doc)) != []
    assert check_config_file(parse_config_text(json.dumps(doc), P), "project").diagnostics != ()
