"""``forgec.rules.Rule`` is a hand-written record (stop 31: defining the frozen slotted dataclass cost ~1.5 ms of a
cold ``forgec validate --no-cache``).  It must behave as that dataclass did: the same constructor, ``==``,
``hash``, ``repr`` and ``match`` positions, refused assignment, and copies and pickles equal to it."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from forgec.rules import Rule, all_rules


@dataclasses.dataclass(frozen=True, slots=True)
class Rule_:  # the dataclass ``Rule`` was until stop 31, field for field (its name differs only by the underscore)
    code: str
    name: str
    level: str
    summary: str
    bad: str = ""
    good: str = ""
    pi_forge: bool = True


def _twin(rule: Rule) -> Rule_:
    return Rule_(rule.code, rule.name, rule.level, rule.summary, rule.bad, rule.good, rule.pi_forge)


def test_every_registered_rule_reads_as_the_dataclass_did() -> None:
    rules = all_rules()
    assert len(rules) > 200
    for rule in rules:
        twin = _twin(rule)
        assert repr(rule) == repr(twin).replace("Rule_(", "Rule(", 1)
        assert hash(rule) == hash(twin)
        assert rule == Rule(rule.code, rule.name, rule.level, rule.summary, rule.bad, rule.good, rule.pi_forge)
        assert rule != twin and rule != (rule.code, rule.name)  # other classes never compare equal, as before
        assert rule.url.endswith(f"#{rule.code.lower()}-{rule.name}")


def test_constructor_defaults_keywords_and_match() -> None:
    rule = Rule(code="FG999", name="made-up", level="warning", summary="s")
    assert (rule.bad, rule.good, rule.pi_forge) == ("", "", True)
    assert rule == Rule("FG999", "made-up", "warning", "s", "", "", True)
    assert rule != Rule("FG999", "made-up", "warning", "s", pi_forge=False)
    assert len({rule, Rule("FG999", "made-up", "warning", "s")}) == 1
    with pytest.raises(TypeError):
        Rule("FG999", "made-up", "warning")  # type: ignore[call-arg]
    match rule:
        case Rule(code, name, level, summary, bad, good, pi_forge):
            assert (code, name, level, summary, bad, good, pi_forge) == ("FG999", "made-up", "warning", "s", "", "", True)
        case _:
            pytest.fail("positional match")


def test_a_rule_cannot_change() -> None:
    rule = Rule("FG999", "made-up", "warning", "s")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.level = "error"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del rule.summary  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.other = 1  # type: ignore[attr-defined]
    assert not hasattr(rule, "__dict__")
    assert rule.level == "warning"


def test_copies_and_pickles_are_equal_rules() -> None:
    rule = Rule("FG999", "made-up", "info", "s", "bad", "good", False)
    for other in (copy.copy(rule), copy.deepcopy(rule), pickle.loads(pickle.dumps(rule))):
        assert type(other) is Rule and other == rule and repr(other) == repr(rule)
