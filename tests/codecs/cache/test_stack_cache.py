"""The stack cache: loads keyed by the file's bytes, handed out as private copies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from forgec.codecs import stack as stack_codec
from forgec.codecs.stack import STACK_CACHE, load_stack_file

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"

STACK = {
    "schemaVersion": 1,
    "id": "cached",
    "regex": {"rules": [{"id": "r", "pattern": "a", "replacement": "b", "targets": ["system"]}]},
    "defaults": {"unresolvedMacroPolicy": "warn"},
    "items": [
        {"kind": "block", "id": "intro", "role": "system", "content": "Hello {{user}}"},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
        {"kind": "block", "id": "broken", "role": "nobody", "content": 3},
    ],
}


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    capacity = STACK_CACHE.capacity
    STACK_CACHE.clear()
    yield
    STACK_CACHE.capacity = capacity
    STACK_CACHE.clear()


def _view(path: Path) -> tuple[object, ...]:
    loaded = load_stack_file(path)
    assert loaded.document is not None
    return (
        (
            loaded.path,
            loaded.file_name,
            loaded.scope,
            loaded.stack,
            loaded.raw,
            repr(loaded.diagnostics),
            loaded.document.text,
            repr(loaded.document.diagnostics),
            loaded.validation()["usable"],
        ),
        # marshal.dumps writes a shared object once and refers back to it: the same bytes mean the
        # same values *and* the same sharing between the stack and the raw value
        _sharing(loaded.stack, loaded.raw),
    )


def _sharing(stack: object, raw: object) -> list[tuple[str, bool]]:
    """Which containers of the normalised stack are the raw value's own objects."""
    if not isinstance(stack, dict) or not isinstance(raw, dict):
        return []
    return [(key, value is raw.get(key)) for key, value in stack.items() if isinstance(value, (dict, list))]


def test_a_second_load_of_the_same_bytes_is_a_hit_equal_to_a_fresh_load(tmp_path: Path) -> None:
    path = tmp_path / "stack.json"
    path.write_text(json.dumps(STACK), encoding="utf-8")
    first = _view(path)
    assert (STACK_CACHE.hits, STACK_CACHE.misses) == (0, 1)
    assert _view(path) == first
    assert STACK_CACHE.hits == 1
    STACK_CACHE.capacity = 0  # the uncached loader gives the same
    assert _view(path) == first


def test_every_corpus_stack_loads_the_same_from_the_cache() -> None:
    stacks = sorted(CASES.glob("*/stack.json")) + sorted(CASES.glob("*/extra-stacks/*.json"))
    assert len(stacks) > 100
    cold = {p: _view(p) for p in stacks}
    assert all(_view(p) == cold[p] for p in stacks)
    assert STACK_CACHE.hits >= len(stacks) - 5  # files that do not parse are not kept


def test_changed_bytes_miss(tmp_path: Path) -> None:
    path = tmp_path / "stack.json"
    path.write_text(json.dumps(STACK), encoding="utf-8")
    assert load_stack_file(path).stack["items"][0]["content"] == "Hello {{user}}"
    path.write_text(json.dumps(STACK).replace("Hello", "Howdy"), encoding="utf-8")  # same size
    assert load_stack_file(path).stack["items"][0]["content"] == "Howdy {{user}}"
    assert STACK_CACHE.hits == 0


def test_path_scope_and_slots_are_part_of_the_key(tmp_path: Path) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(STACK), encoding="utf-8")
    a, b = load_stack_file(tmp_path / "a.json"), load_stack_file(tmp_path / "b.json")
    assert (a.path, b.path) == (str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    globally = load_stack_file(tmp_path / "a.json", scope="global")
    assert globally.scope == "global"
    no_history = load_stack_file(tmp_path / "a.json", supported_slots=("date",))
    assert any(d.message == "Unsupported slot: chat-history" for d in no_history.diagnostics)
    assert STACK_CACHE.hits == 0


def test_nothing_handed_out_is_shared(tmp_path: Path) -> None:
    path = tmp_path / "stack.json"
    path.write_text(json.dumps(STACK), encoding="utf-8")
    first = load_stack_file(path)
    second = load_stack_file(path)
    assert STACK_CACHE.hits == 1
    assert first.stack is not second.stack and first.raw is not second.raw
    assert first.stack["items"][0] is not second.stack["items"][0]
    assert first.diagnostics is not second.diagnostics
    assert first.document is not second.document
    # as in a fresh load, the normalised stack keeps the raw ``regex``/``defaults`` objects
    assert second.stack["regex"] is second.raw["regex"]
    first.stack["items"].clear()
    first.raw["regex"]["rules"].append("junk")
    first.diagnostics.clear()
    assert second.stack["items"][0]["id"] == "intro"
    third = load_stack_file(path)
    assert STACK_CACHE.hits == 2
    assert third.stack == second.stack and third.raw == second.raw
    assert third.diagnostics == second.diagnostics and third.diagnostics


def test_eviction_by_size(tmp_path: Path) -> None:
    STACK_CACHE.capacity = 100_000
    paths = []
    for n in range(12):
        path = tmp_path / f"s{n}.json"
        path.write_text(json.dumps(dict(STACK, id=f"s{n}", description="x" * 2000)), encoding="utf-8")
        paths.append(path)
        load_stack_file(path)
    assert STACK_CACHE.size <= 100_000
    assert 0 < len(STACK_CACHE) < 12
    load_stack_file(paths[-1])
    assert STACK_CACHE.hits == 1
    load_stack_file(paths[0])  # the oldest went first
    assert STACK_CACHE.hits == 1


def test_yaml_and_unreadable_files_are_not_kept(tmp_path: Path) -> None:
    yaml = tmp_path / "s.yaml"
    yaml.write_text("id: y\nitems: []\n", encoding="utf-8")
    for path in (yaml, tmp_path / "missing.json", tmp_path):
        load_stack_file(path)
        load_stack_file(path)
    assert len(STACK_CACHE) == 0


#: texts ``JSON.parse`` refuses (V8's reason is found by a Python scan: worth keeping), and one
#: byte string that is not UTF-8 as well
_UNPARSED = [
    b"{",
    b"",
    b"   ",
    b"\xef\xbb\xbf{}",
    b'{"id": "x", "items": [1,]}',
    b'{"id": "x"}\n{"id": "y"}',
    b'{"id": "\xff\xfe", "items": [}',
    b"NaN",
    b'{"a": 1e}',
    b"[" * 30 + b"]" * 29,
]


@pytest.mark.parametrize("content", _UNPARSED)
def test_a_file_json_refuses_is_kept_and_a_hit_reads_as_a_fresh_load(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    STACK_CACHE.capacity = 0
    uncached = load_stack_file(path)
    STACK_CACHE.capacity = 32 * 1024 * 1024
    views = [_unparsed_view(load_stack_file(path)) for _ in range(3)]
    assert (STACK_CACHE.hits, STACK_CACHE.misses, len(STACK_CACHE)) == (2, 1, 1)
    assert views[0] == views[1] == views[2] == _unparsed_view(uncached)
    assert not uncached.usable and uncached.raw is None


def _unparsed_view(loaded: stack_codec.LoadedStack) -> tuple[object, ...]:
    document = loaded.document
    assert document is not None
    return (
        loaded.path,
        loaded.file_name,
        loaded.stack,
        loaded.raw,
        repr(loaded.diagnostics),
        loaded.usable,
        loaded.validation(),
        (document.path, document.format, document.text, document.data, document.parsed),
        repr(document.diagnostics),
        document.locator is None,
        document.locate(("id",)),
    )


def test_hits_of_an_unparsed_file_share_nothing_mutable(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    first = load_stack_file(path)
    second = load_stack_file(path)
    assert STACK_CACHE.hits == 1
    assert first.stack is not second.stack and first.diagnostics is not second.diagnostics
    assert first.document is not second.document
    first.stack["items"].append("junk")
    first.diagnostics.clear()
    third = load_stack_file(path)
    assert third.stack["items"] == [] and third.diagnostics == second.diagnostics and third.diagnostics


def test_a_stack_deeper_than_marshal_writes_is_loaded_but_not_kept(tmp_path: Path) -> None:
    deep = "[" * 2100 + '"leaf"' + "]" * 2100
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(dict(STACK, variables={"v": "?"})).replace('"?"', deep), encoding="utf-8")
    assert load_stack_file(path).stack["id"] == "cached"
    assert len(STACK_CACHE) == 0


def test_the_module_exports_the_cache() -> None:
    assert "STACK_CACHE" in stack_codec.__all__
