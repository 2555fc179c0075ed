"""The CI report formats: JUnit XML and GitLab Code Quality, one entry per mistake, sorted."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

_STACK = """schemaVersion: 1
id: d
items:
  - {kind: block, id: a, role: System, content: "x\\u001b[2J"}
  - {kind: slot, id: h, slot: chat-history}
tool: 1
"""


def test_junit_is_one_failing_case_per_mistake(run, tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(_STACK, encoding="utf-8")
    (tmp_path / "ok.yaml").write_text("schemaVersion: 1\nid: ok\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n",
                                      encoding="utf-8")  # fmt: skip
    result = run("validate", "d.yaml", "ok.yaml", "--format", "junit")
    assert result.exit_code == 1
    root = ET.fromstring(result.stdout)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    cases = [c.get("name") for c in suites["d.yaml"].iter("testcase")]
    assert cases == ["FG118 item-role-invalid at 4:32", "FG150 unknown-field at 6:1"]
    failure = suites["d.yaml"].find("testcase/failure")
    assert failure is not None and "also: FG141 [warning]" in (failure.text or "")
    assert [c.get("name") for c in suites["ok.yaml"].iter("testcase")] == ["all checks passed"]
    assert root.get("failures") == "2" and root.get("tests") == "3"


def test_gitlab_code_quality_issues(run, tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(_STACK, encoding="utf-8")
    issues = json.loads(run("validate", "d.yaml", "--format", "gitlab").stdout)
    assert [(i["check_name"], i["severity"], i["location"]) for i in issues] == [
        ("FG118 item-role-invalid", "major", {"path": "d.yaml", "lines": {"begin": 4, "end": 4}}),
        ("FG150 unknown-field", "minor", {"path": "d.yaml", "lines": {"begin": 6, "end": 6}}),
    ]
    assert "Also: FG141" in issues[0]["description"]
    # the fingerprint does not depend on the line: an issue that moves is the same issue
    moved = json.loads(run("validate", "d.yaml", "--format", "gitlab").stdout)
    (tmp_path / "d.yaml").write_text("# a new first line\n" + _STACK, encoding="utf-8")
    again = json.loads(run("validate", "d.yaml", "--format", "gitlab").stdout)
    assert [i["fingerprint"] for i in again] == [i["fingerprint"] for i in moved]
    assert again[0]["location"]["lines"]["begin"] == 5


def test_statistics_count_findings_per_rule(run, tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(_STACK, encoding="utf-8")
    lines = run("validate", "d.yaml", "--statistics").stdout.splitlines()
    assert lines[0] == "1  FG118  item-role-invalid"
    assert "1  FG151  likely-typo  (1 fixable)" in lines
    data = json.loads(run("validate", "d.yaml", "--statistics", "--format", "json").stdout)
    assert {"code": "FG150", "name": "unknown-field", "count": 1, "fixable": 1} in data
