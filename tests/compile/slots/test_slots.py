"""Each built-in slot against the exact outputs compile-core.md §6 shows, and §6.1 dispatch."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from forgec.compile.slots import (
    BUILTIN_SLOT_NAMES,
    SLOT_OPTION_SCHEMAS,
    SLOT_RENDERERS,
    SlotContext,
    render_slot,
)
from forgec.compile.slots.skills import SKILLS_PREAMBLE
from forgec.compile.slots.variables import sort_names
from forgec.diagnostics import Diagnostic, to_pi_list
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

PREAMBLE = "\n".join(SKILLS_PREAMBLE)


def render(
    slot: str,
    slot_options: dict[str, Any] | None = None,
    /,
    *,
    stack: dict[str, Any] | None = None,
    store: VariableStore | None = None,
    registry: Any = None,
    **runtime: Any,
) -> tuple[str, list[dict[str, Any]]]:
    item: dict[str, Any] = {"kind": "slot", "id": "it", "role": "system", "slot": slot}
    if slot_options is not None:
        item["options"] = slot_options
    the_stack = {"id": "s", "items": [item], **(stack or {})}
    diagnostics: list[Diagnostic] = []
    text = render_slot(
        item,
        stack=the_stack,
        runtime=Runtime(**runtime),
        store=store,
        diagnostics=diagnostics,
        registry=registry,
    )
    return text, to_pi_list(diagnostics)


def opts(**options: Any) -> dict[str, Any]:
    return {"cwd": "/home/dev/project", **options}


# --- registry -------------------------------------------------------------------------------------


def test_registry_order_and_schemas() -> None:
    assert tuple(SLOT_RENDERERS) == BUILTIN_SLOT_NAMES
    assert tuple(SLOT_OPTION_SCHEMAS) == BUILTIN_SLOT_NAMES
    assert SLOT_OPTION_SCHEMAS["variables"]["includeTurn"] == {"type": "boolean", "default": True}
    assert SLOT_OPTION_SCHEMAS["tool-guidelines"]["heading"]["default"] == "Tool guidelines:"


def test_unsupported_slot() -> None:
    assert render("machine-status") == (
        "",
        [{"level": "warning", "message": "Unsupported slot: machine-status", "itemId": "it"}],
    )
    assert render("")[1][0]["message"] == "Unsupported slot: "


def test_unsupported_slot_has_pointer_and_code() -> None:
    item = {"kind": "slot", "id": "x", "slot": "nope"}
    diagnostics: list[Diagnostic] = []
    render_slot(item, stack={"items": [{}, item]}, runtime=Runtime(), store=None, diagnostics=diagnostics)
    assert diagnostics[0].code == "FG301" and diagnostics[0].pointer == ("items", 1, "slot")


def test_chat_history_renders_nothing() -> None:
    assert render("chat-history") == ("", [])


def test_custom_slot_from_registry() -> None:
    registry = SimpleNamespace(
        slots={
            "weather": lambda ctx: f"Sunny in {ctx.runtime.options['cwd']} ({ctx.format()})",
            "none": lambda ctx: None,
        }
    )
    assert render("weather", {"format": "plain"}, registry=registry, options=opts()) == (
        "Sunny in /home/dev/project (plain)",
        [],
    )
    assert render("none", registry=registry) == ("", [])


def test_custom_slot_cannot_shadow_builtin() -> None:
    registry = SimpleNamespace(slots={"cwd": lambda ctx: "shadow"})
    assert (
        render("cwd", registry=registry, options=opts())[0] == "Current working directory: /home/dev/project"
    )


def test_renderer_exception_becomes_error() -> None:
    def boom(ctx: SlotContext) -> str:
        raise RuntimeError("no weather today")

    assert render("weather", registry=SimpleNamespace(slots={"weather": boom})) == (
        "",
        [{"level": "error", "message": 'Slot "weather" failed: no weather today', "itemId": "it"}],
    )


# --- tools (§6.3, §16.4) -------------------------------------------------------------------------------

SNIPPETS = {"read": 'Read "x" & <y>\nline2', "a<b": ""}


def test_tools_xml_observed() -> None:
    text, _ = render("tools", options=opts(selectedTools=["read", "a<b", "nosnip"], toolSnippets=SNIPPETS))
    assert text == (
        "<available_tools>\n"
        '  <tool name="read">Read &quot;x&quot; &amp; &lt;y&gt;\nline2</tool>\n'
        '  <tool name="a&lt;b"></tool>\n'
        '  <tool name="nosnip">No prompt snippet provided.</tool>\n'
        "</available_tools>"
    )


def test_tools_plain_empty_snippet_kept_by_slot() -> None:
    text, _ = render(
        "tools", {"format": "plain"}, options=opts(selectedTools=["deploy", "x"], toolSnippets={"deploy": ""})
    )
    assert text == "Available tools:\n- deploy: \n- x: No prompt snippet provided."


def test_tools_only_with_snippets() -> None:
    options = opts(selectedTools=["deploy", "read"], toolSnippets={"deploy": "", "read": "R"})
    assert render("tools", {"format": "plain", "onlyWithSnippets": True}, options=options)[0] == (
        "Available tools:\n- read: R"
    )
    assert render("tools", {"format": "plain", "onlyWithSnippets": 1}, options=options)[0].count("\n- ") == 2


def test_tools_none() -> None:
    assert render("tools", {"format": "plain"}, options=opts())[0] == "Available tools:\n- (none)"
    assert render("tools", {"format": "plain", "onlyWithSnippets": True}, options=opts())[0] == (
        "Available tools:\n(none)"
    )
    assert render("tools", {"onlyWithSnippets": True}, options=opts())[0] == (
        "<available_tools>\n  (none)\n</available_tools>"
    )


def test_tools_respect_policy_and_format_variants() -> None:
    options = opts(selectedTools=["read", "bash", "browser-x"], toolSnippets={})
    text, _ = render("tools", {"format": "PLAIN"}, stack={"tools": {"deny": ["b*"]}}, options=options)
    assert (
        text
        == '<available_tools>\n  <tool name="read">No prompt snippet provided.</tool>\n</available_tools>'
    )


# --- tool-guidelines (§6.4) ---------------------------------------------------------------------------------


def test_tool_guidelines_bash_hint_and_dedup() -> None:
    options = opts(selectedTools=["bash"], promptGuidelines=["  Use read. ", "Use read.", "", "   ", "a\nb"])
    assert render("tool-guidelines", options=options)[0] == (
        "<tool_guidelines>\n- Use bash for file operations like ls, rg, find.\n- Use read.\n- a\nb\n</tool_guidelines>"
    )
    assert render("tool-guidelines", {"format": "plain"}, options=options)[0] == (
        "Tool guidelines:\n- Use bash for file operations like ls, rg, find.\n- Use read.\n- a\n  b"
    )


def test_tool_guidelines_pi_style_and_defaults() -> None:
    options = opts(selectedTools=["bash"], promptGuidelines=["Be concise in your responses"])
    text, _ = render(
        "tool-guidelines",
        {
            "format": "plain",
            "heading": "  Guidelines:  ",
            "piStyle": True,
            "includePiDefaultGuidelines": True,
        },
        options=options,
    )
    assert text == (
        "Guidelines:\n- Use bash for file operations like ls, rg, find\n- Be concise in your responses\n"
        "- Show file paths clearly when working with files"
    )


def test_tool_guidelines_heading_blank_and_not_string() -> None:
    options = opts(promptGuidelines=["G"])
    assert render("tool-guidelines", {"format": "plain", "heading": "  "}, options=options)[0] == "- G"
    assert (
        render("tool-guidelines", {"format": "plain", "heading": 3}, options=options)[0]
        == "Tool guidelines:\n- G"
    )


def test_tool_guidelines_no_bash_hint_with_search_tools_or_policy() -> None:
    assert render("tool-guidelines", options=opts(selectedTools=["bash", "ls"])) == ("", [])
    assert (
        render("tool-guidelines", stack={"tools": {"deny": ["bash"]}}, options=opts(selectedTools=["bash"]))[
            0
        ]
        == ""
    )
    # the host's guidelines of a denied tool stay
    options = opts(selectedTools=["bash"], promptGuidelines=["bash rule"])
    assert render("tool-guidelines", stack={"tools": {"deny": ["bash"]}}, options=options)[0] == (
        "<tool_guidelines>\n- bash rule\n</tool_guidelines>"
    )


# --- skills (§6.5) ---------------------------------------------------------------------------------------

SKILLS = [
    {"name": "review", "description": "Check <diffs> & more", "filePath": "/s/review/SKILL.md"},
    {"name": "hidden", "description": "d", "filePath": "/s/h", "disableModelInvocation": "yes"},
    {"name": "release-notes", "description": "Two\nlines", "filePath": "/s/r\nx"},
]


def test_skills_xml() -> None:
    text, _ = render("skills", options=opts(skills=SKILLS))
    assert text == PREAMBLE + (
        "\n<available_skills>\n  <skill>\n    <name>review</name>\n"
        "    <description>Check &lt;diffs&gt; &amp; more</description>\n"
        "    <location>/s/review/SKILL.md</location>\n  </skill>\n"
        "  <skill>\n    <name>release-notes</name>\n    <description>Two\nlines</description>\n"
        "    <location>/s/r\nx</location>\n  </skill>\n</available_skills>"
    )


def test_skills_plain_and_policy() -> None:
    text, _ = render(
        "skills", {"format": "plain"}, stack={"skills": {"deny": ["release-*"]}}, options=opts(skills=SKILLS)
    )
    assert text == PREAMBLE + (
        "\nAvailable skills:\n- review: Check <diffs> & more\n  Location: /s/review/SKILL.md"
    )
    text, _ = render("skills", {"format": "plain"}, options=opts(skills=SKILLS[2:]))
    assert text.endswith("- release-notes: Two\n  lines\n  Location: /s/r\n  x")


def test_skills_require_read_and_empty() -> None:
    assert render("skills", {"requireReadTool": True}, options=opts(skills=SKILLS)) == ("", [])
    assert render("skills", {"requireReadTool": True}, options=opts(skills=SKILLS, selectedTools=["read"]))[0]
    assert render("skills", {"requireReadTool": True}, stack={"tools": {"deny": ["read"]}},
                  options=opts(skills=SKILLS, selectedTools=["read"]))[0] == ""  # fmt: skip
    assert render("skills", options=opts(skills=SKILLS[1:2])) == ("", [])


def test_skills_missing_description_fails_like_v8() -> None:
    skills = [{"name": "x", "filePath": "/f"}]
    assert render("skills", options=opts(skills=skills))[1] == [
        {
            "level": "error",
            "message": "Slot \"skills\" failed: Cannot read properties of undefined (reading 'replace')",
            "itemId": "it",
        }
    ]
    assert render("skills", {"format": "plain"}, options=opts(skills=skills))[1][0]["message"] == (
        "Slot \"skills\" failed: Cannot read properties of undefined (reading 'split')"
    )


# --- project-context (§6.6) -------------------------------------------------------------------------------


def test_project_context_xml_observed() -> None:
    files = [{"path": "P", "content": "C"}]
    assert render("project-context", options=opts(contextFiles=files))[0] == (
        "<project_context>\n\nProject-specific instructions and guidelines:\n\n"
        '<project_instructions path="P">\nC\n</project_instructions>\n\n</project_context>'
    )


def test_project_context_plain_observed() -> None:
    files = [{"path": "/p/AGENTS.md", "content": "Rule <1>\n\nRule 2\n"}, {"path": 'a"b', "content": ""}]
    assert render("project-context", {"format": "plain"}, options=opts(contextFiles=files))[0] == (
        "Project context:\n\nProject-specific instructions and guidelines:\n\n"
        'Path: /p/AGENTS.md\n  Rule <1>\n  \n  Rule 2\n  \n\nPath: a"b'
    )


def test_project_context_empty_and_escaping() -> None:
    assert render("project-context", options=opts()) == ("", [])
    files = [{"path": 'a"&', "content": "<raw> & \n"}]
    assert render("project-context", options=opts(contextFiles=files))[0] == (
        "<project_context>\n\nProject-specific instructions and guidelines:\n\n"
        '<project_instructions path="a&quot;&amp;">\n<raw> & \n\n</project_instructions>\n\n</project_context>'
    )


# --- the small slots (§6.7–§6.12) --------------------------------------------------------------------


def test_append_system_prompt() -> None:
    assert (
        render("append-system-prompt", options=opts(appendSystemPrompt="Be <brief> {{x}}"))[0]
        == "Be <brief> {{x}}"
    )
    assert render("append-system-prompt", options=opts()) == ("", [])


def test_date_cwd() -> None:
    runtime = {"now_ms": 1773476813000, "time_zone": "Asia/Tokyo", "options": opts(cwd="C:\\repo\\x")}
    assert render("date", **runtime)[0] == "Current date: 2026-03-14"
    assert (
        render("date", {"includeTime": True}, **runtime)[0]
        == "Current date: 2026-03-14\nCurrent time: 17:26:53"
    )
    assert render("date", {"includeTime": "true"}, **runtime)[0] == "Current date: 2026-03-14"
    assert render("cwd", **runtime)[0] == "Current working directory: C:/repo/x"
    assert render("date-cwd", {"includeTime": True}, **runtime)[0] == (
        "Current date: 2026-03-14\nCurrent time: 17:26:53\nCurrent working directory: C:/repo/x"
    )


def test_missing_cwd_fails_like_v8() -> None:
    expected = "Cannot read properties of undefined (reading 'replace')"
    assert render("cwd", options={}) == (
        "",
        [{"level": "error", "message": f'Slot "cwd" failed: {expected}', "itemId": "it"}],
    )
    assert render("date-cwd", options={})[1][0]["message"] == f'Slot "date-cwd" failed: {expected}'
    assert render("cwd", options={"cwd": None})[1][0]["message"].endswith(
        "Cannot read properties of null (reading 'replace')"
    )


def test_active_model() -> None:
    model = {"provider": "anthropic", "id": "claude-x", "api": "anthropic-messages"}
    assert render("active-model", model=model)[0] == "Current model: anthropic/claude-x"
    assert render("active-model")[0] == "Current model: (none)"
    assert render("active-model", model={})[0] == "Current model: undefined/undefined"  # §16.15(c)


def test_pi_docs_fallback() -> None:
    text, _ = render("pi-docs")
    lines = text.split("\n")
    assert len(lines) == 8
    assert lines[1] == "- Main documentation: @earendil-works/pi-coding-agent/README.md"
    assert lines[3] == "- Examples: @earendil-works/pi-coding-agent/examples (extensions, custom tools, SDK)"
    custom = render("pi-docs", pi_docs={"readme": "/r", "docs": "/d", "examples": "/e"})[0]
    assert "- Additional docs: /d\n" in custom


# --- variables (§6.13, §16.12) ---------------------------------------------------------------------------


def test_variables_plain_observed() -> None:
    store = VariableStore(session={"user.preference": "concise", "agent.note": "a<\n&"})
    assert render("variables", {"format": "plain"}, store=store)[0] == (
        "Variables:\nsession:\n- agent.note: a<\n  &\n- user.preference: concise"
    )


def test_variables_xml_pretty_json() -> None:
    store = VariableStore(session={"obj": {"z": 1, "1": 1.5}})
    assert render("variables", store=store)[0] == (
        "<variables>\n  <session>\n"
        '    <var name="obj">{\n  &quot;1&quot;: 1.5,\n  &quot;z&quot;: 1\n}</var>\n'
        "  </session>\n</variables>"
    )


def test_variables_scopes_and_options() -> None:
    store = VariableStore(session={"s": 1}, turn={"t": "x"})
    stack = {"variables": {"v": "static"}}
    full = render("variables", {"format": "plain"}, stack=stack, store=store)[0]
    assert full == "Variables:\nstatic:\n- v: static\nsession:\n- s: 1\nturn:\n- t: x"
    only_turn = {"includeStatic": False, "includeSession": False, "format": "plain"}
    assert render("variables", only_turn, stack=stack, store=store)[0] == "Variables:\nturn:\n- t: x"
    still_included = {"includeStatic": 0, "includeSession": None, "includeTurn": "false", "format": "plain"}
    assert render("variables", still_included, stack=stack, store=store)[0] == full
    assert render("variables", {"includeTurn": False}, store=VariableStore(turn={"t": "x"})) == ("", [])
    assert render("variables", store=None) == ("", [])


def test_collation_order_observed() -> None:
    # compile-core §0.9: the observed localeCompare order
    expected = [
        "_u",
        "1",
        "10",
        "2",
        "a",
        "A",
        "a b",
        "a-b",
        "a.b",
        "ab",
        "äb",
        "b",
        "B",
        "e",
        "é",
        "z",
        "Zed",
    ]
    names = ["Zed", "z", "é", "e", "B", "b", "äb", "ab", "a.b", "a-b", "a b", "A", "a", "2", "10", "1", "_u"]
    assert [n for n, _ in sort_names(dict.fromkeys(names, 0))] == expected


def test_collation_reference_examples() -> None:
    # conformance.md: `_x`, `-x`, `😀`, `Å`, `a b`, `a_b`, `a-b`, `ab`, `apfel`, `Apfel`, `äpfel`
    names = ["äpfel", "Apfel", "apfel", "ab", "a-b", "a_b", "a b", "Å", "😀", "-x", "_x"]
    assert [n for n, _ in sort_names(dict.fromkeys(names, 0))] == list(reversed(names))


def test_collation_ties_keep_js_object_order() -> None:
    # names equal under the collator keep JavaScript object order (array-index keys first)
    scope = {"a\u200bb": 1, "ab": 2, "2": 3, "1": 4}
    assert [n for n, _ in sort_names(scope)] == ["1", "2", "a\u200bb", "ab"]
    scope = {"ab": 2, "a\u200bb": 1}
    assert [n for n, _ in sort_names(scope)] == ["ab", "a\u200bb"]


@pytest.mark.parametrize("slot", BUILTIN_SLOT_NAMES)
def test_every_slot_survives_an_empty_runtime(slot: str) -> None:
    text, diagnostics = render(slot, options={})
    assert isinstance(text, str)
    assert all(d["level"] == "error" for d in diagnostics)


def test_remembered_collation_keys_sort_as_fresh_ones() -> None:
    """``sort_names`` remembers each name's collation key: the second and third sorts of the same
    and of overlapping scopes equal a sort keyed on fresh keys."""
    import random

    from forgec.js.collation import locale_key
    from forgec.js.values import js_items

    rng = random.Random(25)
    alphabet = ["a", "A", "b", "ä", "é", "-", "_", " ", "1", "2", "\u200b", "😀", "Z"]
    for _ in range(200):
        names = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(0, 12))]
        scope = dict.fromkeys(names, 0)
        fresh = locale_key()
        expected = sorted(js_items(scope), key=lambda entry: fresh(entry[0]))
        for _ in range(3):
            assert sort_names(scope) == expected
