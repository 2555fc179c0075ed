"""Both scopes read together (profiles-exec.md §1.1, §1.6, §1.8; compile-core.md §10.8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.agents.profiles import (
    AUTO_ACTIVATION_CONFLICT_NOTICE,
    choose_auto_activate_stack,
    load_workspace,
    stack_key,
)

from .profile_helpers import Tree, profile_doc, stack_doc


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def test_global_first_then_project(tree: Tree) -> None:
    tree.project_profile("reviewer.json", profile_doc("reviewer", name="Project reviewer"))
    tree.global_profile("reviewer.json", profile_doc("reviewer", name="Global reviewer"))
    tree.global_profile("writer.json", profile_doc("writer"))
    tree.global_stack("shared.json", stack_doc("shared"))
    tree.project_stack("local.json", stack_doc("local"))
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    assert [str(p.key) for p in ws.profiles] == ["global:reviewer", "global:writer", "project:reviewer"]
    assert [str(stack_key(s)) for s in ws.stacks] == ["global:shared", "project:local"]
    assert [str(p.key) for p in ws.effective_profiles] == ["project:reviewer", "global:writer"]
    assert [str(stack_key(s)) for s in ws.effective_stacks] == ["global:shared", "project:local"]
    found = ws.find_profile("reviewer")
    assert found is not None and found.profile["name"] == "Project reviewer"
    assert ws.find_profile("global:reviewer") is ws.profiles[0]
    assert ws.find_profile("project:writer") is None
    assert ws.find_stack("shared") is ws.stacks[0] and ws.find_stack("project:shared") is None
    assert ws.profile_by_key("project:reviewer") is ws.profiles[2] and ws.profile_by_key("reviewer") is None


def test_an_untrusted_project_contributes_nothing(tree: Tree) -> None:
    tree.project_profile("reviewer.json", profile_doc("reviewer"))
    tree.project_stack("only.json", stack_doc("only"))
    tree.global_profile("assistant.json", profile_doc("assistant", promptStack="only"))
    ws = load_workspace(tree.project, global_dir=tree.global_dir, trusted=False)
    assert [str(p.key) for p in ws.profiles] == ["global:assistant"] and ws.stacks == []
    resolved = ws.resolve(ws.profiles[0])
    assert [d.message for d in resolved.diagnostics][-1] == "Unknown prompt stack: only."


def test_the_legacy_stack_folder_is_shadowed_by_file_name(tree: Tree) -> None:
    tree.project_stack("shared.json", stack_doc("shared", name="current"))
    tree.project_stack("shared.json", stack_doc("shared", name="legacy"), legacy=True)
    tree.project_stack("old.json", stack_doc("old"), legacy=True)
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    assert [(s.stack_id, s.stack.get("name")) for s in ws.stacks] == [("shared", "current"), ("old", None)]
    assert all(s.diagnostics == [] for s in ws.stacks)


def test_yaml_stacks_are_forgecs_addition(tree: Tree) -> None:
    tree.project_stack("y.yaml", "id: y\nitems:\n  - {kind: slot, id: h, slot: chat-history}\n")
    assert [s.stack_id for s in load_workspace(tree.project, global_dir=tree.global_dir).stacks] == ["y"]
    assert load_workspace(tree.project, global_dir=tree.global_dir, include_yaml=False).stacks == []


def test_global_dir_defaults_to_the_environment(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    tree.global_profile("g.json", profile_doc("g"))
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tree.global_dir))
    ws = load_workspace(None)
    assert [str(p.key) for p in ws.profiles] == ["global:g"] and ws.global_dir == tree.global_dir


def test_auto_activation_prefers_project_candidates_and_fails_closed(tree: Tree) -> None:
    tree.global_profile("fallback.json", profile_doc("fallback", autoActivate=True))
    tree.project_profile("broken.json", profile_doc("broken", autoActivate=True, thinkingLevel="turbo"))
    auto = load_workspace(tree.project, global_dir=tree.global_dir).auto_activation()
    assert auto.requested and auto.chosen is None  # the invalid project candidate does not fall back
    assert auto.notice == AUTO_ACTIVATION_CONFLICT_NOTICE
    assert auto.to_json() == {"requested": True, "chosen": None, "stackFallback": None}


def test_two_project_candidates_choose_nothing(tree: Tree) -> None:
    tree.global_profile("g.json", profile_doc("g", autoActivate=True))
    tree.project_profile("a.json", profile_doc("a", autoActivate=True))
    tree.project_profile("b.json", profile_doc("b", autoActivate=True))
    tree.project_profile("c.json", profile_doc("c", autoActivate=False))
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    assert ws.auto_activation().chosen is None
    assert [p.usable for p in ws.profiles] == [True, False, False, True]


def test_a_single_global_candidate_is_chosen(tree: Tree) -> None:
    tree.global_profile("everyday.json", profile_doc("everyday", autoActivate=True))
    tree.project_profile("manual.json", profile_doc("manual"))
    tree.project_stack("auto.json", stack_doc("auto", autoActivate=True))
    auto = load_workspace(tree.project, global_dir=tree.global_dir).auto_activation()
    assert auto.to_json() == {"requested": True, "chosen": "global:everyday", "stackFallback": "project:auto"}
    assert auto.notice is None


def test_nothing_requested(tree: Tree) -> None:
    tree.project_profile("manual.json", profile_doc("manual"))
    auto = load_workspace(tree.project, global_dir=tree.global_dir).auto_activation()
    assert not auto.requested and auto.chosen is None and auto.notice is None


def test_stack_autoload_fallback_rules(tree: Tree) -> None:
    tree.global_stack("g.json", stack_doc("g", autoActivate=True))
    tree.global_stack("shadowed.json", stack_doc("shadowed", autoActivate=True))
    tree.project_stack("shadowed.json", stack_doc("shadowed", autoActivate=False))
    ws = load_workspace(tree.project, global_dir=tree.global_dir)
    # a project stack with the same id shadows the global candidate even when it opted out
    fallback = choose_auto_activate_stack(ws.stacks)
    assert fallback is not None and str(stack_key(fallback)) == "global:g"
    tree.project_stack("p1.json", stack_doc("p1", autoActivate=True))
    tree.project_stack("p2.json", stack_doc("p2", autoActivate=True))
    assert choose_auto_activate_stack(load_workspace(tree.project, global_dir=tree.global_dir).stacks) is None


def test_an_unusable_single_stack_candidate_is_not_chosen(tree: Tree) -> None:
    tree.project_stack("bad.json", stack_doc("bad", autoActivate=True, mode="merge"))
    tree.global_stack("g.json", stack_doc("g", autoActivate=True))
    assert choose_auto_activate_stack(load_workspace(tree.project, global_dir=tree.global_dir).stacks) is None
