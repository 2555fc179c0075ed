"""Interacting compile-core rules in the hidden corpus's scenario families.

Each test combines rules that the per-rule tests (``tests/compile/passes``, ``tests/compile/macros``,
``test_lenient_values.py``, ``test_unicode_text.py``) check one at a time:
policy wildcards with the tool slots and ``iftools`` (§5, §6.3–§6.5, §3.5), the chat-history pipeline
with limits, repair, summaries and history regex rules (§8.3–§8.6, §9.3), local date/time at DST
edges and year boundaries (§0.11, §6.14, context-format ``now``/``timezone``), CRLF text (§0.6, §3.2,
§6.14), typed session values (§4), evaluation order across the two compiles (§2, §16.1), and five
realistic agent stacks checked section by section.

Expected values come from the spec text; the date/time rows, the case mapping and the regex results
were also confirmed with Node 20.20.2 (``TZ=<zone>``, ``String.prototype.replace``), the oracle for
JavaScript-only behaviour.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.report import compile_report

SKILLS_HEAD = (
    "The following skills provide specialized instructions for specific tasks.\n"
    "Use the read tool to load a skill's file when the task matches its description.\n"
    "When a skill file references a relative path, resolve it against the skill directory (parent of "
    "SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n"
)


def _report(items: list[dict[str, Any]], ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    return compile_report({"schemaVersion": 1, "id": "audit", "items": items, **stack}, ctx or {}).to_report()


def _system(content: str, ctx: dict[str, Any] | None = None, **stack: Any) -> str:
    return _report([{"kind": "block", "id": "b", "role": "system", "content": content}], ctx, **stack)["system"][
        "prompt"
    ]


def _messages(report: dict[str, Any]) -> list[str]:
    return [d["message"] for d in report["messages"]["diagnostics"]]


# --- policies x tool slots x iftools (§5, §6.3, §6.4, §6.5, §3.5) ------------------------------------

POLICY_CTX: dict[str, Any] = {
    "tools": [
        {"name": "read", "snippet": "Read"},
        {"name": "bash", "snippet": "Run"},
        {"name": "grep"},
        {"name": "a.b"},
        {"name": "a+b"},
        {"name": "read"},
        {"name": "x\ny"},
        {"name": "danger\u2028zone"},
    ],
    "skills": [
        {"name": "rev", "description": "R", "filePath": "/s/rev"},
        {"name": "hidden", "description": "H", "filePath": "/s/h", "disableModelInvocation": "false"},
        {"name": "zero", "description": "Z", "filePath": "/z", "disableModelInvocation": 0},
    ],
}


def _policy_report(tools: Any) -> dict[str, Any]:
    items = [
        {"kind": "block", "id": "b", "role": "system", "content": "[{{tools}}]{{iftools::bash::B::-}}{{iftools::read::R::-}}"},
        {"kind": "slot", "id": "g", "role": "system", "slot": "tool-guidelines", "options": {"format": "plain"}},
        {"kind": "slot", "id": "s", "role": "system", "slot": "skills", "options": {"format": "plain", "requireReadTool": True}},
    ]
    return _report(items, POLICY_CTX, **({"tools": tools} if tools is not None else {}))


@pytest.mark.parametrize(
    ("policy", "selected"),
    [
        # the rest of a wildcard pattern is literal: ``.`` and ``+`` are not regex metacharacters
        ({"allow": ["a.*", "read"]}, ["read", "a.b", "read"]),
        ({"allow": ["a+*"]}, ["a+b"]),
        # ``*`` never crosses a line terminator (U+000A, U+2028), so ``x*`` and ``danger*`` keep those names
        ({"deny": ["x*", "danger*", "a?b"]}, ["read", "bash", "grep", "a.b", "a+b", "read", "x\ny", "danger\u2028zone"]),
        # ... but a pattern that spells the terminator matches it
        ({"deny": ["x\n*", "danger\u2028*", "*.*", "*+*"]}, ["read", "bash", "grep", "read"]),
        ({"allow": ["*", "*"]}, ["read", "bash", "grep", "a.b", "a+b", "read", "x\ny", "danger\u2028zone"]),
    ],
)
def test_wildcards_feed_every_tool_consumer(policy: dict[str, Any], selected: list[str]) -> None:
    """§5: one filtered list (order and duplicates kept) behind ``{{tools}}`` and ``iftools``."""
    prompt = _policy_report(policy)["system"]["prompt"]
    flags = ("B" if "bash" in selected else "-") + ("R" if "read" in selected else "-")
    assert prompt.split("\n\n")[0] == f"[{', '.join(selected)}]{flags}"


def test_bash_guideline_and_skills_follow_the_filtered_tools() -> None:
    """§6.4 rule 1 and §6.5 ``requireReadTool`` look at the policy-filtered tools, not Pi's list."""
    # grep denied: bash is alone, so the bash line appears; read denied: the skills slot is empty
    report = _policy_report({"deny": ["gr*", "read"]})
    assert report["system"]["prompt"] == (
        "[bash, a.b, a+b, x\ny, danger\u2028zone]B-\n\nTool guidelines:\n- Use bash for file operations like ls, rg, find."
    )
    # with grep selected there is no bash line; skills: truthy "false" hides, 0 shows
    report = _policy_report(None)
    assert report["system"]["prompt"].endswith(
        "BR\n\n" + SKILLS_HEAD + "Available skills:\n- rev: R\n  Location: /s/rev\n- zero: Z\n  Location: /z"
    )


def test_allow_and_deny_together_keeps_allow() -> None:
    """§10.4: the normalised policy keeps only ``allow`` (one error), and the compile uses it."""
    report = _policy_report({"allow": ["read", "grep"], "deny": ["read"]})
    assert report["validation"]["stack"]["tools"] == {"allow": ["read", "grep"]}
    assert [d["message"] for d in report["validation"]["diagnostics"]].count(
        "tools policy must use either allow or deny, not both."
    ) == 1
    assert report["system"]["prompt"].startswith("[read, grep, read]-R\n\n" + SKILLS_HEAD)


# --- chat history: filters, limits, repair, history regex (§8.3–§8.6, §9.3) ----------------------------

HISTORY = [
    {"role": "compactionSummary", "summary": "sum😀", "tokensBefore": 10, "timestamp": 0},
    {"role": "user", "content": "héllo 😀", "timestamp": 1},
    {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "t"},
            {"type": "text", "text": "ok"},
            {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}},
        ],
        "timestamp": 2,
    },
    {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "file"}], "timestamp": 3},
    {"role": "assistant", "content": [{"type": "toolCall", "id": "c2", "name": "bash", "arguments": {}}], "timestamp": 4},
    {"role": "toolResult", "toolCallId": "c2", "content": [{"type": "text", "text": "out"}], "timestamp": 5},
    {"role": "bashExecution", "command": "ls", "output": "a\r\nb", "exitCode": 0, "timestamp": 6},
    {"role": "branchSummary", "summary": "br", "fromId": "x", "timestamp": 7},
    {"role": "user", "content": [{"type": "text", "text": "q2 ΣΑΣ"}, {"type": "image", "data": "x"}], "timestamp": 8},
]


def _history(options: dict[str, Any], rules: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    items = [
        {"kind": "block", "id": "s", "role": "system", "content": "L={{lastUserMessage}}"},
        {"kind": "slot", "id": "h", "slot": "chat-history", "options": options},
    ]
    return _report(items, {"messages": HISTORY}, **({"regex": {"rules": rules}} if rules else {}))


def test_last_user_summaries_and_max_chars_with_crlf_bash_output() -> None:
    """§8.3: last user removed, summaries dropped, then ``maxChars`` over preview texts (§8.9).

    The bash message measures ``Ran ls\\na\\r\\nb`` = 11 units; the older ``out`` result would make 14.
    ``{{lastUserMessage}}`` still comes from the unfiltered messages.
    """
    report = _history({"includeLastUserMessage": False, "includeSummaries": False, "maxChars": 12})
    assert report["messages"]["messages"] == [HISTORY[6]]
    assert _messages(report) == [
        "Filtered 2 chat-history message(s) by summary.",
        "Trimmed chat history from 6 to 1 message(s) by maxChars.",
    ]
    assert report["system"]["prompt"] == "L=q2 ΣΑΣ\n[image]"


def test_tool_drop_then_max_messages_never_repairs() -> None:
    report = _history({"toolMode": "drop", "maxMessages": 5})
    roles = [m["role"] for m in report["messages"]["messages"]]
    assert roles == ["user", "assistant", "bashExecution", "branchSummary", "user"]
    assert report["messages"]["messages"][1]["content"] == [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "ok"}]
    assert _messages(report) == [
        "Dropped tool history from chat-history: removed 2 tool call(s), dropped 2 tool result message(s), "
        "and dropped 1 empty message(s).",
        "Trimmed chat history from 6 to 5 message(s) by maxMessages.",
    ]


def test_history_rules_see_depth_of_the_repaired_history() -> None:
    """§9.3: history-stage depth is relative to the slot's filtered list; the non-``u`` ``i`` rule
    maps Σ case-insensitively; a rule id is trimmed in the statistics; sources count the final list."""
    rules = [
        {"id": "r1", "stage": "history", "pattern": "Σ", "flags": "gi", "replace": "s", "roles": ["user"]},
        {"id": " r2 ", "stage": "history", "pattern": "^", "flags": "gm", "replace": "> ", "maxDepth": 1},
        {"id": "r3", "stage": "compiled", "targets": ["messages"], "pattern": "\\r\\n", "flags": "g", "replace": "|"},
    ]
    report = _history({"maxMessages": 4}, rules)
    messages = report["messages"]["messages"]
    assert [m["role"] for m in messages] == ["bashExecution", "branchSummary", "user"]
    assert messages[2]["content"] == [{"type": "text", "text": "> q2 sΑs"}, {"type": "image", "data": "x"}]
    assert messages[0] == HISTORY[6]  # bash output is not content: no rule touches it
    assert _messages(report) == [
        "Trimmed chat history from 9 to 4 message(s) by maxMessages.",
        "Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), "
        "dropped 1 dangling tool result message(s).",
        "Regex rule r1 matched 2 time(s) and changed 1 text segment(s) in history/messages.",
        "Regex rule r2 matched 1 time(s) and changed 1 text segment(s) in history/messages.",
    ]
    assert [(s["historyIndex"], s["historyCount"], s["role"]) for s in report["messages"]["sources"]] == [
        (1, 3, "bashExecution"),
        (2, 3, "branchSummary"),
        (3, 3, "user"),
    ]


def test_regex_roles_read_missing_and_null_roles_as_text() -> None:
    """§9.3 / §16.14: ``undefined`` and ``null`` are role texts for regex rules; sources say ``""``."""
    msgs = [{"content": "no role x"}, {"role": None, "content": "null role x"}, {"role": "user", "content": "ux"}]
    rules = [{"id": "r", "stage": "history", "pattern": "x", "flags": "g", "replace": "Z", "roles": ["undefined", "null"]}]
    report = _report([{"kind": "slot", "id": "h", "slot": "chat-history"}], {"messages": msgs}, regex={"rules": rules})
    assert [m["content"] for m in report["messages"]["messages"]] == ["no role Z", "null role Z", "ux"]
    assert [s["role"] for s in report["messages"]["sources"]] == ["", "", "user"]


def test_duplicate_history_slots_start_from_the_original_messages() -> None:
    """§8.1: each allowed slot re-runs the pipeline on the original list; rules run per slot; the
    compiled rule sees the whole list (depth 0 = the last message)."""
    msgs = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": [{"type": "text", "text": "hello"}]}]
    items = [
        {"kind": "slot", "id": "h1", "slot": "chat-history", "options": {"roles": ["user"]}},
        {"kind": "slot", "id": "h2", "slot": "chat-history"},
    ]
    rules = [
        {"id": "c", "stage": "compiled", "targets": ["messages"], "pattern": "ell", "replace": "ELL", "maxDepth": 0},
        {"id": "hh", "stage": "history", "pattern": "^h", "replace": "J", "roles": ["user"]},
    ]
    report = _report(items, {"messages": msgs}, context={"allowDuplicateChatHistory": True}, regex={"rules": rules})
    assert [m["content"] for m in report["messages"]["messages"]] == [
        "Jello",
        "Jello",
        [{"type": "text", "text": "hELLo"}],
    ]
    assert msgs[0]["content"] == "hello"  # the input messages are never modified
    assert _messages(report) == [
        "Filtered 1 chat-history message(s) by role.",
        "Regex rule hh matched 1 time(s) and changed 1 text segment(s) in history/messages.",
        "Regex rule hh matched 1 time(s) and changed 1 text segment(s) in history/messages.",
        "Regex rule c matched 1 time(s) and changed 1 text segment(s) in compiled/messages.",
    ]


# --- local date and time (§0.11, §6.14; context-format ``now``/``timezone``) ----------------------------

DATE_CASES = [
    # Lord Howe: DST ends 02:00 -> 01:30 (a 30-minute shift); Sydney: DST starts 02:00 -> 03:00
    ("2026-04-05T14:59:59Z", "Australia/Lord_Howe", "2026-04-06", "01:29:59", 1775401199000),
    ("2026-04-05T15:00:00Z", "Australia/Lord_Howe", "2026-04-06", "01:30:00", 1775401200000),
    ("2026-10-04T15:59:59Z", "Australia/Sydney", "2026-10-05", "02:59:59", 1791129599000),
    ("2026-10-04T16:00:00Z", "Australia/Sydney", "2026-10-05", "03:00:00", 1791129600000),
    # negative half-hour offsets across the year boundary, fractional instant truncated to ms
    ("2026-01-01T03:29:59.999Z", "America/St_Johns", "2025-12-31", "23:59:59", 1767238199999),
    ("2026-06-15T21:29:59Z", "Pacific/Marquesas", "2026-06-15", "11:59:59", 1781558999000),
    ("2025-12-31T10:59:59Z", "Pacific/Pago_Pago", "2025-12-30", "23:59:59", 1767178799000),
    # POSIX-style Etc zones have inverted signs
    ("2026-03-01T00:00:00Z", "Etc/GMT+12", "2026-02-28", "12:00:00", 1772323200000),
    ("2026-03-01T00:00:00Z", "Etc/GMT-14", "2026-03-01", "14:00:00", 1772323200000),
    # leap day rolls into March; a fraction of one digit; a negative epoch with sub-ms digits
    ("2028-02-29T23:59:59.5+00:00", "Asia/Tokyo", "2028-03-01", "08:59:59", 1835481599500),
    ("1969-12-31T23:59:59.9999Z", "UTC", "1969-12-31", "23:59:59", -1),
    # southern-hemisphere DST start at midnight; ``-00:00``; minutes-only ``now``
    ("2026-09-06T03:59:59Z", "America/Santiago", "2026-09-05", "23:59:59", 1788667199000),
    ("2026-03-08T06:59:59.999-00:00", "America/Chicago", "2026-03-08", "00:59:59", 1772953199999),
    ("2026-01-01T00:00Z", "Asia/Kathmandu", "2026-01-01", "05:45:00", 1767225600000),
    # history before 1970: tz 2025c as Node 20.20.2 has it (the pinned ``tzdata``), not the operating
    # system's database, whose build keeps Amsterdam's local mean time and WET's 1970 rule (Node's output)
    ("1900-01-01T00:00:00Z", "Europe/Amsterdam", "1900-01-01", "00:00:00", -2208988800000),
    ("1970-01-01T00:00:00Z", "WET", "1970-01-01", "01:00:00", 0),
    ("1950-06-01T00:00:00Z", "America/Montreal", "1950-05-31", "20:00:00", -618105600000),
]


@pytest.mark.parametrize(("now", "zone", "date", "time", "timestamp"), DATE_CASES)
def test_date_time_edges(now: str, zone: str, date: str, time: str, timestamp: int) -> None:
    items = [
        {"kind": "block", "id": "b", "role": "system", "content": "{{date}} {{time}}"},
        {"kind": "slot", "id": "d", "role": "user", "slot": "date-cwd", "options": {"includeTime": True}},
    ]
    report = _report(items, {"now": now, "timezone": zone, "cwd": "C:\\w"})
    assert report["system"]["prompt"] == f"{date} {time}"
    message = report["messages"]["messages"][0]
    assert message["content"][0]["text"] == f"Current date: {date}\nCurrent time: {time}\nCurrent working directory: C:/w"
    assert message["timestamp"] == timestamp


# --- CRLF (§0.6, §3.2, §3.3) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # the whole expression is trimmed, each argument is not (only the last loses its CRLF)
        ("[{{ifvar::x\r\n::a\r\n::b\r\n}}][{{ifvar::y\r\n::a\r\n::b\r\n}}]", "[a\r\n][b]"),
        ("[{{\r\nupper\r\n::x\r\n}}]", "[X]"),
        ("{{setvar::k::l1\r\nl2\r\n::}}{{json::{{k}}}}", '"l1\\r\\nl2\\r\\n::"'),
        ("{{setvar::k::l1\r\nl2\r\n}}{{json::{{k}}}}", '"l1\\r\\nl2"'),
        ("{{ifeq::v::a\r\nb::T::F}}", "T"),
        ("{\r\n{x}}", "{\r\n{x}}"),
    ],
)
def test_crlf_in_macro_arguments(content: str, expected: str) -> None:
    assert _system(content, {"variables": {"x": "v", "v": "a\r\nb"}}) == expected


def test_crlf_unresolved_key_is_the_trimmed_expression() -> None:
    report = _report([{"kind": "block", "id": "b", "role": "system", "content": "{{ nope\r\n::a\r\n}}{{nope\r\n::a}}"}])
    assert report["system"]["prompt"] == "{{ nope\r\n::a\r\n}}{{nope\r\n::a}}"
    assert [d["message"] for d in report["system"]["diagnostics"]] == ["Unresolved macro: {{nope\r\n::a}}"]


def test_crlf_project_context_plain_trims_the_tail() -> None:
    """§6.6: lines split on ``\\n`` only (``\\r`` stays), then the joined text is ``trimEnd``ed."""
    ctx = {"contextFiles": [{"path": "A", "content": "a\r\n\r\nb\r\n"}, {"path": "B", "content": "x\r\n  \r\n"}]}
    items = [{"kind": "slot", "id": "p", "role": "system", "slot": "project-context", "options": {"format": "plain"}}]
    assert _report(items, ctx)["system"]["prompt"] == (
        "Project context:\n\nProject-specific instructions and guidelines:\n\n"
        "Path: A\n  a\r\n  \r\n  b\r\n  \n\nPath: B\n  x"
    )


# --- typed session values and evaluation order (§2, §4, §16.1) ----------------------------------------

TYPED = {"n": 2, "b": False, "z": None, "o": {"k": [1, 2]}, "a": [], "e": {}}


def test_typed_values_read_as_macro_text() -> None:
    assert _system("{{getvar::b}}|{{z}}|{{o}}|{{a}}|{{e}}", {"variables": TYPED}) == 'false|null|{"k":[1,2]}|[]|{}'
    assert _system("{{ifeq::b::false::T::F}}{{ifeq::a::[]::T::F}}{{ifeq::e::{}::T::F}}", {"variables": TYPED}) == "TTT"


def test_typed_values_round_trip_as_strings() -> None:
    """§4.3: writing the macro text back stores a string (dirty); clearing a null value removes it."""
    report = _report(
        [{"kind": "block", "id": "b", "role": "system", "content": "{{setsessionvar::n::{{n}}}}{{setvar::session::b::false}}{{clearsessionvar::z}}x"}],
        {"variables": TYPED},
    )
    assert report["variables"] == {
        "session": {"n": "2", "b": "false", "o": {"k": [1, 2]}, "a": [], "e": {}},
        "sessionDirty": True,
        "turn": {},
    }


def test_clearvar_without_scope_is_turn_only() -> None:
    report = _report([{"kind": "block", "id": "b", "role": "system", "content": "{{clearvar::z}}{{clearvar::turn::n}}x"}], {"variables": TYPED})
    assert report["variables"]["session"] == TYPED
    assert report["variables"]["sessionDirty"] is False


def test_variables_slot_pretty_prints_nested_values() -> None:
    items = [{"kind": "slot", "id": "v", "role": "system", "slot": "variables", "options": {"format": "plain"}}]
    assert _report(items, {"variables": TYPED})["system"]["prompt"] == (
        'Variables:\nsession:\n- a: []\n- b: false\n- e: {}\n- n: 2\n- o: {\n    "k": [\n      1,\n      2\n    ]\n  }\n- z: null'
    )


def test_system_compile_runs_before_messages_whatever_the_item_order() -> None:
    """§2: every system item expands first, so a user item earlier in the stack sees its writes,
    while a system item never sees writes made by message items; a variables slot shows the store
    as it stands where it renders."""
    items = [
        {"kind": "block", "id": "u1", "role": "user", "content": "U1 {{x}} {{getvar::y}} {{s}}"},
        {"kind": "slot", "id": "v1", "role": "user", "slot": "variables", "options": {"format": "plain", "includeStatic": False}},
        {"kind": "block", "id": "s1", "role": "system", "content": "{{setvar::x::X}}{{setsessionvar::s::{{n}}}}S1 {{y}}"},
        {"kind": "block", "id": "u2", "role": "assistant", "content": "{{setvar::y::Y}}A {{ifvar::y::has::no}}"},
        {"kind": "block", "id": "s2", "role": "system", "content": "S2 {{getvar::y}}|{{ifvar::y::has::no}}"},
    ]
    report = _report(items, {"variables": {"n": 1.50, "s": "1.5"}})
    assert report["system"]["prompt"] == "S1 {{y}}\n\nS2 |no"
    assert [d["message"] for d in report["system"]["diagnostics"]] == ["Unresolved macro: {{y}}"]
    assert [m["content"][0]["text"] for m in report["messages"]["messages"]] == [
        "U1 X  1.5",
        "Variables:\nsession:\n- n: 1.5\n- s: 1.5\nturn:\n- x: X",
        "A has",
    ]
    # writing the string a session variable already holds does not make the store dirty
    assert report["variables"] == {"session": {"n": 1.5, "s": "1.5"}, "sessionDirty": False, "turn": {"x": "X", "y": "Y"}}


# --- realistic agent stacks (every report section) ------------------------------------------------------


def _sources(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(s["kind"], s.get("itemId"), s.get("historyIndex"), s["role"]) for s in report["messages"]["sources"]]


def test_stack_roleplay_tavern() -> None:
    """Append mode, a Unicode stack id that falls back, skill deny, history thinking strip and
    summary filter, history rules per role and depth, a compiled system rule over the base prompt,
    finalize, and a session counter written in the system compile and read by a custom message."""
    stack = {
        "schemaVersion": 1,
        "id": "rp.tavern-ü",
        "mode": "append",
        "defaults": {"syntheticMessagesVisible": True, "unresolvedMacroPolicy": "error"},
        "tools": {"allow": ["read", "browser-*"]},
        "skills": {"deny": ["internal*"]},
        "variables": {"persona": "Ærin, the bard", "tone": "wry"},
        "regex": {
            "rules": [
                {"id": "ooc", "stage": "history", "pattern": "\\(OOC:[^)]*\\)\\s*", "flags": "g", "replace": "", "roles": ["user"]},
                {"id": "stars", "stage": "history", "pattern": "\\*([^*]+)\\*", "flags": "gu", "replace": "_$1_", "roles": ["assistant"], "maxDepth": 3},
                {"id": "tidy", "stage": "compiled", "targets": ["system"], "pattern": "\\n{3,}", "flags": "g", "replace": "\n\n"},
                {"id": "fin", "stage": "compiled", "effect": "finalize", "targets": ["messages"], "pattern": "As an AI", "flags": "gi", "replace": "As a bard"},
            ]
        },
        "items": [
            {"kind": "block", "id": "sys", "role": "system", "content": "You are {{persona}} ({{upper::{{tone}}}}).\r\nToday is {{date}} {{time}}.\r\n{{setsessionvar::turns::{{ifvar::turns::more::1}}}}{{iftools::browser-search::You may search.::No search.}}"},
            {"kind": "slot", "id": "tools", "role": "system", "slot": "tools"},
            {"kind": "slot", "id": "guide", "role": "system", "slot": "tool-guidelines", "options": {"piStyle": True}},
            {"kind": "slot", "id": "skills", "role": "system", "slot": "skills", "options": {"format": "plain", "requireReadTool": True}},
            {"kind": "slot", "id": "vars", "role": "system", "slot": "variables"},
            {"kind": "block", "id": "pre", "role": "user", "name": "  Scene  ", "content": "Scene: {{getvar::scene}} — {{lastUserMessage}}\n"},
            {"kind": "slot", "id": "hist", "role": "user", "slot": "chat-history", "options": {"maxMessages": 6, "stripAssistantThinking": True, "includeSummaries": False}},
            {"kind": "block", "id": "post", "role": "assistant", "content": "{{json::{{lastUserMessage}}}}"},
            {"kind": "block", "id": "note", "role": "custom", "content": "turns={{turns}} model={{activeModel}}"},
            {"kind": "block", "id": "off", "role": "user", "enabled": False, "content": "{{nope}}"},
        ],
    }
    asst = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5"}
    ctx = {
        "now": "2026-03-29T00:30:00.250+00:00",
        "timezone": "Europe/London",
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "api": "anthropic-messages"},
        "baseSystemPrompt": "BASE\n\n\n\nPROMPT",
        "tools": [
            {"name": "read", "snippet": "Read files"},
            {"name": "browser-search", "snippet": "Search <web>", "guidelines": ["Cite sources.", "  Cite sources.  "]},
            {"name": "bash", "snippet": "Run"},
        ],
        "skills": [
            {"name": "lore", "description": "World lore & maps", "filePath": "/s/lore/SKILL.md"},
            {"name": "internal-gm", "description": "GM", "filePath": "/s/gm/SKILL.md"},
        ],
        "variables": {"scene": "Ταβέρνα ΣΑΣ", "turns": 3, "flags": {"nsfw": False, "lang": "el"}},
        "messages": [
            {"role": "compactionSummary", "summary": "Earlier.", "tokensBefore": 900, "timestamp": 1},
            {"role": "user", "content": "Hello *waves* (OOC: keep it short)", "timestamp": 2},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "*bows* Welcome 🍺"}, {"type": "toolCall", "id": "t1", "name": "read", "arguments": {}}], **asst, "stopReason": "toolUse", "timestamp": 3},
            {"role": "toolResult", "toolCallId": "t1", "toolName": "read", "content": [{"type": "text", "text": "lore"}], "isError": False, "timestamp": 4},
            {"role": "assistant", "content": [{"type": "text", "text": "The *ale* is cold."}], **asst, "stopReason": "stop", "timestamp": 5},
            {"role": "branchSummary", "summary": "alt", "fromId": "e1", "timestamp": 6},
            {"role": "user", "content": "Order ale (OOC: İstanbul-style)", "timestamp": 7},
        ],
        "finalizeMessages": [{"role": "assistant", "content": [{"type": "text", "text": "as an ai, I sing"}]}],
    }
    report = compile_report(stack, ctx).to_report()
    assert report["validation"]["stackId"] == "stack"
    assert report["validation"]["usable"] is False
    assert [d["message"][:40] for d in report["validation"]["diagnostics"]] == [
        "Stack id rp.tavern-ü must start with a l",
        "skills policy only filters model-visible",
        "skills policy only filters pi-forge skil",
        'Regex rule fin effect "finalize" rewrite',
    ]
    assert report["system"]["prompt"] == (
        "BASE\n\nPROMPT\n\nYou are Ærin, the bard (WRY).\r\nToday is 2026-03-29 00:30:00.\r\nYou may search.\n\n"
        '<available_tools>\n  <tool name="read">Read files</tool>\n  <tool name="browser-search">Search &lt;web&gt;</tool>\n'
        "</available_tools>\n\n<tool_guidelines>\n- Cite sources.\n</tool_guidelines>\n\n"
        + SKILLS_HEAD
        + "Available skills:\n- lore: World lore & maps\n  Location: /s/lore/SKILL.md\n\n"
        '<variables>\n  <static>\n    <var name="persona">Ærin, the bard</var>\n    <var name="tone">wry</var>\n  </static>\n'
        '  <session>\n    <var name="flags">{\n  &quot;nsfw&quot;: false,\n  &quot;lang&quot;: &quot;el&quot;\n}</var>\n'
        '    <var name="scene">Ταβέρνα ΣΑΣ</var>\n    <var name="turns">more</var>\n  </session>\n</variables>'
    )
    assert [d["message"] for d in report["system"]["diagnostics"]] == [
        "Regex rule tidy matched 1 time(s) and changed 1 text segment(s) in compiled/system."
    ]
    texts = [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"] for m in report["messages"]["messages"]]
    assert texts == [
        "Scene: Ταβέρνα ΣΑΣ — Order ale (OOC: İstanbul-style)\n",
        "Hello *waves* ",
        "_bows_ Welcome 🍺",
        "lore",
        "The _ale_ is cold.",
        "Order ale ",
        '"Order ale (OOC: İstanbul-style)"',
        "turns=more model=anthropic/claude-sonnet-4-5",
    ]
    assert report["messages"]["messages"][0]["timestamp"] == 1774744200250
    assert report["messages"]["messages"][7]["display"] is True
    assert report["messages"]["messages"][7]["details"] == {"stackId": "stack"}
    assert _sources(report) == [
        ("stack-item", "pre", None, "user"),
        *[("chat-history", "hist", i, r) for i, r in enumerate(["user", "assistant", "toolResult", "assistant", "user"], 1)],
        ("stack-item", "post", None, "assistant"),
        ("stack-item", "note", None, "custom"),
    ]
    assert report["messages"]["sources"][0]["itemName"] == "  Scene  "
    assert _messages(report) == [
        "Filtered 2 chat-history message(s) by summary.",
        "Stripped 1 assistant thinking block(s) from 1 chat-history message(s).",
        "Regex rule ooc matched 2 time(s) and changed 2 text segment(s) in history/messages.",
        "Regex rule stars matched 2 time(s) and changed 2 text segment(s) in history/messages.",
    ]
    assert report["variables"]["session"]["turns"] == "more"
    assert report["variables"]["sessionDirty"] is True
    assert report["finalize"][0]["message"]["content"] == [{"type": "text", "text": "As a bard, I sing"}]
    assert report["fingerprints"]["promptStack"].startswith("sha256:v1:")


def test_stack_coding_agent_prepend() -> None:
    """Prepend mode, deny wildcards, ``onlyWithSnippets`` (an empty context snippet gives no entry),
    a system-role history slot in the system compile (warning) and in the messages compile, a
    skipped duplicate slot, a compiled rule over both targets and a depth-scoped role rule."""
    stack = {
        "schemaVersion": 1,
        "id": "coder",
        "mode": "prepend",
        "tools": {"deny": ["web*", "bash"]},
        "regex": {
            "rules": [
                {"id": "redact", "stage": "compiled", "targets": ["messages", "system"], "pattern": "sk-[A-Za-z0-9]{8,}", "flags": "g", "replace": "[REDACTED]"},
                {"id": "old", "stage": "compiled", "targets": ["messages"], "pattern": "[\\s\\S]+", "replace": "(elided)", "minDepth": 4, "roles": ["toolResult"]},
            ]
        },
        "items": [
            {"kind": "block", "id": "intro", "role": "system", "content": "Agent in {{cwd}} on {{activeModel}}. Key sk-ABCDEFGH1234 {{unknown}}"},
            {"kind": "slot", "id": "t", "role": "system", "slot": "tools", "options": {"onlyWithSnippets": True, "format": "plain"}},
            {"kind": "slot", "id": "h", "role": "system", "slot": "chat-history", "options": {"toolMode": "keep", "maxMessages": 7}},
            {"kind": "slot", "id": "h2", "role": "user", "slot": "chat-history"},
            {"kind": "block", "id": "remind", "role": "user", "content": "{{ifvar::plan::Plan: {{plan}}::No plan yet {{unknown}}}}"},
            {"kind": "block", "id": "x", "content": "no role"},
            {"kind": "slot", "id": "bad", "role": "system", "slot": "nonexistent"},
        ],
    }
    messages: list[dict[str, Any]] = []
    for i in range(1, 6):
        messages += [
            {"role": "user", "content": f"step {i} key sk-SECRET{i}abcdef", "timestamp": i * 10},
            {"role": "assistant", "content": [{"type": "toolCall", "id": f"call_{i}", "name": "read", "arguments": {"p": i}}], "timestamp": i * 10 + 1},
            {"role": "toolResult", "toolCallId": f"call_{i}", "toolName": "read", "content": [{"type": "text", "text": f"out {i}"}], "isError": False, "timestamp": i * 10 + 2},
        ]
    ctx = {
        "cwd": "C:\\work\\repo",
        "model": {"provider": "openai", "id": "gpt-5.1", "api": "openai-responses"},
        "baseSystemPrompt": "Pi base.",
        "tools": [
            {"name": "read", "snippet": "Read a file"},
            {"name": "bash", "snippet": "Shell"},
            {"name": "edit", "snippet": ""},
            {"name": "webfetch", "snippet": "Fetch"},
        ],
        "messages": messages,
    }
    report = compile_report(stack, ctx).to_report()
    assert [(d["level"], d.get("itemId")) for d in report["validation"]["diagnostics"]] == [
        ("warning", "x"),
        ("warning", "bad"),
        ("warning", None),
    ]
    assert report["system"]["prompt"] == (
        "Agent in C:\\work\\repo on openai/gpt-5.1. Key [REDACTED] {{unknown}}\n\nAvailable tools:\n- read: Read a file\n\nPi base."
    )
    assert [(d["message"], d.get("itemId")) for d in report["system"]["diagnostics"]] == [
        ("Unresolved macro: {{unknown}}", "intro"),
        ("chat-history slot cannot be placed in the system prompt.", "h"),
        ("Unsupported slot: nonexistent", "bad"),
        ("Regex rule redact matched 1 time(s) and changed 1 text segment(s) in compiled/system.", None),
    ]
    texts = [m["content"] if isinstance(m["content"], str) else m["content"][0].get("text", m["content"][0].get("id")) for m in report["messages"]["messages"]]
    assert texts == [
        "step 4 key [REDACTED]",
        "call_4",
        "(elided)",
        "step 5 key [REDACTED]",
        "call_5",
        "out 5",
        "No plan yet {{unknown}}",
    ]
    assert _sources(report)[-1] == ("stack-item", "remind", None, "user")
    assert [(d["message"], d.get("itemId")) for d in report["messages"]["diagnostics"]] == [
        ("Trimmed chat history from 15 to 7 message(s) by maxMessages.", "h"),
        ("Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), dropped 1 dangling tool result message(s).", "h"),
        ("Skipped duplicate chat-history slot.", "h2"),
        ("Unresolved macro: {{unknown}}", "remind"),
        ("Regex rule redact matched 2 time(s) and changed 2 text segment(s) in compiled/messages.", None),
        ("Regex rule old matched 1 time(s) and changed 1 text segment(s) in compiled/messages.", None),
    ]
    assert report["variables"] == {"session": {}, "sessionDirty": False, "turn": {}}


def test_stack_roleplay_long_cyrillic_history() -> None:
    """40 turns of Cyrillic/emoji roleplay: ``maxChars`` in UTF-16 units after the thinking strip,
    ``trimStrings`` on a capture, a ``maxMessages`` history rule, an ``iu`` compiled rule at depth 0,
    nested case macros over the latest message, and ``ifeq`` feeding a session write."""
    history: list[dict[str, Any]] = []
    for i in range(1, 41):
        history.append({"role": "user", "content": f"«{i}» Ты кто? 🌙", "timestamp": i * 100})
        history.append({"role": "assistant", "content": [{"type": "thinking", "thinking": "думаю"}, {"type": "text", "text": f"*смеётся* Я — Лиса №{i}. 🦊\n[OOC]"}], "timestamp": i * 100 + 1})
    stack = {
        "schemaVersion": 1,
        "id": "fox-rp",
        "defaults": {"syntheticMessagesVisible": False},
        "variables": {"char": "Лиса", "user": "Путник"},
        "regex": {
            "rules": [
                {"id": "ooc", "stage": "history", "pattern": "\\n?\\[OOC\\]", "flags": "g", "replace": ""},
                {"id": "stars", "stage": "history", "pattern": "\\*([^*]+)\\*", "flags": "gu", "replace": "($1)", "trimStrings": ["ё"], "roles": ["assistant"], "maxMessages": 2},
                {"id": "caps", "stage": "compiled", "targets": ["messages"], "pattern": "лиса", "flags": "giu", "replace": "ЛИСА", "maxDepth": 0},
            ]
        },
        "items": [
            {"kind": "block", "id": "card", "role": "system", "content": "{{char}} talks to {{user}}. {{setvar::session::mood::{{ifeq::mood::playful::sly::playful}}}}Mood: {{mood}}."},
            {"kind": "slot", "id": "vars", "role": "system", "slot": "variables", "options": {"format": "plain", "includeStatic": False}},
            {"kind": "block", "id": "jb", "role": "custom", "content": "[Stay in character as {{char}}; mood {{getsessionvar::mood}}]"},
            {"kind": "slot", "id": "hist", "slot": "chat-history", "options": {"maxChars": 120, "stripAssistantThinking": True}},
            {"kind": "block", "id": "nudge", "role": "assistant", "content": "{{char}}: {{lower::{{upper::{{lastUserMessage}}}}}}"},
        ],
    }
    report = compile_report(stack, {"now": "2026-12-31T21:30:00Z", "timezone": "Europe/Moscow", "variables": {"mood": "playful", "count": 7}, "messages": history}).to_report()
    assert report["validation"]["diagnostics"] == []
    assert report["system"] == {"prompt": "Лиса talks to Путник. Mood: sly.\n\nVariables:\nsession:\n- count: 7\n- mood: sly", "diagnostics": []}
    texts = [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"] for m in report["messages"]["messages"]]
    assert texts == [
        "[Stay in character as Лиса; mood sly]",
        "«39» Ты кто? 🌙",
        "(смется) Я — Лиса №39. 🦊",
        "«40» Ты кто? 🌙",
        "(смется) Я — Лиса №40. 🦊",
        "ЛИСА: «40» ты кто? 🌙",
    ]
    assert report["messages"]["messages"][0]["display"] is False
    assert report["messages"]["messages"][0]["timestamp"] == 1798752600000
    assert _messages(report) == [
        "Stripped 40 assistant thinking block(s) from 40 chat-history message(s).",
        "Trimmed chat history from 80 to 4 message(s) by maxChars.",
        "Regex rule ooc matched 2 time(s) and changed 2 text segment(s) in history/messages.",
        "Regex rule stars matched 2 time(s) and changed 2 text segment(s) in history/messages.",
        "Regex rule caps matched 1 time(s) and changed 1 text segment(s) in compiled/messages.",
    ]
    assert report["variables"] == {"session": {"mood": "sly", "count": 7}, "sessionDirty": True, "turn": {}}


def test_stack_research_agent_every_info_slot() -> None:
    """Allow wildcards for tools and skills, option values that are not strictly ``true`` or not
    exactly ``plain``, guidelines taken as given (also from a tool the policy removes), plain project
    context with an empty file, a null model, a trimmed append prompt, and a role filter + limit."""
    stack = {
        "schemaVersion": 1,
        "id": "research",
        "tools": {"allow": ["read", "web_*", "*search"]},
        "skills": {"allow": ["paper-*", "cite"]},
        "items": [
            {"kind": "block", "id": "role", "role": "system", "content": "Research assistant. {{date}} ({{time}})."},
            {"kind": "slot", "id": "dt", "role": "system", "slot": "date", "options": {"includeTime": "true"}},
            {"kind": "slot", "id": "tools", "role": "system", "slot": "tools", "options": {"format": "PLAIN"}},
            {"kind": "slot", "id": "gl", "role": "system", "slot": "tool-guidelines", "options": {"format": "plain", "heading": "Rules:", "includePiDefaultGuidelines": True}},
            {"kind": "slot", "id": "sk", "role": "system", "slot": "skills", "options": {"format": "xml", "requireReadTool": True}},
            {"kind": "slot", "id": "pc", "role": "system", "slot": "project-context", "options": {"format": "plain"}},
            {"kind": "slot", "id": "am", "role": "system", "slot": "active-model"},
            {"kind": "slot", "id": "asp", "role": "system", "slot": "append-system-prompt"},
            {"kind": "slot", "id": "h", "slot": "chat-history", "options": {"roles": ["user", "assistant", "toolResult"], "maxMessages": 4}},
            {"kind": "slot", "id": "d2", "role": "user", "slot": "date-cwd"},
        ],
    }
    ctx = {
        "now": "2026-01-01T00:00Z",
        "timezone": "Asia/Kathmandu",
        "cwd": "/data\\papers",
        "model": None,
        "appendSystemPrompt": "  Cite everything.  \n",
        "tools": [
            {"name": "read", "snippet": "Read files", "guidelines": ["Use read for PDFs.\nNever guess."]},
            {"name": "web_search", "snippet": "Search the web"},
            {"name": "arxiv-search", "snippet": "Search arXiv", "guidelines": ["Prefer arXiv ids."]},
            {"name": "bash", "snippet": "Shell", "guidelines": ["Be concise in your responses"]},
            {"name": "web_fetch", "active": False, "snippet": "Fetch"},
        ],
        "skills": [
            {"name": "paper-summary", "description": "Summarise <papers>", "filePath": "/s/ps/SKILL.md"},
            {"name": "cite", "description": "BibTeX & co", "filePath": "/s/cite/SKILL.md", "disableModelInvocation": None},
            {"name": "paperclip", "description": "x", "filePath": "/s/pc"},
        ],
        "contextFiles": [{"path": "/data/papers/AGENTS.md", "content": "# Notes\n\n- one\n"}, {"path": "/data/AGENTS.md", "content": ""}],
        "messages": [
            {"role": "user", "content": "find papers on ΣΑΣ"},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "s1", "name": "web_search", "arguments": {}}, {"type": "toolCall", "id": "s2", "name": "arxiv-search", "arguments": {}}]},
            {"role": "toolResult", "toolCallId": "s1", "content": [{"type": "text", "text": "r1"}]},
            {"role": "toolResult", "toolCallId": "s2", "content": [{"type": "text", "text": "r2"}]},
            {"role": "bashExecution", "command": "ls", "output": "x"},
            {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
        ],
    }
    report = compile_report(stack, ctx).to_report()
    assert report["system"]["prompt"] == (
        "Research assistant. 2026-01-01 (05:45:00).\n\nCurrent date: 2026-01-01\n\n"
        '<available_tools>\n  <tool name="read">Read files</tool>\n  <tool name="web_search">Search the web</tool>\n'
        '  <tool name="arxiv-search">Search arXiv</tool>\n</available_tools>\n\n'
        "Rules:\n- Use read for PDFs.\n  Never guess.\n- Prefer arXiv ids.\n- Be concise in your responses\n"
        "- Show file paths clearly when working with files\n\n"
        + SKILLS_HEAD
        + "<available_skills>\n  <skill>\n    <name>paper-summary</name>\n    <description>Summarise &lt;papers&gt;</description>\n"
        "    <location>/s/ps/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>cite</name>\n"
        "    <description>BibTeX &amp; co</description>\n    <location>/s/cite/SKILL.md</location>\n  </skill>\n"
        "</available_skills>\n\n"
        "Project context:\n\nProject-specific instructions and guidelines:\n\nPath: /data/papers/AGENTS.md\n"
        "  # Notes\n  \n  - one\n  \n\nPath: /data/AGENTS.md\n\nCurrent model: (none)\n\nCite everything."
    )
    assert report["system"]["diagnostics"] == []
    assert [d["level"] for d in report["validation"]["diagnostics"]] == ["info"]
    assert [m["role"] for m in report["messages"]["messages"]] == ["assistant", "toolResult", "toolResult", "assistant", "user"]
    assert report["messages"]["messages"][-1]["content"][0]["text"] == "Current date: 2026-01-01\nCurrent working directory: /data/papers"
    assert _messages(report) == [
        "Filtered 1 chat-history message(s) by role.",
        "Trimmed chat history from 5 to 4 message(s) by maxMessages.",
    ]


def test_stack_ops_agent_implicit_history_and_finalize() -> None:
    """No history slot (implicit history after the items), a deny pattern spelling U+2028, an object
    session value through ``getvar`` and a bare name, a named-group replacement, a rule that fails
    to compile (validation and compile time), and finalize per message."""
    stack = {
        "schemaVersion": 1,
        "id": "ops-agent",
        "mode": "append",
        "tools": {"deny": ["rm*", "danger\u2028*"]},
        "variables": {"env": "prod"},
        "regex": {
            "rules": [
                {"id": "sys-env", "stage": "compiled", "targets": ["system"], "pattern": "\\bprod\\b", "flags": "g", "replace": "PRODUCTION"},
                {"id": "tok", "stage": "compiled", "targets": ["messages"], "pattern": "(?<key>ghp_)\\w+", "flags": "g", "replace": "$<key>***"},
                {"id": "fin", "stage": "compiled", "effect": "finalize", "pattern": "\\s+$", "replace": ""},
                {"id": "broken", "stage": "compiled", "targets": ["messages"], "pattern": "(?<n>a)(?<n>b)"},
            ]
        },
        "items": [
            {"kind": "block", "id": "sys", "role": "system", "content": "Ops agent for {{env}}. Tools: {{tools}}.\r\n{{iftools::kubectl::Use kubectl carefully.::No cluster access.}}"},
            {"kind": "block", "id": "u-ctx", "role": "user", "content": "Environment: {{env}}\nSession: {{getvar::ticket}} / {{ticket}}"},
        ],
    }
    ctx = {
        "now": "2026-06-30T23:59:59.999+00:00",
        "timezone": "America/Los_Angeles",
        "baseSystemPrompt": "Base prompt (prod).",
        "tools": [{"name": "kubectl", "snippet": "k8s"}, {"name": "rm-rf"}, {"name": "danger\u2028zone"}, {"name": "logs"}],
        "variables": {"ticket": {"id": 4521, "tags": ["p1", "db"], "owner": None}},
        "messages": [
            {"role": "user", "content": "token ghp_abc123 leaked"},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "k1", "name": "kubectl", "arguments": {}}]},
        ],
        "finalizeMessages": [
            {"role": "assistant", "content": [{"type": "text", "text": "ok  \n"}, {"type": "toolCall", "id": "z"}]},
            {"role": "user", "content": "x  "},
        ],
    }
    report = compile_report(stack, ctx).to_report()
    compile_error = "Invalid regular expression: /(?<n>a)(?<n>b)/: Duplicate capture group name"
    assert report["validation"]["diagnostics"][-1] == {"level": "error", "message": f"Regex rule broken pattern failed to compile: {compile_error}"}
    assert report["system"]["prompt"] == "Base prompt (PRODUCTION).\n\nOps agent for PRODUCTION. Tools: kubectl, logs.\r\nUse kubectl carefully."
    assert [d["message"] for d in report["system"]["diagnostics"]] == [
        "Regex rule sys-env matched 2 time(s) and changed 1 text segment(s) in compiled/system."
    ]
    ticket = '{"id":4521,"tags":["p1","db"],"owner":null}'
    assert report["messages"]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": f"Environment: prod\nSession: {ticket} / {ticket}"}], "timestamp": 1782863999999},
        {"role": "user", "content": "token ghp_*** leaked"},
        ctx["messages"][1],
    ]
    assert _sources(report) == [
        ("stack-item", "u-ctx", None, "user"),
        ("implicit-history", None, 1, "user"),
        ("implicit-history", None, 2, "assistant"),
    ]
    assert _messages(report) == [
        f"Regex rule broken failed to compile: {compile_error}",
        "Regex rule tok matched 1 time(s) and changed 1 text segment(s) in compiled/messages.",
    ]
    assert report["finalize"] == [
        {
            "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "toolCall", "id": "z"}]},
            "diagnostics": [
                {"level": "info", "message": "Regex rule fin matched 1 time(s) and changed 1 text segment(s) in finalize/messages."},
                {
                    "level": "warning",
                    "message": "Finalize regex replaced finalized assistant message content; original model output is not preserved in the stored transcript.",
                },
            ],
        },
        {"message": None, "diagnostics": []},
    ]
