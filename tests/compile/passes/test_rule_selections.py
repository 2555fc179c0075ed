"""``RuleSelections``: a recorded rule selection replays exactly what ``select_rules`` answers.

The report workflow keeps one ``RuleSelections`` per stack-cache entry, so every compile of a cached
stack file after the first replays the three (four with finalize) selections instead of reading every
rule again.  A replay must give the same selected rules (parameters and compiled pattern), the same
compile-failure diagnostics in the same order, never hand out the stack's own lists, and select
afresh when the regex caches no longer hold a pattern it names.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.stack import STACK_CACHE
from forgec.compile.passes import regex as rx
from forgec.compile.passes.regex import RegexBudget, RuleSelections, select_rules
from forgec.report import compile_report

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"

_CALL_SITES = [
    ("compiled", "system", "outgoing"),
    ("history", "messages", "outgoing"),
    ("compiled", "messages", "outgoing"),
    ("compiled", "messages", "finalize"),
]
_PATTERNS = ["x", "hello", "^- ", "(unclosed", "a{2,}", "\\p{Lu}+", "(?:)", "[", "\\bword\\b", "", 7]
_FLAGS = ["", "g", "gi", "gm", "gg", "q", "su", None, 3]


def _rule(rng: random.Random, index: int) -> Any:
    if rng.random() < 0.05:
        return rng.choice([None, "rule", 4, ["x"]])
    rule: dict[str, Any] = {
        "id": rng.choice([f"r{index}", f"  r{index} ", "", "   ", None, 9]),
        "stage": rng.choice(["compiled", "history", "other", None]),
        "pattern": rng.choice(_PATTERNS),
    }
    for key, values in (
        ("flags", _FLAGS),
        ("targets", [["messages"], ["system"], ["system", "messages"], [], "messages"]),
        ("effect", ["outgoing", "finalize", None, "other"]),
        ("enabled", [True, False, None, 0]),
        ("replace", ["X", "$1", 5]),
        ("trimStrings", [["a", "b"], [], ["x", 1], "a"]),
        ("roles", [["assistant"], ["user", "assistant"], [1], "user"]),
        ("maxMessages", [1, 0, -2, 2.5, "3"]),
        ("maxChars", [10, 0, None]),
        ("minDepth", [0, 1, -1]),
        ("maxDepth", [0, 3, 1.5]),
    ):
        if rng.random() < 0.4:
            rule[key] = copy.deepcopy(rng.choice(values))
    return rule


def _stack(rng: random.Random) -> dict[str, Any]:
    return {"id": "s", "items": [], "regex": {"rules": [_rule(rng, i) for i in range(rng.randint(0, 8))]}}


def _answers(stack: Any, selections: RuleSelections | None) -> list[tuple[list[Any], list[Any]]]:
    out = []
    for stage, target, effect in _CALL_SITES:
        diagnostics: list[Any] = []
        if selections is None:
            rules = select_rules(stack, stage, target, effect, diagnostics, RegexBudget())  # type: ignore[arg-type]
        else:
            rules = selections.select(stack, stage, target, effect, diagnostics, RegexBudget())
        out.append((rules, diagnostics))
    return out


def test_replay_equals_selection_on_random_rules() -> None:
    rng = random.Random(25)
    replayed = 0
    for _ in range(400):
        stack = _stack(rng)
        expected = _answers(stack, None)
        selections = RuleSelections()
        assert _answers(stack, selections) == expected  # recording
        assert _answers(stack, selections) == expected  # replaying
        assert _answers(stack, selections) == expected
        replayed += len(selections._answers)
    assert replayed > 400  # most call sites were recorded, so the comparisons above were replays


def test_replayed_rules_never_share_the_stack_lists() -> None:
    stack = {"regex": {"rules": [{"id": "t", "stage": "compiled", "pattern": "a", "trimStrings": ["x"]}]}}
    selections = RuleSelections()
    first = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    assert first[0].trim_strings == ["x"]
    stack["regex"]["rules"][0]["trimStrings"].append("changed")  # the caller's own list
    first[0].trim_strings.append("changed too")  # the selected rule is the caller's too
    again = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    assert again[0].trim_strings == ["x"]
    assert again[0].trim_strings is not first[0].trim_strings


def test_failures_replay_in_rule_order() -> None:
    rules = [
        {"id": "bad1", "stage": "compiled", "pattern": "(open"},
        {"id": "ok", "stage": "compiled", "pattern": "b"},
        {"id": "bad2", "stage": "compiled", "pattern": "["},
    ]
    stack = {"regex": {"rules": rules}}
    selections = RuleSelections()
    for _ in range(3):
        diagnostics: list[Any] = []
        selected = selections.select(stack, "compiled", "messages", "outgoing", diagnostics, RegexBudget())
        assert [rule.id for rule in selected] == ["ok"]
        assert [d.pointer for d in diagnostics] == [("regex", "rules", 0, "pattern"), ("regex", "rules", 2, "pattern")]
        assert all(d.code == "FG620" for d in diagnostics)


def test_selects_afresh_when_the_regex_caches_were_emptied() -> None:
    stack = {"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "selections-cleared"}]}}
    selections = RuleSelections()
    first = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    from forgec.js.regex.pattern import _compile as engine_cache

    rx._COMPILED.clear()  # what _compile does past the caches' size or compile units
    engine_cache.cache_clear()
    budget = RegexBudget()
    again = selections.select(stack, "compiled", "messages", "outgoing", [], budget)
    assert again[0].pattern is rx._COMPILED[("selections-cleared", "")]
    assert again[0].pattern is not first[0].pattern  # compiled again, not the recorded one
    assert budget.spent > 0  # and charged, as a first selection is


def test_a_budget_answer_is_not_kept() -> None:
    stack = {"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "never-compiled-before-budget"}]}}
    spent = RegexBudget(seconds=0.0)
    selections = RuleSelections()
    diagnostics: list[Any] = []
    assert selections.select(stack, "compiled", "messages", "outgoing", diagnostics, spent) == []
    assert [d.code for d in diagnostics] == ["FG624"]
    assert not selections._answers
    selected = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    assert [rule.id for rule in selected] == ["r"]


@pytest.mark.parametrize(
    "case", sorted(c.name for c in CASES.iterdir() if (c / "stack.json").is_file() and '"rules"' in (c / "stack.json").read_text())
)
def test_cached_stack_compiles_equal_a_plain_compile(case: str, tmp_path: Path) -> None:
    """Every corpus stack with regex rules: the second and third compile of its file (answers replayed
    from the cache entry) equal a compile of the same data that has no cache entry at all."""
    stack_file = tmp_path / "stack.json"
    stack_file.write_bytes((CASES / case / "stack.json").read_bytes())
    context = CASES / case / "context.json"
    plain = compile_report(json.loads(stack_file.read_text(encoding="utf-8")), context).to_report()
    plain["validation"]["file"] = "stack.json"
    reports = [compile_report(stack_file, context).to_report() for _ in range(3)]
    entry = next(e for e in [STACK_CACHE.get((stack_file.read_bytes(), str(stack_file), "project", None))] if e)
    assert isinstance(entry.selections, RuleSelections) and entry.selections._answers
    for report in reports:
        assert report == plain


def test_a_replay_hands_out_the_rules_it_built_while_their_patterns_are_compiled() -> None:
    """``_PLANS``: the second replay of an answer builds no rule again (the same objects, in a new list),
    except a rule with ``trimStrings``, which is a copy with its own list every time."""
    stack = {"regex": {"rules": [
        {"id": "plain", "stage": "compiled", "pattern": "plan-a"},
        {"id": "trim", "stage": "compiled", "pattern": "plan-b", "trimStrings": ["x"]},
    ]}}  # fmt: skip
    selections = RuleSelections()
    selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())  # recorded
    first = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    again = selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
    assert again is not first and again[0] is first[0]
    assert again[1] is not first[1] and again[1].trim_strings == first[1].trim_strings == ["x"]
    assert again[1].trim_strings is not first[1].trim_strings


def test_plans_are_emptied_with_the_regex_cache_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    stack = {"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "plan-bounded"}]}}
    monkeypatch.setattr(rx, "PLANS_KEPT", 2)
    for _ in range(5):  # each a new content: its own answer and plan
        selections = RuleSelections()
        for _ in range(3):
            selections.select(stack, "compiled", "messages", "outgoing", [], RegexBudget())
        assert len(rx._PLANS) <= 2
    monkeypatch.setattr(rx, "CACHED_UNITS", 0)  # the next compile empties the caches
    rx.select_rules({"regex": {"rules": [{"id": "n", "stage": "compiled", "pattern": "plan-new"}]}},
                    "compiled", "messages", "outgoing", [])  # fmt: skip
    assert not rx._PLANS
