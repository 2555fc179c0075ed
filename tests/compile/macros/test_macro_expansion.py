"""Every example table of compile-core §3.1–§3.5, §16.6, §16.9, §16.13 end to end.

Each row goes through ``forgec.compile_report`` (loader, compiler, report) as a system block, so the
test also pins the expansion session's diagnostics and the reported variable store (§16.1).
Expected values are copied from the spec tables.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.report import compile_report

from .spec_examples import LATEST_USER_MESSAGE, SESSION_TOPIC, SPEC_EXAMPLES

CTX: dict[str, Any] = {
    "variables": {"topic": SESSION_TOPIC},
    "tools": [{"name": "read"}],
    "latestUserMessage": LATEST_USER_MESSAGE,
}


def _compile(content: str, ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    doc = {
        "schemaVersion": 1,
        "id": "audit",
        "items": [{"kind": "block", "id": "b", "role": "system", "content": content}],
        **stack,
    }
    return compile_report(doc, CTX if ctx is None else ctx).to_report()


def _render(content: str) -> tuple[str, list[str]]:
    """The block rendered between markers (so empty output and outer whitespace stay visible)."""
    report = _compile("<" + content + ">")
    prompt = report["system"]["prompt"]
    assert prompt.startswith("<") and prompt.endswith(">")
    return prompt[1:-1], [d["message"] for d in report["system"]["diagnostics"]]


@pytest.mark.parametrize(("content", "output", "unresolved"), SPEC_EXAMPLES)
def test_spec_table_row(content: str, output: str, unresolved: list[str]) -> None:
    """§3.1 scanning table, §3.5 "additional observed examples", §16.6, §16.9, §16.13."""
    assert _render(content) == (output, [f"Unresolved macro: {{{{{e}}}}}" for e in unresolved])


def test_unknown_macro_arguments_have_no_side_effects() -> None:
    """§3.2 step 6: ``A {{missing::{{setvar::touched::yes}}}} B`` stays and sets nothing."""
    report = _compile("A {{missing::{{setvar::touched::yes}}}} B")
    assert report["system"]["prompt"] == "A {{missing::{{setvar::touched::yes}}}} B"
    assert report["variables"]["turn"] == {}


def test_only_chosen_branch_runs() -> None:
    """§3.5: ``ifvar`` expands only the chosen branch."""
    report = _compile("{{ifvar::topic::{{setvar::thenTouched::yes}}::{{setvar::elseTouched::yes}}}}x")
    assert report["variables"]["turn"] == {"thenTouched": "yes"}


def test_ifeq_first_argument_side_effect_even_when_unresolved() -> None:
    """§16.13: ``{{ifeq::{{setvar::x::1}}n}}`` stays unresolved and still stores x = 1."""
    report = _compile("{{ifeq::{{setvar::x::1}}n}}")
    assert report["system"]["prompt"] == "{{ifeq::{{setvar::x::1}}n}}"
    assert report["variables"]["turn"] == {"x": "1"}


def test_joined_args_recreate_separators() -> None:
    """§3.3: ``{{setvar::joined::prefix::{{lastUserMessage}}::suffix}}`` with ``middle::value``."""
    report = _compile("{{setvar::joined::prefix::{{lastUserMessage}}::suffix}}{{joined}}")
    assert report["system"]["prompt"] == "prefix::middle::value::suffix"


def test_padded_value_loses_only_trailing_space() -> None:
    """conformance 'Macro parsing': ``{{setvar::  spaced  ::  padded value  }}`` stores ``"  padded value"``."""
    report = _compile("{{setvar::  spaced  ::  padded value  }}x")
    assert report["variables"]["turn"] == {"spaced": "  padded value"}


def test_triple_colon_split() -> None:
    """§3.2 step 2: ``a:::b`` splits into ``a`` and ``:b``."""
    report = _compile("{{setvar::c:::d}}[{{c}}]")
    assert report["system"]["prompt"] == "[:d]"


def test_session_dirty_rules() -> None:
    """§16.1: dirty stays true after a restoring clear; same-value write and missing clear keep it false."""
    restored = _compile("{{setsessionvar::x::1}}{{clearsessionvar::x}}x")["variables"]
    assert restored == {"session": {"topic": "session topic"}, "turn": {}, "sessionDirty": True}
    same = _compile("{{setsessionvar::topic::session topic}}{{clearsessionvar::nothere}}x")["variables"]
    assert same["sessionDirty"] is False


def test_verified_store_example() -> None:
    """§16.1 'Verified' example: system writes are visible to a user block after the history slot."""
    doc = {
        "schemaVersion": 1,
        "id": "audit",
        "items": [
            {"kind": "block", "id": "s", "role": "system", "content": "{{setsessionvar::topic::new}}{{setvar::t::1}}"},
            {"kind": "slot", "id": "h", "slot": "chat-history"},
            {"kind": "block", "id": "u", "role": "user", "content": "B {{topic}} {{t}}"},
        ],
    }
    report = compile_report(doc, {"variables": {"topic": "old", "keep": 2}}).to_report()
    assert report["variables"] == {"session": {"topic": "new", "keep": 2}, "turn": {"t": "1"}, "sessionDirty": True}
    assert report["messages"]["messages"][0]["content"][0]["text"] == "B new 1"


def test_unresolved_policy_levels() -> None:
    """§3.4: keep → nothing; error → error; any other value → warning."""
    for policy, expected in (("keep", []), ("error", ["error"]), ("KEEP", ["warning"]), (3, ["warning"])):
        report = _compile("{{nope}}", defaults={"unresolvedMacroPolicy": policy})
        assert [d["level"] for d in report["system"]["diagnostics"]] == expected, policy


def test_unresolved_after_failures_and_completion_order() -> None:
    """§3.4: inner unresolved expressions are recorded before an unresolved outer one."""
    _, diags = _render("{{outer::{{upper::{{inner}}}}}}")
    # the outer unknown macro never expands its arguments
    assert diags == ["Unresolved macro: {{outer::{{upper::{{inner}}}}}}"]
    _, diags = _render("{{getvar::{{a}}}}{{b}}{{upper::{{c}}{{a}}}}")
    assert diags == ["Unresolved macro: {{a}}", "Unresolved macro: {{b}}", "Unresolved macro: {{c}}"]


def test_rendered_values_are_not_rescanned() -> None:
    """§3.1: a variable holding ``{{x}}`` is inserted literally."""
    report = compile_report({
            "schemaVersion": 1,
            "id": "audit",
            "items": [{"kind": "block", "id": "b", "role": "system", "content": "[{{v}}]"}],
        }, {"variables": {"v": "{{cwd}}"}}).to_report()
    assert report["system"]["prompt"] == "[{{cwd}}]"
    assert report["system"]["diagnostics"] == []


def test_stage_order_system_before_messages() -> None:
    """§2 / conformance 'Stage order': a user block's setvar is invisible to every system block, even
    one after it in stack order; a system block's write is visible to a user block before it."""
    doc = {
        "schemaVersion": 1,
        "id": "audit",
        "items": [
            {"kind": "block", "id": "u", "role": "user", "content": "{{setvar::fromUser::U}}u:{{fromSystem}}"},
            {"kind": "block", "id": "s", "role": "system", "content": "s:{{getvar::fromUser}}{{setvar::fromSystem::S}}"},
        ],
    }
    report = compile_report(doc, {}).to_report()
    assert report["system"]["prompt"] == "s:"
    assert report["messages"]["messages"][0]["content"][0]["text"] == "u:S"
    assert report["variables"]["turn"] == {"fromSystem": "S", "fromUser": "U"}
