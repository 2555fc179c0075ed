"""One mistake, one finding in human output; every finding, linked to its cause, in machine output.

These are the mistakes of a person writing a stack from scratch: a role in the wrong case, a
slot name with an underscore, a misspelt key, a repeated regex flag over a broken pattern.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import forgec

_STACK = """schemaVersion: 1
id: draft
items:
  - {kind: block, id: a, role: System, content: hi}
  - kind: slot
    id: h
    slot: chat_history
  - {kind: block, id: b, role: user, contnet: hello}
tool:
  deny: [write]
regex:
  rules:
    - {id: r, stage: compiled, pattern: "(", flags: "gg"}
"""


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    path = tmp_path / "draft.yaml"
    path.write_text(_STACK, encoding="utf-8")
    return path


def _grouped(path: Path) -> list[tuple[str, list[str]]]:
    report = forgec.lint_paths([str(path)])
    [reported] = report.files
    return [(head.code, [note.code for note in notes]) for head, notes in reported.grouped()]


def test_consequences_fold_under_their_cause(draft: Path) -> None:
    assert _grouped(draft) == [
        ("FG118", ["FG141", "FG151"]),  # role: System -> block ignored, did you mean "system"
        ("FG136", ["FG142", "FG151"]),  # slot: chat_history -> no chat-history slot, did you mean
        ("FG150", ["FG121"]),  # contnet -> the block has no content
        ("FG150", []),  # tool -> tools
        ("FG618", []),  # the broken pattern, found although the flags are wrong too
        ("FG617", []),  # the repeated flag
    ]


def test_machine_output_keeps_every_finding_with_its_cause(run, draft: Path) -> None:
    data = json.loads(run("validate", str(draft), "--format", "json").stdout)
    found = [(d["code"], d.get("causedBy")) for d in data["files"][0]["diagnostics"]]
    assert ("FG141", "FG118") in found and ("FG142", "FG136") in found and ("FG121", "FG150") in found
    assert len(found) == 11  # nothing folded away


def test_human_formats_are_sorted_by_position(run, draft: Path) -> None:
    lines = run("validate", str(draft), "--format", "concise").stdout.splitlines()[:-1]
    positions = [tuple(int(n) for n in line.split(":")[1:3]) for line in lines]
    assert positions == sorted(positions) and len(lines) == 6
    assert lines[0].endswith(
        'Invalid role: System (also: FG141 [warning] Enabled block has no role and will be ignored.; '
        'FG151 [info] Role "System" is not a pi-forge role (did you mean "system"?).)'
    )


def test_a_folded_error_keeps_the_annotation_an_error(run, draft: Path) -> None:
    github = run("validate", str(draft), "--format", "github").stdout
    contnet = next(line for line in github.splitlines() if "contnet" in line)
    assert contnet.startswith("::error ") and "%0AAlso: FG121 Block content must be a string." in contnet


def test_a_misspelt_id_explains_the_missing_id(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("schemaVersion: 1\nidd: s\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n", encoding="utf-8")
    assert _grouped(path) == [("FG150", ["FG101"])]


def test_a_cause_that_is_ignored_leaves_its_consequence_standing(run, draft: Path) -> None:
    lines = run("validate", str(draft), "--format", "concise", "--ignore", "FG118").stdout
    assert "FG141 [warning] Enabled block has no role" in lines.splitlines()[0]


def test_the_pi_forge_validation_section_is_unchanged(draft: Path) -> None:
    result = forgec.compile_report(str(draft))
    codes = [d["message"] for d in result.to_report()["validation"]["diagnostics"]]
    assert "Enabled block has no role and will be ignored." in codes  # pi-forge's own list, as it is
