"""Each output format on a broken stack, with positions checked against the file text (JSON and YAML)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import BROKEN_JSON, BROKEN_YAML, position_of, write_text

DUP = "Duplicate item id: dup"
ODD = "Unsupported slot: not-a-slot"


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return write_text(tmp_path / "broken.json", BROKEN_JSON)


@pytest.fixture
def broken_yaml(tmp_path: Path) -> Path:
    return write_text(tmp_path / "broken.yaml", BROKEN_YAML)


def _json(run, *args: str) -> tuple[int, dict]:
    result = run("validate", "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def test_json_format_fields_and_pi_forge_values(run, broken: Path) -> None:
    code, doc = _json(run, "broken.json")
    assert code == 1
    (entry,) = doc["files"]
    assert entry["path"] == "broken.json"
    assert entry["kind"] == "stack"
    assert entry["stackId"] == "broken"
    assert entry["usable"] is False
    pi = [{k: d[k] for k in ("level", "message", "itemId") if k in d} for d in entry["diagnostics"]]
    # pi-forge's exact diagnostics, in pi-forge's order (compile-core §10.5)
    assert pi == [
        {"level": "error", "message": DUP, "itemId": "dup"},
        {"level": "warning", "message": ODD, "itemId": "odd"},
    ]
    for d in entry["diagnostics"]:
        assert d["code"].startswith("FG") and len(d["code"]) == 5
        assert d["name"] and d["name"] == d["name"].lower()
        assert set(d) >= {"code", "name", "level", "message", "line", "column", "endLine", "endColumn"}
    assert doc["summary"]["errors"] == 1 and doc["summary"]["warnings"] == 1
    assert doc["summary"]["files"] == 1 and doc["summary"]["exitCode"] == 1


def _by_message(doc: dict, message: str) -> dict:
    return next(d for d in doc["files"][0]["diagnostics"] if d["message"] == message)


def test_json_positions_point_into_the_json_file(run, broken: Path) -> None:
    _, doc = _json(run, "broken.json")
    dup = _by_message(doc, DUP)
    # the second item's id value
    assert (dup["line"], dup["column"]) == position_of(BROKEN_JSON, '"dup"', occurrence=2)
    odd = _by_message(doc, ODD)
    assert (odd["line"], odd["column"]) == position_of(BROKEN_JSON, '"not-a-slot"')


def test_yaml_positions_point_into_the_yaml_file(run, broken_yaml: Path) -> None:
    code, doc = _json(run, "broken.yaml")
    assert code == 1
    assert doc["files"][0]["stackId"] == "broken-yaml"
    dup = _by_message(doc, DUP)
    assert (dup["line"], dup["column"]) == position_of(BROKEN_YAML, "dup", occurrence=2)
    odd = _by_message(doc, ODD)
    assert (odd["line"], odd["column"]) == position_of(BROKEN_YAML, "not-a-slot")


def test_concise_format(run, broken: Path) -> None:
    result = run("validate", "--format", "concise", "broken.json")
    assert result.exit_code == 1
    line, col = position_of(BROKEN_JSON, '"dup"', occurrence=2)
    lines = result.stdout.splitlines()
    code = next(ln for ln in lines if DUP in ln).split()[1]
    assert f"broken.json:{line}:{col}: {code} [error] {DUP}" in lines
    assert lines[-1] == "Found 1 error, 1 warning, 0 info in 1 file."


def test_full_format_shows_excerpt_and_caret(run, broken: Path) -> None:
    result = run("validate", "broken.json", "--no-color")
    assert result.exit_code == 1
    out = result.stdout
    line, col = position_of(BROKEN_JSON, '"dup"', occurrence=2)
    source_line = BROKEN_JSON.splitlines()[line - 1]
    assert f"  --> broken.json:{line}:{col}\n" in out
    rows = out.splitlines()
    at = rows.index(f"{line} | {source_line}")
    caret_row = rows[at + 1]
    # the caret sits under the column: gutter "N | " then col-1 spaces
    prefix = f"{' ' * len(str(line))} | "
    assert caret_row.startswith(prefix)
    assert caret_row[len(prefix) + col - 1] == "^"
    assert caret_row[len(prefix) : len(prefix) + col - 1].strip() == ""
    assert "= item: dup" in out
    assert "\x1b[" not in out  # no colour when not a terminal / --no-color


def test_full_format_colour_on_request(run, broken: Path) -> None:
    result = run("validate", "broken.json", "--color")
    assert "\x1b[1;31merror[" in result.stdout


def test_full_format_without_span_has_no_excerpt(run, tmp_path: Path) -> None:
    # the duplicate-id error of a file that could not be parsed has no position
    folder = ".pi/forge/prompt-stacks"
    write_text(tmp_path / folder / "x.json", "{")
    write_text(tmp_path / folder / "y.json", '{"schemaVersion": 1, "id": "x", "items": []}')
    result = run("validate", f"{folder}/x.json")
    assert result.exit_code == 1
    out = result.stdout
    block = out[out.index("Duplicate project stack id") :]
    assert block.splitlines()[1] == f"  --> {folder}/x.json"
    assert block.splitlines()[2] == ""  # no excerpt follows
    concise = run("validate", f"{folder}/x.json", "--format", "concise").stdout
    assert f"{folder}/x.json:1:1: FG148" in concise.splitlines()[0]  # no position: sorted first


def test_github_format(run, broken: Path) -> None:
    result = run("validate", "--format", "github", "broken.json")
    assert result.exit_code == 1
    line, col = position_of(BROKEN_JSON, '"dup"', occurrence=2)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"::error file=broken.json,line={line},col={col},endLine={line},endColumn=")
    assert ",title=FG" in first and first.endswith(f"::{DUP}")
    assert result.stdout.splitlines()[1].startswith("::warning file=broken.json,")


def test_quiet_prints_only_the_summary(run, broken: Path) -> None:
    result = run("validate", "-q", "broken.json", "--format", "concise")
    assert result.exit_code == 1
    assert result.stdout == "Found 1 error, 1 warning, 0 info in 1 file.\n"
    doc = json.loads(run("validate", "-q", "broken.json", "--format", "json").stdout)
    assert set(doc) == {"summary"}


def test_output_file(run, broken: Path, tmp_path: Path) -> None:
    result = run("validate", "broken.json", "--format", "json", "-o", "report.json")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert json.loads((tmp_path / "report.json").read_text())["files"][0]["stackId"] == "broken"


def test_stdin_with_filename(run, tmp_path: Path) -> None:
    result = run(
        "validate", "-", "--stdin-filename", "stacks/piped.yaml", "--format", "json", input=BROKEN_YAML
    )
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["files"][0]["path"] == "stacks/piped.yaml"
    assert _by_message(doc, DUP)["line"] == position_of(BROKEN_YAML, "dup", occurrence=2)[0]


def test_stdin_filename_requires_dash(run) -> None:
    result = run("validate", "--stdin-filename", "x.json")
    assert result.exit_code == 2
