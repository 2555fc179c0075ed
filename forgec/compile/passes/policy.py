"""Tool and skill resource policy (compile-core.md §5).

A stack's ``tools``/``skills`` policy is ``{allow: [...]}`` or ``{deny: [...]}``; patterns are
literal names or ``*`` wildcards.  The tool policy filters ``options.selectedTools`` everywhere the
compiler reads "the selected tools" (slots, ``{{tools}}``, ``{{iftools}}``); the skill policy filters
skill names inside the ``skills`` slot only.  The compiler also runs on raw, non-normalised stacks
(the editor preview), so every read below tolerates values of the wrong type the way pi-forge's
property reads do: a non-object policy or a non-array pattern list is simply "no patterns".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from forgec.js.values import js_string
from forgec.model.runtime import Runtime

__all__ = ["apply_policy", "matches_pattern", "policy_active", "selected_tools"]

#: what ``*`` matches: any run of characters except JavaScript's line terminators
_STAR = "[^\n\r\u2028\u2029]*"


def _patterns(policy: Any, key: str) -> list[Any]:
    if not isinstance(policy, dict):
        return []
    value = policy.get(key)
    return value if isinstance(value, list) else []


def _allow_effective(policy: Any) -> bool:
    """An allow list counts when it has a pattern other than exactly ``*`` (``["*"]`` = no policy)."""
    allow = _patterns(policy, "allow")
    return bool(allow) and any(p != "*" for p in allow)


def policy_active(policy: Any) -> bool:
    """Present, and either an effective allow list or a non-empty deny list."""
    if policy is None or not isinstance(policy, dict):
        return False
    return _allow_effective(policy) or bool(_patterns(policy, "deny"))


@lru_cache(maxsize=512)
def _wildcard(pattern: str) -> re.Pattern[str]:
    return re.compile(_STAR.join(re.escape(piece) for piece in pattern.split("*")))


def matches_pattern(pattern: Any, name: Any) -> bool:
    """Case-sensitive match of one name against one pattern, anchored at both ends.

    ``?`` and every other character except ``*`` are literal.  A non-string pattern (possible only in
    a raw stack) never matches.
    """
    if not isinstance(pattern, str):
        return False
    if pattern == "*":
        return True
    text = name if isinstance(name, str) else js_string(name)
    if "*" not in pattern:
        return isinstance(name, str) and pattern == name
    return _wildcard(pattern).fullmatch(text) is not None


def apply_policy(policy: Any, names: list[Any]) -> list[Any]:
    """Filter ``names`` (order and duplicates kept): an effective allow list wins over deny.

    What :func:`policy_active` and :func:`_allow_effective` decide, read once; each name is then
    tested by :func:`_matcher`'s test of the whole list (slots and macros ask this several times
    per compile)."""
    if not isinstance(policy, dict):
        return list(names)
    allow = _patterns(policy, "allow")
    if allow and any(p != "*" for p in allow):
        matches = _matcher(allow)
        return [n for n in names if matches(n)]
    deny = _patterns(policy, "deny")
    if not deny:
        return list(names)
    matches = _matcher(deny)
    return [n for n in names if not matches(n)]


def _matcher(patterns: list[Any]) -> Callable[[Any], bool]:
    """``lambda name: any(matches_pattern(p, name) for p in patterns)``, with the literal patterns
    in one set (a literal matches only a string equal to it) and only the wildcards tried in turn."""
    if "*" in patterns:  # matches every name (a non-string entry never equals "*")
        return _always
    literals = {p for p in patterns if isinstance(p, str) and "*" not in p}
    wildcards = [p for p in patterns if isinstance(p, str) and "*" in p]

    def matches(name: Any) -> bool:
        if isinstance(name, str) and name in literals:
            return True
        return any(matches_pattern(p, name) for p in wildcards)

    return matches


def _always(name: Any) -> bool:
    return True


def selected_tools(stack: dict[str, Any], runtime: Runtime) -> list[Any]:
    """``selectedToolNames``: ``options.selectedTools`` (absent -> ``[]``) after the ``tools`` policy."""
    names = runtime.options.get("selectedTools")
    if not isinstance(names, list):
        names = []
    policy = stack.get("tools") if isinstance(stack, dict) else None
    return apply_policy(policy, names)
