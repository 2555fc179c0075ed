"""forgec-only hints for typos pi-forge accepts silently (FG150, FG151, FG215, FG310, FG311, FG650)."""

from __future__ import annotations

import pytest

from forgec.codecs.stack import load_stack_data
from forgec.compile.macros.lint import lint_stack_macros
from forgec.lint.hints import lint_stack_hints

STACK = {
    "schemaVersion": 1,
    "id": "typos",
    "itmes": [],
    "$schema": "https://example.invalid/schema.json",
    "items": [
        {"kind": "block", "id": "a", "role": "sytem", "contnet": "x", "content": "Hi {{lastUserMessage} {{dat}}"},
        {"kind": "slot", "id": "c", "slot": "chat-histroy"},
        {"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMesages": 3, "roles": ["usr", "user"]}},
        {"kind": "slot", "id": "t", "role": "system", "slot": "tools", "options": {"format": "html"}},
        {"kind": "slot", "id": "d", "role": "system", "slot": "cwd", "options": {"x": 1}},
    ],
    "regex": {"rules": [{"id": "r1", "stage": "compiled", "pattern": "x", "roles": ["usr", "system"]}]},
}


def _hints(stack: dict) -> list[tuple[str, str]]:
    loaded = load_stack_data(stack, "typos.json")
    return [(d.code, d.message) for d in lint_stack_hints(loaded)]


def test_each_typo_gets_one_hint_with_the_likely_name() -> None:
    found = _hints(STACK)
    assert found == [
        ("FG150", 'Unknown stack field "itmes" is ignored by pi-forge (did you mean "items"?).'),
        ("FG150", 'Unknown item field "contnet" is ignored by pi-forge (did you mean "content"?).'),
        ("FG151", 'Role "sytem" is not a pi-forge role (did you mean "system"?).'),
        ("FG151", 'Slot "chat-histroy" is not a known slot (did you mean "chat-history"?).'),
        ("FG310", 'Slot "chat-history" has no such option: "maxMesages" is ignored (did you mean "maxMessages"?).'),
        ("FG311", 'chat-history roles: no message has the role "usr" (did you mean "user"?).'),
        ("FG311", "format 'html' is not \"plain\" or \"xml\"; the slot renders XML."),
        ("FG310", 'Slot "cwd" takes no options: "x" is ignored.'),
        ("FG650", 'Regex rule r1: no message has the role "usr", so it never matches there (did you mean "user"?).'),
    ]


def test_hints_never_change_pi_forge_diagnostics() -> None:
    loaded = load_stack_data(STACK, "typos.json")
    before = [d.to_pi() for d in loaded.diagnostics]
    assert all(d.extra for d in lint_stack_hints(loaded))
    assert [d.to_pi() for d in loaded.diagnostics] == before


def test_a_clean_stack_gets_no_hints() -> None:
    clean = {
        "schemaVersion": 1,
        "id": "clean",
        "items": [
            {"kind": "block", "id": "a", "role": "system", "content": "Hi"},
            {"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 3, "roles": ["user"]}},
            {"kind": "slot", "id": "t", "role": "system", "slot": "tools", "options": {"format": "plain"}},
        ],
    }
    assert _hints(clean) == []


def test_unclosed_macro_openers_are_reported_where_they_are() -> None:
    stack = {
        "items": [
            {"kind": "block", "id": "a", "content": "Hi {{lastUserMessage} and {{date}}"},
            {"kind": "block", "id": "b", "content": "{{a{{b}}"},  # spec §3.1: the outer {{ is unclosed
            {"kind": "block", "id": "c", "content": "{{{cwd}}} and x }} y"},  # one macro, expression {cwd
        ]
    }
    found = [(d.code, d.item_id, d.offset) for d in lint_stack_macros(stack) if d.code == "FG215"]
    assert found == [("FG215", "a", 3), ("FG215", "b", 0)]


def test_unknown_macro_suggests_a_close_built_in() -> None:
    stack = {"items": [{"kind": "block", "id": "a", "content": "{{dat}} {{zzzz}}"}]}
    messages = [d.message for d in lint_stack_macros(stack) if d.code == "FG210"]
    assert messages[0].startswith("Unknown macro {{dat}} (did you mean {{date}}?)")
    assert "did you mean" not in messages[1]


def test_windows_device_names_are_flagged_as_stack_ids_and_file_names() -> None:
    loaded = load_stack_data('{"id": "nul", "items": []}', "con.json")
    found = [(d.code, d.pointer) for d in lint_stack_hints(loaded) if d.code == "FG152"]
    assert found == [("FG152", ()), ("FG152", ("id",))]
    for name in ("COM1.yaml", "Lpt9.json", "aux"):
        loaded = load_stack_data({"id": "fine", "items": []}, name)
        assert [d.code for d in lint_stack_hints(loaded)].count("FG152") == 1
    loaded = load_stack_data({"id": "console", "items": []}, "console.json")
    assert "FG152" not in [d.code for d in lint_stack_hints(loaded)]


def test_thousands_of_openers_and_macros_in_one_block() -> None:
    """Every unclosed opener is found once, wherever it is, also among thousands of macros."""
    text = "{{date}}" * 3000 + "{{" * 3000 + "{{a::{{b}}}}"
    found = [d.offset for d in lint_stack_macros({"items": [{"kind": "block", "id": "a", "content": text}]}) if d.code == "FG215"]
    assert found == [8 * 3000 + 2 * i for i in range(3000)]


def test_did_you_mean_is_searched_once_per_name_and_within_a_comparison_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 family 6: 20,000 ``{{nope}}`` once searched the names 20,000 times (17 s); thousands of
    set variables and thousands of distinct unknown names would compare every pair."""
    import difflib

    from forgec.compile.macros import lint

    searched: list[int] = []
    real = difflib.get_close_matches

    # one difflib search per suggestion: counted in difflib, which both builds look up at each call
    # (the compiled build calls lint._suggest directly; docs/performance.md, "Compiled modules")
    def counting(word: str, possibilities: list[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
        searched.append(len(possibilities))
        return real(word, possibilities, n, cutoff)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    repeated = {"items": [{"kind": "block", "id": "a", "content": "{{dat}}" * 20000}]}
    messages = [d.message for d in lint_stack_macros(repeated) if d.code == "FG210"]
    assert len(messages) == 20000 and all("(did you mean {{date}}?)" in m for m in messages)
    assert len(searched) == 1

    searched.clear()
    setters = "".join(f"{{{{setvar::v{i}::1}}}}" for i in range(3000))
    unknown = "".join(f"{{{{w{i}}}}}" for i in range(3000))
    lint_stack_macros({"items": [{"kind": "block", "id": "a", "content": setters + unknown}]})
    assert 0 < sum(searched) <= lint.SUGGESTION_COMPARISONS
