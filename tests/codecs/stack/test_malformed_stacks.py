"""Hostile input never raises out of the loader: it always becomes diagnostics (team rule; §16.16)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.codecs.stack import LoadedStack, load_stack_data, load_stack_file
from forgec.diagnostics import to_pi_list
from forgec.source import resolve_spans

VALID = json.dumps(
    {"schemaVersion": 1, "id": "w", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"},
                                               {"kind": "block", "id": "b", "role": "system", "content": "é {{x}}"}]},
    indent=2,
    ensure_ascii=False,
)


def _check(loaded: LoadedStack) -> None:
    assert isinstance(loaded.stack, dict) and isinstance(loaded.stack["id"], str)
    assert isinstance(loaded.stack["items"], list)
    to_pi_list(loaded.diagnostics)
    resolve_spans(loaded.diagnostics, loaded.document)
    if loaded.document is not None and not loaded.document.parsed:
        assert any(d.level == "error" for d in loaded.diagnostics)


_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    folder = tmp_path_factory.mktemp("b")
    for name in ("s.json", "s.yaml"):
        (folder / name).write_bytes(data)
        loaded = load_stack_file(folder / name)
        _check(loaded)
        assert loaded.diagnostics  # random bytes are never a clean stack


@_SETTINGS
@given(st.integers(min_value=0, max_value=len(VALID)), st.binary(max_size=3))
def test_truncated_and_corrupted_json(cut: int, junk: bytes) -> None:
    text = VALID.encode()[:cut] + junk
    loaded = load_stack_data(text.decode("utf-8", "replace"), "s.json")
    _check(loaded)
    if cut < len(VALID):
        assert any(d.level == "error" for d in loaded.diagnostics)


@_SETTINGS
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["id", "kind", "items", "slot", "role", "regex", "rules", "tools", "allow",
                                         "options", "defaults", "content", "pattern", "stage", "x"]), inner, max_size=4),
                    max_leaves=20))
def test_arbitrary_json_values(value: object) -> None:
    _check(load_stack_data(value, "s.json"))
    _check(load_stack_data(json.dumps(value), "s.json"))


def test_bom_and_non_utf8(tmp_path: Path) -> None:
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + VALID.encode())
    loaded = load_stack_file(tmp_path / "bom.json")
    assert loaded.diagnostics[0].message.startswith("Failed to parse JSON: Unexpected token")
    (tmp_path / "latin1.json").write_bytes(VALID.encode().replace("é".encode(), b"\xe9"))
    loaded = load_stack_file(tmp_path / "latin1.json")
    assert loaded.usable and "\ufffd" in loaded.stack["items"][1]["content"]
    (tmp_path / "bom.yaml").write_bytes(b"\xef\xbb\xbfid: w\nitems: []\n")
    assert load_stack_file(tmp_path / "bom.yaml").stack_id == "w"


@pytest.mark.parametrize("depth", [3000, 20000])
def test_deep_nesting(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"id": "d", "items": [], "defaults": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    loaded = load_stack_file(path)
    _check(loaded)
    codes = [d.code for d in loaded.diagnostics]
    assert ("FG004" in codes) == (depth > 5000)
    yaml_path = tmp_path / "deep.yaml"
    yaml_path.write_text("id: d\nitems: []\ndefaults: " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    _check(load_stack_file(yaml_path))


def test_ten_megabyte_file(tmp_path: Path) -> None:
    items = [{"kind": "block", "id": f"b{i}", "role": "user", "content": "x" * 900} for i in range(11_000)]
    text = json.dumps({"schemaVersion": 1, "id": "big", "items": items})
    assert len(text) > 10_000_000
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    loaded = load_stack_file(path)
    assert time.perf_counter() - start < 5
    assert len(loaded.stack["items"]) == 11_000
    broken = tmp_path / "broken.json"
    broken.write_text(text[:-2], encoding="utf-8")
    start = time.perf_counter()
    failed = load_stack_file(broken)
    assert time.perf_counter() - start < 20
    assert failed.diagnostics[0].message == (
        f"Failed to parse JSON: Expected ',' or ']' after array element in JSON at position {len(text) - 2}"
    )


def test_yaml_alias_bomb(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path = tmp_path / "bomb.yaml"
    path.write_text("id: bomb\nitems: []\n" + "\n".join(lines) + "\n", encoding="utf-8")
    start = time.perf_counter()
    loaded = load_stack_file(path)
    assert time.perf_counter() - start < 10
    assert [d.code for d in loaded.diagnostics] == ["FG006"] and not loaded.usable


def test_recursive_yaml_alias(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("id: loop\nitems: &i [*i]\n", encoding="utf-8")
    loaded = load_stack_file(path)
    assert loaded.diagnostics[0].code == "FG006"
