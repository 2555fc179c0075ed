"""The reader's guards: YAML flow-depth pre-scan, alias budget, BOM and invalid-UTF-8 hints."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from forgec.diagnostics import to_pi_list
from forgec.source import YAML_MAX_FLOW_DEPTH, decode_source, parse_source_text, read_source


def _codes(doc) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.code for d in doc.diagnostics]


def test_deep_flow_yaml_is_refused_before_ruamel_at_the_first_bracket_too_deep() -> None:
    for depth in (5_000, 30_000):
        text = "id: x\nitems:\n  - " + "[" * depth + "]" * depth + "\n"
        start = time.perf_counter()
        doc = parse_source_text(text, "deep.yaml", "yaml")
        assert time.perf_counter() - start < 1
        assert not doc.parsed and _codes(doc) == ["FG004"]
        span = doc.diagnostics[0].span
        assert span is not None and (span.line, span.column) == (3, 5 + YAML_MAX_FLOW_DEPTH)
        assert f"limit of {YAML_MAX_FLOW_DEPTH} levels" in doc.diagnostics[0].message


def test_mappings_count_as_flow_levels_too() -> None:
    depth = YAML_MAX_FLOW_DEPTH + 1
    doc = parse_source_text("v: " + "{a: " * depth + "b" + "}" * depth, "m.yaml", "yaml")
    assert _codes(doc) == ["FG004"]


def test_brackets_in_text_are_not_nesting() -> None:
    many = "[" * (YAML_MAX_FLOW_DEPTH + 50)
    text = (
        "id: x\n"
        "items: []\n"
        f"# {many}\n"
        "variables:\n"
        "  block: |\n"
        + f"    {many}\n" * 3
        + f"  quoted: \"{many}\"\n"
        f"  single: '{many}'\n"
        f"  plain: a{many}\n"
        "  flow: [1, [2, {k: '[['}]]\n"
    )
    doc = parse_source_text(text, "s.yaml", "yaml")
    assert doc.parsed, doc.diagnostics
    assert doc.data["variables"]["flow"] == [1, [2, {"k": "[["}]]
    assert doc.data["variables"]["block"] == (many + "\n") * 3


def test_alias_bomb_is_refused_without_expanding_it() -> None:
    lines = ["a: &a [x,x,x,x,x,x,x,x,x]"]
    lines += [f"{c}: &{c} [" + ",".join(["*" + p] * 9) + "]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
    start = time.perf_counter()
    doc = parse_source_text("\n".join(lines) + "\n", "lol.yaml", "yaml")
    assert time.perf_counter() - start < 1
    assert _codes(doc) == ["FG006"]
    span = doc.diagnostics[0].span
    assert span is not None and span.line == 7  # g: 9**7 values, the first anchor past the budget


def test_shared_aliases_within_budget_still_read() -> None:
    doc = parse_source_text("a: &a [1, 2]\nb: [*a, *a]\n", "ok.yaml", "yaml")
    assert doc.parsed and doc.data == {"a": [1, 2], "b": [[1, 2], [1, 2]]}


def test_json_bom_keeps_v8_message_and_adds_a_forgec_only_hint(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b'\xef\xbb\xbf{"items": []}')
    doc = read_source(path)
    assert _codes(doc) == ["FG001", "FG009"]
    assert doc.diagnostics[0].message == (
        "Failed to parse JSON: Unexpected token '\ufeff', \"\ufeff{\"items\": []}\" is not valid JSON"
    )
    hint = doc.diagnostics[1]
    assert hint.level == "info" and hint.extra and "byte-order mark" in hint.message
    assert [d["message"] for d in to_pi_list(doc.diagnostics)] == [doc.diagnostics[0].message]


def test_yaml_bom_is_allowed_without_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes(b"\xef\xbb\xbfid: s\n")
    doc = read_source(path)
    assert doc.parsed and doc.data == {"id": "s"} and doc.diagnostics == []


def test_invalid_utf8_is_replaced_with_a_warning_at_the_first_bad_byte() -> None:
    doc = decode_source(b'{"id": "x",\n "name": "caf\xe9 \xff"}', "s.json", "json")
    assert doc.parsed and doc.data["name"] == "caf\ufffd \ufffd"
    assert _codes(doc) == ["FG010"]
    warning = doc.diagnostics[0]
    assert warning.level == "warning" and warning.extra
    assert warning.span is not None and (warning.span.line, warning.span.column) == (2, 14)
    assert "line 2, column 14" in warning.message
    assert to_pi_list(doc.diagnostics) == []


def test_valid_utf8_and_a_literal_replacement_character_give_no_warning() -> None:
    doc = decode_source('{"id": "\ufffd"}'.encode(), "s.json", "json")
    assert doc.parsed and doc.diagnostics == []


def test_thousands_of_findings_in_one_yaml_value_walk_the_node_tree_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 family 6 in YAML: every finding of one block walked the node tree from the root again."""
    from forgec.diagnostics import Diagnostic
    from forgec.source import resolve_spans
    from forgec.source.yaml import YamlLocator

    walks: list[tuple[object, ...]] = []
    real = YamlLocator._walk

    def counting(self: YamlLocator, pointer: tuple[object, ...], key: bool) -> object:
        walks.append(pointer)
        return real(self, pointer, key)

    monkeypatch.setattr(YamlLocator, "_walk", counting)
    text = "id: s\nitems:\n- kind: block\n  id: b\n  content: '" + "{{" * 5000 + "'\n"
    document = decode_source(text.encode(), "s.yaml", "yaml")
    found = [Diagnostic("warning", "m", "FG215", pointer=("items", 0, "content"), offset=2 * i, length=2) for i in range(5000)]
    spans = [d.span for d in resolve_spans(found, document)]
    assert spans[0] is not None and spans[-1] is not None
    assert (spans[0].line, spans[0].column) == (5, 13) and spans[-1].column == 13 + 2 * 4999
    assert walks.count(("items", 0, "content")) == 1
