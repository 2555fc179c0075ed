"""Each finding points at the token it is about: a key for an unknown field, the value for a wrong
value, the item's id for a finding about a whole item."""

from __future__ import annotations

from pathlib import Path

import pytest

import forgec


def _positions(path: Path) -> dict[str, tuple[int, int, int, int]]:
    [reported] = forgec.lint_paths([str(path)]).files
    return {f.code: f.position for f in reported.findings}


@pytest.mark.parametrize(
    ("name", "text", "code", "token"),
    [
        ("a.yaml", "schemaVersion: 1\nid: a\nitems: []\ntool:\n  deny: [write]\n", "FG150", "tool"),
        ("a.json", '{"schemaVersion": 1, "id": "a", "items": [{"kind": "block", "id": "b", "role": "user", '
                   '"contnet": "hello"}]}', "FG150", '"contnet"'),
        ("a.yaml", "schemaVersion: 1\nid: a\nitems:\n  - {kind: block, id: b, role: System, content: x}\n",
         "FG118", "System"),
        ("a.yaml", "schemaVersion: 1\nid: a\nitems:\n  - kind: block\n    id: first\n    content: x\n",
         "FG141", "first"),
        ("a.json", '{"schemaVersion": 1, "id": "a", "items": [{"kind": "block", "id": "b", "role": "user"}]}',
         "FG121", '"b"'),
    ],
)
def test_the_caret_is_on_the_offending_token(tmp_path: Path, name: str, text: str, code: str, token: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    line, column, end_line, end_column = _positions(path)[code]
    source = text.splitlines()[line - 1]
    assert end_line == line and source[column - 1 : end_column - 1] == token
