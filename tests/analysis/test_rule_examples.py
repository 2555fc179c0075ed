"""Every analysis rule is registered with real examples, and each example does what it says."""

from __future__ import annotations

import json

import pytest

from forgec.rules import all_rules, rule_for
from forgec.settings import parse_table
from tests.analysis.helpers import analyses

ANALYSIS_RULES = [r for r in all_rules() if "FG870" <= r.code <= "FG899"]


def test_the_analysis_rules_are_complete() -> None:
    assert [r.code for r in ANALYSIS_RULES] == ["FG870", "FG871", "FG880", "FG881", "FG882", "FG883", "FG890"]
    for rule in ANALYSIS_RULES:
        assert rule.bad and rule.good and rule.summary and not rule.pi_forge
        assert rule_for(rule.name) is rule


@pytest.mark.parametrize("rule", [r for r in ANALYSIS_RULES if r.code != "FG890"], ids=lambda r: r.code)
def test_static_rule_examples(rule) -> None:
    bad = analyses(rule.bad)
    assert rule.code in [d.code for d in bad], bad
    assert all((d.extra and d.item_id is not None) or d.code == "FG882" for d in bad)
    assert analyses(rule.good) == []


def _budget_example(text: str) -> list[str]:
    import tomllib

    from forgec.analysis.tokens import check_budget, count_tokens
    from forgec.report import compile_report

    setting, stack = text.split("\n", 1)
    budgets = parse_table(tomllib.loads(setting)).max_prompt_tokens
    result = compile_report(json.loads(stack))
    report = count_tokens(result, "openai-responses", real=False)
    return [d.code for d in check_budget(report, budgets, result.loaded.stack_id)]


def test_budget_rule_examples() -> None:
    rule = rule_for("FG890")
    assert _budget_example(rule.bad) == ["FG890"]
    assert _budget_example(rule.good) == []
