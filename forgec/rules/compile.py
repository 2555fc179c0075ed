"""Rules of the compiler's own findings: system/message assembly (FG35x), the chat-history
pipeline (FG4xx) and regex rules at run time (FG62x).

Every message here is pi-forge's exact text (compile-core.md §13.2) except the regex time-out,
which pi-forge cannot produce (the reference simply hangs, import-regex.md A5.6).
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

CHAT_HISTORY_IN_SYSTEM = "FG350"
EMPTY_SYSTEM_PROMPT = "FG351"
DUPLICATE_CHAT_HISTORY = "FG352"

HISTORY_SUMMARY_FILTER = "FG401"
HISTORY_ROLE_FILTER = "FG402"
HISTORY_TOOL_MODE = "FG403"
HISTORY_TOOL_DROP = "FG404"
HISTORY_THINKING_STRIP = "FG405"
HISTORY_MAX_MESSAGES = "FG406"
HISTORY_MAX_CHARS = "FG407"
HISTORY_TOOL_REPAIR = "FG408"

REGEX_RUNTIME_COMPILE = "FG620"
REGEX_STATISTICS = "FG621"
REGEX_FINALIZE_REPLACED = "FG622"
REGEX_TIMEOUT = "FG623"
REGEX_BUDGET = "FG624"

register(
    Rule(
        CHAT_HISTORY_IN_SYSTEM,
        "chat-history-in-system",
        "warning",
        "A chat-history slot with role system: the system prompt cannot hold the conversation, so the "
        "slot is skipped there (it still inserts the history into the message list).",
        bad='{"kind": "slot", "id": "history", "role": "system", "slot": "chat-history"}',
        good='{"kind": "slot", "id": "history", "slot": "chat-history"}',
    ),
    Rule(
        EMPTY_SYSTEM_PROMPT,
        "empty-system-prompt",
        "warning",
        "Every system item rendered to blank text, so Pi's own base system prompt is kept unchanged "
        "(in every mode).",
        bad='{"items": [{"kind": "block", "id": "sys", "role": "system", "content": "   "}]}',
        good='{"items": [{"kind": "block", "id": "sys", "role": "system", "content": "You are terse."}]}',
    ),
    Rule(
        DUPLICATE_CHAT_HISTORY,
        "duplicate-chat-history",
        "warning",
        "A second chat-history slot is skipped unless context.allowDuplicateChatHistory is truthy.",
        bad='{"items": [{"kind": "slot", "id": "h1", "slot": "chat-history"},\n'
        '           {"kind": "slot", "id": "h2", "slot": "chat-history"}]}',
        good='{"context": {"allowDuplicateChatHistory": true}, "items": [...two chat-history slots...]}',
    ),
    Rule(
        HISTORY_SUMMARY_FILTER,
        "history-summaries-filtered",
        "info",
        "includeSummaries: false removed branch and compaction summaries from the inserted history.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"includeSummaries": false}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history"}',
    ),
    Rule(
        HISTORY_ROLE_FILTER,
        "history-roles-filtered",
        "info",
        "The roles option removed messages of other roles; tool pairs are repaired afterwards.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"roles": ["user"]}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"roles": ["user", "assistant", "toolResult"]}}',
    ),
    Rule(
        HISTORY_TOOL_MODE,
        "history-tool-mode-unsupported",
        "warning",
        'chat-history toolMode must be "keep" or "drop"; any other value keeps tool history.',
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "strip"}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "drop"}}',
    ),
    Rule(
        HISTORY_TOOL_DROP,
        "history-tools-dropped",
        "info",
        'toolMode "drop" removed tool calls and tool results from the inserted history.',
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "drop"}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "keep"}}',
    ),
    Rule(
        HISTORY_THINKING_STRIP,
        "history-thinking-stripped",
        "info",
        "stripAssistantThinking removed thinking blocks (and assistant messages left empty).",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"stripAssistantThinking": true}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history"}',
    ),
    Rule(
        HISTORY_MAX_MESSAGES,
        "history-trimmed-max-messages",
        "info",
        "maxMessages kept only the newest messages of the conversation.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 4}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history"}',
    ),
    Rule(
        HISTORY_MAX_CHARS,
        "history-trimmed-max-chars",
        "info",
        "maxChars kept only the newest messages that fit the character budget (UTF-16 units; the "
        "newest message is always kept).",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxChars": 2000}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history"}',
    ),
    Rule(
        HISTORY_TOOL_REPAIR,
        "history-tool-pairs-repaired",
        "info",
        "After a roles filter or a limit, tool calls without a result and results without a call were "
        "removed so the provider receives consistent tool pairs.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 3}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 3, "toolMode": "drop"}}',
    ),
    Rule(
        REGEX_RUNTIME_COMPILE,
        "regex-rule-compile-failed",
        "error",
        "A regex rule whose pattern JavaScript rejects is skipped at every place it would run; the "
        "error repeats at each of them.",
        bad='{"id": "r", "stage": "compiled", "pattern": "(unclosed", "replace": ""}',
        good='{"id": "r", "stage": "compiled", "pattern": "\\\\(unclosed", "replace": ""}',
    ),
    Rule(
        REGEX_STATISTICS,
        "regex-rule-matched",
        "info",
        "A regex rule matched: how often, and how many text segments it changed, per call site.",
        bad='{"id": "ooc", "stage": "history", "pattern": "\\\\(OOC:[^)]*\\\\)", "flags": "g"}',
        good="(informational; no change needed)",
    ),
    Rule(
        REGEX_FINALIZE_REPLACED,
        "regex-finalize-replaced",
        "warning",
        "A finalize-effect rule rewrote an assistant message; the model's original output is not kept "
        "in the stored transcript.",
        bad='{"id": "f", "stage": "compiled", "effect": "finalize", "pattern": "secret", "replace": "***"}',
        good='{"id": "f", "stage": "compiled", "effect": "outgoing", "pattern": "secret", "replace": "***"}',
    ),
    Rule(
        REGEX_TIMEOUT,
        "regex-rule-timeout",
        "error",
        "A regex rule ran longer than forgec's time limit (catastrophic backtracking) and was skipped "
        "at this call site; pi-forge would hang here.",
        bad='{"id": "slow", "stage": "compiled", "pattern": "(a|aa)+c", "flags": "g"}',
        good='{"id": "slow", "stage": "compiled", "pattern": "a+c", "flags": "g"}',
        pi_forge=False,
    ),
    Rule(
        REGEX_BUDGET,
        "regex-budget-exhausted",
        "error",
        "The regex rules of one compile together ran longer than forgec's overall time budget (5 s by "
        "default, compiling their patterns included), so this rule was skipped at this call site; every "
        "later rule application is skipped the same way, and a pattern not compiled yet is not compiled, "
        "so the compile still ends in bounded time. pi-forge has no such limit.",
        bad='{"regex": {"rules": [{"id": "e1", "stage": "compiled", "pattern": "(a|a)*$", "flags": "g"}, '
        '"…99 more copies…"]}}',
        good='{"regex": {"rules": [{"id": "e1", "stage": "compiled", "pattern": "a*$", "flags": "g"}]}}',
        pi_forge=False,
    ),
)
