"""Resolution against a model catalog (profiles-exec.md §1.9, §6.2, §6.3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forgec.agents.profiles import load_workspace, resolve_profile
from forgec.codecs.catalog import (
    Model,
    ModelAuth,
    catalog_from_models,
    clamp_thinking_level,
    supported_thinking_levels,
)
from forgec.codecs.profile import load_profile_data
from forgec.codecs.stack import load_stack_data

from .profile_helpers import Tree, profile_doc, stack_doc


def pi_model(provider: str, model_id: str, **extra: Any) -> dict[str, Any]:
    """A pi-ai Model object as Pi's registry holds it."""
    return {"id": model_id, "name": model_id, "api": "openai-completions", "provider": provider,
            "baseUrl": "http://localhost.invalid", "reasoning": True, "input": ["text"],
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
            "contextWindow": 128000, "maxTokens": 8192, **extra}  # fmt: skip


PLAIN = Model.from_json(pi_model("p", "plain"))
NO_REASONING = Model.from_json(pi_model("p", "small", reasoning=False))
NO_OFF = Model.from_json(pi_model("p", "always", thinkingLevelMap={"off": None}))
DEEP = Model.from_json(pi_model("p", "deep", thinkingLevelMap={"xhigh": "extra-high"}))


@pytest.mark.parametrize(
    ("model", "level", "clamped"),
    [
        (PLAIN, "xhigh", "high"),
        (PLAIN, "max", "high"),
        (PLAIN, "minimal", "minimal"),
        (NO_REASONING, "high", "off"),
        (NO_REASONING, "off", "off"),
        (NO_OFF, "off", "minimal"),
        (DEEP, "xhigh", "xhigh"),
        (DEEP, "max", "xhigh"),
    ],
)
def test_the_clamp_examples_of_section_1_9(model: Model, level: str, clamped: str) -> None:
    assert clamp_thinking_level(model, level) == clamped


def test_supported_levels() -> None:
    assert supported_thinking_levels(PLAIN) == ["off", "minimal", "low", "medium", "high"]
    assert supported_thinking_levels(NO_REASONING) == ["off"]
    assert supported_thinking_levels(DEEP)[-1] == "xhigh"


def loaded(**extra: Any) -> Any:
    return load_profile_data(profile_doc("me", model={"provider": "p", "id": "plain"}, **extra), "me.json")


def test_a_clamp_is_an_error_that_keeps_the_effective_level() -> None:
    resolved = resolve_profile(loaded(thinkingLevel="xhigh"), stacks=[], models=[PLAIN])
    assert [(d.field, d.message) for d in resolved.diagnostics] == [
        ("thinkingLevel", "Model p/plain does not support thinking level xhigh; Pi would clamp it to high.")
    ]
    assert resolved.effective_thinking_level == "high" and not resolved.usable and resolved.model is PLAIN


def test_unknown_model_keeps_the_level_and_is_unusable() -> None:
    resolved = resolve_profile(loaded(thinkingLevel="max"), stacks=[], models=[NO_REASONING])
    assert resolved.rendered == "ERROR: model: Unknown model: p/plain"
    assert resolved.effective_thinking_level == "max" and resolved.model is None and not resolved.usable
    assert (
        resolve_profile(loaded(), stacks=[]).diagnostics[0].message == "Unknown model: p/plain"
    )  # no catalog


def test_model_lookup_is_exact() -> None:
    doc = profile_doc("me", model={"provider": "P", "id": "plain"})
    assert resolve_profile(load_profile_data(doc, "me.json"), stacks=[], models=[PLAIN]).model is None


def test_authentication_is_checked_only_when_a_list_is_given() -> None:
    resolved = resolve_profile(loaded(), stacks=[], models=[PLAIN], available=[])
    assert resolved.rendered == "ERROR: model: Model p/plain has no configured authentication."
    assert resolve_profile(loaded(), stacks=[], models=[PLAIN], available=[("p", "plain")]).usable
    assert resolve_profile(loaded(), stacks=[], models=[PLAIN], available=[PLAIN]).usable


def test_authentication_is_the_presence_of_an_environment_variable() -> None:
    catalog = catalog_from_models(
        [
            pi_model("p", "plain", auth={"env": "P_KEY"}),
            pi_model("p", "local", auth={}),
            pi_model("p", "none"),
        ]
    )
    assert [m.id for m in catalog.authenticated({"P_KEY": "secret"})] == ["plain", "local"]
    assert [m.id for m in catalog.authenticated({"P_KEY": ""})] == ["local"]
    assert catalog.find("p", "plain") is not None and catalog.find("p", "plain").auth == ModelAuth("P_KEY")  # type: ignore[union-attr]
    resolved = resolve_profile(loaded(), stacks=[], models=catalog, available=catalog.authenticated({}))
    assert [d.message for d in resolved.diagnostics] == ["Model p/plain has no configured authentication."]


def test_the_first_of_two_same_models_is_found() -> None:
    catalog = catalog_from_models([pi_model("p", "m", name="first"), pi_model("p", "m", name="second")])
    found = catalog.find("p", "m")
    assert found is not None and found.name == "first"


def test_the_stacks_findings_are_copied_with_their_level() -> None:
    stack = load_stack_data(
        {"schemaVersion": 1, "id": "noisy", "items": [{"kind": "block", "id": "a", "role": "system", "content": "x"},
                                  {"kind": "block", "id": "a", "content": "no role"}]},
        "noisy.json",
    )  # fmt: skip
    resolved = resolve_profile(loaded(promptStack="noisy"), stacks=[stack], models=[PLAIN])
    assert [(d.level, d.field, d.message) for d in resolved.diagnostics] == [
        ("error", "promptStack", "Prompt stack noisy: Duplicate item id: a"),
        ("warning", "promptStack", "Prompt stack noisy: Enabled block has no role and will be ignored."),
        (
            "warning",
            "promptStack",
            "Prompt stack noisy: No enabled chat-history slot found; Pi chat context will be appended at the end.",
        ),
    ]
    assert resolved.stack is stack and not resolved.usable


def test_allow_patterns_that_match_no_registered_tool_warn() -> None:
    stack = load_stack_data(stack_doc("r", tools={"allow": ["read", "web_*", "*_search", "grep"]}), "r.json")
    resolved = resolve_profile(
        loaded(promptStack="r"), stacks=[stack], models=[PLAIN], tool_names=["read", "bash", "web_fetch"]
    )
    assert [d.message for d in resolved.diagnostics] == [
        'Prompt stack r allows tool pattern "*_search", but it matches no registered tools.',
        'Prompt stack r allows tool pattern "grep", but it matches no registered tools.',
    ]
    assert all(d.level == "warning" for d in resolved.diagnostics) and resolved.usable
    assert resolve_profile(loaded(promptStack="r"), stacks=[stack], models=[PLAIN]).diagnostics == []


def test_a_star_in_the_allow_list_turns_the_check_off() -> None:
    stack = load_stack_data(stack_doc("s", tools={"allow": ["*", "nonexistent"]}), "s.json")
    assert (
        resolve_profile(loaded(promptStack="s"), stacks=[stack], models=[PLAIN], tool_names=[]).diagnostics
        == []
    )


def test_workspace_resolution_and_json(tmp_path: Path) -> None:
    tree = Tree(tmp_path)
    tree.project_profile(
        "me.json", profile_doc("me", model={"provider": "p", "id": "plain"}, promptStack="local")
    )
    tree.project_stack("local.json", stack_doc("local"))
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    (resolved,) = ws.resolve_all(models=[PLAIN])
    assert resolved.to_json() == {
        "profile": "project:me",
        "diagnostics": [],
        "usable": True,
        "model": {"provider": "p", "id": "plain"},
        "effectiveThinkingLevel": "high",
        "promptStack": "project:local",
        "rendered": "No diagnostics.",
    }


def test_resolution_positions_point_into_the_profile_file(tmp_path: Path) -> None:
    from forgec.source import resolve_spans

    tree = Tree(tmp_path)
    tree.project_profile("me.json", '{\n "schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "me",\n'
                                    ' "model": {"provider": "x", "id": "y"},\n "thinkingLevel": "off",\n'
                                    ' "promptStack": "nope"\n}')  # fmt: skip
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    resolved = ws.resolve(ws.profiles[0], models=[PLAIN])
    spans = [
        (d.field, d.span.line) for d in resolve_spans(resolved.diagnostics, ws.profiles[0].document) if d.span
    ]
    assert spans == [("model", 3), ("promptStack", 5)]
