"""The server's features as library calls (no protocol): what each answers for a given text and cursor.

The end-to-end tests (test_server.py) drive a few through a real client; these pin down the rest
quickly, each against the library's own view (the loader's vocabulary, ``validate``'s findings,
``forgec preview``'s compile).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types

from forgec.lsp.actions import code_actions
from forgec.lsp.completion import complete
from forgec.lsp.convert import lsp_diagnostics
from forgec.lsp.cursor import read_cursor
from forgec.lsp.files import file_kind
from forgec.lsp.formatting import formatted
from forgec.lsp.hover import hover_markdown
from forgec.lsp.navigation import definitions, references
from forgec.lsp.positions import LineIndex
from forgec.lsp.preview import preview
from forgec.lsp.project import Project
from forgec.lsp.symbols import document_symbols
from forgec.model import MODES, ROLES, THINKING_LEVELS
from forgec.model.slot_schemas import SLOT_OPTION_SCHEMAS

STACKS = ".pi/forge/prompt-stacks"
STACK = """\
schemaVersion: 1
id: writer
variables:
  tone: dry
items:
  - kind: block
    id: intro
    role: system
    content: "Tone {{getvar::tone}}. {{setvar::mood::calm}}Mood {{getvar::mood}}."
  - kind: slot
    id: history
    slot: chat-history
"""


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Project, Path]:
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "no-global"))
    stack = tmp_path / STACKS / "writer.yaml"
    stack.parent.mkdir(parents=True)
    stack.write_text(STACK, encoding="utf-8")
    project = Project([tmp_path])
    project.open(stack, STACK)
    return project, stack


def at(text: str, marker: str, shift: int = 0) -> int:
    return text.index(marker) + shift


def labels(items: list[types.CompletionItem]) -> list[str]:
    return [i.label for i in items]


# --- where the cursor is ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yaml", "path", "key", "prefix"),
    [
        ("id: x\nitems:\n  - kind: block\n    ro|", True, ("items", "[]"), None, "ro"),
        ("id: x\nitems:\n  - kind: block\n    role: us|", True, ("items", "[]"), "role", "us"),
        (
            "id: x\nitems:\n  - kind: slot\n    options:\n      fo|\n    slot: tools\n",
            True,
            ("items", "[]", "options"),
            None,
            "fo",
        ),
        (
            "id: x\nitems:\n  - { kind: slot, slot: tools, options: { fo| } }",
            True,
            ("items", "[]", "options"),
            None,
            "fo",
        ),
        ("id: x\nmode: ap|", True, (), "mode", "ap"),
        ('{"id": "x", "items": [{"kind": "block", "role": "|', False, ("items", "[]"), "role", ""),
        ('{"id": "x", "|', False, (), None, ""),
    ],
)
def test_the_cursor_is_read_from_text_that_does_not_parse(
    text: str, yaml: bool, path: tuple[str, ...], key: str | None, prefix: str
) -> None:
    offset = text.index("|")
    cursor = read_cursor(text.replace("|", ""), offset, yaml)
    assert (cursor.path, cursor.key, cursor.prefix) == (path, key, prefix)


def test_a_slots_options_know_the_slot_written_below_them() -> None:
    text = "id: x\nitems:\n  - kind: slot\n    options:\n      \n    slot: tools\n"
    cursor = read_cursor(text, text.index("      \n") + 6, True)
    assert cursor.sibling("slot", -2) == "tools"


# --- completion ------------------------------------------------------------------------------------


def test_completion_of_values_comes_from_the_loaders_vocabulary(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    role = "id: x\nitems:\n  - kind: block\n    role: "
    assert labels(complete(project, stack, "stack", role, len(role))) == list(ROLES)
    mode = "id: x\nmode: "
    assert labels(complete(project, stack, "stack", mode, len(mode))) == list(MODES)
    option = "id: x\nitems:\n  - kind: slot\n    slot: tools\n    options:\n      format: "
    assert (
        labels(complete(project, stack, "stack", option, len(option)))
        == SLOT_OPTION_SCHEMAS["tools"]["format"]["values"]
    )
    flags = "id: x\nregex:\n  rules:\n    - pattern: a\n      flags: "
    assert "gi" in labels(complete(project, stack, "stack", flags, len(flags)))
    slot = "id: x\nitems:\n  - kind: slot\n    slot: "
    assert labels(complete(project, stack, "stack", slot, len(slot)))[0] == "chat-history"


def test_completion_after_getvar_offers_the_variables_the_stack_sets(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    text = STACK.replace("{{getvar::mood}}", "{{getvar::}}")
    items = complete(project, stack, "stack", text, at(text, "{{getvar::}}", 10))
    assert labels(items) == ["tone", "mood"]
    assert items[0].detail == "set at line 4"


def test_profiles_and_contexts_complete_their_own_keys_and_thinking_levels(
    tmp_path: Path, workspace: tuple[Project, Path]
) -> None:
    project, _ = workspace
    profile = tmp_path / ".pi/forge/agent-profiles/p.json"
    text = '{"thinkingLevel": "'
    assert labels(complete(project, profile, "profile", text, len(text))) == list(THINKING_LEVELS)
    context = tmp_path / "contexts/c.yaml"
    assert "timezone" in labels(complete(project, context, "context", "ti", 2))


# --- hover and navigation --------------------------------------------------------------------------


def test_hover_shows_macros_slots_variables_and_rules(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    macro = hover_markdown(project, stack, "stack", STACK, at(STACK, "getvar::tone", 2))
    assert macro is not None and "a variable's value" in macro[0]
    variable = hover_markdown(project, stack, "stack", STACK, at(STACK, "getvar::tone", 9))
    assert variable is not None and variable[0] == "variable `tone` is set at line 4"
    slot = hover_markdown(project, stack, "stack", STACK, at(STACK, "chat-history", 3))
    assert slot is not None and "Insertion point of the conversation" in slot[0]
    comment = STACK + "# forgec: ignore[FG142]\n"
    rule = hover_markdown(project, stack, "stack", comment, at(comment, "FG142", 1))
    assert rule is not None and "FG142 no-chat-history" in rule[0]


def test_getvar_goes_to_where_the_variable_is_set_and_finds_its_uses(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    (static,) = definitions(project, stack, "stack", STACK, at(STACK, "getvar::tone", 9))
    assert static[1] is not None and (static[1].line, static[1].column) == (4, 3)
    (setter,) = definitions(project, stack, "stack", STACK, at(STACK, "getvar::mood", 9))
    line = STACK.split("\n")[8]
    assert setter[1] is not None and (setter[1].line, setter[1].column) == (9, line.index("mood") + 1)
    uses = references(project, stack, "stack", STACK, at(STACK, "getvar::mood", 9))
    assert len(uses) == 2


def test_document_symbols_are_the_items_by_id(tmp_path: Path) -> None:
    (symbol,) = document_symbols(tmp_path / "writer.yaml", "stack", STACK)
    assert symbol.name == "writer"
    assert [(c.name, c.detail) for c in symbol.children or []] == [
        ("intro", "system"),
        ("history", "chat-history"),
    ]


# --- diagnostics of files validate does not lint -------------------------------------------------


def test_settings_and_contexts_are_checked_as_typed(tmp_path: Path, workspace: tuple[Project, Path]) -> None:
    project, _ = workspace
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.forgec]\n", encoding="utf-8")
    project.open(pyproject, '[tool.forgec]\nselect = ["FG1"]\nstrcit = true\n')
    context = tmp_path / "contexts" / "session.yaml"
    context.parent.mkdir()
    context.write_text("now: 2026-01-01T00:00:00Z\n", encoding="utf-8")
    project.open(context, "now: 2026-01-01T00:00:00Z\ntimeZone: UTC\n")
    checked = project.check()
    (settings,) = checked[pyproject.resolve()].diagnostics
    assert settings.code == "FG012" and "strcit" in settings.message and settings.span is not None
    assert settings.span.line == 3
    (problem,) = checked[context.resolve()].diagnostics
    assert problem.code == "FG011" and "timezone" in problem.message
    assert problem.span is not None and problem.span.line == 2


def test_files_forgec_does_not_read_get_nothing(tmp_path: Path) -> None:
    assert file_kind(tmp_path / "package.json") is None
    assert file_kind(tmp_path / ".pi/forge/prompt-stacks/a.yml") == "stack"
    assert file_kind(tmp_path / ".pi/prompt-stacks/a.json") == "stack"
    assert file_kind(tmp_path / ".pi/forge/agent-profiles/a.json") == "profile"
    assert file_kind(tmp_path / ".pi/forge/config.json") == "config"
    assert file_kind(tmp_path / ".pi/forge/models.yaml") == "catalog"
    assert file_kind(tmp_path / "examples/contexts/coding-session.yaml") == "context"


# --- positions, actions, formatting, preview -------------------------------------------------------


def test_positions_count_utf16_units_as_editors_do() -> None:
    lines = LineIndex('content: "😀 {{nope}}"\n')
    assert lines.utf16(1, 13) == (0, 13)  # one character, two UTF-16 units
    assert lines.offset(0, 13) == 12
    assert LineIndex("😀x", "utf-32").utf16(1, 2) == (0, 1)
    assert LineIndex("😀x", "utf-8").utf16(1, 2) == (0, 4)


def test_yaml_findings_can_be_suppressed_on_their_line(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    text = STACK.replace("    role: system\n", "    role: System\n")
    project.open(stack, text)
    checked = project.check()[stack.resolve()]
    uri = stack.as_uri()
    (finding,) = [d for d in lsp_diagnostics(checked, uri) if d.code == "FG118"]
    actions = code_actions(checked, uri, finding.range)
    titles = [a.title for a in actions]
    assert any(t.startswith("Suppress FG118") for t in titles)
    suppress = next(a for a in actions if a.title.startswith("Suppress"))
    assert suppress.edit is not None and suppress.edit.changes is not None
    (edit,) = suppress.edit.changes[uri]
    assert edit.new_text == "  # forgec: ignore[FG118]" and edit.range.start.line == 7


def test_formatting_prints_json_as_javascript_does_and_leaves_yaml_alone(tmp_path: Path) -> None:
    assert (
        formatted(tmp_path / "a.json", '{"id":"a","n":1.0,"items":[]}')
        == '{\n  "id": "a",\n  "n": 1,\n  "items": []\n}\n'
    )
    assert formatted(tmp_path / "a.yaml", "id: a\n") is None
    assert formatted(tmp_path / "a.json", '{"id": ') is None


def test_preview_compiles_the_unsaved_stack(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    project.open(stack, STACK.replace("Tone {{getvar::tone}}.", "Voice {{getvar::tone}}."))
    shown = preview(project, stack)
    assert shown["systemPrompt"].startswith("Voice dry.")
    assert shown["context"] == "<built-in sample context>"
    assert stack.read_text(encoding="utf-8") == STACK  # nothing written


def test_trusted_plugins_macros_and_slots_are_completed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real installed plugin distribution (tests/plugins), trusted as ``--trust-plugins`` trusts it."""
    import sys

    from tests.plugins.conftest import PLUGINS, build_site

    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "no-global"))
    monkeypatch.syspath_prepend(str(build_site(tmp_path / "site-packages", ("system-status",))))
    try:
        stack = tmp_path / STACKS / "s.yaml"
        project = Project([tmp_path], trust_plugins=True)
        macro = 'id: s\nitems:\n  - { kind: block, id: a, role: system, content: "Load {{cpu'
        items = complete(project, stack, "stack", macro, len(macro))
        assert ("cpuLoad", "Rough CPU load") in [(i.label, i.detail) for i in items]
        slot = "id: s\nitems:\n  - kind: slot\n    slot: "
        assert "machine-status" in labels(complete(project, stack, "stack", slot, len(slot)))
        untrusted = Project([tmp_path])
        assert "cpuLoad" not in labels(complete(untrusted, stack, "stack", macro, len(macro)))
    finally:
        for module, _ in PLUGINS.values():
            sys.modules.pop(module, None)


def test_a_slot_name_in_prose_is_not_a_slot(workspace: tuple[Project, Path]) -> None:
    project, stack = workspace
    text = STACK.replace("Tone {{getvar::tone}}.", "Use the tools wisely.")
    assert hover_markdown(project, stack, "stack", text, at(text, "tools wisely", 2)) is None
    json = '{"items": [{"kind": "slot", "id": "t", "slot": "tools"}]}'
    shown = hover_markdown(project, stack.with_suffix(".json"), "stack", json, at(json, '"tools"', 2))
    assert shown is not None and shown[0].startswith("**slot `tools`**")


def test_a_json_finding_can_be_ignored_for_its_file_in_pyproject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON has no comments: the suppression is a ``per-file-ignores`` entry, which then silences it."""
    from forgec.lint import lint_paths

    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "no-global"))
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.forgec]\nstrict = false\n", encoding="utf-8")
    stack = tmp_path / STACKS / "w.json"
    stack.parent.mkdir(parents=True)
    text = '{"schemaVersion": 1, "id": "w", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}], "contxt": 1}\n'
    stack.write_text(text, encoding="utf-8")
    project = Project([tmp_path])
    project.open(stack, text)
    checked = project.check()[stack.resolve()]
    uri = stack.as_uri()
    (finding,) = lsp_diagnostics(checked, uri)
    actions = code_actions(
        checked, uri, finding.range, settings=(pyproject, pyproject.read_text(encoding="utf-8"))
    )
    ignore = next(a for a in actions if a.title.startswith(f"Ignore {finding.code}"))
    assert ignore.edit is not None and ignore.edit.changes is not None
    (edit,) = ignore.edit.changes[pyproject.resolve().as_uri()]
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + edit.new_text, encoding="utf-8")
    assert f'"{STACKS}/w.json" = ["{finding.code}"]' in pyproject.read_text(encoding="utf-8")
    from forgec.environment import Environment

    report = lint_paths([str(stack)], env=Environment.discover(tmp_path))
    assert [f.code for f in report.files[0].findings] == []  # the same finding, now ignored by validate
