"""Reading files and resolving positions (forgec.source)."""

from __future__ import annotations

from pathlib import Path

from forgec.diagnostics import Diagnostic
from forgec.source import parse_source_text, read_source, resolve_spans

JSON_TEXT = """{
  "id": "writer",
  "items": [
    {"kind": "block", "id": "a", "content": "one\\ntwo \\u00e9 {{bad}}"},
    {"kind": "slot", "id": "h", "slot": "chat-history"}
  ]
}
"""


def test_json_locate_values_and_keys() -> None:
    doc = parse_source_text(JSON_TEXT, "s.json")
    assert doc.parsed
    span = doc.locate(("items", 1, "slot"))
    assert (span.line, span.column, span.end_line, span.end_column) == (5, 41, 5, 55)
    key = doc.locate(("items", 1, "slot"), key=True)
    assert (key.line, key.column) == (5, 33)
    assert doc.locate(("id",)).line == 2
    # a missing member resolves to its parent
    missing = doc.locate(("items", 0, "role"))
    assert (missing.line, missing.column) == (4, 5)
    assert doc.locate(None) is None


def test_json_locate_in_string_maps_escapes() -> None:
    doc = parse_source_text(JSON_TEXT, "s.json")
    value = doc.data["items"][0]["content"]
    offset = value.index("{{bad}}")
    span = doc.locate_in_string(("items", 0, "content"), offset, len("{{bad}}"))
    line = JSON_TEXT.splitlines()[3]
    assert span.line == 4
    assert line[span.column - 1 : span.end_column - 1] == "{{bad}}"


def test_resolve_spans_fills_pointer_and_offset_diagnostics() -> None:
    doc = parse_source_text(JSON_TEXT, "s.json")
    plain = Diagnostic("error", "x", "FG101", pointer=("items", 1))
    inner = Diagnostic("warning", "y", "FG101", pointer=("items", 0, "content"), offset=0, length=3)
    none = Diagnostic("info", "z", "FG101")
    plain, inner, none = resolve_spans([plain, inner, none], doc)
    assert (plain.span.line, plain.span.column) == (5, 5)
    assert (inner.span.line, inner.span.column, inner.span.end_column) == (4, 46, 49)
    assert none.span is None


def test_json_parse_error_has_position(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "id": "x",\n  "items": [1,]\n}\n', encoding="utf-8")
    doc = read_source(path)
    assert not doc.parsed
    [diag] = doc.diagnostics
    assert diag.code == "FG001" and diag.level == "error"
    assert diag.message == "Failed to parse JSON: Unexpected token ']', ...\"tems\": [1,]\\n}\\n\" is not valid JSON".replace("\\n", "\n")
    assert (diag.span.line, diag.span.column) == (3, 15)


def test_bom_and_invalid_utf8(tmp_path: Path) -> None:
    bom = tmp_path / "bom.json"
    bom.write_bytes(b'\xef\xbb\xbf{"id":"x","items":[]}')
    assert read_source(bom).diagnostics[0].message.startswith("Failed to parse JSON: Unexpected token '\ufeff'")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"id":"x\xff","items":[]}')
    doc = read_source(bad)
    assert doc.parsed and doc.data["id"] == "x\ufffd"


def test_unreadable_file_reads_like_node(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    [diag] = read_source(missing).diagnostics
    assert diag.message == f"Failed to parse JSON: ENOENT: no such file or directory, open '{missing}'"
    folder = tmp_path / "dir.json"
    folder.mkdir()
    assert read_source(folder).diagnostics[0].message == "Failed to parse JSON: EISDIR: illegal operation on a directory, read"


YAML_TEXT = """\
id: writer   # comment
items:
  - kind: block
    id: intro
    role: system
    content: |
      first line
      second {{bad}} line
  - kind: slot
    id: h
    slot: chat-history
variables:
  plain: hello {{x}} there
  quoted: "a\\tb {{y}}"
"""


def test_yaml_reads_the_same_data_model() -> None:
    doc = parse_source_text(YAML_TEXT, "s.yaml", "yaml")
    assert doc.parsed and not doc.diagnostics
    assert doc.data["items"][0]["content"] == "first line\nsecond {{bad}} line\n"
    assert doc.data["variables"] == {"plain": "hello {{x}} there", "quoted": "a\tb {{y}}"}
    assert type(doc.data) is dict and type(doc.data["items"]) is list


def test_yaml_positions() -> None:
    doc = parse_source_text(YAML_TEXT, "s.yaml", "yaml")
    span = doc.locate(("items", 1, "slot"))
    assert (span.line, span.column) == (11, 11)
    assert (doc.locate(("items", 1, "slot"), key=True).column) == 5
    lines = YAML_TEXT.splitlines()
    content = doc.data["items"][0]["content"]
    inner = doc.locate_in_string(("items", 0, "content"), content.index("{{bad}}"), 7)
    assert inner.line == 8 and lines[7][inner.column - 1 : inner.end_column - 1] == "{{bad}}"
    plain = doc.data["variables"]["plain"]
    at = doc.locate_in_string(("variables", "plain"), plain.index("{{x}}"), 5)
    assert lines[at.line - 1][at.column - 1 : at.end_column - 1] == "{{x}}"
    quoted = doc.data["variables"]["quoted"]
    at = doc.locate_in_string(("variables", "quoted"), quoted.index("{{y}}"), 5)
    assert lines[at.line - 1][at.column - 1 : at.end_column - 1] == "{{y}}"


def test_yaml_conversions_and_refusals() -> None:
    doc = parse_source_text("variables:\n  day: 2024-01-01\n  1: one\n  yes: no\n", "s.yaml", "yaml")
    assert doc.parsed
    assert doc.data["variables"] == {"day": "2024-01-01", "1": "one", "yes": "no"}
    assert [d.code for d in doc.diagnostics] == ["FG008", "FG008"]
    assert all(d.extra and d.level == "warning" for d in doc.diagnostics)
    for text, code in [
        ("a: !!set {x, y}\n", "FG007"),
        ("a: .nan\n", "FG007"),
        ("a: !custom x\n", "FG007"),
        ("? [a]\n: b\n", "FG007"),
        ("a: 1\na: 2\n", "FG003"),
        ("a: 1\n---\nb: 2\n", "FG003"),
        ("a: [1\n", "FG003"),
        ("a: &a [*a]\n", "FG006"),
    ]:
        doc = parse_source_text(text, "s.yaml", "yaml")
        assert not doc.parsed, text
        assert [d.code for d in doc.diagnostics] == [code], text
        assert doc.diagnostics[0].span is not None, text


def test_yaml_merge_keys_and_aliases() -> None:
    doc = parse_source_text("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n", "s.yaml", "yaml")
    assert doc.data["use"] == {"x": 1, "y": 3}
    assert doc.data["use"] is not doc.data["base"]


def test_yaml_parse_error_position() -> None:
    doc = parse_source_text("id: x\nitems:\n  - kind: block\n   id: a\n", "s.yaml", "yaml")
    [diag] = doc.diagnostics
    assert diag.message.startswith("Failed to parse YAML: ")
    assert diag.span.line == 4
