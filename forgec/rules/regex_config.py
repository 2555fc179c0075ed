"""Rules of the loader's regex-configuration checks (compile-core.md §10.6): FG601–FG619, FG631–FG640.

pi-forge's exact texts; ``<L>`` is ``Regex rule <trimmed id>`` or ``regex rule <n>``.  FG620–FG629
belong to the regex rules at compile time (:mod:`forgec.rules.compile`).
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

REGEX_NOT_OBJECT = "FG601"
REGEX_SCHEMA_VERSION = "FG602"
REGEX_RULES_NOT_ARRAY = "FG603"
REGEX_RULE_NOT_OBJECT = "FG604"
REGEX_RULE_ID_MISSING = "FG605"
REGEX_RULE_ID_DUPLICATE = "FG606"
REGEX_RULE_ENABLED_TYPE = "FG607"
REGEX_RULE_STAGE_INVALID = "FG608"
REGEX_RULE_EFFECT_INVALID = "FG609"
REGEX_EFFECT_DISPLAY = "FG610"
REGEX_EFFECT_BOTH = "FG611"
REGEX_EFFECT_FINALIZE = "FG612"
REGEX_FINALIZE_STAGE = "FG613"
REGEX_PATTERN_MISSING = "FG614"
REGEX_FLAGS_TYPE = "FG615"
REGEX_FLAG_UNSUPPORTED = "FG616"
REGEX_FLAG_DUPLICATE = "FG617"
REGEX_PATTERN_INVALID = "FG618"
REGEX_REPLACE_TYPE = "FG619"
REGEX_SILLYTAVERN_MATCH = "FG631"
REGEX_TRIM_STRINGS_TYPE = "FG632"
REGEX_ROLES_TYPE = "FG633"
REGEX_TARGETS_TYPE = "FG634"
REGEX_TARGET_INVALID = "FG635"
REGEX_FINALIZE_TARGET = "FG636"
REGEX_FINALIZE_ROLES = "FG637"
REGEX_LIMIT_INVALID = "FG638"
REGEX_DEPTH_INVALID = "FG639"
REGEX_DEPTH_ORDER = "FG640"


def _rule(extra: str) -> str:
    return '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "x"' + extra + "}]}}"


_GOOD = _rule("")

register(
    Rule(REGEX_NOT_OBJECT, "regex-not-object", "warning", "regex must be an object; anything else is ignored.",
         '{"regex": [{"id": "r"}]}', '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "x"}]}}'),
    Rule(REGEX_SCHEMA_VERSION, "regex-schema-version", "warning", "regex.schemaVersion must be 1 when given.",
         '{"regex": {"schemaVersion": 2, "rules": []}}', '{"regex": {"schemaVersion": 1, "rules": []}}'),
    Rule(REGEX_RULES_NOT_ARRAY, "regex-rules-not-array", "error", "regex.rules must be a list.",
         '{"regex": {"rules": {"id": "r"}}}', '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "x"}]}}'),
    Rule(REGEX_RULE_NOT_OBJECT, "regex-rule-not-object", "error", "Every regex rule must be an object.",
         '{"regex": {"rules": ["s/a/b/"]}}', _GOOD),
    Rule(REGEX_RULE_ID_MISSING, "regex-rule-id-missing", "error", "Every regex rule needs a non-blank id.",
         '{"regex": {"rules": [{"stage": "compiled", "pattern": "x"}]}}', _GOOD),
    Rule(REGEX_RULE_ID_DUPLICATE, "regex-rule-id-duplicate", "error", "Two regex rules have the same id.",
         '{"regex": {"rules": [{"id": "r", ...}, {"id": "r", ...}]}}', '{"regex": {"rules": [{"id": "r1", ...}, {"id": "r2", ...}]}}'),
    Rule(REGEX_RULE_ENABLED_TYPE, "regex-rule-enabled-type", "warning",
         "A regex rule's enabled must be a boolean (other values leave it enabled).", _rule(', "enabled": "no"'),
         _rule(', "enabled": false')),
    Rule(REGEX_RULE_STAGE_INVALID, "regex-rule-stage-invalid", "error", 'stage must be "history" or "compiled".',
         '{"regex": {"rules": [{"id": "r", "stage": "output", "pattern": "x"}]}}', _GOOD),
    Rule(REGEX_RULE_EFFECT_INVALID, "regex-rule-effect-invalid", "error",
         'effect must be "outgoing", "display", "both" or "finalize".', _rule(', "effect": "replace"'),
         _rule(', "effect": "outgoing"')),
    Rule(REGEX_EFFECT_DISPLAY, "regex-effect-display", "warning",
         'effect "display" has no runtime effect in pi-forge yet; the rule is ignored.', _rule(', "effect": "display"'),
         _GOOD),
    Rule(REGEX_EFFECT_BOTH, "regex-effect-both", "warning",
         'effect "both" is not implemented; the rule is ignored. Write an outgoing and a finalize rule.',
         _rule(', "effect": "both"'), _GOOD),
    Rule(REGEX_EFFECT_FINALIZE, "regex-effect-finalize", "warning",
         'effect "finalize" rewrites the stored assistant output; the original text is lost.',
         _rule(', "effect": "finalize"'), _GOOD),
    Rule(REGEX_FINALIZE_STAGE, "regex-finalize-stage", "error", 'effect "finalize" needs stage "compiled".',
         '{"regex": {"rules": [{"id": "r", "stage": "history", "effect": "finalize", "pattern": "x"}]}}',
         _rule(', "effect": "finalize"')),
    Rule(REGEX_PATTERN_MISSING, "regex-pattern-missing", "error", "A regex rule needs a non-empty pattern string.",
         '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": ""}]}}', _GOOD),
    Rule(REGEX_FLAGS_TYPE, "regex-flags-type", "error", "flags must be a string such as \"gi\".",
         _rule(', "flags": ["g"]'), _rule(', "flags": "g"')),
    Rule(REGEX_FLAG_UNSUPPORTED, "regex-flag-unsupported", "error", "Only the flags g, i, m, s and u are supported.",
         _rule(', "flags": "gy"'), _rule(', "flags": "g"')),
    Rule(REGEX_FLAG_DUPLICATE, "regex-flag-duplicate", "error", "A flag is given twice.",
         _rule(', "flags": "gig"'), _rule(', "flags": "gi"')),
    Rule(REGEX_PATTERN_INVALID, "regex-pattern-invalid", "error",
         "The pattern is not a valid JavaScript regular expression (the engine's reason follows).",
         '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "(unclosed"}]}}',
         '{"regex": {"rules": [{"id": "r", "stage": "compiled", "pattern": "\\\\(unclosed"}]}}'),
    Rule(REGEX_REPLACE_TYPE, "regex-replace-type", "error", "replace must be a string.", _rule(', "replace": 1'),
         _rule(', "replace": "1"')),
    Rule(REGEX_SILLYTAVERN_MATCH, "regex-sillytavern-match", "warning",
         "{{match}} is SillyTavern syntax; JavaScript replacements use $&.", _rule(', "replace": "[{{match}}]"'),
         _rule(', "replace": "[$&]"')),
    Rule(REGEX_TRIM_STRINGS_TYPE, "regex-trim-strings-type", "error", "trimStrings must be a list of strings.",
         _rule(', "trimStrings": "x"'), _rule(', "trimStrings": ["x"]')),
    Rule(REGEX_ROLES_TYPE, "regex-roles-type", "error", "A regex rule's roles must be a list of strings.",
         _rule(', "roles": "assistant"'), _rule(', "roles": ["assistant"]')),
    Rule(REGEX_TARGETS_TYPE, "regex-targets-type", "error", "targets must be a list of strings.",
         _rule(', "targets": "system"'), _rule(', "targets": ["system"]')),
    Rule(REGEX_TARGET_INVALID, "regex-target-invalid", "error", 'Each target must be "system" or "messages".',
         _rule(', "targets": ["user"]'), _rule(', "targets": ["messages"]')),
    Rule(REGEX_FINALIZE_TARGET, "regex-finalize-target", "error", 'A finalize rule only supports target "messages".',
         _rule(', "effect": "finalize", "targets": ["system"]'), _rule(', "effect": "finalize", "targets": ["messages"]')),
    Rule(REGEX_FINALIZE_ROLES, "regex-finalize-roles", "warning",
         "A finalize rule only sees assistant messages, but its roles leave assistant out.",
         _rule(', "effect": "finalize", "roles": ["user"]'), _rule(', "effect": "finalize", "roles": ["assistant"]')),
    Rule(REGEX_LIMIT_INVALID, "regex-limit-invalid", "error", "maxMessages and maxChars must be positive integers.",
         _rule(', "maxChars": 0'), _rule(', "maxChars": 2000')),
    Rule(REGEX_DEPTH_INVALID, "regex-depth-invalid", "error", "minDepth and maxDepth must be non-negative integers.",
         _rule(', "minDepth": -1'), _rule(', "minDepth": 0')),
    Rule(REGEX_DEPTH_ORDER, "regex-depth-order", "error", "maxDepth is smaller than minDepth: the rule never applies.",
         _rule(', "minDepth": 3, "maxDepth": 1'), _rule(', "minDepth": 1, "maxDepth": 3')),
)
