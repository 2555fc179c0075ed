"""Hostile presets never make the importer raise nor the CLI print a traceback.

The brief's rule "invalid input never raises out of the library" plus import-regex.md E3 (every place the
reference throws becomes a clean ``{error}``) and E15c (``convertedAt`` for any instant JavaScript can hold).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.importers.sillytavern import NESTED_TOO_DEEPLY, convert_preset, import_preset, iso_timestamp
from forgec.js.values import UNDEFINED, dumps_report

SKELETON: dict[str, Any] = {
    "preset_name": "P",
    "names_behavior": 1,
    "prompts": [
        {"identifier": "main", "name": "Main", "role": "system", "content": "Hi {{char}} {{// c}}{{trim}}"},
        {"identifier": "chatHistory", "name": "Chat", "marker": True},
        {"identifier": "jb", "name": "JB", "role": "user", "content": "{{lastUserMessage}} {{random}}"},
    ],
    "prompt_order": [
        {"character_id": 100001, "order": [
            {"identifier": "main", "enabled": True}, {"identifier": "chatHistory", "enabled": True},
            {"identifier": "jb", "enabled": False}, {"identifier": "ghost", "enabled": True},
        ]},
    ],
    "extensions": {"regex_scripts": [
        {"scriptName": "S", "findRegex": "/(a+)+$/g", "replaceString": "{{match}}", "promptOnly": True,
         "placement": [1, 2, 6], "trimStrings": ["x"], "minDepth": 0, "maxDepth": 3, "substituteRegex": 1},
    ]},
}  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)  # fmt: skip


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


PATHS = _paths(SKELETON)[1:]


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def _must_not_raise(raw: Any, character_id: Any) -> None:
    # the parsed value, whatever it is (a string root too: import_preset would read a str as a path)
    given = UNDEFINED if character_id is None else character_id
    result = convert_preset(raw, "p.json", None, given, now_ms=0)
    assert (result.error is None) == (result.stack is not None and result.report is not None)
    dumps_report({"import": result.import_section()})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), json_values, st.sampled_from([None, 100001, 0, "100001"]))
def test_any_value_anywhere(path: tuple[Any, ...], value: Any, character_id: Any) -> None:
    _must_not_raise(_replace(SKELETON, path, value), character_id)


@settings(max_examples=150, deadline=None)
@given(json_values, st.sampled_from([None, 100001]))
def test_any_root(value: Any, character_id: Any) -> None:
    _must_not_raise(value, character_id)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["prompts", "prompt_order", "extensions", "names_behavior", "preset_name",
                                        "name"]), json_values))  # fmt: skip
def test_any_top_level_members(raw: dict[str, Any]) -> None:
    _must_not_raise(raw, None)
    _must_not_raise(raw, 1)


def _deep(depth: int, kind: str = "list") -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


@pytest.mark.parametrize("kind", ["list", "dict"])
@pytest.mark.parametrize(
    "where",
    ["name", "character_id", "identifier", "names_behavior", "preset_name", "placement", "content", "role"],
)
def test_deeply_nested_values(where: str, kind: str) -> None:
    raw = json.loads(json.dumps(SKELETON))
    deep = _deep(3000, kind)
    if where == "name":
        raw["prompts"][0]["name"] = deep
    elif where == "character_id":
        raw["prompt_order"][0]["character_id"] = deep
    elif where == "identifier":
        raw["prompt_order"][0]["order"].append({"identifier": deep})
    elif where in ("names_behavior", "preset_name"):
        raw[where] = deep
    elif where == "placement":
        raw["extensions"]["regex_scripts"][0]["placement"] = deep
    else:
        raw["prompts"][0][where] = deep
    result = import_preset(raw, None if where == "character_id" else 100001, file_name="p.json", now_ms=0)
    assert result.error is None or result.error.startswith(("Preset ", "Multiple character configs"))


def test_deep_array_prints_like_javascript_join() -> None:
    # E8: nested arrays are flattened, null elements are empty: `[1,[2,3],null]` => `1,2,3,`
    raw = json.loads(json.dumps(SKELETON))
    raw["names_behavior"] = [1, [2, 3], None]
    raw["prompts"][0]["name"] = _deep(2500)
    result = import_preset(raw, 100001, file_name="p.json", now_ms=0)
    assert "- **Names behavior**: default (ST value 1,2,3,)" in result.report
    assert "| 1 | main | 1 | 1 | system | ✓ | block |" in result.report


def test_huge_arrays() -> None:
    raw = json.loads(json.dumps(SKELETON))
    raw["prompts"] += [{"identifier": f"p{i}", "role": "system", "content": "{{user}}"} for i in range(5000)]
    raw["prompt_order"][0]["order"] += [{"identifier": f"p{i}", "enabled": True} for i in range(5000)] * 2
    raw["extensions"]["regex_scripts"] *= 300
    result = import_preset(raw, 100001, file_name="p.json", now_ms=0)
    assert result.error is None and len(result.stack["items"]) == 3 + 10000
    assert result.stack["regex"]["rules"][-1]["id"] == "st-s-300"


def test_catastrophic_patterns_are_only_parsed() -> None:
    raw = json.loads(json.dumps(SKELETON))
    raw["extensions"]["regex_scripts"] = [
        {"findRegex": f, "promptOnly": True}
        for f in ["/(a+)+$/", "/(a|aa)+b/", "/(?:a*)*b/g", "/" + "(x?)" * 5000 + "x" * 5000 + "/", "/a{1000000}/"]
    ]
    result = import_preset(raw, 100001, file_name="p.json", now_ms=0)
    assert result.error is None and len(result.stack["regex"]["rules"]) == 5


def test_recursion_never_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    import forgec.importers.sillytavern as importer

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RecursionError

    monkeypatch.setattr(importer, "_convert", boom)
    assert convert_preset(SKELETON, "p.json").error == NESTED_TOO_DEEPLY


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "1970-01-01T00:00:00.000Z"),
        (1773476813999, "2026-03-14T08:26:53.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253402300800000, "+010000-01-01T00:00:00.000Z"),
        (8_640_000_000_000_000, "+275760-09-13T00:00:00.000Z"),
        (-8_640_000_000_000_000, "-271821-04-20T00:00:00.000Z"),
        (-62167219200000, "0000-01-01T00:00:00.000Z"),
        (-62167219200001, "-000001-12-31T23:59:59.999Z"),
        (951782400000, "2000-02-29T00:00:00.000Z"),
    ],
)
def test_converted_at_over_the_whole_javascript_range(ms: int, text: str) -> None:
    assert iso_timestamp(ms) == text


def test_bad_source_date_epoch_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from forgec.importers.sillytavern import now_ms_default

    for value in ("inf", "nan", "x", "1e400"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
        assert isinstance(now_ms_default(), int)


# --- the command line ------------------------------------------------------------------------------------


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "forgec", "import-silly", *args], cwd=tmp_path, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


HOSTILE_FILES: dict[str, bytes] = {
    "deep.json": (
        '{"prompts":[{"identifier":"a","role":"system","content":"x","name":' + "[" * 3000 + "1" + "]" * 3000
        + '}],"prompt_order":[{"character_id":1,"order":[{"identifier":"a"}]}]}'
    ).encode(),
    "root-array.json": b"[1, 2]",
    "null.json": b"null",
    "bom.json": b'\xef\xbb\xbf{"prompts":[]}',
    "bad-utf8.json": b'{"prompts":[{"identifier":"a","role":"system","content":"\xff\xfe"}],'
                     b'"prompt_order":[{"character_id":1,"order":[{"identifier":"a"}]}]}',
    "shapes.json": json.dumps({"prompts": 5, "prompt_order": {"length": 1, "0": None}}).encode(),
    "content.json": json.dumps({"prompts": [{"identifier": "a", "content": {"x": 1}}],
                                "prompt_order": [{"character_id": 1, "order": [{"identifier": "a"}]}]}).encode(),
    "nan.json": b"NaN",
    "empty.json": b"",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_cli_never_prints_a_traceback(tmp_path: Path, name: str, output_format: str) -> None:
    (tmp_path / name).write_bytes(HOSTILE_FILES[name])
    for extra in ((), ("1",), ("abc",)):
        done = _cli(tmp_path, name, *extra, "--dry-run", "--format", output_format)
        assert "Traceback" not in done.stderr + done.stdout, done.stderr
        assert done.returncode in (0, 1, 2)
        if output_format == "json" and done.returncode == 1:
            assert "error" in json.loads(done.stdout)["import"]


def test_cli_long_unicode_file_name(tmp_path: Path) -> None:
    name = "Ünïcode 名前 " + "x" * 150 + "😺" * 10 + ".JSON"
    (tmp_path / name).write_text(json.dumps(SKELETON), encoding="utf-8")
    done = _cli(tmp_path, name, "100001", "--format", "json")
    assert done.returncode == 0, done.stderr
    stack = json.loads(done.stdout)["import"]["stack"]
    # C8: `Ünïcode 名前` => `n-code`, emoji runs collapse, one trailing `.json` removed case-insensitively
    assert stack["id"] == "n-code-" + "x" * 150
    assert stack["import"]["sourceFile"] == name[: -len(".JSON")]
    assert (tmp_path / ".pi" / "forge" / "prompt-stacks" / f"{stack['id']}.json").is_file()


def test_python_ints_beyond_doubles_give_a_clean_error() -> None:
    from forgec.importers.sillytavern import NUMBER_OUT_OF_RANGE

    raw = json.loads(json.dumps(SKELETON))
    raw["prompt_order"][0]["character_id"] = 10**400
    assert import_preset(raw, 10**400, file_name="p.json", now_ms=0).error == NUMBER_OUT_OF_RANGE
