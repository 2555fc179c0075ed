"""Regex rules at compile time and at finalize (import-regex.md A4–A7, compile-core.md §9).

This module decides *which* rules run, *on what* (the system string, the text segments of eligible
messages) and *what is reported*; the matching and the JavaScript replacement semantics live in
:mod:`forgec.js.regex`.  Rules are read leniently, exactly as pi-forge executes them: invalid optional
fields are ignored, invalid required ones skip the rule silently, and only a pattern JavaScript
rejects produces an error, repeated at every call site (A4).

A rule that exceeds the time limit is skipped at that call site with a forgec error: the reference
would hang there, so no compatible output exists, and forgec must never hang.  The per-call limit
alone does not bound a compile (100 slow rules take 100 s), so every compile also carries one
:class:`RegexBudget`, an explicit value created per compile and passed to every call site: once the
regex time of the compile reaches the budget, each further rule application is skipped with FG624.
A call never waits longer than what is left of the budget, so a compile's regex time stays within
the budget (plus the time of one replacement).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from forgec.diagnostics import Diagnostic
from forgec.diagnostics.quick import POSITIONED
from forgec.js.values import UNDEFINED, is_integral_number, js_string, js_trim
from forgec.rules import compile as codes

__all__ = [
    "FINALIZE_WARNING",
    "REGEX_BUDGET_SECONDS",
    "REGEX_TIMEOUT_SECONDS",
    "RegexBudget",
    "RuleSelections",
    "apply_to_messages",
    "apply_to_system",
    "finalize_message",
    "select_rules",
]

Stage = Literal["history", "compiled"]
Target = Literal["system", "messages"]
Effect = Literal["outgoing", "finalize"]

#: per-segment time limit of one rule (seconds)
REGEX_TIMEOUT_SECONDS = 1.0
#: regex time one compile may spend in total, all rules, stages and call sites together (seconds)
REGEX_BUDGET_SECONDS = 5.0
#: seconds one unit of the compile estimate (``forgec/js/regex/_cost.py``) is charged at least
UNIT_SECONDS = 1.5e-6
#: the clock regex time is read from: a module-level name, which both builds look up at call time, so a
#: test can move it (the mypyc build binds an imported module at import: a patched ``time`` is not seen)
_clock = time.monotonic

FINALIZE_WARNING = (
    "Finalize regex replaced finalized assistant message content; "
    "original model output is not preserved in the stored transcript."
)

_VALID_FLAGS = frozenset("gimsu")


@dataclass(slots=True)
class SelectedRule:
    """A rule that passed selection, with its runtime parameters read leniently (A4)."""

    index: int
    id: str  # trimmed, for statistics
    pattern: Any  # forgec.js.regex.JSPattern
    replace: str
    trim_strings: list[str] | None
    roles: frozenset[str] | None
    max_messages: int | None
    max_chars: int | None
    min_depth: int | None
    max_depth: int | None


_COMPILED: dict[tuple[str, str], Any] = {}


#: estimated compile units (``_cost.py``) of the patterns the caches hold: a pattern just inside the
#: compile estimate holds ~270 MB (about 135 bytes a unit), so the caches are emptied past this sum
CACHED_UNITS = 4_000_000
_cached_units = 0


def _compile_units(compiled: Any) -> int:
    """The compile estimate of a compiled pattern (0 for a failure): its memory and its compile time."""
    from forgec.js.regex._cost import compile_cost

    return compile_cost(compiled.emitted_pattern) if not isinstance(compiled, Exception) else 0


def _compile(pattern: str, flags: str) -> Any:
    """Compile once per process; a failure is cached as the exception (it is re-reported per call).

    Costly patterns are held in memory by the caches (this one and the engine's), so the caches
    are emptied when the patterns they hold would pass :data:`CACHED_UNITS` together: a run that
    compiles many stacks (``snapshot``, a language server) keeps a bounded amount of memory."""
    global _cached_units
    key = (pattern, flags)
    cached = _COMPILED.get(key)
    if cached is None:
        from forgec.js.regex import JSRegexError, compile_js

        try:
            cached = compile_js(pattern, flags)
        except JSRegexError as exc:
            cached = exc
        except (RecursionError, MemoryError, ValueError) as failure:  # never let a hostile pattern escape
            cached = failure
        units = _compile_units(cached)
        if len(_COMPILED) > 4096 or _cached_units + units > CACHED_UNITS:
            from forgec.js.regex.pattern import _compile as engine_cache

            _COMPILED.clear()
            _PLANS.clear()
            engine_cache.cache_clear()
            _cached_units = 0
        _COMPILED[key] = cached
        _cached_units += units
    return cached


def _load_engine() -> None:
    """Import the matcher and ``regex`` before a compile is timed: loading code is not regex time."""
    import regex  # noqa: F401

    import forgec.js.regex.pattern  # noqa: F401


def _flags_ok(flags: str) -> bool:
    return not flags or (_VALID_FLAGS.issuperset(flags) and len(set(flags)) == len(flags))


def _positive(value: Any) -> int | None:
    return int(value) if value is not None and is_integral_number(value) and value > 0 else None


def _non_negative(value: Any) -> int | None:
    return int(value) if value is not None and is_integral_number(value) and value >= 0 else None


def _string_list(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _rules_of(stack: Any) -> list[Any]:
    regex = stack.get("regex") if isinstance(stack, dict) else None
    rules = regex.get("rules") if isinstance(regex, dict) else None
    return rules if isinstance(rules, list) else []


def select_rules(
    stack: Any,
    stage: Stage,
    target: Target,
    effect: Effect,
    diagnostics: list[Diagnostic],
    budget: RegexBudget | None = None,
) -> list[SelectedRule]:
    """A4: the rules that run at one call site, compiled, in rule order; compile errors appended.

    ``budget``: the compile's :class:`RegexBudget`. Compiling a pattern is regex time too (up to ~2 s
    each within ``_cost.py``'s estimate, and ``regex.compile`` cannot be interrupted): it is charged to
    the budget, and once the budget is spent a pattern not compiled yet is skipped with FG624 instead
    of compiled (issue 13: ten costly rules once took 26 s)."""
    return _select(stack, stage, target, effect, diagnostics, budget, None)


def _select(
    stack: Any,
    stage: str,
    target: str,
    effect: str,
    diagnostics: list[Diagnostic],
    budget: RegexBudget | None,
    record: list[Any] | None,
) -> list[SelectedRule]:
    """:func:`select_rules`; ``record``, when given, receives what :class:`RuleSelections` keeps of
    the answer: ``(pattern key, diagnostic)`` for a pattern that failed to compile, ``(pattern key,
    the selected rule's parameters)`` for a selected rule, and ``None`` for a budget diagnostic (an
    answer that depends on the time spent, never kept)."""
    selected: list[SelectedRule] = []
    label = "finalize/messages" if effect == "finalize" else f"{stage}/{target}"
    for index, rule in enumerate(_rules_of(stack)):
        if not isinstance(rule, dict) or rule.get("enabled") is False:
            continue
        rule_effect = rule.get("effect")
        if (rule_effect if rule_effect is not None else "outgoing") != effect:
            continue
        if rule.get("stage") != stage:
            continue
        targets = rule.get("targets")
        if stage == "compiled" and isinstance(targets, list) and target not in targets:
            continue
        raw_id = rule.get("id")
        rule_id = js_trim(raw_id) if isinstance(raw_id, str) else ""
        if not rule_id:
            continue
        pattern = rule.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            continue
        raw_flags = rule.get("flags")
        flags = raw_flags if isinstance(raw_flags, str) else ""
        if flags and not _flags_ok(flags):
            continue
        compiled = _COMPILED.get((pattern, flags))  # every call site after the first: one look-up
        if compiled is not None:
            pass
        elif budget is None:
            compiled = _compile(pattern, flags)
        elif budget.exhausted():
            diagnostics.append(_budget_diagnostic(raw_id, index, label, budget))
            if record is not None:
                record.append(None)
            continue
        else:
            _load_engine()
            started = _clock()
            compiled = _compile(pattern, flags)
            # the estimate, when it is more than the clock says: a pattern holds memory in proportion
            # to it (a 1 KB stack of ten such rules once held 1.9 GB), ~1 µs a unit when idle
            budget.spent += max(_clock() - started, _compile_units(compiled) * UNIT_SECONDS)
        if isinstance(compiled, Exception):
            failure = Diagnostic(
                "error",
                f"Regex rule {raw_id} failed to compile: {compiled}",
                codes.REGEX_RUNTIME_COMPILE,
                pointer=("regex", "rules", index, "pattern"),
            )
            diagnostics.append(failure)
            if record is not None:
                record.append(((pattern, flags), failure))
            continue
        chosen = _selected(rule, index, rule_id, compiled)
        selected.append(chosen)
        if record is not None:
            record.append(((pattern, flags), _parameters(chosen)))
    return selected


def _parameters(rule: SelectedRule) -> tuple[Any, ...]:
    """A selected rule without its compiled pattern; ``trimStrings`` copied (the stack's own list
    belongs to the caller)."""
    trim = None if rule.trim_strings is None else tuple(rule.trim_strings)
    return (rule.index, rule.id, rule.replace, trim, rule.roles, rule.max_messages, rule.max_chars, rule.min_depth, rule.max_depth)


class RuleSelections:
    """What :func:`select_rules` answered at each call site for one stack *content*.

    Kept on the stack-cache entry of a file (``forgec.codecs.stack``'s ``_CachedStack``) and handed
    to the compile only when the compile's stack came straight from that entry (nobody could have
    changed it), so the next compile of the same file does not read every rule again (a regex-heavy
    stack: 5-50 µs a compile; see docs/performance-log.md, *Stop 25*).

    Nothing compiled is held here: an answer keeps each selected rule's parameters with its
    ``(pattern, flags)`` key, and a replay finds the compiled pattern in ``_COMPILED``, so the regex
    caches' memory bound stays the only holder of patterns.  A pattern that is no longer there (the
    caches were emptied: selecting again compiles it and charges the budget) and an answer that held
    a budget diagnostic are selected afresh.  The diagnostics of patterns that failed to compile are
    replayed as the same immutable objects, in rule order, as selection appends them.
    """

    __slots__ = ("_answers",)

    def __init__(self) -> None:
        self._answers: dict[tuple[str, str, str], tuple[tuple[Any, ...], tuple[Any, ...]]] = {}

    def select(
        self,
        stack: Any,
        stage: str,
        target: str,
        effect: str,
        diagnostics: list[Diagnostic],
        budget: RegexBudget | None,
    ) -> list[SelectedRule]:
        """:func:`select_rules` of ``stack`` (the content these answers were recorded from)."""
        key = (stage, target, effect)
        answer = self._answers.get(key)
        if answer is not None:
            replayed = _replay(answer, diagnostics)
            if replayed is not None:
                return replayed
        record: list[Any] = []
        selected = _select(stack, stage, target, effect, diagnostics, budget, record)
        if None not in record:
            failures = tuple(entry for entry in record if isinstance(entry[1], Diagnostic))
            rules = tuple(entry for entry in record if not isinstance(entry[1], Diagnostic))
            self._answers[key] = (failures, rules)
        return selected


def _rules_for(
    stack: Any,
    stage: str,
    target: str,
    effect: str,
    diagnostics: list[Diagnostic],
    budget: RegexBudget | None,
    selections: RuleSelections | None,
) -> list[SelectedRule]:
    """The rules of one call site: from the stack content's recorded ``selections`` when the caller
    has them (the same answer, without reading every rule again), else selected afresh."""
    if selections is not None:
        return selections.select(stack, stage, target, effect, diagnostics, budget)
    return _select(stack, stage, target, effect, diagnostics, budget, None)


#: the selected rules last built from a recorded answer (:func:`_replay`), by the ``id`` of the answer's rule
#: records, each with those records (which keeps the ``id`` theirs): a replay checks that every pattern is
#: still the one ``_COMPILED`` holds instead of building each rule again (0.5-1 µs a rule, pure build). Emptied
#: with ``_COMPILED`` (:func:`_compile`), so it never holds a pattern the caches let go of, and past
#: :data:`PLANS_KEPT` answers
_PLANS: dict[int, tuple[tuple[Any, ...], list[SelectedRule]]] = {}
PLANS_KEPT = 4096


def _replay(answer: tuple[tuple[Any, ...], tuple[Any, ...]], diagnostics: list[Diagnostic]) -> list[SelectedRule] | None:
    """A recorded answer again, or None when a pattern it names is not compiled (as it was) any more.

    The rules are those built at the answer's last replay when every pattern is still the one compiled
    (:data:`_PLANS`); a rule with ``trimStrings`` is handed out as a copy with a list of its own, as a
    caller may change the list it was given."""
    failures, rules = answer
    for pattern_key, _ in failures:
        if not isinstance(_COMPILED.get(pattern_key), Exception):
            return None
    plan = _PLANS.get(id(rules))
    if plan is not None and plan[0] is rules:
        kept = plan[1]
        for k in range(len(kept)):
            if _COMPILED.get(rules[k][0]) is not kept[k].pattern:
                break
        else:
            for _, failure in failures:
                diagnostics.append(failure)
            return [rule if rule.trim_strings is None else _own_copy(rule) for rule in kept]
    built = _build(rules)
    if built is None:
        return None
    if len(_PLANS) >= PLANS_KEPT:
        _PLANS.clear()
    _PLANS[id(rules)] = (rules, built)
    for _, failure in failures:
        diagnostics.append(failure)
    return [rule if rule.trim_strings is None else _own_copy(rule) for rule in built]


def _own_copy(rule: SelectedRule) -> SelectedRule:
    """``rule`` with a ``trim_strings`` list of its own (a native class cannot be ``copy.copy``'d)."""
    trim = rule.trim_strings
    return SelectedRule(
        rule.index,
        rule.id,
        rule.pattern,
        rule.replace,
        None if trim is None else list(trim),
        rule.roles,
        rule.max_messages,
        rule.max_chars,
        rule.min_depth,
        rule.max_depth,
    )


def _build(rules: tuple[Any, ...]) -> list[SelectedRule] | None:
    """The selected rules of an answer's rule records, or None when a pattern is not compiled any more."""
    selected: list[SelectedRule] = []
    for pattern_key, parameters in rules:
        compiled = _COMPILED.get(pattern_key)
        if compiled is None or isinstance(compiled, Exception):
            return None
        index, rule_id, replace, trim, roles, max_messages, max_chars, min_depth, max_depth = parameters
        selected.append(
            SelectedRule(
                index,
                rule_id,
                compiled,
                replace,
                None if trim is None else list(trim),
                roles,
                max_messages,
                max_chars,
                min_depth,
                max_depth,
            )
        )
    return selected


def _selected(rule: dict[str, Any], index: int, rule_id: str, compiled: Any) -> SelectedRule:
    """A selected rule's runtime parameters, read leniently (A4); an absent optional member (the
    usual case) costs a look-up, not a call."""
    replace = rule.get("replace")
    trim_strings = rule.get("trimStrings")
    if trim_strings is not None:
        trim_strings = _string_list(trim_strings)
    roles = rule.get("roles")
    if roles is not None:
        roles = _string_list(roles)
    max_messages = rule.get("maxMessages")
    max_chars = rule.get("maxChars")
    min_depth = rule.get("minDepth")
    max_depth = rule.get("maxDepth")
    return SelectedRule(  # positional, in field order: this runs per rule at every call site
        index,
        rule_id,
        compiled,
        replace if isinstance(replace, str) else "",
        trim_strings or None,
        frozenset(roles) if roles is not None else None,
        None if max_messages is None else _positive(max_messages),
        None if max_chars is None else _positive(max_chars),
        None if min_depth is None else _non_negative(min_depth),
        None if max_depth is None else _non_negative(max_depth),
    )


class RegexBudget:
    """The regex time one compile may still spend: created per compile, passed to every call site.

    ``seconds`` is the overall budget, ``per_call`` the limit of one rule on one text segment
    (defaults: :data:`REGEX_BUDGET_SECONDS`, :data:`REGEX_TIMEOUT_SECONDS`, read when the budget is
    created).  ``spent`` grows with the wall time of every rule application.
    """

    __slots__ = ("per_call", "seconds", "spent")

    def __init__(self, seconds: float | None = None, per_call: float | None = None) -> None:
        self.seconds = REGEX_BUDGET_SECONDS if seconds is None else seconds
        self.per_call = REGEX_TIMEOUT_SECONDS if per_call is None else per_call
        self.spent = 0.0

    def remaining(self) -> float:
        return self.seconds - self.spent

    def exhausted(self) -> bool:
        return self.spent >= self.seconds


class _Timeout(Exception):
    pass


class _OverBudget(Exception):
    pass


_ENGINE: Any = None


def _engine() -> Any:
    """:mod:`forgec.js.regex`, imported on first use: its matcher loads the ``regex`` module, which
    a compile without regex rules (and ``forgec validate``) never needs."""
    global _ENGINE
    if _ENGINE is None:
        import forgec.js.regex as engine

        _ENGINE = engine
    return _ENGINE


def _transform(
    rule: SelectedRule, text: str, budget: RegexBudget, prefiltered: bool = False, lowered: str | None = None
) -> tuple[str, int]:
    """One rule on one segment, never waiting longer than the per-call limit or what the budget has left.

    ``prefiltered``: the caller has checked ``text`` with the pattern's prefilter already
    (:meth:`_Texts.candidates`), and ``lowered`` is ``text.lower()`` when it holds that."""
    engine = _ENGINE or _engine()
    remaining = budget.seconds - budget.spent  # ``budget.remaining()``: this runs per segment
    if remaining <= 0:
        raise _OverBudget
    timeout = min(budget.per_call, remaining)
    start = _clock()
    try:
        # transform_string is this prefilter check and transform_prefiltered: one call serves both
        if not prefiltered and not rule.pattern.may_match(text):
            return text, 0
        if rule.max_chars is None and rule.pattern.literal is not None and "$" not in rule.replace:
            result: tuple[str, int] = engine.replace_literal(rule.pattern, text, rule.replace)  # as ``_run_rules``
            return result
        result = engine.transform_prefiltered(
            rule.pattern,
            text,
            rule.replace,
            trim_strings=rule.trim_strings,
            max_chars=rule.max_chars,
            timeout=timeout,
            lowered=lowered if prefiltered else None,
        )
        return result
    except engine.JSRegexTimeout as exc:
        raise (_OverBudget if timeout < budget.per_call else _Timeout) from exc
    finally:
        budget.spent += _clock() - start


def _stat(diagnostics: list[Diagnostic], rule: SelectedRule, matches: int, changed: int, label: str) -> None:
    """A rule's statistics finding (FG621), for a rule that matched (its callers test ``matches > 0``
    first, so a rule that matched nothing costs no call): most rules of a usual compile make one, so it
    is made by :data:`POSITIONED`, without the frozen dataclass's ``__init__`` (1.6 -> ~0.4 µs, pure build)."""
    diagnostics.append(
        POSITIONED(
            "info",
            f"Regex rule {rule.id} matched {matches} time(s) and changed {changed} text segment(s) in {label}.",
            codes.REGEX_STATISTICS,
            None,
            ("regex", "rules", rule.index),
            None,
            None,
        )
    )


def _timed_out(diagnostics: list[Diagnostic], rule: SelectedRule, label: str, budget: RegexBudget) -> None:
    diagnostics.append(
        Diagnostic(
            "error",
            f"Regex rule {rule.id} exceeded the {budget.per_call:g}s time limit in {label} and was skipped.",
            codes.REGEX_TIMEOUT,
            pointer=("regex", "rules", rule.index, "pattern"),
        )
    )


def _budget_diagnostic(rule_id: Any, index: int, label: str, budget: RegexBudget) -> Diagnostic:
    return Diagnostic(
        "error",
        f"Regex rule {rule_id} was skipped in {label}: the regex rules of this compile used up "
        f"forgec's {budget.seconds:g}s time budget.",
        codes.REGEX_BUDGET,
        pointer=("regex", "rules", index, "pattern"),
    )


def _over_budget(diagnostics: list[Diagnostic], rule: SelectedRule, label: str, budget: RegexBudget) -> None:
    diagnostics.append(_budget_diagnostic(rule.id, rule.index, label, budget))


def apply_to_system(
    stack: Any,
    text: str,
    diagnostics: list[Diagnostic],
    budget: RegexBudget | None = None,
    selections: RuleSelections | None = None,
) -> str:
    """A5.1: compiled-stage rules targeting ``system`` on the whole system prompt.

    ``budget``: the compile's :class:`RegexBudget` (a fresh one when omitted).  ``selections``: the
    :class:`RuleSelections` of this stack's content, when the caller has them.
    """
    if not _rules_of(stack):  # most stacks have no rules: no selection, no label, no budget
        return text
    if budget is None:
        budget = RegexBudget()
    rules = _rules_for(stack, "compiled", "system", "outgoing", diagnostics, budget, selections)
    for rule in rules:
        try:
            new_text, matches = _transform(rule, text, budget)
        except _Timeout:
            _timed_out(diagnostics, rule, "compiled/system", budget)
            continue
        except _OverBudget:
            _over_budget(diagnostics, rule, "compiled/system", budget)
            continue
        if matches > 0:
            _stat(diagnostics, rule, matches, 1 if new_text != text else 0, "compiled/system")
        text = new_text
    return text


def _role_of(message: Any) -> str:
    role = message.get("role", UNDEFINED) if isinstance(message, dict) else UNDEFINED
    return role if isinstance(role, str) else js_string(role)


def _eligible(rule: SelectedRule, n: int, roles: list[str]) -> list[int]:
    """A4's message selection among ``n`` messages: role, depth window, then the last ``maxMessages``
    (``roles``: one per message, read once per call site, as a rule never changes a role)."""
    lo = 0 if rule.max_depth is None else max(0, n - 1 - rule.max_depth)
    hi = n if rule.min_depth is None else n - rule.min_depth
    if rule.roles is None:
        indexes = list(range(lo, hi))
    else:
        allowed = rule.roles
        indexes = [i for i in range(lo, hi) if roles[i] in allowed]
    if rule.max_messages is not None and len(indexes) > rule.max_messages:
        indexes = indexes[len(indexes) - rule.max_messages :]
    return indexes


class _Texts:
    """The text segments (A5.2a) of one call site's messages, kept for all its rules.

    Segments are held flat, in message order, each with its message index (``owner``) and its part
    index (``part``, -1 for a string ``content``), so a rule finds the segments it may match with one
    C-level pass over the list (:meth:`JSPattern.candidates`) instead of a Python call per message.
    Lower-cased copies (for ``i`` rules) and ``str.isascii`` flags are computed the first time a rule
    needs them and then kept per segment: a rule that changes a segment updates that segment only
    (:meth:`apply`), never the others. A rule never adds or removes a segment (it replaces texts)."""

    __slots__ = ("_ascii", "_lowered", "owner", "part", "texts")

    def __init__(self, messages: list[Any]) -> None:
        # the three lists filled through locals, without a method call per segment (one per call site)
        texts: list[str] = []
        owner: list[int] = []
        parts: list[int] = []
        self._lowered: list[str] | None = None
        self._ascii: list[bool] | None = None
        for i, message in enumerate(messages):
            if not isinstance(message, dict):
                continue
            content = message.get("content")
            if isinstance(content, str):
                texts.append(content)
                owner.append(i)
                parts.append(-1)
            elif isinstance(content, list):
                for j, part in enumerate(content):
                    if isinstance(part, dict) and part.get("type") == "text":
                        text = part.get("text")
                        if isinstance(text, str):
                            texts.append(text)
                            owner.append(i)
                            parts.append(j)
        self.texts = texts
        self.owner = owner
        self.part = parts

    def lowered(self) -> list[str]:
        if self._lowered is None:
            self._lowered = [t.lower() for t in self.texts]
        return self._lowered

    def ascii_flags(self) -> list[bool]:
        if self._ascii is None:
            self._ascii = [t.isascii() for t in self.texts]
        return self._ascii

    def candidates(self, rule: SelectedRule, n: int, roles: list[str]) -> list[int] | range:
        """The segments ``rule`` runs on, in order: of its eligible messages (``n`` messages,
        :func:`_eligible`), those its pattern's prefilter does not rule out (``JSPattern.may_match``)."""
        found = rule.pattern.candidates(self.texts, self.lowered, self.ascii_flags)
        segments: list[int] | range = range(len(self.texts)) if found is None else found
        if rule.roles is None and rule.min_depth is None and rule.max_depth is None and rule.max_messages is None:
            return segments  # every message is eligible
        allowed = set(_eligible(rule, n, roles))
        owner = self.owner
        return [k for k in segments if owner[k] in allowed]

    def kept_lowered(self) -> list[str] | None:
        """The lower-cased copies, when they are kept (a case-insensitive rule ran): a search under ``i``
        that starts at its run's next place reads them instead of lowering the text again."""
        return self._lowered

    def apply(self, messages: list[Any], edits: list[tuple[int, str]]) -> list[Any]:
        """``messages`` with the segments ``edits`` names (ascending) replaced: a new list, a new dict for
        each changed message (and a new ``content`` list and part dict for a part), the rest shared."""
        current = list(messages)
        copied = -1  # the message whose content list was copied last (edits are in segment order)
        content: list[Any] = []
        for k, new_text in edits:
            i, j = self.owner[k], self.part[k]
            if j < 0:
                current[i] = {**messages[i], "content": new_text}
            else:
                if copied != i:
                    content = list(messages[i]["content"])
                    current[i] = {**messages[i], "content": content}
                    copied = i
                content[j] = {**content[j], "text": new_text}
            self.texts[k] = new_text
            if self._lowered is not None:
                self._lowered[k] = new_text.lower()
            if self._ascii is not None:
                self._ascii[k] = new_text.isascii()
        return current


def _run_rules(
    rules: list[SelectedRule], messages: list[Any], diagnostics: list[Diagnostic], label: str, budget: RegexBudget
) -> list[Any]:
    """The rules of one call site over ``messages``, in rule order; each rule's statistics appended.

    Each segment a rule runs on is :func:`_transform` written out here (same budget checks, clock
    readings and exceptions, in the same order): on the small inputs of a usual compile the calls per
    segment were much of the pass's time (docs/performance-log.md, *Stop 27*). A rule whose pattern is one
    literal text and whose template holds no ``$`` is replaced with ``str.count``
    and ``str.replace`` (``replace_literal``), as ``transform_prefiltered`` would."""
    roles = [_role_of(m) for m in messages] if any(r.roles is not None for r in rules) else []
    texts = _Texts(messages)
    n = len(messages)
    engine = _ENGINE or _engine()
    transform = engine.transform_prefiltered
    replace_literal = engine.replace_literal
    timeout_error = engine.JSRegexTimeout
    for rule in rules:
        total = changed = 0
        if budget.spent >= budget.seconds:  # ``exhausted()``: skipped as a whole, even with nothing to match
            _over_budget(diagnostics, rule, label, budget)
            continue
        # the rule's whole wall time is charged (its searches charge themselves as they go, so a
        # search never waits past the budget; the rest, prefilters and copies, is added at the end)
        started, spent = _clock(), budget.spent
        # ``skip`` instead of ``continue`` inside the try: mypyc cannot compile a continue that
        # crosses a finally (the opt-in compiled build lists this module)
        skip = False
        edits: list[tuple[int, str]] = []
        current = messages
        try:
            segments = texts.texts
            found = texts.candidates(rule, n, roles)
            lowered = texts._lowered  # ``kept_lowered()``
            pattern = rule.pattern
            # a literal pattern, a template without "$", no maxChars: ``replace_literal``'s case
            literal = rule.max_chars is None and pattern.literal is not None and "$" not in rule.replace
            replace = rule.replace
            per_call = budget.per_call
            for k in found:
                text = segments[k]
                remaining = budget.seconds - budget.spent
                if remaining <= 0:
                    raise _OverBudget
                timeout = min(per_call, remaining)
                start = _clock()
                try:
                    if literal:
                        new_text, count = replace_literal(pattern, text, replace)
                    else:
                        new_text, count = transform(
                            pattern,
                            text,
                            replace,
                            trim_strings=rule.trim_strings,
                            max_chars=rule.max_chars,
                            timeout=timeout,
                            lowered=None if lowered is None else lowered[k],
                        )
                except timeout_error as exc:
                    raise (_OverBudget if timeout < per_call else _Timeout) from exc
                finally:
                    budget.spent += _clock() - start
                total += count
                if new_text != text:
                    changed += 1
                    edits.append((k, new_text))
            if edits:  # inside the timed part: the copies are the rule's time too
                current = texts.apply(messages, edits)
        except _Timeout:
            _timed_out(diagnostics, rule, label, budget)
            skip = True
        except _OverBudget:
            _over_budget(diagnostics, rule, label, budget)
            skip = True
        finally:
            budget.spent = max(budget.spent, spent + _clock() - started)
        if skip:
            continue
        if total > 0:
            _stat(diagnostics, rule, total, changed, label)
        messages = current
    return messages


def apply_to_messages(
    stack: Any,
    messages: list[Any],
    stage: Stage,
    diagnostics: list[Diagnostic],
    budget: RegexBudget | None = None,
    selections: RuleSelections | None = None,
) -> list[Any]:
    """A5.2: outgoing rules of ``stage`` targeting ``messages``; the same list back when nothing changed.

    ``budget``: the compile's :class:`RegexBudget` (a fresh one when omitted); ``selections`` as for
    :func:`apply_to_system`.
    """
    if not _rules_of(stack):  # as apply_to_system: nothing to select
        return messages
    budget = budget or RegexBudget()
    rules = _rules_for(stack, stage, "messages", "outgoing", diagnostics, budget, selections)
    if not rules:
        return messages
    return _run_rules(rules, messages, diagnostics, f"{stage}/messages", budget)


def finalize_message(
    stack: Any, message: Any, budget: RegexBudget | None = None, selections: RuleSelections | None = None
) -> tuple[Any | None, list[Diagnostic]]:
    """A7 / §16.5: one finished message through the finalize rules, with its own diagnostics list.

    Returns ``(replacement or None, diagnostics)``.  ``budget``: shared by every finalized message
    of one report (a fresh one when omitted); ``selections`` as for :func:`apply_to_system`.
    """
    diagnostics: list[Diagnostic] = []
    role = message.get("role", UNDEFINED) if isinstance(message, dict) else UNDEFINED
    if (role if isinstance(role, str) else js_string(role)) != "assistant":
        return None, diagnostics
    budget = budget or RegexBudget()
    rules = _rules_for(stack, "compiled", "messages", "finalize", diagnostics, budget, selections)
    result = _run_rules(rules, [message], diagnostics, "finalize/messages", budget)[0] if rules else message
    if result is message:
        return None, diagnostics
    diagnostics.append(Diagnostic("warning", FINALIZE_WARNING, codes.REGEX_FINALIZE_REPLACED))
    return result, diagnostics
