"""Ids and files in the stack loader (compile-core.md §10.1, §10.4, §10.5, §10.7 and §16.15(a)): item
ids (numbers, JS trim set), stack ids, ``fileStem``, policies, folder listing order and duplicate stack
ids.  Expected values come from the spec text (number forms from §0.3, checked against ``String()`` in
Node 20)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.stack import file_stem, load_stack_data, load_stack_folder
from forgec.workspace import list_resource_files

HISTORY = {"kind": "slot", "id": "h", "slot": "chat-history"}


def _load(raw: Any, file_name: str = "s.json") -> Any:
    return load_stack_data(json.dumps(raw) if not isinstance(raw, str) else raw, file_name)


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("5.0", "5"),
        ("1e21", "1e+21"),
        ("1e20", "100000000000000000000"),
        ("-3", "-3"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("1.5", "1.5"),
        ("1E2", "100"),
        ("1e-7", "1e-7"),
        ("0.000001", "0.000001"),
        ("123456789012345678901", "123456789012345680000"),
        ("9007199254740993", "9007199254740992"),
    ],
)
def test_numeric_item_id_becomes_its_js_string(literal: str, expected: str) -> None:
    # §10.4 item id: finite number -> its JS string form; the raw check still reports it (§10.3)
    block = '{"kind":"block","role":"user","content":"","id":' + literal + "}"
    text = '{"schemaVersion":1,"id":"s","items":[' + json.dumps(HISTORY) + "," + block + "]}"
    loaded = _load(text)
    assert loaded.stack["items"][1]["id"] == expected
    assert [(d.message, d.item_id) for d in loaded.diagnostics] == [("Item 2 id must be a non-empty string.", "item-2")]


def test_non_finite_and_boolean_item_ids_fall_back() -> None:
    text = '{"schemaVersion":1,"id":"s","items":[{"kind":"slot","slot":"chat-history","id":1e400},' \
           '{"kind":"block","role":"user","content":"","id":true}]}'
    loaded = _load(text)
    assert [item["id"] for item in loaded.stack["items"]] == ["item-1", "item-2"]


def test_numeric_ids_take_part_in_duplicate_detection() -> None:
    # §10.5 step 3 runs on normalised ids: 5 and "5" collide, 5.0 too
    blocks = ",".join('{"kind":"block","role":"user","content":"","id":' + lit + "}" for lit in ("5", '" 5 "', "5.0"))
    text = '{"schemaVersion":1,"id":"s","items":[' + json.dumps(HISTORY) + "," + blocks + "]}"
    loaded = _load(text)
    dups = [(d.message, d.item_id) for d in loaded.diagnostics if d.message.startswith("Duplicate")]
    assert dups == [("Duplicate item id: 5", "5"), ("Duplicate item id: 5", "5")]


def test_item_ids_are_trimmed_with_the_js_set_only() -> None:
    # §0.6: U+3000, U+FEFF, U+00A0, U+2028 are trimmed; U+0085, U+001C and U+200B are not
    items = [
        HISTORY,
        {"kind": "block", "role": "user", "content": "", "id": "\u3000\ufeffa\u00a0\u2028"},
        {"kind": "block", "role": "user", "content": "", "id": "\u0085b"},
        {"kind": "block", "role": "user", "content": "", "id": "\u001cc\u200b"},
        {"kind": "block", "role": "user", "content": "", "id": "\ufeff\u3000"},
        {"kind": "block", "role": "bot", "content": "", "id": " \u2029d "},
    ]
    loaded = _load({"schemaVersion": 1, "id": "s", "items": items})
    assert [item["id"] for item in loaded.stack["items"][1:]] == ["a", "\u0085b", "\u001cc\u200b", "item-5", "d"]
    assert [(d.message, d.item_id) for d in loaded.diagnostics] == [
        ("Item 5 id must be a non-empty string.", "item-5"),
        ("Invalid role: bot", "d"),
        ("Enabled block has no role and will be ignored.", "d"),
    ]


def test_stack_id_trim_and_pattern() -> None:
    # §10.4 step 1: trimmed with the JS set, then the ASCII pattern decides
    ok = _load({"schemaVersion": 1, "id": "\ufeff a.b_c-1\u3000", "items": [HISTORY]})
    assert ok.stack["id"] == "a.b_c-1" and ok.diagnostics == []
    bad = _load({"schemaVersion": 1, "id": "\u0085abc", "items": [HISTORY]}, "x y.json")
    assert bad.stack["id"] == "x y"
    assert [d.message for d in bad.diagnostics] == [
        "Stack id \u0085abc must start with a letter or number and contain only letters, numbers, dots, "
        "underscores, and hyphens; falling back to x y."
    ]
    for rejected in ("-a", ".a", "é", "a b", "a\nb", "ａ", "a\u0085"):
        loaded = _load({"schemaVersion": 1, "id": rejected, "items": [HISTORY]}, "f.json")
        assert loaded.stack["id"] == "f", rejected
    blank = _load({"schemaVersion": 1, "id": "\u3000", "items": [HISTORY]}, "f.json")
    assert [d.message for d in blank.diagnostics] == ["Stack id must be a non-empty string."]


@pytest.mark.parametrize(
    ("name", "stem"),
    [(".json", ".json"), ("a.b.json", "a.b"), ("my stack.json", "my stack"), ("a.json.json", "a.json"),
     ("x.JSON", "x.JSON"), ("..json", ".")],
)
def test_file_stem(name: str, stem: str) -> None:
    assert file_stem(name) == stem


def test_parse_failure_fallback_uses_stem_and_full_name() -> None:
    for name, stem in ((".json", ".json"), ("a.b.json", "a.b"), ("my stack.json", "my stack")):
        loaded = _load("[", name)
        assert loaded.stack == {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": stem, "name": name,
                                "items": []}
        assert [(d.level, d.message) for d in loaded.diagnostics] == [
            ("error", "Failed to parse JSON: Unexpected end of JSON input")
        ]


def test_policy_entries_and_duplicates() -> None:
    # §10.4 policy normalisation, §10.5 steps 5-6
    raw = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "mode": "append",
           "tools": {"deny": ["a", " a", None, "b", "a\u3000"]},
           "skills": {"allow": "x", "deny": [" ", {}, "k"]}}
    loaded = _load(raw)
    assert [(d.level, d.message) for d in loaded.diagnostics] == [
        ("error", "tools.deny[2] must be a non-empty string."),
        ("error", "skills.allow must be an array of strings when provided."),
        ("error", "skills.deny[0] must be a non-empty string."),
        ("error", "skills.deny[1] must be a non-empty string."),
        ("warning", "Duplicate tools.deny pattern: a."),
        ("warning", "Duplicate tools.deny pattern: a."),
        ("info", "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not "
                 "disable explicit skill invocation and is not a security boundary."),
        ("warning", 'skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base Pi '
                    "prompt to omit filtered skills."),
    ]
    assert loaded.stack["tools"] == {"deny": ["a", "a", "b", "a"]}
    assert loaded.stack["skills"] == {"deny": ["k"]}


def test_inactive_policies_keep_shape_and_stay_silent() -> None:
    # {} when present but inactive; allow ["*"] is not effective so no skills info (§5)
    raw = {"schemaVersion": 1, "id": "s", "items": [HISTORY], "mode": "prepend",
           "tools": {"allow": []}, "skills": {"allow": ["*"]}}
    loaded = _load(raw)
    assert loaded.diagnostics == []
    assert loaded.stack["tools"] == {} and loaded.stack["skills"] == {"allow": ["*"]}
    null_policy = _load({"schemaVersion": 1, "id": "s", "items": [HISTORY], "tools": None})
    assert [d.message for d in null_policy.diagnostics] == ["tools policy must be an object when provided."]
    assert "tools" not in null_policy.stack


def test_listing_sorts_by_utf16_code_units(tmp_path: Path) -> None:
    # §0.10: an astral character (surrogates D800-DFFF) sorts before U+E000-U+FFFF
    names = ["\ue000.json", "\U0001f600.json", "\uffee.json", "z.json", "B.json", "_.json", "a.JSON", "c.json.bak"]
    for name in names:
        (tmp_path / name).write_text("{}", encoding="utf-8")
    listed = [p.name for p in list_resource_files([tmp_path], (".json",))]
    assert listed == ["B.json", "_.json", "z.json", "\U0001f600.json", "\ue000.json", "\uffee.json"]


def test_duplicate_ids_include_parse_failures_under_fallback_id(tmp_path: Path) -> None:
    # §10.7: parse-failed files take part with their fallback id; names in load order
    (tmp_path / "x.json").write_text("{nope", encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps({"schemaVersion": 1, "id": "x", "items": [HISTORY]}), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps({"schemaVersion": 1, "id": "bad id", "items": [HISTORY]}), encoding="utf-8")
    (tmp_path / "x.json.json").write_text("[]", encoding="utf-8")
    loaded = {s.file_name: s for s in load_stack_folder([tmp_path], include_yaml=False)}
    assert list(loaded) == ["a.json", "b.json", "x.json", "x.json.json"]
    message = "Duplicate project stack id: x appears in multiple files (a.json, x.json)."
    assert loaded["a.json"].diagnostics[-1].message == message
    assert [d.message for d in loaded["x.json"].diagnostics] == [
        "Failed to parse JSON: Expected property name or '}' in JSON at position 1",
        message,
    ]
    # "bad id" falls back to its stem "b"; x.json.json's fallback id is "x.json": no duplicates there
    assert not any(d.message.startswith("Duplicate") for d in loaded["b.json"].diagnostics)
    assert not any(d.message.startswith("Duplicate") for d in loaded["x.json.json"].diagnostics)
    assert not loaded["a.json"].usable


def test_primary_shadows_legacy_and_groups_are_separate(tmp_path: Path) -> None:
    primary, legacy = tmp_path / "p", tmp_path / "l"
    primary.mkdir()
    legacy.mkdir()
    (primary / "s.json").write_text(json.dumps({"id": "one", "items": []}), encoding="utf-8")
    (legacy / "s.json").write_text(json.dumps({"id": "two", "items": []}), encoding="utf-8")
    (legacy / "t.json").write_text(json.dumps({"id": "one", "items": []}), encoding="utf-8")
    files = list_resource_files([primary, tmp_path / "missing", legacy], (".json",))
    assert files == [primary / "s.json", legacy / "t.json"]
    loaded = load_stack_folder([primary, legacy], include_yaml=False)
    assert loaded[0].diagnostics[-1].message == "Duplicate project stack id: one appears in multiple files (s.json, t.json)."
    global_ = load_stack_folder([legacy], "global", include_yaml=False)
    assert not any(d.message.startswith("Duplicate") for s in global_ for d in s.diagnostics)


@pytest.mark.parametrize("name", ["stack.json", "a b.json", "x.y.json", ".json", "é-stack.json", "back\\slash.json"])
def test_a_stack_files_name_is_its_base_name(tmp_path: Any, name: str) -> None:
    """``load_stack_file`` names the file by what follows the path's last "/" (a slice, not
    ``os.path.basename``): the same name, whether the path is a ``str``, a ``Path``, or relative."""
    import os

    from forgec.codecs.stack import STACK_CACHE, load_stack_file

    path = tmp_path / "sub" / name
    path.parent.mkdir()
    path.write_text('{"id": "s", "items": []}', encoding="utf-8")
    for given in (str(path), path, os.path.relpath(path), Path(os.path.relpath(path))):
        for _ in range(2):  # a fresh load, then a cache hit
            loaded = load_stack_file(given)
            assert loaded.file_name == os.path.basename(os.fspath(given)) == name
    STACK_CACHE.clear()
