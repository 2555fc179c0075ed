"""``forgec rule`` and ``forgec schema``."""

from __future__ import annotations

import json
from pathlib import Path

from forgec.resources import data_dir
from forgec.rules import all_rules


def test_rule_explains_code_with_examples(run) -> None:
    rule = next(r for r in all_rules() if r.bad and r.good)
    result = run("rule", rule.code)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"{rule.code} {rule.name}\n")
    assert f"Default level: {rule.level}" in out
    assert "Bad:\n" in out and "Good:\n" in out
    assert rule.bad.splitlines()[0] in out and rule.good.splitlines()[0] in out
    # by name and in lower case too
    assert run("rule", rule.name).stdout == out
    assert run("rule", rule.code.lower()).stdout == out


def test_rule_json(run) -> None:
    rule = all_rules()[0]
    data = json.loads(run("rule", rule.code, "--format", "json").stdout)
    assert data["code"] == rule.code and data["name"] == rule.name and data["level"] == rule.level


def test_rule_lists_all_and_by_prefix(run) -> None:
    rules = all_rules()
    lines = run("rule").stdout.splitlines()
    assert [ln.split()[0] for ln in lines] == [r.code for r in rules]
    prefix = rules[0].code[:3]
    listed = run("rule", prefix).stdout.splitlines()
    assert [ln.split()[0] for ln in listed] == [r.code for r in rules if r.code.startswith(prefix)]


def test_every_rule_is_documented() -> None:
    for rule in all_rules():
        assert rule.code.startswith("FG") and len(rule.code) == 5 and rule.code[2:].isdigit(), rule
        assert rule.name == rule.name.lower() and " " not in rule.name, rule
        assert rule.level in ("error", "warning", "info"), rule
        assert rule.summary, rule


def test_unknown_rule_exit_2(run) -> None:
    result = run("rule", "FG999")
    assert result.exit_code == 2
    assert "unknown rule 'FG999'" in result.stderr
    assert run("rule", "no-such-rule").exit_code == 2


def test_schema_lists_and_prints(run) -> None:
    folder = data_dir("schemas")
    names = sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json"))
    assert names, "forgec bundles JSON Schemas"
    result = run("schema")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == names
    for name in names:
        printed = run("schema", name).stdout
        assert printed == (folder / f"{name}.schema.json").read_text(encoding="utf-8")
        json.loads(printed)
    assert run("schema", f"{names[0]}.schema.json").stdout == run("schema", names[0]).stdout


def test_unknown_schema_exit_2(run, tmp_path: Path) -> None:
    result = run("schema", "no-such-schema")
    assert result.exit_code == 2
    assert "unknown schema 'no-such-schema'" in result.stderr


def test_help_has_examples(run) -> None:
    for command in ("validate", "rule", "schema"):
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "Examples:" in result.stdout
        assert "Exit codes:" in result.stdout
