"""Issue 15, "How it is judged" 1: a stack written from scratch with the mistakes a new user makes
gives one finding per mistake, each caret on the offending token, sorted, in JSON and in YAML and in
every output format; ``--fix`` repairs the fixable ones and leaves comments intact."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

_YAML = """\
# my first stack
schemaVersion: 1
type: pi-forge.prompt-stack
id: first
tool:
  deny: [write]   # keep it read-only
variabels:
  x: "1"
items:
  - kind: block
    id: sys
    role: System   # capitalised
    contnet: hello
  - kind: slot
    id: tools
    role: system
    slot: tools
    options:
      format: markdwn
  - kind: slot
    id: hist
    slot: chat_history
regex:
  rules:
    - id: r1
      stage: compiled
      pattern: "a(b"
      flags: "gy"
"""

_JSON = """\
{
  "schemaVersion": 1,
  "type": "pi-forge.prompt-stack",
  "id": "first",
  "tool": { "deny": ["write"] },
  "variabels": { "x": "1" },
  "items": [
    { "kind": "block", "id": "sys", "role": "System", "contnet": "hello" },
    { "kind": "slot", "id": "tools", "role": "system", "slot": "tools", "options": { "format": "markdwn" } },
    { "kind": "slot", "id": "hist", "slot": "chat_history" }
  ],
  "regex": { "rules": [ { "id": "r1", "stage": "compiled", "pattern": "a(b", "flags": "gy" } ] }
}
"""

#: one finding per mistake, in source order: (code, the token its caret covers)
_MISTAKES = {
    "yaml": [
        ("FG150", "tool"),
        ("FG150", "variabels"),
        ("FG118", "System"),
        ("FG150", "contnet"),
        ("FG311", "markdwn"),
        ("FG136", "chat_history"),
        ("FG618", '"a(b"'),
        ("FG616", '"gy"'),
    ],
    "json": [
        ("FG150", '"tool"'),
        ("FG150", '"variabels"'),
        ("FG118", '"System"'),
        ("FG150", '"contnet"'),
        ("FG311", '"markdwn"'),
        ("FG136", '"chat_history"'),
        ("FG618", '"a(b"'),
        ("FG616", '"gy"'),
    ],
}
_UNFIXABLE = {"FG311", "FG618", "FG616"}


@pytest.fixture(params=["yaml", "json"])
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Path]:
    kind = request.param
    path = tmp_path / f"first.{kind}"
    path.write_text(_YAML if kind == "yaml" else _JSON, encoding="utf-8")
    return kind, path


def _token(text: str, line: int, column: int, end_line: int, end_column: int) -> str:
    assert line == end_line
    return text.splitlines()[line - 1][column - 1 : end_column - 1]


def test_one_finding_per_mistake_each_caret_on_its_token(run, stack: tuple[str, Path]) -> None:
    kind, path = stack
    text = path.read_text(encoding="utf-8")
    lines = run("validate", str(path), "--format", "concise").stdout.splitlines()[:-1]
    assert len(lines) == len(_MISTAKES[kind])  # one line per mistake: the consequences are notes
    data = json.loads(run("validate", str(path), "--format", "json").stdout)
    heads = [d for d in data["files"][0]["diagnostics"] if "causedBy" not in d]
    by_position = sorted(heads, key=lambda d: (d["line"], d["column"]))
    assert [(d["code"], _token(text, d["line"], d["column"], d["endLine"], d["endColumn"])) for d in by_position] == _MISTAKES[kind]
    # the concise lines are those findings, in that order, at those positions
    assert [line.split(": ", 2)[1].split(" ")[0] for line in lines] == [code for code, _ in _MISTAKES[kind]]
    assert [tuple(map(int, line.split(":")[1:3])) for line in lines] == [(d["line"], d["column"]) for d in by_position]


def test_every_format_is_sorted_and_positioned(run, stack: tuple[str, Path]) -> None:
    kind, path = stack
    expected = [code for code, _ in _MISTAKES[kind]]
    full = run("validate", str(path), "--format", "full", "--no-color").stdout
    heads = [line.split("]")[0].split("[")[1] for line in full.splitlines() if line.startswith(("error[", "warning[", "info["))]
    assert heads == expected
    github = run("validate", str(path), "--format", "github").stdout.splitlines()
    assert [line.split("title=")[1].split(" ")[0] for line in github] == expected
    assert all("endLine=" in line and "endColumn=" in line for line in github)
    junit = ET.fromstring(run("validate", str(path), "--format", "junit").stdout)
    assert [case.get("name", "").split(" ")[0] for case in junit.iter("testcase")] == expected
    gitlab = json.loads(run("validate", str(path), "--format", "gitlab").stdout)
    assert [issue["check_name"].split(" ")[0] for issue in gitlab] == expected
    sarif = json.loads(run("validate", str(path), "--format", "sarif").stdout)
    for result in sarif["runs"][0]["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(region)


def test_fix_repairs_the_fixable_ones_and_keeps_comments(run, stack: tuple[str, Path]) -> None:
    kind, path = stack
    before = path.read_text(encoding="utf-8")
    diff = run("validate", str(path), "--diff")
    assert path.read_text(encoding="utf-8") == before  # --diff writes nothing
    assert "+    role: system   # capitalised" in diff.stdout or '"role": "system"' in diff.stdout
    result = run("validate", str(path), "--fix", "--format", "concise")
    after = path.read_text(encoding="utf-8")
    left = [line.split(": ", 2)[1].split(" ")[0] for line in result.stdout.splitlines()[:-1]]
    assert set(left) == _UNFIXABLE and len(left) == 3
    if kind == "yaml":
        assert "# my first stack\n" in after and "deny: [write]   # keep it read-only\n" in after
        assert "    role: system   # capitalised\n" in after
        assert "tools:\n" in after and "variables:\n" in after and "    content: hello\n" in after
        assert "    slot: chat-history\n" in after
    else:  # a minimal text edit: only the five tokens changed, the layout is the user's
        assert after == (
            before.replace('"tool"', '"tools"').replace('"variabels"', '"variables"').replace('"System"', '"system"')
            .replace('"contnet"', '"content"').replace('"chat_history"', '"chat-history"')
        )


def test_a_folded_error_is_filed_as_an_error_everywhere(run, stack: tuple[str, Path]) -> None:
    """``contnet`` is a warning (FG150) that leaves the block without content (error FG121): the
    annotation, the JUnit failure and the Code Quality issue all carry the error."""
    _, path = stack
    junit = ET.fromstring(run("validate", str(path), "--format", "junit").stdout)
    case = next(c for c in junit.iter("testcase") if "contnet" in (c.find("failure").get("message") or ""))
    assert case.find("failure").get("type") == "error"
    gitlab = json.loads(run("validate", str(path), "--format", "gitlab").stdout)
    assert next(i for i in gitlab if "contnet" in i["description"])["severity"] == "major"


def test_the_summary_says_where_the_other_findings_are(run, stack: tuple[str, Path]) -> None:
    _, path = stack
    last = run("validate", str(path), "--format", "concise").stdout.splitlines()[-1]
    assert last == "Found 4 errors, 7 warnings, 2 info in 1 file (8 shown, 5 more as notes under the mistake that caused them)."
    stats = run("validate", str(path), "--statistics").stdout.splitlines()[-1]
    assert stats == "Found 4 errors, 7 warnings, 2 info in 1 file."
