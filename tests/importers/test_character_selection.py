"""Character selection, malformed shapes and the prompt map (import-regex.md C3-C5, E3, E4, E7, E8).

Every expected value below is quoted from the spec text; the tests complement
``tests/importers/test_units.py`` where it left a statement unpinned.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.importers.sillytavern import convert_preset, import_preset
from forgec.js.values import UNDEFINED, json_stringify

MULTIPLE = "Multiple character configs found: [{}]. Choose a character_id and retry."
NO_ENTRIES = "Preset has no prompt_order entries. Choose a character_id and retry."


def block(identifier: Any, content: Any = "x", role: Any = "system", **extra: Any) -> dict[str, Any]:
    return {"identifier": identifier, "role": role, "content": content, **extra}


def run(raw: Any, character_id: Any = None) -> Any:
    return import_preset(raw, character_id, file_name="p.json", now_ms=0)


def line(report: str, prefix: str) -> str:
    return next(text for text in report.split("\n") if text.startswith(prefix))


# --- C4 / E4 ------------------------------------------------------------------------------------------


def test_given_id_not_found_with_a_single_entry_lists_it() -> None:
    # C4: "verified: `Multiple character configs found: [100000]. …`"
    raw = {"prompts": [block("a")], "prompt_order": [{"character_id": 100000, "order": []}]}
    assert run(raw, 100001).error == MULTIPLE.format("100000")


def test_no_entries_also_when_a_character_id_is_given() -> None:
    assert run({"prompts": [block("a")], "prompt_order": []}, 100001).error == NO_ENTRIES
    assert run({"prompts": [block("a")], "prompt_order": None}, 100001).error == NO_ENTRIES


def test_first_of_several_equal_entries_wins() -> None:
    raw = {
        "prompts": [block("a", "A"), block("b", "B")],
        "prompt_order": [
            {"character_id": 7, "order": [{"identifier": "a"}]},
            {"character_id": 7, "order": [{"identifier": "b"}]},
        ],
    }
    assert [i["content"] for i in run(raw, 7).stack["items"]] == ["A"]


def test_zero_and_minus_zero_are_equal() -> None:
    raw = {"prompts": [block("a")], "prompt_order": [{"character_id": -0.0, "order": [{"identifier": "a"}]}]}
    result = run(raw, 0)
    assert result.error is None
    assert "- **Character ID**: 0" in result.report  # E8: -0 prints 0


def test_integral_float_id_equals_integer() -> None:
    raw = {"prompts": [block("a")], "prompt_order": [{"character_id": 100001.0, "order": []}]}
    assert run(raw, 100001).error is None


def test_null_given_directly_selects_only_a_null_entry() -> None:
    # E4: "Called directly, a `null` is therefore a given id that selects only an entry whose
    # `character_id` is `null` (otherwise `Multiple character configs found: […]`)."
    with_null = {"prompts": [block("a")], "prompt_order": [{"character_id": 5}, {"character_id": None}]}
    result = convert_preset(with_null, "p.json", character_id=None, now_ms=0)
    assert result.error is None
    assert '"characterId":null' in json_stringify(result.stack["import"])
    assert "- **Character ID**: null" in result.report
    without = {"prompts": [block("a")], "prompt_order": [{"character_id": 5}]}
    assert convert_preset(without, "p.json", character_id=None, now_ms=0).error == MULTIPLE.format("5")


def test_string_id_never_equals_number() -> None:
    # C4: "a string "100001" never equals 100001"
    raw = {"prompts": [block("a")], "prompt_order": [{"character_id": "100001"}, {"character_id": 100000}]}
    assert run(raw, 100001).error == MULTIPLE.format("100001, 100000")
    assert convert_preset(raw, "p.json", character_id="100001", now_ms=0).error is None


def test_id_list_uses_array_joining() -> None:
    # C4/E8: numbers JS-formatted, strings raw, null/absent empty, arrays joined, objects [object Object]
    raw = {
        "prompts": [block("a")],
        "prompt_order": [
            {"character_id": 1e21}, {"character_id": 1.5}, {"character_id": "s"}, {"character_id": None}, {},
            {"character_id": [1, [2, 3], None]}, {"character_id": {"k": 1}}, {"character_id": True}, 5, "str", [1],
        ],
    }  # fmt: skip
    assert run(raw).error == MULTIPLE.format("1e+21, 1.5, s, , , 1,2,3,, [object Object], true, , , ")


# --- E8 Character ID line -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown", "stack_value"),
    [
        (UNDEFINED, "undefined", UNDEFINED),
        (None, "null", None),
        ("", "", ""),
        ("100000", "100000", "100000"),
        (float("inf"), "Infinity", None),  # E2: 1e400 prints Infinity, serialises as null
    ],
)
def test_character_id_line_and_stack_value(value: Any, shown: str, stack_value: Any) -> None:
    entry: dict[str, Any] = {"order": [{"identifier": "a"}]}
    if value is not UNDEFINED:
        entry["character_id"] = value
    result = run({"prompts": [block("a")], "prompt_order": [entry]})
    assert result.error is None
    assert line(result.report, "- **Character ID**:") == f"- **Character ID**: {shown}"
    meta = json_stringify(result.stack["import"])
    if stack_value is UNDEFINED:
        assert "characterId" not in meta
    else:
        assert f'"characterId":{json_stringify(stack_value)},' in meta


# --- E3 malformed shapes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "character_id", "error"),
    [
        # (c) with a character id, a non-array prompt_order always fails
        ({"prompts": [1], "prompt_order": {"length": 1, "0": {"character_id": 1}}}, 1,
         "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": ""}, 1, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": "x"}, 1, "Preset prompt_order must be an array."),
        # (c) without one: only length exactly 1 with a JS-truthy member 0 is usable
        ({"prompts": [1], "prompt_order": ""}, None, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": "ab"}, None, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": 5}, None, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": True}, None, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": {"length": 1, "0": 0}}, None, "Preset prompt_order must be an array."),
        ({"prompts": [1], "prompt_order": {"length": "1", "0": {}}}, None, "Preset prompt_order must be an array."),
        # (b) prompts: object with length "0" is not empty and is not iterable
        ({"prompts": {"length": "0"}, "prompt_order": [{}]}, None, "Preset prompts must be an array."),
        ({"prompts": {"length": 0}, "prompt_order": 5}, None, "Preset has no prompts array."),
        ({"prompts": True, "prompt_order": [{}]}, None, "Preset prompts must be an array."),
        # (b) selection errors take precedence over a non-iterable prompts
        ({"prompts": 5, "prompt_order": [{"character_id": 1}, {"character_id": 2}]}, None, MULTIPLE.format("1, 2")),
        # (a) without a character id any null entry throws (single-entry path and id list both read it)
        ({"prompts": [1], "prompt_order": [{"character_id": 1}, None]}, None, "Preset prompt_order[1] is null."),
        # (a) with one, entries are read up to the first match: a null before it throws
        ({"prompts": [1], "prompt_order": [None, {"character_id": 1}]}, 1, "Preset prompt_order[0] is null."),
        # (d) order: booleans and objects are not iterable
        ({"prompts": [1], "prompt_order": [{"order": False}]}, None, "Preset prompt_order[0].order must be an array."),
        ({"prompts": [1], "prompt_order": [{"order": {"0": 1}}]}, None,
         "Preset prompt_order[0].order must be an array."),
        ({"prompts": [1], "prompt_order": [{"character_id": 3, "order": [1, None]}]}, 3,
         "Preset prompt_order[0].order[1] is null."),
        # the index in the message is the selected entry's
        ({"prompts": [1], "prompt_order": [{"character_id": 2}, {"character_id": 3, "order": 7}]}, 3,
         "Preset prompt_order[1].order must be an array."),
    ],
)  # fmt: skip
def test_malformed_shapes(raw: Any, character_id: Any, error: str) -> None:
    assert run(raw, character_id).error == error


def test_content_checked_in_markers_too_but_falsy_marker_content_is_fine() -> None:
    # E3 (e): a JS-truthy non-string content throws in macro detection, markers included;
    # a JS-falsy one passes detection and a marker never reads it again.
    marker_bad = {"prompts": [{"identifier": "chatHistory", "marker": True, "content": {"x": 1}}],
                  "prompt_order": [{"order": [{"identifier": "chatHistory"}]}]}  # fmt: skip
    assert run(marker_bad).error == "Preset prompts[0].content must be a string."
    for falsy in (0, False):
        marker_ok = {"prompts": [{"identifier": "chatHistory", "marker": True, "content": falsy}],
                     "prompt_order": [{"order": [{"identifier": "chatHistory"}]}]}  # fmt: skip
        assert run(marker_ok).error is None
        plain = {"prompts": [block("a", falsy)], "prompt_order": [{"order": [{"identifier": "a"}]}]}
        assert run(plain).error == "Preset prompts[0].content must be a string."


def test_unreferenced_prompts_are_never_read() -> None:
    raw = {"prompts": [block("a"), block("b", {"bad": 1}, role=[1])], "prompt_order": [{"order": [{"identifier": "a"}]}]}
    assert run(raw).error is None


def test_content_error_index_is_the_definition_in_use() -> None:
    # E3: "`<i>` = index of the definition in use, i.e. the last one with that identifier"
    raw = {"prompts": [block("a", "fine"), block("b"), block("a", 5)], "prompt_order": [{"order": [{"identifier": "a"}]}]}
    assert run(raw).error == "Preset prompts[2].content must be a string."


@pytest.mark.parametrize("role", [True, 1, [], {}, ["system"]])
def test_truthy_non_string_role_fails(role: Any) -> None:
    raw = {"prompts": [block("a", "x", role=role)], "prompt_order": [{"order": [{"identifier": "a"}]}]}
    assert run(raw).error == "Preset prompts[0].role must be a string."


@pytest.mark.parametrize("role", [0, False, "", None])
def test_falsy_role_counts_as_empty(role: Any) -> None:
    raw = {"prompts": [block("a", "x", role=role)], "prompt_order": [{"order": [{"identifier": "a"}]}]}
    result = run(raw)
    assert result.stack["items"] == []
    assert "- 1 items with empty or missing content" in result.report


def test_role_is_not_read_for_blank_content() -> None:
    # E3 (f): role is checked only for items that survive both blank checks
    raw = {"prompts": [block("a", "{{// only a comment}}", role=5)], "prompt_order": [{"order": [{"identifier": "a"}]}]}
    assert run(raw).error is None


def test_element_positions_are_member_less() -> None:
    # E3 (a): a number/string/boolean/array element behaves as an object without members
    raw = {"prompts": [5, block("a")], "prompt_order": [{"order": ["s", [1], {"identifier": "a"}]}]}
    result = run(raw)
    # the order entries without identifier find the member-less prompt (stored under the absent key)
    assert "- **Items in prompt_order**: 3" in result.report
    assert len(result.stack["items"]) == 1 and result.stack["items"][0]["id"] == "3"
    assert "- 2 items with empty or missing content" in result.report


def test_missing_identifier_texts() -> None:
    # E8: `undefined` (absent), `null`, `[object Object]`, `1,2` (array), `1.5`
    raw = {"prompts": [block("a")],
           "prompt_order": [{"order": [{}, {"identifier": None}, {"identifier": {"k": 1}}, {"identifier": [1, 2]},
                                       {"identifier": 1.5}, 7]}]}  # fmt: skip
    report = run(raw).report
    missing = [t for t in report.split("\n") if t.endswith("(referenced in prompt_order but not found in prompts)")]
    assert [m.split("`")[1] for m in missing] == ["undefined", "null", "[object Object]", "1,2", "1.5", "undefined"]


# --- E7 prompt map --------------------------------------------------------------------------------------


def test_map_keys() -> None:
    prompts = [block(None, "N"), block(True, "T"), block(1.0, "ONE"), block("__proto__", "P"), block({"o": 1}, "O"),
               block([1], "ARR")]  # fmt: skip
    order = [{"identifier": None}, {"identifier": 1}, {"identifier": "true"}, {"identifier": "__proto__"},
             {"identifier": {"o": 1}}, {"identifier": [1]}, {"identifier": True}, {}]  # fmt: skip
    result = run({"prompts": prompts, "prompt_order": [{"order": order}]})
    assert [i["content"] for i in result.stack["items"]] == ["N", "ONE", "P", "T"]
    missing = [t.split("`")[1] for t in result.report.split("\n") if "(referenced in prompt_order" in t]
    assert missing == ["true", "[object Object]", "1", "undefined"]
    # null is a real key: shown as `—` in the item mapping, and the block keeps `previousId: null`
    assert result.stack["items"][0]["source"]["previousId"] is None
    assert "| 1 | — | — | 1 | system | ✓ | block |" in result.report
