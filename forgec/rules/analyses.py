"""Rules of forgec's prompt analyses (FG870-FG899): cache stability, injection boundaries, budgets.

None of these exist in pi-forge: they use what forgec knows byte for byte -- where each stack item
ends up in the request -- to answer the questions a prompt author asks before shipping a stack:
will the provider's prompt cache hit next turn (FG87x), can text the author does not control reach
a place with authority (FG88x), does the prompt fit the budget the project set (FG89x).  The static
checks are in :mod:`forgec.lint.cache` and :mod:`forgec.lint.injection`; the budget is checked on a
compiled prompt by :mod:`forgec.analysis.tokens` (``forgec tokens``).

Each ``bad``/``good`` example is a whole stack (for FG890: a ``[tool.forgec]`` line, then the
stack), and the test suite runs every one of them through its check.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

VOLATILE_IN_SYSTEM = "FG870"
VOLATILE_BEFORE_HISTORY = "FG871"
UNTRUSTED_IN_SYSTEM = "FG880"
UNTRUSTED_AS_MACRO_NAME = "FG881"
UNTRUSTED_IN_REGEX_INSTRUCTION = "FG882"
UNTRUSTED_IN_ASSISTANT_TURN = "FG883"
PROMPT_TOKEN_BUDGET = "FG890"

register(
    Rule(
        VOLATILE_IN_SYSTEM,
        "volatile-in-system-prompt",
        "warning",
        "Content that changes from turn to turn ({{time}}, {{lastUserMessage}}, a date slot with "
        "includeTime, a variable set from such a value, a random-like plugin macro) in the system "
        "prompt. Every provider caches the request as a prefix, and the system prompt comes first: "
        "Anthropic writes a new cache entry at its system-prompt breakpoint every turn (and reads "
        "none), OpenAI's automatic prefix caching and Gemini's implicit cache stop matching at the "
        "changed byte, so the whole conversation is billed uncached. Move the item after the "
        "chat-history slot (a user block at the end) or drop the changing part.",
        bad='{"id": "s", "items": [{"kind": "block", "id": "clock", "role": "system", '
        '"content": "It is {{time}}."}, {"kind": "slot", "id": "h", "slot": "chat-history"}]}',
        good='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}, '
        '{"kind": "block", "id": "clock", "role": "user", "content": "It is {{time}}."}]}',
        pi_forge=False,
    ),
    Rule(
        VOLATILE_BEFORE_HISTORY,
        "volatile-before-history",
        "warning",
        "A message item before the chat-history slot whose text changes from turn to turn. The "
        "provider's cached prefix ends at that message, so the whole history after it is sent "
        "uncached every turn (Anthropic's breakpoint on the last message is never reached by a "
        "matching prefix; OpenAI and Gemini match prefixes only). Put such items after the history.",
        bad='{"id": "s", "items": [{"kind": "block", "id": "ask", "role": "user", '
        '"content": "Task: {{lastUserMessage}}"}, {"kind": "slot", "id": "h", "slot": "chat-history"}]}',
        good='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}, '
        '{"kind": "block", "id": "ask", "role": "user", "content": "Task: {{lastUserMessage}}"}]}',
        pi_forge=False,
    ),
    Rule(
        UNTRUSTED_IN_SYSTEM,
        "untrusted-text-in-system",
        "warning",
        "Text the user (or a tool result quoted by the user) controls reaches the system prompt: "
        "{{lastUserMessage}} in a system item, directly or through a variable it was stored in, or a "
        "variables slot in the system prompt that shows such a variable. Whatever the user types "
        "then speaks with the system prompt's authority. The finding names the path from the source "
        "to the system item. Quote user text in a user message instead. (Project context files and "
        "the appended system prompt are where Pi itself puts them and are not reported here.)",
        bad='{"id": "s", "items": [{"kind": "block", "id": "rules", "role": "system", '
        '"content": "Follow these rules: {{lastUserMessage}}"}]}',
        good='{"id": "s", "items": [{"kind": "block", "id": "rules", "role": "system", '
        '"content": "Follow the project rules."}, {"kind": "block", "id": "ask", "role": "user", '
        '"content": "<request>{{lastUserMessage}}</request>"}]}',
        pi_forge=False,
    ),
    Rule(
        UNTRUSTED_AS_MACRO_NAME,
        "untrusted-text-as-macro-name",
        "warning",
        "Untrusted text used as the name inside a macro: {{getvar::{{lastUserMessage}}}} lets the "
        "user choose which variable is read, {{setvar::{{lastUserMessage}}::…}} which one is "
        "overwritten (a persona, a session setting). pi-forge expands the inner macro and uses the "
        "result as a name, so the user's text is interpreted, not quoted. Use a fixed name and "
        "compare the text with {{ifeq::…}} instead.",
        bad='{"id": "s", "items": [{"kind": "block", "id": "pick", "role": "user", '
        '"content": "{{getvar::{{lastUserMessage}}}}"}]}',
        good='{"id": "s", "variables": {"mode": "brief"}, "items": [{"kind": "block", "id": "pick", '
        '"role": "user", "content": "{{getvar::mode}}"}]}',
        pi_forge=False,
    ),
    Rule(
        UNTRUSTED_IN_REGEX_INSTRUCTION,
        "untrusted-capture-in-regex-instruction",
        "warning",
        "A regex rule that captures text from user, tool-result or custom messages and writes it "
        "back inside instruction-like text ($1 wrapped in 'SYSTEM:', '<instructions>', 'You must' "
        "…). The replacement gives the captured, untrusted text the authority of the wrapper. "
        "Restrict the rule's roles to assistant, or keep the captured text out of the instruction.",
        bad='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}], "regex": '
        '{"schemaVersion": 1, "rules": [{"id": "promote", "stage": "history", "pattern": '
        '"NOTE: (.*)", "flags": "g", "replace": "<system_instructions>$1</system_instructions>"}]}}',
        good='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}], "regex": '
        '{"schemaVersion": 1, "rules": [{"id": "promote", "stage": "history", "pattern": '
        '"NOTE: (.*)", "flags": "g", "replace": "(note: $1)"}]}}',
        pi_forge=False,
    ),
    Rule(
        UNTRUSTED_IN_ASSISTANT_TURN,
        "untrusted-text-in-assistant-turn",
        "warning",
        "Untrusted text (the user's message, a variable stored from it, project context files, the "
        "appended system prompt, imported character fields) inside an assistant item: a prefilled "
        "or invented assistant turn. The model reads it as its own earlier words and continues from "
        "them, which is the strongest place an injection can sit. Quote such text in a user message.",
        bad='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}, {"kind": '
        '"block", "id": "prefill", "role": "assistant", "content": "Sure! {{lastUserMessage}}"}]}',
        good='{"id": "s", "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}, {"kind": '
        '"block", "id": "prefill", "role": "assistant", "content": "Sure! Here is the plan:"}]}',
        pi_forge=False,
    ),
    Rule(
        PROMPT_TOKEN_BUDGET,
        "prompt-token-budget",
        "error",
        "The compiled request is estimated above the budget set in [tool.forgec] max-prompt-tokens "
        "(a number for every stack and target, or a table with `default`, stack ids and target API "
        "names). The estimate is pi-ai's chars/4 (the one Pi uses to clamp the output cap); "
        "`forgec tokens` shows it per message, with real OpenAI counts where the [tokens] extra is "
        "installed. (The examples are compiled with the built-in sample context: about 1500 tokens.)",
        bad='max-prompt-tokens = 1000\n{"id": "s", "items": [{"kind": "block", "id": "a", "role": '
        '"system", "content": "You are a careful assistant. Answer briefly, cite files, never guess."}]}',
        good='max-prompt-tokens = 4000\n{"id": "s", "items": [{"kind": "block", "id": "a", "role": '
        '"system", "content": "You are a careful assistant. Answer briefly, cite files, never guess."}]}',
        pi_forge=False,
    ),
)
