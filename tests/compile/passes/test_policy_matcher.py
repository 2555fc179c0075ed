"""``apply_policy`` (literal patterns by set membership) against its plain definition, on random input.

The plain definition is compile-core.md §5 as ``policy.py`` first wrote it: ``policy_active``, then an
effective allow list's ``any(matches_pattern(p, n) for p in allow)``, else the deny list's negation.
"""

from __future__ import annotations

import random
from typing import Any

from forgec.compile.passes.policy import (
    _allow_effective,
    _patterns,
    apply_policy,
    matches_pattern,
    policy_active,
)

_PIECES = ["read", "bash", "edit", "*", "re", "ad", "a", "", "?", "b*h", "\n"]


def _plain(policy: Any, names: list[Any]) -> list[Any]:
    if not policy_active(policy):
        return list(names)
    if _allow_effective(policy):
        allow = _patterns(policy, "allow")
        return [n for n in names if any(matches_pattern(p, n) for p in allow)]
    deny = _patterns(policy, "deny")
    return [n for n in names if not any(matches_pattern(p, n) for p in deny)]


def _pattern(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.08:
        return rng.choice([None, 7, 1.5, ["read"], {"x": 1}, True])
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 3)))


def _name(rng: random.Random) -> Any:
    if rng.random() < 0.1:
        return rng.choice([None, 7, True, ["read"], {"a": 1}, "*"])
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 3)))


def _policy(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([None, "read", ["read"], 3])
    policy: dict[str, Any] = {}
    for key in ("allow", "deny"):
        kind = rng.random()
        if kind < 0.4:
            policy[key] = [_pattern(rng) for _ in range(rng.randint(0, 4))]
        elif kind < 0.5:
            policy[key] = rng.choice(["read", None, {"x": 1}])
    return policy


def test_apply_policy_matches_its_plain_definition() -> None:
    rng = random.Random(14)
    for _ in range(4000):
        policy = _policy(rng)
        names = [_name(rng) for _ in range(rng.randint(0, 6))]
        assert apply_policy(policy, names) == _plain(policy, names), (policy, names)
