"""Tool and skill policy (compile-core.md §5)."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.compile.passes.policy import apply_policy, matches_pattern, policy_active, selected_tools
from forgec.model.runtime import Runtime

NAMES = ["read", "bash", "edit", "write", "browser-search", "browser-danger", "review", "read"]


@pytest.mark.parametrize(
    ("policy", "active"),
    [
        (None, False),
        ({}, False),
        ({"allow": ["*"]}, False),
        ({"allow": ["*", "*"]}, False),
        ({"allow": ["*", "x"]}, True),
        ({"allow": []}, False),
        ({"allow": [], "deny": ["x"]}, True),
        ({"deny": []}, False),
        ({"deny": ["*"]}, True),
        ({"allow": "read"}, False),
        ("read", False),
        (["read"], False),
    ],
)
def test_policy_active(policy: Any, active: bool) -> None:
    assert policy_active(policy) is active


def test_allow_keeps_order_and_duplicates() -> None:
    assert apply_policy({"allow": ["review", "browser-*"]}, NAMES) == [
        "browser-search",
        "browser-danger",
        "review",
    ]
    assert apply_policy({"allow": ["read"]}, NAMES) == ["read", "read"]


def test_allow_wins_over_deny() -> None:
    assert apply_policy({"allow": ["read", "bash"], "deny": ["bash"]}, NAMES) == ["read", "bash", "read"]


def test_allow_star_with_other_pattern_lets_everything_through() -> None:
    assert apply_policy({"allow": ["*", "x"]}, NAMES) == NAMES


def test_empty_allow_falls_back_to_deny() -> None:
    assert apply_policy({"allow": [], "deny": ["b*", "w*"]}, NAMES) == [
        "read", "edit", "review", "read",
    ]  # fmt: skip


def test_inactive_policy_returns_a_copy() -> None:
    out = apply_policy(None, NAMES)
    assert out == NAMES and out is not NAMES


@pytest.mark.parametrize(
    ("pattern", "name", "match"),
    [
        ("*", "anything\nat all", True),
        ("read", "read", True),
        ("read", "Read", False),
        ("read", "read\n", False),
        ("re*", "read", True),
        ("re*", "re", True),
        ("*it*", "edit", True),
        ("*it*", "write", True),
        ("re*", "re\nad", False),
        ("re*", "re\u2028ad", False),
        ("re*", "read\n", False),
        ("a*b", "a\rb", False),
        ("rea?", "read", False),
        ("rea?", "rea?", True),
        ("a.c*", "abc", False),
        ("a.c*", "a.cd", True),
        ("(x)*", "(x)yz", True),
        ("[ab]*", "a", False),
        ("*search", "browser-search", True),
        ("release.notes", "release-notes", False),
        (7, "7", False),
    ],
)
def test_pattern_matching(pattern: Any, name: str, match: bool) -> None:
    assert matches_pattern(pattern, name) is match


def test_selected_tools() -> None:
    runtime = Runtime(options={"selectedTools": ["read", "bash", "edit"]})
    assert selected_tools({"tools": {"deny": ["b*"]}}, runtime) == ["read", "edit"]
    assert selected_tools({}, runtime) == ["read", "bash", "edit"]
    assert selected_tools({"tools": {"allow": ["edit"]}}, Runtime()) == []  # absent means []
