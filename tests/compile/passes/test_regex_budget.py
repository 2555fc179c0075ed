"""The per-compile regex time budget (forgec's FG624): many slow rules cannot make a compile unbounded.

Each rule alone is already limited per call (FG623); the budget bounds their sum across every rule,
stage and call site of one compile, and of the finalize section of one report.  Small budgets keep
these tests fast.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from forgec.compile.assemble import compile_prompt
from forgec.compile.passes import regex as rx
from forgec.compile.passes.regex import RegexBudget, apply_to_messages, apply_to_system, finalize_message
from forgec.diagnostics import Diagnostic
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

#: catastrophic on "aaaa…b": every split of the a's is tried before the $ fails
SLOW = "(a|a)*$"
TEXT = "a" * 40 + "b"


def _slow_rules(count: int, **kw: Any) -> list[dict[str, Any]]:
    return [{"id": f"e{i}", "stage": "compiled", "pattern": SLOW, "flags": "g", "replace": "", **kw} for i in range(count)]


def _codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def test_budget_skips_every_later_rule_with_one_error_each() -> None:
    budget = RegexBudget(seconds=0.3, per_call=0.1)
    stack = {"id": "s", "items": [], "regex": {"rules": _slow_rules(50)}}
    diagnostics: list[Diagnostic] = []
    start = time.monotonic()
    out = apply_to_messages(stack, [{"role": "user", "content": TEXT}], "compiled", diagnostics, budget)
    elapsed = time.monotonic() - start
    assert elapsed < 0.3 + 0.1 + 1.0  # budget + one per-call timeout + slack for a shared machine
    assert out[0]["content"] == TEXT  # nothing was replaced
    codes = _codes(diagnostics)
    assert len(codes) == 50 and set(codes) <= {"FG623", "FG624"}
    # at most three per-call timeouts fit in the budget (0.3 s / 0.1 s); on a loaded machine a
    # timeout can fire late and use more of the budget, so fewer may run -- never more, never none
    assert codes[0] == "FG623" and 1 <= codes.count("FG623") <= 3 and codes[-1] == "FG624"
    assert codes == sorted(codes)  # once over budget, only FG624
    skipped = diagnostics[-1]
    assert skipped.level == "error" and skipped.pointer == ("regex", "rules", 49, "pattern")
    assert skipped.message == (
        "Regex rule e49 was skipped in compiled/messages: the regex rules of this compile used up "
        "forgec's 0.3s time budget."
    )
    assert budget.exhausted()


def test_budget_is_shared_by_system_and_messages_in_one_compile() -> None:
    rules = _slow_rules(20, targets=["system", "messages"])
    stack = {"id": "s", "items": [{"kind": "block", "id": "a", "role": "system", "content": TEXT}],
             "regex": {"rules": rules}}
    runtime = Runtime(messages=[{"role": "user", "content": TEXT, "timestamp": 1}])
    budget = RegexBudget(seconds=0.25, per_call=0.1)
    start = time.monotonic()
    compiled = compile_prompt(stack, runtime, VariableStore.fresh({}), regex_budget=budget)
    assert time.monotonic() - start < 0.25 + 0.1 + 1.0
    system, messages = _codes(compiled.system.diagnostics), _codes(compiled.messages.diagnostics)
    assert len(system) == 20 and system[-1] == "FG624"
    assert messages == ["FG624"] * 20  # nothing left for the second stage


def test_default_budget_comes_from_the_module_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rx, "REGEX_BUDGET_SECONDS", 0.2)
    monkeypatch.setattr(rx, "REGEX_TIMEOUT_SECONDS", 0.05)
    budget = RegexBudget()
    assert (budget.seconds, budget.per_call, budget.spent) == (0.2, 0.05, 0.0)
    diagnostics: list[Diagnostic] = []
    start = time.monotonic()
    stack = {"id": "s", "items": [], "regex": {"rules": _slow_rules(100, targets=["system"])}}
    assert apply_to_system(stack, TEXT, diagnostics) == TEXT  # budget omitted: a fresh default one
    assert time.monotonic() - start < 0.2 + 0.05 + 1.0
    assert _codes(diagnostics).count("FG624") >= 90


def test_a_call_never_waits_longer_than_the_budget_left() -> None:
    """With 0.15 s left and a 10 s per-call limit, the slow rule stops after 0.15 s as over budget."""
    budget = RegexBudget(seconds=0.15, per_call=10.0)
    stack = {"id": "s", "items": [], "regex": {"rules": _slow_rules(2, targets=["system"])}}
    diagnostics: list[Diagnostic] = []
    start = time.monotonic()
    apply_to_system(stack, TEXT, diagnostics, budget)
    assert time.monotonic() - start < 1.5
    assert _codes(diagnostics) == ["FG624", "FG624"]


def test_finalize_shares_a_budget_across_messages() -> None:
    stack = {"id": "s", "items": [], "regex": {"rules": _slow_rules(3, effect="finalize")}}
    budget = RegexBudget(seconds=0.2, per_call=0.1)
    message = {"role": "assistant", "content": TEXT}
    start = time.monotonic()
    results = [finalize_message(stack, message, budget) for _ in range(10)]
    assert time.monotonic() - start < 0.2 + 0.1 + 1.0
    assert all(replaced is None for replaced, _ in results)
    assert _codes(results[-1][1]) == ["FG624"] * 3


def test_fast_rules_are_unaffected_by_the_budget() -> None:
    stack = {"id": "s", "items": [], "regex": {"rules": [{"id": "x", "stage": "compiled", "pattern": "a+", "flags": "g",
                                                            "replace": "A", "targets": ["system"]}]}}
    diagnostics: list[Diagnostic] = []
    budget = RegexBudget(seconds=5.0, per_call=1.0)
    assert apply_to_system(stack, "aa b aaa", diagnostics, budget) == "A b A"
    assert _codes(diagnostics) == ["FG621"] and 0 <= budget.spent < 1.0


def test_compiling_a_pattern_is_charged_to_the_budget_and_stops_when_it_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 family 10: ``regex.compile`` cannot be interrupted and a costly pattern takes ~2 s, so
    ten distinct costly rules took 26 s. Compile time counts; once spent, nothing more is compiled.

    The engine's compile cache (``pattern._compile``) is slowed down: a module-level name the compiled
    build also looks up at each call (mypyc calls ``compile_js`` directly, so patching it there would
    go unseen; docs/performance.md, "Compiled modules")."""
    from forgec.js.regex import pattern as engine

    compiled: list[str] = []
    real = engine._compile

    def slow_compile(pattern: str, flags: str) -> object:
        compiled.append(pattern)
        time.sleep(0.05)  # a costly pattern, made cheap to run
        return real(pattern, flags)

    monkeypatch.setattr(engine, "_compile", slow_compile)
    monkeypatch.setattr(rx, "_COMPILED", {})
    rules = [{"id": f"c{n}", "stage": "compiled", "pattern": f"never{n}", "flags": "g", "replace": "x"} for n in range(30)]
    budget = RegexBudget(seconds=0.2, per_call=0.1)
    diagnostics: list[Diagnostic] = []
    apply_to_messages({"id": "s", "items": [], "regex": {"rules": rules}}, [{"role": "user", "content": TEXT}],
                      "compiled", diagnostics, budget)  # fmt: skip
    assert 1 <= len(compiled) <= 5  # 0.2 s of 0.05 s compiles (fewer when the machine is slow)
    # the compiled ones are skipped when they would run, the others before they are compiled
    assert _codes(diagnostics) == ["FG624"] * 30
    assert (
        "Regex rule c29 was skipped in compiled/messages: the regex rules of this compile used up "
        "forgec's 0.2s time budget."
    ) in [d.message for d in diagnostics]


def test_costly_patterns_are_charged_their_estimate_so_few_are_held_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 KB stack of ten rules just inside the compile estimate (``[^\\p{L}]{4990}`` under ``iu``, ~270 MB
    each once compiled) held 1.9 GB: each compile is charged at least its estimate, so the budget
    stops after a couple of them, and the caches let go of costly patterns past ``CACHED_UNITS``.

    Patched where both builds look the names up at each call (the engine's compile cache and the cost
    estimate's module), not ``rx._compile``/``rx._compile_units``, which compiled code calls directly."""
    from forgec.js.regex import _cost
    from forgec.js.regex import pattern as engine

    monkeypatch.setattr(rx, "_COMPILED", {})
    monkeypatch.setattr(rx, "_cached_units", 0)
    compiled: list[str] = []
    real = engine._compile

    def counting(pattern: str, flags: str) -> Any:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(engine, "_compile", counting)
    monkeypatch.setattr(_cost, "compile_cost", lambda _pattern: _cost.COMPILE_BUDGET)  # each as costly as allowed
    rules = [{"id": f"c{n}", "stage": "compiled", "pattern": f"cheap{n}", "flags": "g"} for n in range(10)]
    diagnostics: list[Diagnostic] = []
    apply_to_messages({"id": "s", "items": [], "regex": {"rules": rules}}, [{"role": "user", "content": TEXT}],
                      "compiled", diagnostics, RegexBudget())  # fmt: skip
    assert len(compiled) == 2  # 2 x 3 s charged: the default 5 s budget is spent
    assert _codes(diagnostics) == ["FG624"] * 10
    # the process caches empty themselves rather than hold more than CACHED_UNITS of patterns
    assert rx._cached_units <= rx.CACHED_UNITS


class _Clock:
    """A monotonic clock that moves one second per reading."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_a_rule_the_prefilter_skips_everywhere_is_still_charged_its_wall_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """No message holds "zebra", so no search runs (JSPattern.may_match); the rule's time still counts."""
    rule = {"id": "z", "stage": "compiled", "pattern": "zebra", "flags": "g", "replace": "Z"}
    stack = {"id": "s", "items": [], "regex": {"rules": [rule]}}
    messages = [{"role": "user", "content": "no stripes here"}] * 3
    apply_to_messages(stack, messages, "compiled", [], RegexBudget())  # compiled and cached before the clock moves
    monkeypatch.setattr(rx, "_clock", _Clock().monotonic)  # the seam both builds read at call time
    budget = RegexBudget(seconds=5.0, per_call=1.0)
    assert apply_to_messages(stack, messages, "compiled", [], budget) is messages
    assert budget.spent == 1.0  # one reading before the rule, one after: the whole loop, nothing twice
