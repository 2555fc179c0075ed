"""The loader's checks of ``stack.regex`` (compile-core.md §10.6), pi-forge's order and texts.

These run at load time only; at compile time pi-forge reads rules leniently
(:mod:`forgec.compile.passes.regex`).  Whether a pattern compiles is decided by the JavaScript regex engine
(:mod:`forgec.js.regex`, its V8-parser port only); while that engine is unavailable the check falls
back to the ``regex`` module, which agrees on the common cases but not on every one.
"""

from __future__ import annotations

import functools
import re
from typing import Any, TypeGuard

from forgec.diagnostics import Diagnostic, Pointer
from forgec.js.values import JS_WHITESPACE, is_integral_number, is_string_array, js_trim
from forgec.rules import regex_config as codes

__all__ = ["SUPPORTED_FLAGS", "check_regex_config", "compile_error"]

SUPPORTED_FLAGS = "gimsu"
_ROLES_OF_TARGETS = ("system", "messages")
_EFFECTS = ("outgoing", "display", "both", "finalize")


@functools.cache
def _st_match() -> re.Pattern[str]:
    r"""``/\{\{\s*match\s*\}\}/i`` without Unicode case folding (JavaScript ``i`` without ``u``).

    Compiled on first use: most replacements hold no ``{{`` and never need it."""
    ws = "[" + re.escape(JS_WHITESPACE) + "]*"
    return re.compile(r"\{\{" + ws + "[mM][aA][tT][cC][hH]" + ws + r"\}\}")


def _positive(value: Any) -> TypeGuard[int | float]:
    return is_integral_number(value) and value > 0


def _non_negative(value: Any) -> TypeGuard[int | float]:
    return is_integral_number(value) and value >= 0


def compile_error(pattern: str, flags: str) -> str | None:
    """V8's ``Invalid regular expression: /…/…: reason`` for a pattern, or ``None`` if it compiles.

    Only V8's parser (ported in :mod:`forgec.js.regex.syntax`) decides this, as in pi-forge's loader;
    the pattern is not emitted for the ``regex`` module here, so a cold ``forgec validate`` does not
    import the matcher.  ``flags`` have been checked by the caller (supported, no repeats).
    """
    from forgec.js.regex.syntax import syntax_error

    try:
        return syntax_error(pattern, flags)
    except (RecursionError, MemoryError, ValueError) as error:
        return f"Invalid regular expression: /{pattern}/{_ordered(flags)}: {error}"


def _ordered(flags: str) -> str:
    return "".join(f for f in SUPPORTED_FLAGS if f in flags)


def check_regex_config(stack: dict[str, Any]) -> list[Diagnostic]:
    """The §10.6 findings for ``stack["regex"]`` (the raw object kept by normalisation), in order."""
    diagnostics: list[Diagnostic] = []
    _check_regex_config(stack, diagnostics)
    return diagnostics


def _check_regex_config(stack: dict[str, Any], diagnostics: list[Diagnostic]) -> None:
    if "regex" not in stack:
        return
    regex = stack["regex"]
    if not isinstance(regex, dict):
        diagnostics.append(
            Diagnostic("warning", "regex must be an object when provided.", codes.REGEX_NOT_OBJECT, pointer=("regex",))
        )
        return
    if "schemaVersion" in regex and not (
        is_integral_number(regex["schemaVersion"]) and regex["schemaVersion"] == 1
    ):
        diagnostics.append(
            Diagnostic(
                "warning",
                "Missing or unsupported regex.schemaVersion; assuming 1.",
                codes.REGEX_SCHEMA_VERSION,
                pointer=("regex", "schemaVersion"),
            )
        )
    if "rules" not in regex:
        return
    rules = regex["rules"]
    if not isinstance(rules, list):
        diagnostics.append(
            Diagnostic(
                "error",
                "regex.rules must be an array when provided.",
                codes.REGEX_RULES_NOT_ARRAY,
                pointer=("regex", "rules"),
            )
        )
        return
    seen: set[str] = set()
    for index, rule in enumerate(rules):
        _check_rule(rule, index, seen, diagnostics)


def _check_rule(rule: Any, index: int, seen: set[str], diagnostics: list[Diagnostic]) -> None:
    base: Pointer = ("regex", "rules", index)
    pos = f"regex rule {index + 1}"

    def add(level: str, message: str, code: str, field: str | None = None, sub: int | None = None) -> None:
        pointer = base if field is None else (*base, field) if sub is None else (*base, field, sub)
        diagnostics.append(Diagnostic(level, message, code, pointer=pointer))  # type: ignore[arg-type]

    if not isinstance(rule, dict):
        add("error", f"{pos} must be an object.", codes.REGEX_RULE_NOT_OBJECT)
        return
    raw_id = rule.get("id")
    rule_id = js_trim(raw_id) if isinstance(raw_id, str) else ""
    label = f"Regex rule {rule_id}" if rule_id else pos
    if not rule_id:
        add("error", f"{pos} must have a non-empty id.", codes.REGEX_RULE_ID_MISSING, "id" if "id" in rule else None)
    elif rule_id in seen:
        add("error", f"Duplicate regex rule id: {rule_id}.", codes.REGEX_RULE_ID_DUPLICATE, "id")
    else:
        seen.add(rule_id)

    if "enabled" in rule and not isinstance(rule["enabled"], bool):
        add("warning", f"{label} enabled must be a boolean when provided.", codes.REGEX_RULE_ENABLED_TYPE, "enabled")
    stage = rule.get("stage")
    if stage not in ("history", "compiled") or not isinstance(stage, str):
        add(
            "error",
            f'{label} stage must be "history" or "compiled".',
            codes.REGEX_RULE_STAGE_INVALID,
            "stage" if "stage" in rule else None,
        )
    effect = rule.get("effect")
    if "effect" in rule:
        if not isinstance(effect, str) or effect not in _EFFECTS:
            add(
                "error",
                f'{label} effect must be "outgoing", "display", "both", or "finalize".',
                codes.REGEX_RULE_EFFECT_INVALID,
                "effect",
            )
        elif effect == "display":
            add(
                "warning",
                f'{label} effect "display" is not a runtime effect in pi-forge yet and will be ignored. '
                'Use "finalize" only when destructive transcript cleanup is intended.',
                codes.REGEX_EFFECT_DISPLAY,
                "effect",
            )
        elif effect == "both":
            add(
                "warning",
                f'{label} effect "both" is not implemented and will be ignored; use separate outgoing and '
                "finalize rules.",
                codes.REGEX_EFFECT_BOTH,
                "effect",
            )
        elif effect == "finalize":
            add(
                "warning",
                f'{label} effect "finalize" rewrites finalized assistant messages and replaces the original '
                "model output in the stored transcript.",
                codes.REGEX_EFFECT_FINALIZE,
                "effect",
            )
    finalize = effect == "finalize"
    if finalize and stage != "compiled":
        add("error", f'{label} effect "finalize" requires stage "compiled".', codes.REGEX_FINALIZE_STAGE, "effect")

    pattern = rule.get("pattern")
    if not isinstance(pattern, str) or pattern == "":
        add(
            "error",
            f"{label} pattern must be a non-empty string.",
            codes.REGEX_PATTERN_MISSING,
            "pattern" if "pattern" in rule else None,
        )
    elif "flags" in rule and not isinstance(rule["flags"], str):
        add("error", f"{label} flags must be a string when provided.", codes.REGEX_FLAGS_TYPE, "flags")
    else:
        flags = rule.get("flags", "")
        problem = None
        used: set[str] = set()
        for char in flags:
            if char not in SUPPORTED_FLAGS:
                problem = (f"{label} has unsupported regex flag: {char}.", codes.REGEX_FLAG_UNSUPPORTED)
                break
            if char in used:
                problem = (f"{label} has duplicate regex flag: {char}.", codes.REGEX_FLAG_DUPLICATE)
                break
            used.add(char)
        if problem is not None:
            add("error", problem[0], problem[1], "flags")
        else:
            error = compile_error(pattern, flags)
            if error is not None:
                add("error", f"{label} pattern failed to compile: {error}", codes.REGEX_PATTERN_INVALID, "pattern")

    if "replace" in rule:
        replace = rule["replace"]
        if not isinstance(replace, str):
            add("error", f"{label} replace must be a string when provided.", codes.REGEX_REPLACE_TYPE, "replace")
        elif "{{" in replace and _st_match().search(replace):
            add(
                "warning",
                f"{label} replacement contains SillyTavern {{{{match}}}}; use JavaScript $& or re-import the "
                "SillyTavern preset to convert it.",
                codes.REGEX_SILLYTAVERN_MATCH,
                "replace",
            )
    if "trimStrings" in rule and not is_string_array(rule["trimStrings"]):
        add(
            "error",
            f"{label} trimStrings must be an array of strings when provided.",
            codes.REGEX_TRIM_STRINGS_TYPE,
            "trimStrings",
        )
    roles = rule.get("roles")
    if "roles" in rule and not is_string_array(roles):
        add("error", f"{label} roles must be an array of strings when provided.", codes.REGEX_ROLES_TYPE, "roles")
    if "targets" in rule:
        targets = rule["targets"]
        if not is_string_array(targets):
            add(
                "error",
                f"{label} targets must be an array of strings when provided.",
                codes.REGEX_TARGETS_TYPE,
                "targets",
            )
        else:
            for i, target in enumerate(targets):
                if target not in _ROLES_OF_TARGETS:
                    add(
                        "error",
                        f'{label} target must be "system" or "messages": {target}.',
                        codes.REGEX_TARGET_INVALID,
                        "targets",
                        i,
                    )
                elif finalize and target != "messages":
                    add(
                        "error",
                        f'{label} effect "finalize" only supports target "messages": {target}.',
                        codes.REGEX_FINALIZE_TARGET,
                        "targets",
                        i,
                    )
    if finalize and is_string_array(roles) and "assistant" not in roles:
        add(
            "warning",
            f'{label} effect "finalize" only runs for finalized assistant messages, but roles does not '
            'include "assistant".',
            codes.REGEX_FINALIZE_ROLES,
            "roles",
        )
    for key in ("maxMessages", "maxChars"):
        if key in rule and not _positive(rule[key]):
            add("error", f"{label} {key} must be a positive integer when provided.", codes.REGEX_LIMIT_INVALID, key)
    for key in ("minDepth", "maxDepth"):
        if key in rule and not _non_negative(rule[key]):
            add(
                "error",
                f"{label} {key} must be a non-negative integer when provided.",
                codes.REGEX_DEPTH_INVALID,
                key,
            )
    min_depth, max_depth = rule.get("minDepth"), rule.get("maxDepth")
    if _non_negative(min_depth) and _non_negative(max_depth) and max_depth < min_depth:
        add(
            "error",
            f"{label} maxDepth must be greater than or equal to minDepth.",
            codes.REGEX_DEPTH_ORDER,
            "maxDepth",
        )
