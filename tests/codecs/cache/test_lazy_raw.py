"""A stack-cache hit makes its raw value and document when first read, exactly as a fresh load has them.

A hit unmarshals only the normalised stack; ``LoadedStack.raw`` (and ``.document``, whose ``data`` is the
raw value) are made on first read from the entry's second blob, with the stack's own containers put
back where a fresh load's raw value holds them (``defaults``, ``context``, ``regex``, slot ``options``).
These tests compare, for every corpus stack and for a stack built to share everything it can, a hit
with a fresh load (the cache off): equal values in the same key order, the same objects shared
between stack and raw value, and the same answers after the caller changes the stack first.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.stack import STACK_CACHE, LoadedStack, load_stack_file

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"

SHARING = {
    "schemaVersion": 1,
    "id": "sharing",
    "defaults": {"syntheticMessagesVisible": True, "nested": {"list": [1, {"x": 2}]}},
    "context": {"allowDuplicateChatHistory": False},
    "regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "a", "trimStrings": ["t"]}]},
    "tools": {"allow": ["read"]},
    "variables": {"a": "1"},
    "items": [
        {"kind": "slot", "id": "s1", "role": "system", "slot": "tools", "options": {"format": "plain"}},
        {"kind": "block", "id": "b", "role": "user", "content": "hi"},
        {"kind": "slot", "id": "s2", "role": "system", "slot": "date", "options": {}},
    ],
}


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    capacity = STACK_CACHE.capacity
    STACK_CACHE.clear()
    yield
    STACK_CACHE.capacity = capacity
    STACK_CACHE.clear()


def _containers(value: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, (dict, list)):
        yield where, value
        for key, child in value.items() if isinstance(value, dict) else enumerate(value):
            yield from _containers(child, (*where, key))


def _sharing(loaded: LoadedStack) -> set[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """(path in the stack, path in the raw value) of every container both hold."""
    in_stack: dict[int, list[tuple[Any, ...]]] = {}
    for where, container in _containers(loaded.stack):
        in_stack.setdefault(id(container), []).append(where)
    return {(s, r) for r, container in _containers(loaded.raw) for s in in_stack.get(id(container), [])}


def _fresh(path: Path) -> LoadedStack:
    capacity = STACK_CACHE.capacity
    STACK_CACHE.capacity = 0
    try:
        return load_stack_file(path)
    finally:
        STACK_CACHE.capacity = capacity


def _hit(path: Path) -> LoadedStack:
    load_stack_file(path)
    hits = STACK_CACHE.hits
    loaded = load_stack_file(path)
    assert STACK_CACHE.hits == hits + 1
    return loaded


def _stacks(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    yield path
    for case in sorted(CASES.iterdir()):
        if (case / "stack.json").is_file():
            path = tmp_path / case.name / "stack.json"
            path.parent.mkdir()
            path.write_bytes((case / "stack.json").read_bytes())
            yield path


def test_a_hit_reads_as_a_fresh_load(tmp_path: Path) -> None:
    shared_somewhere = 0
    for path in _stacks(tmp_path):
        fresh = _fresh(path)
        if fresh.document is None or not fresh.document.parsed:
            continue  # not kept by the cache: nothing lazy
        hit = _hit(path)
        assert hit.stack == fresh.stack
        assert json.dumps(hit.raw) == json.dumps(fresh.raw), path
        assert _sharing(hit) == _sharing(fresh), path
        assert hit.document is not None
        assert hit.document.data is hit.raw
        assert (hit.document.text, hit.document.parsed, hit.document.diagnostics) == (
            fresh.document.text,
            fresh.document.parsed,
            fresh.document.diagnostics,
        )
        shared_somewhere += bool(_sharing(fresh))
    assert shared_somewhere > 50  # most stacks share something: the comparison above is not vacuous


def test_the_raw_value_holds_what_the_stack_held_when_loaded(tmp_path: Path) -> None:
    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    for make in (_fresh, _hit):
        loaded = make(path)
        regex, options = loaded.stack["regex"], loaded.stack["items"][0]["options"]
        loaded.stack["regex"] = {"rules": []}  # replaced before the raw value is first read
        loaded.stack["items"][0]["options"]["format"] = "xml"  # changed in place
        loaded.stack["defaults"]["added"] = True
        assert loaded.raw["regex"] is regex
        assert loaded.raw["items"][0]["options"] is options and options["format"] == "xml"
        assert loaded.raw["defaults"]["added"] is True
        assert loaded.raw["items"][1] is not loaded.stack["items"][1]
        assert loaded.raw is loaded.raw


def test_a_hit_never_shares_with_another_hit(tmp_path: Path) -> None:
    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    first, second = _hit(path), _hit(path)
    first.raw["defaults"]["nested"]["list"].append("junk")
    first.raw["items"].clear()
    assert second.raw == SHARING
    assert second.stack["defaults"] == SHARING["defaults"]


def test_raw_and_document_can_be_set(tmp_path: Path) -> None:
    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    loaded = _hit(path)
    loaded.raw = {"replaced": True}
    assert loaded.raw == {"replaced": True}
    loaded.document = None
    assert loaded.document is None


def test_threads_reading_one_hit_get_one_raw_value(tmp_path: Path) -> None:
    """The language server reads loaded stacks from worker threads: the raw value is made once."""
    import threading

    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    for _ in range(50):
        loaded = _hit(path)
        seen: list[Any] = []
        start = threading.Barrier(4)

        def read(target: LoadedStack = loaded, barrier: threading.Barrier = start, out: list[Any] = seen) -> None:
            barrier.wait()
            out.append((target.raw, target.document))

        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(raw is loaded.raw and document is loaded.document for raw, document in seen)


def test_a_copied_hit_still_makes_its_raw_value(tmp_path: Path) -> None:
    import copy

    from forgec.resources import compiled_modules

    if "codecs/stack.py" in compiled_modules():
        pytest.skip("mypyc's native classes cannot be copied by the copy module")
    path = tmp_path / "sharing.json"
    path.write_text(json.dumps(SHARING), encoding="utf-8")
    fresh = _fresh(path)
    for copier in (copy.copy, copy.deepcopy):
        copied = copier(_hit(path))
        assert json.dumps(copied.raw) == json.dumps(fresh.raw)
        assert _sharing(copied) == _sharing(fresh)
        assert copied.document is not None and copied.document.data is copied.raw
