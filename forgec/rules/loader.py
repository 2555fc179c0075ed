"""Rules of reading files (FG0xx) and of pi-forge's stack loader (FG1xx, compile-core.md §10, §13.1).

Every FG1xx message is pi-forge 0.4.1's exact text; one rule per distinct message (a message that
pi-forge emits from two places, such as ``Invalid role: <role>``, is one rule).  FG0xx rules are about
getting the file's text into data: ``json-parse-error`` and ``file-unreadable`` are pi-forge's
``Failed to parse JSON: …``; the YAML and limit rules are forgec's own.  The regex-configuration
checks of the loader (§10.6) are FG60x/FG63x rules in :mod:`forgec.rules.regex_config`.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

# --- FG0xx: reading ------------------------------------------------------------------------------
JSON_PARSE_ERROR = "FG001"
FILE_UNREADABLE = "FG002"
YAML_PARSE_ERROR = "FG003"
NESTING_TOO_DEEP = "FG004"
FILE_TOO_LARGE = "FG005"
YAML_ALIAS_EXPANSION = "FG006"
YAML_UNSUPPORTED_VALUE = "FG007"
YAML_VALUE_CONVERTED = "FG008"
BYTE_ORDER_MARK = "FG009"
INVALID_UTF8 = "FG010"
CONTEXT_INVALID = "FG011"
SETTINGS_INVALID = "FG012"

# --- FG1xx: raw shape checks (§10.3) -------------------------------------------------------------
STACK_ID_MISSING = "FG101"
STACK_TYPE_INVALID = "FG102"
STACK_NAME_TYPE = "FG103"
STACK_DESCRIPTION_TYPE = "FG104"
STACK_AUTO_ACTIVATE_TYPE = "FG105"
STACK_MODE_INVALID = "FG106"
STACK_DEFAULTS_TYPE = "FG107"
DEFAULTS_SYNTHETIC_VISIBLE_TYPE = "FG108"
DEFAULTS_MACRO_POLICY_INVALID = "FG109"
STACK_CONTEXT_TYPE = "FG110"
CONTEXT_DUPLICATE_HISTORY_TYPE = "FG111"
STACK_VARIABLES_TYPE = "FG112"
STACK_VARIABLE_VALUE_TYPE = "FG113"
ITEM_KIND_INVALID = "FG114"
ITEM_ID_MISSING = "FG115"
ITEM_NAME_TYPE = "FG116"
ITEM_ENABLED_TYPE = "FG117"
ITEM_ROLE_INVALID = "FG118"
ITEM_TAGS_TYPE = "FG119"
ITEM_SOURCE_TYPE = "FG120"
BLOCK_CONTENT_TYPE = "FG121"
SLOT_NAME_MISSING = "FG122"
SLOT_OPTIONS_TYPE = "FG123"
# --- normalisation (§10.4) -----------------------------------------------------------------------
STACK_ROOT_NOT_OBJECT = "FG124"
STACK_ID_INVALID = "FG125"
SCHEMA_VERSION_UNSUPPORTED = "FG126"
ITEM_NOT_OBJECT = "FG127"
ITEMS_MISSING = "FG128"
STATE_UNSUPPORTED = "FG129"
POLICY_TYPE = "FG130"
POLICY_LIST_TYPE = "FG131"
POLICY_ENTRY_INVALID = "FG132"
POLICY_ALLOW_AND_DENY = "FG133"
# --- validation (§10.5) --------------------------------------------------------------------------
STACK_ID_EMPTY = "FG134"
DUPLICATE_ITEM_ID = "FG135"
SLOT_NOT_REGISTERED = "FG136"
CHAT_HISTORY_OPTION_BOOLEAN = "FG137"
CHAT_HISTORY_ROLES_TYPE = "FG138"
CHAT_HISTORY_TOOL_MODE_INVALID = "FG139"
CHAT_HISTORY_LIMIT_INVALID = "FG140"
BLOCK_WITHOUT_ROLE = "FG141"
NO_CHAT_HISTORY = "FG142"
MULTIPLE_CHAT_HISTORY = "FG143"
DUPLICATE_POLICY_PATTERN = "FG144"
SKILLS_POLICY_NOT_SECURITY = "FG145"
SKILLS_POLICY_BASE_PROMPT = "FG146"
# --- files (§10.2 step 5, §10.7) -----------------------------------------------------------------
DEFAULT_JSON_AUTO_ACTIVATE = "FG147"
DUPLICATE_STACK_ID = "FG148"

_SLOT = '{"kind": "slot", "id": "history", "slot": "chat-history"}'

_RULES: tuple[tuple[str, str, str, str, str, str, bool], ...] = (
    # (code, name, level, summary, bad, good, pi_forge)
    (JSON_PARSE_ERROR, "json-parse-error", "error",
     "The file is not valid JSON (JSON.parse's reason follows). The stack becomes an empty fallback "
     "stack named after the file, and nothing else is checked.",
     '{"id": "broken", "items": [{"kind": "block", "id": "a",}]}',
     '{"id": "broken", "items": [{"kind": "block", "id": "a"}]}', True),
    (FILE_UNREADABLE, "file-unreadable", "error",
     "The stack file could not be read (missing, a directory, no permission).",
     "forgec validate .pi/forge/prompt-stacks/missing.json", "forgec validate .pi/forge/prompt-stacks/main.json", True),
    (YAML_PARSE_ERROR, "yaml-parse-error", "error",
     "The YAML stack file does not parse, holds several documents, or repeats a mapping key.",
     "id: writer\nitems:\n  - kind: block\n   id: a", "id: writer\nitems:\n  - kind: block\n    id: a", False),
    (NESTING_TOO_DEEP, "nesting-too-deep", "error",
     "The document nests lists/objects deeper than forgec reads (5000 levels; pi-forge has no limit). "
     "YAML flow collections ([...], {...}) stop at 1000 levels, because the YAML parser's time grows "
     "with the square of that depth; a context file stops at 500 levels.",
     '{"id": "x", "items": [], "defaults": [[[[ ... 6000 levels ... ]]]]}', '{"id": "x", "items": []}', False),
    (FILE_TOO_LARGE, "file-too-large", "error",
     "The file is larger than forgec reads (64 MiB for JSON, 4 MiB for YAML).",
     "a 100 MB stack.json", "split large content into several smaller stacks", False),
    (YAML_ALIAS_EXPANSION, "yaml-alias-expansion", "error",
     "YAML aliases expand to too many values (an \"alias bomb\") or refer to themselves.",
     "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]  # ... doubling again and again",
     "defaults: &d {syntheticMessagesVisible: true}\n", False),
    (YAML_UNSUPPORTED_VALUE, "yaml-unsupported-value", "error",
     "A YAML value JSON cannot represent: .nan, !!set, !!binary, !!omap, a custom !tag, or a list/mapping used as a key.",
     "variables:\n  tags: !!set {a, b}", "variables:\n  tags: \"a, b\"", False),
    (YAML_VALUE_CONVERTED, "yaml-value-converted", "warning",
     "YAML read a plain scalar as a date, or a key as a number/boolean/null; forgec keeps it as text. Quote it.",
     "variables:\n  released: 2024-01-01", "variables:\n  released: \"2024-01-01\"", False),
    (BYTE_ORDER_MARK, "byte-order-mark", "info",
     "The JSON file starts with a UTF-8 byte-order mark. pi-forge reads it with JSON.parse, which refuses "
     "the mark (the FG001 error); save the file as UTF-8 without BOM.",
     "\\ufeff{\"id\": \"writer\", \"items\": []}  (the file starts with the bytes EF BB BF)",
     '{"id": "writer", "items": []}', False),
    (INVALID_UTF8, "invalid-utf8", "warning",
     "The file holds bytes that are not valid UTF-8. pi-forge reads them silently as U+FFFD, "
     "so the text it uses differs from what was written; re-save the file as UTF-8.",
     "{\"id\": \"caf\\xe9\", \"items\": []}  (a Latin-1 byte E9)", '{"id": "café", "items": []}', False),
    (CONTEXT_INVALID, "invalid-context", "error",
     "A context file (--context, the pytest fixture's context=) breaks a rule of the context format: "
     "an unknown field, a value of the wrong type, a date-time without offset, an unknown time zone. "
     "Every problem is reported, each at its line and column; the command exits with code 2.",
     '{"now": "2026-03-14 09:26", "timeZone": "Europe/Berlin", "tools": [{"name": "read", "active": "yes"}]}',
     '{"now": "2026-03-14T09:26:00+01:00", "timezone": "Europe/Berlin", "tools": [{"name": "read", "active": true}]}',
     False),
    (SETTINGS_INVALID, "invalid-settings", "error",
     "[tool.forgec] in pyproject.toml breaks a rule of forgec's settings: an unknown key, a value of the wrong "
     "type, an unknown rule selector, or TOML that does not parse. Every command refuses to run with it (exit "
     "code 2), since checking with the defaults would check the wrong thing; the language server shows it on "
     "the file as you type.",
     '[tool.forgec]\nselect = "FG1"\nstrcit = true', '[tool.forgec]\nselect = ["FG1"]\nstrict = true', False),
    (STACK_ID_MISSING, "stack-id-missing", "error",
     "The stack has no id, or it is not a non-blank string (the file name is used instead).",
     '{"schemaVersion": 1, "items": []}', '{"schemaVersion": 1, "id": "writer", "items": []}', True),
    (STACK_TYPE_INVALID, "stack-type-invalid", "error",
     'type must be exactly "pi-forge.prompt-stack" when it is given.',
     '{"type": "prompt-stack", "id": "w", "items": []}',
     '{"type": "pi-forge.prompt-stack", "id": "w", "items": []}', True),
    (STACK_NAME_TYPE, "stack-name-type", "error", "The stack's name must be a string.",
     '{"id": "w", "name": 42, "items": []}', '{"id": "w", "name": "Writer", "items": []}', True),
    (STACK_DESCRIPTION_TYPE, "stack-description-type", "error", "The stack's description must be a string.",
     '{"id": "w", "description": ["a"], "items": []}', '{"id": "w", "description": "a", "items": []}', True),
    (STACK_AUTO_ACTIVATE_TYPE, "stack-auto-activate-type", "error",
     "autoActivate must be a boolean (a string such as \"true\" is ignored).",
     '{"id": "w", "autoActivate": "yes", "items": []}', '{"id": "w", "autoActivate": true, "items": []}', True),
    (STACK_MODE_INVALID, "stack-mode-invalid", "error",
     'mode must be "append", "prepend" or "replace"; any other value behaves as "replace".',
     '{"id": "w", "mode": "merge", "items": []}', '{"id": "w", "mode": "append", "items": []}', True),
    (STACK_DEFAULTS_TYPE, "stack-defaults-type", "error", "defaults must be an object.",
     '{"id": "w", "defaults": true, "items": []}',
     '{"id": "w", "defaults": {"syntheticMessagesVisible": true}, "items": []}', True),
    (DEFAULTS_SYNTHETIC_VISIBLE_TYPE, "defaults-synthetic-visible-type", "error",
     "defaults.syntheticMessagesVisible must be a boolean; the raw value is still used (reported twice: "
     "raw and normalised).",
     '{"defaults": {"syntheticMessagesVisible": "false"}}', '{"defaults": {"syntheticMessagesVisible": false}}', True),
    (DEFAULTS_MACRO_POLICY_INVALID, "defaults-macro-policy-invalid", "error",
     'defaults.unresolvedMacroPolicy must be "warn", "keep" or "error".',
     '{"defaults": {"unresolvedMacroPolicy": "ignore"}}', '{"defaults": {"unresolvedMacroPolicy": "keep"}}', True),
    (STACK_CONTEXT_TYPE, "stack-context-type", "error", "context must be an object.",
     '{"id": "w", "context": "chat", "items": []}',
     '{"id": "w", "context": {"allowDuplicateChatHistory": true}, "items": []}', True),
    (CONTEXT_DUPLICATE_HISTORY_TYPE, "context-duplicate-history-type", "error",
     "context.allowDuplicateChatHistory must be a boolean; the raw value is still used for its truthiness.",
     '{"context": {"allowDuplicateChatHistory": "yes"}}', '{"context": {"allowDuplicateChatHistory": true}}', True),
    (STACK_VARIABLES_TYPE, "stack-variables-type", "error", "variables must be an object of strings.",
     '{"id": "w", "variables": ["char"], "items": []}', '{"id": "w", "variables": {"char": "Ada"}, "items": []}', True),
    (STACK_VARIABLE_VALUE_TYPE, "stack-variable-value-type", "error",
     "A static variable's value must be a string; other values are dropped.",
     '{"variables": {"count": 3}}', '{"variables": {"count": "3"}}', True),
    (ITEM_KIND_INVALID, "item-kind-invalid", "error",
     'An item\'s kind must be "block" or "slot"; anything else is treated as a block.',
     '{"kind": "text", "id": "a", "role": "system", "content": "Hi"}',
     '{"kind": "block", "id": "a", "role": "system", "content": "Hi"}', True),
    (ITEM_ID_MISSING, "item-id-missing", "error",
     "An item needs a non-blank string id (a number becomes its string form, a missing id item-<n>).",
     '{"kind": "block", "id": 7, "role": "system", "content": "Hi"}',
     '{"kind": "block", "id": "intro", "role": "system", "content": "Hi"}', True),
    (ITEM_NAME_TYPE, "item-name-type", "error", "An item's name must be a string.",
     '{"kind": "block", "id": "a", "name": 1, "content": ""}', '{"kind": "block", "id": "a", "name": "A", "content": ""}', True),
    (ITEM_ENABLED_TYPE, "item-enabled-type", "error",
     "enabled must be a boolean; only false disables, so \"false\" leaves the item enabled.",
     '{"kind": "block", "id": "a", "enabled": "false", "content": ""}',
     '{"kind": "block", "id": "a", "enabled": false, "content": ""}', True),
    (ITEM_ROLE_INVALID, "item-role-invalid", "error",
     'role must be "system", "user", "assistant" or "custom"; an invalid role is dropped.',
     '{"kind": "block", "id": "a", "role": "developer", "content": "Hi"}',
     '{"kind": "block", "id": "a", "role": "system", "content": "Hi"}', True),
    (ITEM_TAGS_TYPE, "item-tags-type", "error", "tags must be a list of strings (non-strings are dropped).",
     '{"kind": "block", "id": "a", "tags": "x", "content": ""}', '{"kind": "block", "id": "a", "tags": ["x"], "content": ""}', True),
    (ITEM_SOURCE_TYPE, "item-source-type", "error", "source must be an object.",
     '{"kind": "block", "id": "a", "source": "st", "content": ""}',
     '{"kind": "block", "id": "a", "source": {"from": "st"}, "content": ""}', True),
    (BLOCK_CONTENT_TYPE, "block-content-type", "error", "A block's content must be a string (it becomes \"\").",
     '{"kind": "block", "id": "a", "role": "system"}', '{"kind": "block", "id": "a", "role": "system", "content": "Hi"}', True),
    (SLOT_NAME_MISSING, "slot-name-missing", "error",
     "A slot item needs a non-blank slot name (reported for the raw and the normalised stack).",
     '{"kind": "slot", "id": "h"}', _SLOT, True),
    (SLOT_OPTIONS_TYPE, "slot-options-type", "error", "A slot's options must be an object.",
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": [1]}',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 20}}', True),
    (STACK_ROOT_NOT_OBJECT, "stack-root-not-object", "error",
     "The file must hold one JSON object; anything else loads as an empty fallback stack.",
     '[{"kind": "block", "id": "a"}]', '{"id": "w", "items": [{"kind": "block", "id": "a", "content": ""}]}', True),
    (STACK_ID_INVALID, "stack-id-invalid", "error",
     "A stack id must start with a letter or digit and use only letters, digits, '.', '_' and '-'; "
     "the file name is used instead.",
     '{"id": "my stack!", "items": []}', '{"id": "my-stack", "items": []}', True),
    (SCHEMA_VERSION_UNSUPPORTED, "schema-version-unsupported", "warning",
     "schemaVersion is missing or not 1; the stack is read as version 1.",
     '{"id": "w", "items": []}', '{"schemaVersion": 1, "id": "w", "items": []}', True),
    (ITEM_NOT_OBJECT, "item-not-object", "error",
     "Every item must be an object; anything else becomes a disabled empty block.",
     '{"items": ["intro"]}', '{"items": [{"kind": "block", "id": "intro", "role": "system", "content": "Hi"}]}', True),
    (ITEMS_MISSING, "items-missing", "error", "The stack must have an items list.",
     '{"id": "w"}', '{"id": "w", "items": []}', True),
    (STATE_UNSUPPORTED, "state-unsupported", "info",
     "The legacy state object is ignored; use variables and the variable macros.",
     '{"state": {"mood": "calm"}}', '{"variables": {"mood": "calm"}}', True),
    (POLICY_TYPE, "policy-type", "error", "tools/skills must be a policy object {allow: [...]} or {deny: [...]}.",
     '{"tools": ["read"]}', '{"tools": {"allow": ["read"]}}', True),
    (POLICY_LIST_TYPE, "policy-list-type", "error", "A policy's allow/deny must be a list of strings.",
     '{"tools": {"allow": "read"}}', '{"tools": {"allow": ["read"]}}', True),
    (POLICY_ENTRY_INVALID, "policy-entry-invalid", "error", "Every policy pattern must be a non-blank string.",
     '{"skills": {"deny": ["web", ""]}}', '{"skills": {"deny": ["web"]}}', True),
    (POLICY_ALLOW_AND_DENY, "policy-allow-and-deny", "error",
     "A policy uses either allow or deny; with both, only allow is kept.",
     '{"tools": {"allow": ["read"], "deny": ["bash"]}}', '{"tools": {"allow": ["read"]}}', True),
    (STACK_ID_EMPTY, "stack-id-empty", "error", "The normalised stack id is blank (a blank file name).",
     'a file named " .json" without an id', '{"id": "w", "items": []}', True),
    (DUPLICATE_ITEM_ID, "duplicate-item-id", "error", "Two items have the same id (after trimming).",
     '{"items": [{"kind": "block", "id": "a", "content": ""}, {"kind": "block", "id": " a", "content": ""}]}',
     '{"items": [{"kind": "block", "id": "a", "content": ""}, {"kind": "block", "id": "b", "content": ""}]}', True),
    (SLOT_NOT_REGISTERED, "slot-not-registered", "warning",
     "The slot name is not a built-in (or registered) slot; it renders nothing.",
     '{"kind": "slot", "id": "h", "slot": "history"}', _SLOT, True),
    (CHAT_HISTORY_OPTION_BOOLEAN, "chat-history-option-boolean", "warning",
     "includeLastUserMessage, stripAssistantThinking and includeSummaries should be booleans.",
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"includeSummaries": "no"}}',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"includeSummaries": false}}', True),
    (CHAT_HISTORY_ROLES_TYPE, "chat-history-roles-type", "error", "chat-history roles must be a list of strings.",
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"roles": "user"}}',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"roles": ["user"]}}', True),
    (CHAT_HISTORY_TOOL_MODE_INVALID, "chat-history-tool-mode-invalid", "error",
     'chat-history toolMode must be "keep" or "drop".',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "strip"}}',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"toolMode": "drop"}}', True),
    (CHAT_HISTORY_LIMIT_INVALID, "chat-history-limit-invalid", "error",
     "chat-history maxMessages and maxChars must be positive integers.",
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 0}}',
     '{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 20}}', True),
    (BLOCK_WITHOUT_ROLE, "block-without-role", "warning",
     "An enabled block without a role renders nowhere.",
     '{"kind": "block", "id": "a", "content": "Hi"}', '{"kind": "block", "id": "a", "role": "system", "content": "Hi"}', True),
    (NO_CHAT_HISTORY, "no-chat-history", "warning",
     "No enabled chat-history slot: Pi's conversation is appended after the stack's messages.",
     '{"items": [{"kind": "block", "id": "a", "role": "system", "content": "Hi"}]}',
     '{"items": [{"kind": "block", "id": "a", "role": "system", "content": "Hi"}, ' + _SLOT + "]}", True),
    (MULTIPLE_CHAT_HISTORY, "multiple-chat-history", "warning",
     "More than one enabled chat-history slot; only the first expands unless "
     "context.allowDuplicateChatHistory is true.",
     '{"items": [{"kind": "slot", "id": "h1", "slot": "chat-history"}, {"kind": "slot", "id": "h2", "slot": "chat-history"}]}',
     '{"items": [{"kind": "slot", "id": "h1", "slot": "chat-history"}]}', True),
    (DUPLICATE_POLICY_PATTERN, "duplicate-policy-pattern", "warning", "A policy pattern is listed twice.",
     '{"tools": {"allow": ["read", "read"]}}', '{"tools": {"allow": ["read"]}}', True),
    (SKILLS_POLICY_NOT_SECURITY, "skills-policy-not-security", "info",
     "A skills policy only filters the skills slots; it does not disable skills.",
     '{"skills": {"deny": ["web-*"]}}', "(informational; no change needed)", True),
    (SKILLS_POLICY_BASE_PROMPT, "skills-policy-base-prompt", "warning",
     "In append/prepend mode Pi's base prompt still lists every skill, whatever the skills policy says.",
     '{"mode": "append", "skills": {"deny": ["web-*"]}}', '{"mode": "replace", "skills": {"deny": ["web-*"]}}', True),
    (DEFAULT_JSON_AUTO_ACTIVATE, "default-json-auto-activate", "warning",
     "default.json no longer auto-activates by its name; say autoActivate explicitly.",
     'default.json: {"id": "default", "items": []}', 'default.json: {"id": "default", "autoActivate": true, "items": []}', True),
    (DUPLICATE_STACK_ID, "duplicate-stack-id", "error",
     "Two stack files of the same scope declare the same id; neither can be selected by that id.",
     'a.json and b.json both with "id": "writer"', 'a.json "id": "writer", b.json "id": "reviewer"', True),
)

register(*(Rule(code, name, level, summary, bad, good, pi) for code, name, level, summary, bad, good, pi in _RULES))
