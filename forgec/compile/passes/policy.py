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
    """Filter ``names`` (order and duplicates kept): an effective allow list wins over deny."""
    if not policy_active(policy):
        return list(names)
    if _allow_effective(policy):
        allow = _patterns(policy, "allow")
        return [n for n in names if any(matches_pattern(p, n) for p in allow)]
    deny = _patterns(policy, "deny")
    return [n for n in names if not any(matches_pattern(p, n) for p in deny)]


def selected_tools(stack: dict[str, Any], runtime: Runtime) -> list[Any]:
    """``selectedToolNames``: ``options.selectedTools`` (absent -> ``[]``) after the ``tools`` policy."""
    names = runtime.options.get("selectedTools")
    if not isinstance(names, list):
        names = []
    policy = stack.get("tools") if isinstance(stack, dict) else None
    return apply_policy(policy, names)
