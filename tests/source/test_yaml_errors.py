"""YAML reading errors give the problem's own line:col and one clean line of text.

ruamel reports a forbidden character (NUL, C0 controls) by *offset* with no line, and appends
``in "<unicode string>", line …`` plus a source excerpt to scanner/parser/composer messages; none
of that may reach a user (QA: a NUL on line 2 was printed at 1:1 with ruamel's tail).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.source import parse_source_text, read_source

# (text, line, column, message after "Failed to parse YAML: ")
CASES: list[tuple[str, int, int, str]] = [
    # reader: characters YAML does not allow
    ("schemaVersion: 1\nid: n\x00\nitems: []\n", 2, 6,
     "unacceptable character #x0000: special characters are not allowed"),
    ("id: a\nitems: []\n\x1b[31m: x\n", 3, 1,
     "unacceptable character #x001b: special characters are not allowed"),
    ("id: a\x07\n", 1, 6, "unacceptable character #x0007: special characters are not allowed"),
    # scanner
    ("id: a\nitems: [\n  \"open\n", 4, 1, "while scanning a quoted scalar; found unexpected end of stream"),
    ("id: a: b\n", 1, 6, "mapping values are not allowed here"),
    ('id: "\\q"\n', 1, 7, "while scanning a double-quoted scalar; found unknown escape character 'q'"),
    # parser
    ("id: x\nitems: [\n", 3, 1, "while parsing a flow node; expected the node content, but found '<stream end>'"),
    ("- a\nb: 1\n", 2, 1, "while parsing a block collection; expected <block end>, but found '?'"),
    # composer
    ("id: *nowhere\n", 1, 5, "found undefined alias 'nowhere'"),
    ("id: a\n---\nid: b\n", 2, 1, "expected a single document in the stream; but found another document"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), CASES)
def test_yaml_error_position_and_text(text: str, line: int, column: int, message: str) -> None:
    doc = parse_source_text(text, "s.yaml", "yaml")
    [diag] = doc.diagnostics
    assert diag.code == "FG003"
    assert diag.message == "Failed to parse YAML: " + message
    assert (diag.span.line, diag.span.column) == (line, column)
    assert "\n" not in diag.message and "<unicode string>" not in diag.message


def test_nul_byte_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "n.yaml"
    path.write_bytes(b"schemaVersion: 1\nid: n\x00\nitems: []\n")
    [diag] = read_source(path).diagnostics
    assert (diag.span.line, diag.span.column) == (2, 6)

