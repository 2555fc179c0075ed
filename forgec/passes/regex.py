"""Regex rules at compile time and at finalize (import-regex.md A4–A7, compile-core.md §9).

This module decides *which* rules run, *on what* (the system string, the text segments of eligible
messages) and *what is reported*; the matching and the JavaScript replacement semantics live in
:mod:`forgec.jsregex`.  Rules are read leniently, exactly as pi-forge executes them: invalid optional
fields are ignored, invalid required ones skip the rule silently, and only a pattern JavaScript
rejects produces an error, repeated at every call site (A4).

A rule that exceeds the time limit is skipped at that call site with a forgec error: the reference
would hang there, so no compatible output exists, and forgec must never hang.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from forgec.diagnostics import Diagnostic
from forgec.jscompat import UNDEFINED, is_integral_number, js_string, js_trim
from forgec.rules import compile as codes

__all__ = [
    "FINALIZE_WARNING",
    "REGEX_TIMEOUT_SECONDS",
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
    pattern: Any  # forgec.jsregex.JSPattern
    replace: str
    trim_strings: list[str] | None
    roles: frozenset[str] | None
    max_messages: int | None
    max_chars: int | None
    min_depth: int | None
    max_depth: int | None


_COMPILED: dict[tuple[str, str], Any] = {}


def _compile(pattern: str, flags: str) -> Any:
    """Compile once per process; a failure is cached as the exception (it is re-reported per call)."""
    key = (pattern, flags)
    cached = _COMPILED.get(key)
    if cached is None:
        from forgec.jsregex import JSRegexError, compile_js

        try:
            cached = compile_js(pattern, flags)
        except JSRegexError as exc:
            cached = exc
        except (RecursionError, MemoryError, ValueError) as exc:  # never let a hostile pattern escape
            cached = exc
        if len(_COMPILED) > 4096:
            _COMPILED.clear()
        _COMPILED[key] = cached
    return cached


def _flags_ok(flags: str) -> bool:
    return len(set(flags)) == len(flags) and all(ch in _VALID_FLAGS for ch in flags)


def _positive(value: Any) -> int | None:
    return int(value) if is_integral_number(value) and value > 0 else None


def _non_negative(value: Any) -> int | None:
    return int(value) if is_integral_number(value) and value >= 0 else None


def _string_list(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _rules_of(stack: Any) -> list[Any]:
    regex = stack.get("regex") if isinstance(stack, dict) else None
    rules = regex.get("rules") if isinstance(regex, dict) else None
    return rules if isinstance(rules, list) else []


def select_rules(
    stack: Any, stage: Stage, target: Target, effect: Effect, diagnostics: list[Diagnostic]
) -> list[SelectedRule]:
    """A4: the rules that run at one call site, compiled, in rule order; compile errors appended."""
    selected: list[SelectedRule] = []
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
        if not isinstance(raw_id, str) or not js_trim(raw_id):
            continue
        pattern = rule.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            continue
        raw_flags = rule.get("flags")
        flags = raw_flags if isinstance(raw_flags, str) else ""
        if not _flags_ok(flags):
            continue
        compiled = _compile(pattern, flags)
        if isinstance(compiled, Exception):
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"Regex rule {raw_id} failed to compile: {compiled}",
                    codes.REGEX_RUNTIME_COMPILE,
                    pointer=("regex", "rules", index, "pattern"),
                )
            )
            continue
        replace = rule.get("replace")
        trim_strings = _string_list(rule.get("trimStrings"))
        roles = _string_list(rule.get("roles"))
        selected.append(
            SelectedRule(
                index=index,
                id=js_trim(raw_id),
                pattern=compiled,
                replace=replace if isinstance(replace, str) else "",
                trim_strings=trim_strings or None,
                roles=frozenset(roles) if roles is not None else None,
                max_messages=_positive(rule.get("maxMessages")),
                max_chars=_positive(rule.get("maxChars")),
                min_depth=_non_negative(rule.get("minDepth")),
                max_depth=_non_negative(rule.get("maxDepth")),
            )
        )
    return selected


class _Timeout(Exception):
    pass


def _transform(rule: SelectedRule, text: str) -> tuple[str, int]:
    from forgec.jsregex import JSRegexTimeout, transform_string

    try:
        return transform_string(
            rule.pattern,
            text,
            rule.replace,
            trim_strings=rule.trim_strings,
            max_chars=rule.max_chars,
            timeout=REGEX_TIMEOUT_SECONDS,
        )
    except JSRegexTimeout as exc:
        raise _Timeout from exc


def _stat(diagnostics: list[Diagnostic], rule: SelectedRule, matches: int, changed: int, label: str) -> None:
    if matches > 0:
        diagnostics.append(
            Diagnostic(
                "info",
                f"Regex rule {rule.id} matched {matches} time(s) and changed {changed} text segment(s) in {label}.",
                codes.REGEX_STATISTICS,
                pointer=("regex", "rules", rule.index),
            )
        )


def _timed_out(diagnostics: list[Diagnostic], rule: SelectedRule, label: str) -> None:
    diagnostics.append(
        Diagnostic(
            "error",
            f"Regex rule {rule.id} exceeded the {REGEX_TIMEOUT_SECONDS:g}s time limit in {label} and was skipped.",
            codes.REGEX_TIMEOUT,
            pointer=("regex", "rules", rule.index, "pattern"),
        )
    )


def apply_to_system(stack: Any, text: str, diagnostics: list[Diagnostic]) -> str:
    """A5.1: compiled-stage rules targeting ``system`` on the whole system prompt."""
    rules = select_rules(stack, "compiled", "system", "outgoing", diagnostics)
    for rule in rules:
        try:
            new_text, matches = _transform(rule, text)
        except _Timeout:
            _timed_out(diagnostics, rule, "compiled/system")
            continue
        changed = 1 if new_text != text else 0
        _stat(diagnostics, rule, matches, changed, "compiled/system")
        text = new_text
    return text


def _eligible(rule: SelectedRule, messages: list[Any]) -> list[int]:
    n = len(messages)
    indexes: list[int] = []
    for i, message in enumerate(messages):
        if rule.roles is not None:
            role = message.get("role", UNDEFINED) if isinstance(message, dict) else UNDEFINED
            if (role if isinstance(role, str) else js_string(role)) not in rule.roles:
                continue
        depth = n - 1 - i
        if rule.min_depth is not None and depth < rule.min_depth:
            continue
        if rule.max_depth is not None and depth > rule.max_depth:
            continue
        indexes.append(i)
    if rule.max_messages is not None and len(indexes) > rule.max_messages:
        indexes = indexes[len(indexes) - rule.max_messages :]
    return indexes


def _transform_message(rule: SelectedRule, message: Any) -> tuple[Any, int, int]:
    """A5.2a: one message; returns (message or the same object, matches, changed segments)."""
    if not isinstance(message, dict):
        return message, 0, 0
    content = message.get("content")
    if isinstance(content, str):
        new_text, matches = _transform(rule, content)
        if new_text == content:
            return message, matches, 0
        return {**message, "content": new_text}, matches, 1
    if not isinstance(content, list):
        return message, 0, 0
    matches = changed = 0
    new_content: list[Any] | None = None
    for j, part in enumerate(content):
        if not (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)):
            continue
        text = part["text"]
        new_text, count = _transform(rule, text)
        matches += count
        if new_text != text:
            changed += 1
            if new_content is None:
                new_content = list(content)
            new_content[j] = {**part, "text": new_text}
    if new_content is None:
        return message, matches, 0
    return {**message, "content": new_content}, matches, changed


def _run_rules(
    rules: list[SelectedRule], messages: list[Any], diagnostics: list[Diagnostic], label: str
) -> list[Any]:
    for rule in rules:
        current = messages
        total = changed = 0
        try:
            for i in _eligible(rule, messages):
                new_message, count, segs = _transform_message(rule, messages[i])
                total += count
                changed += segs
                if new_message is not messages[i]:
                    if current is messages:
                        current = list(messages)
                    current[i] = new_message
        except _Timeout:
            _timed_out(diagnostics, rule, label)
            continue
        _stat(diagnostics, rule, total, changed, label)
        messages = current
    return messages


def apply_to_messages(
    stack: Any, messages: list[Any], stage: Stage, diagnostics: list[Diagnostic]
) -> list[Any]:
    """A5.2: outgoing rules of ``stage`` targeting ``messages``; the same list back when nothing changed."""
    rules = select_rules(stack, stage, "messages", "outgoing", diagnostics)
    if not rules:
        return messages
    return _run_rules(rules, messages, diagnostics, f"{stage}/messages")


def finalize_message(stack: Any, message: Any) -> tuple[Any | None, list[Diagnostic]]:
    """A7 / §16.5: one finished message through the finalize rules, with its own diagnostics list.

    Returns ``(replacement or None, diagnostics)``.
    """
    diagnostics: list[Diagnostic] = []
    role = message.get("role", UNDEFINED) if isinstance(message, dict) else UNDEFINED
    if (role if isinstance(role, str) else js_string(role)) != "assistant":
        return None, diagnostics
    rules = select_rules(stack, "compiled", "messages", "finalize", diagnostics)
    result = _run_rules(rules, [message], diagnostics, "finalize/messages")[0] if rules else message
    if result is message:
        return None, diagnostics
    diagnostics.append(Diagnostic("warning", FINALIZE_WARNING, codes.REGEX_FINALIZE_REPLACED))
    return result, diagnostics
