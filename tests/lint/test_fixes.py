"""``forgec validate --fix`` / ``--diff``: the safe repairs, as minimal text edits.

Comments, quoting, key order and indentation stay as they were; only the one token changes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

_YAML = """# my reviewer stack -- keep this comment
schemaVersion: 1
id: review
mdoe: replace            # a typo'd key
items:
  - {kind: block, id: a, role: System, content: "hi"}   # wrong case
  - kind: slot
    id: h
    slot: 'chat_history'
  - {kind: block, id: b, role: user, contnet: hello}
regex:
  rules:
    - {id: r, stage: compiled, pattern: "x", flags: "gig"}
"""

_FIXED = """# my reviewer stack -- keep this comment
schemaVersion: 1
id: review
mode: replace            # a typo'd key
items:
  - {kind: block, id: a, role: system, content: "hi"}   # wrong case
  - kind: slot
    id: h
    slot: 'chat-history'
  - {kind: block, id: b, role: user, content: hello}
regex:
  rules:
    - {id: r, stage: compiled, pattern: "x", flags: "gi"}
"""


def test_fix_repairs_in_place_and_keeps_comments(run, tmp_path: Path) -> None:
    path = tmp_path / "review.yaml"
    path.write_text(_YAML, encoding="utf-8")
    os.chmod(path, 0o640)
    result = run("validate", "review.yaml", "--fix", "--format", "concise")
    assert path.read_text(encoding="utf-8") == _FIXED
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)  # the file keeps its permissions
    assert "Fixed 5 problems in 1 file(s)." in result.stderr
    assert result.exit_code == 0 and result.stdout == "All checks passed (1 file checked).\n"


def test_diff_shows_the_fixes_and_writes_nothing(run, tmp_path: Path) -> None:
    path = tmp_path / "review.yaml"
    path.write_text(_YAML, encoding="utf-8")
    result = run("validate", "review.yaml", "--diff")
    assert result.exit_code == 1  # there is something to fix
    assert path.read_text(encoding="utf-8") == _YAML
    assert "-mdoe: replace            # a typo'd key\n+mode: replace            # a typo'd key\n" in result.stdout
    assert "Would apply 5 fixes in 1 file(s)." in result.stderr
    path.write_text(_FIXED, encoding="utf-8")
    assert run("validate", "review.yaml", "--diff").exit_code == 0


def test_json_fixes_keep_the_formatting(run, tmp_path: Path) -> None:
    text = '{\n  "schemaVersion": 1,\n  "id": "j",\n  "items": [\n    {"kind": "block", "id": "a", "role": "User", "contnet": "x"},\n    {"kind": "slot", "id": "h", "slot": "chat-history"}\n  ]\n}\n'
    path = tmp_path / "j.json"
    path.write_text(text, encoding="utf-8")
    run("validate", "j.json", "--fix")
    fixed = path.read_text(encoding="utf-8")
    assert fixed == text.replace('"User"', '"user"').replace('"contnet"', '"content"')
    assert json.loads(fixed)["items"][0] == {"kind": "block", "id": "a", "role": "user", "content": "x"}


def test_no_fix_where_the_repair_is_not_certain(run, tmp_path: Path) -> None:
    # "contnt" is close to "content" but the item already has content: renaming would lose a value
    text = "schemaVersion: 1\nid: n\nitems:\n  - {kind: block, id: a, role: user, content: x, contnt: y}\n"
    path = tmp_path / "n.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("validate", "n.yaml", "--fix")
    assert path.read_text(encoding="utf-8") == text
    assert "Fixed" not in result.stderr


def test_an_ignored_rule_fixes_nothing(run, tmp_path: Path) -> None:
    path = tmp_path / "review.yaml"
    path.write_text(_YAML, encoding="utf-8")
    run("validate", "review.yaml", "--fix", "--ignore", "FG617")
    assert 'flags: "gig"' in path.read_text(encoding="utf-8")


def test_fix_is_refused_for_standard_input(run, tmp_path: Path) -> None:
    result = run("validate", "-", "--fix", input=_YAML)
    assert result.exit_code == 2 and "not on standard input" in result.stderr
