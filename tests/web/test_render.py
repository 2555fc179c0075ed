"""How a stack edited as data is written back (forgec.web.storage.render_stack): YAML keeps its
comments, quoting, block strings and indentation; JSON is what forgec writes."""

from __future__ import annotations

import difflib
from pathlib import Path

from forgec.js.values import json_stringify
from forgec.source import parse_source_text
from forgec.web.storage import render_stack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REVIEWER = EXAMPLES / ".pi" / "forge" / "prompt-stacks" / "code-reviewer.yaml"


def _data(text: str) -> dict:
    return parse_source_text(text, "x.yaml", "yaml").data


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:1] in "+-"]


def test_unchanged_data_is_the_same_text() -> None:
    text = REVIEWER.read_text()
    assert render_stack(_data(text), "yaml", text) == text


def test_one_edit_is_one_line_of_diff() -> None:
    text = REVIEWER.read_text()
    data = _data(text)
    data["items"][0]["content"] += "\nOne more line."
    out = render_stack(data, "yaml", text)
    assert _changed_lines(text, out) == ["+       One more line."]
    assert _data(out) == data


def test_moved_items_keep_their_comments_and_styles() -> None:
    text = "id: s\nitems:\n  # the role\n  - {kind: block, id: a, role: system, content: 'A'}  # first\n  - kind: block\n    id: b\n    role: user\n    content: \"B\"  # second\n"
    data = _data(text)
    data["items"].reverse()
    out = render_stack(data, "yaml", text)
    assert _data(out) == data
    assert "# first" in out and "# second" in out and "# the role" in out
    assert "content: \"B\"" in out and "'A'" in out  # quoting of unchanged values kept


def test_duplicate_ids_keep_their_own_lines() -> None:
    text = (EXAMPLES / "broken" / "typos.yaml").read_text()
    data = _data(text)
    data["items"][2]["content"] = "Review this: {{lastUserMessage}}"
    out = render_stack(data, "yaml", text)
    assert _data(out) == data
    # each item stays a one-line flow mapping (ruamel writes "{k: v}" without the inner spaces)
    tight = text.replace("{ ", "{").replace(" }", "}")
    assert len(_changed_lines(tight, out)) == 2  # the edited item's line, old and new


def test_values_that_look_like_other_types_stay_strings() -> None:
    text = "id: s\nvariables:\n  n: \"5\"\nitems: []\n"
    data = _data(text)
    data["variables"].update({"yes": "yes", "nothing": "null", "num": "1e3", "multi": "a\n  b\n"})
    out = render_stack(data, "yaml", text)
    assert _data(out) == data


def test_json_is_what_forgec_writes() -> None:
    data = {"schemaVersion": 1, "id": "s", "items": [{"kind": "block", "id": "a", "role": "system", "content": "é ✓ \u2028"}]}
    assert render_stack(data, "json") == json_stringify(data, 2)
