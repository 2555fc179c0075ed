"""An invalid context reports every problem, in the order the fields are checked, each at its
line and column when the context is a file (QA: a bad ``now`` hid a bad ``timezone``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.codecs.context import ContextError, load_context
from forgec.rules import rule_for

ALLOWED_TOP = (
    "now, timezone, cwd, model, baseSystemPrompt, appendSystemPrompt, tools, skills, contextFiles, "
    "variables, messages, latestUserMessage, finalizeMessages, thinkingLevel"
)
ALLOWED_TOOL = "name, description, snippet, guidelines, active, parameters"

BAD_JSON = """{
  "now": 5,
  "timezone": "Mars/Olympus",
  "tols": [],
  "model": {"provider": "p"},
  "tools": [
    {"name": "read", "active": "no", "guidelines": ["ok", 2]},
    3,
    {"nmae": "grep"}
  ],
  "thinkingLevel": "extreme"
}
"""

#: (line, column, message) of every problem of BAD_JSON, in checking order
BAD_JSON_PROBLEMS = [
    (4, 3, f'unknown field "tols" (did you mean "tools"?); allowed fields: {ALLOWED_TOP}'),
    (2, 10, 'now must be an ISO date-time string such as "2026-03-14T09:26:53+01:00", got 5'),
    (3, 15, 'timezone names no known time zone: "Mars/Olympus" (use an IANA name such as "Europe/Berlin")'),
    (5, 12, 'model needs a string "id"'),
    (5, 12, 'model needs a string "api"'),
    (8, 5, "tools[1] must be an object, got 3"),
    (7, 59, "tools[0].guidelines[1] must be a string, got 2"),
    (7, 32, 'tools[0].active must be true or false, got "no"'),
    (9, 6, f'tools[2] has an unknown field "nmae" (did you mean "name"?); allowed fields: {ALLOWED_TOOL}'),
    (9, 5, 'tools[2] needs a string "name"'),
    (11, 20, 'thinkingLevel must be one of "off", "minimal", "low", "medium", "high", "xhigh", "max", got "extreme"'),
]


def _problems(source: object) -> ContextError:
    with pytest.raises(ContextError) as caught:
        load_context(source)  # type: ignore[arg-type]
    return caught.value


def test_every_problem_of_a_json_file_with_positions(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text(BAD_JSON, encoding="utf-8")
    error = _problems(path)
    assert [(d.span.line, d.span.column, d.message) for d in error.problems] == BAD_JSON_PROBLEMS
    assert {(d.code, d.level) for d in error.problems} == {("FG011", "error")}
    assert all(d.span.path == str(path) for d in error.problems)
    # the exception itself still describes the first problem, as before
    assert str(error) == f"{path}: {BAD_JSON_PROBLEMS[0][2]}"
    assert error.pointer == ("tols",) and error.position == (4, 3) and error.code is None
    assert error.problems[1].pointer == ("now",)


def test_every_problem_of_a_yaml_file_with_positions(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text(
        "now: 2026-03-14 09:26\n"
        "timezone: Mars/Olympus\n"
        "tools:\n"
        "  - name: read\n"
        "    active: yes\n"
        "variables: [a]\n",
        encoding="utf-8",
    )
    error = _problems(path)
    assert [(d.span.line, d.span.column, d.message) for d in error.problems] == [
        (1, 6, 'now must be a date-time ending in Z or ±HH:MM (e.g. 2026-03-14T09:26:53+01:00), got "2026-03-14 09:26"'),
        (2, 11, 'timezone names no known time zone: "Mars/Olympus" (use an IANA name such as "Europe/Berlin")'),
        (5, 13, 'tools[0].active must be true or false, got "yes"'),
        (6, 12, "variables must be an object, got an array"),
    ]


def test_one_mistake_is_one_problem() -> None:
    # a value of the wrong type is not looked into: no second message about the same value
    assert [d.message for d in _problems({"now": 5, "tools": "read", "variables": 3}).problems] == [
        'now must be an ISO date-time string such as "2026-03-14T09:26:53+01:00", got 5',
        "tools must be an array of objects, got \"read\"",
        "variables must be an object, got 3",
    ]
    assert len(_problems({"model": "anthropic"}).problems) == 1
    assert len(_problems({"tools": [{"name": "a", "guidelines": "x"}]}).problems) == 1


def test_dict_input_has_no_positions() -> None:
    error = _problems({"now": "soon", "timezone": ""})
    assert [d.pointer for d in error.problems] == [("now",), ("timezone",)]
    assert all(d.span is None for d in error.problems)
    assert error.position is None and error.path is None
    assert str(error) == error.problems[0].message


def test_root_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text("\n  [1, 2]\n", encoding="utf-8")
    [problem] = _problems(path).problems
    assert problem.message == "a context must be a JSON object, got an array"
    assert (problem.span.line, problem.span.column) == (2, 3)


def test_reading_error_is_the_single_problem(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text('{"now": NaN, "timezone": 1}', encoding="utf-8")
    error = _problems(path)
    [problem] = error.problems
    assert (problem.code, problem.span.line, problem.span.column) == ("FG001", 1, 9)
    assert problem.message == error.detail


def test_valid_context_is_unchanged() -> None:
    context = load_context({"now": "2026-03-14T09:26:53+01:00", "timezone": "Europe/Berlin"})
    assert context.now_ms == 1773476813000


def test_invalid_context_rule_is_documented() -> None:
    rule = rule_for("invalid-context")
    assert rule.code == "FG011" and rule.level == "error" and not rule.pi_forge
    with pytest.raises(ContextError):
        load_context(__import__("json").loads(rule.bad))
    load_context(__import__("json").loads(rule.good))


def test_a_context_nested_deeper_than_the_limit_is_refused_as_data_too() -> None:
    from forgec.codecs.context import CONTEXT_MAX_DEPTH, ContextError, load_context

    value: dict[str, object] = {}
    inner = value
    for _ in range(CONTEXT_MAX_DEPTH + 700):
        inner["a"] = {}
        inner = inner["a"]  # type: ignore[assignment]
    with pytest.raises(ContextError) as caught:
        load_context({"variables": value})
    assert "nested deeper than forgec's limit" in str(caught.value)
