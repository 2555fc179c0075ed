"""Rules of the macro stage (FG2xx).

FG201/FG202 are pi-forge's own compile-time findings (compile-core.md §3.2, §3.4, §13.2), exact
text.  FG203 is forgec's cap on the size of one block's expansion (a documented deviation that keeps
memory and time bounded; reported in the compile output because the output differs there).  FG21x are forgec's static analysis (``forgec validate``): found without compiling, never part
of the pi-forge-compatible output (``extra=True``).
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

MACRO_FAILED = "FG201"
UNRESOLVED_MACRO = "FG202"
EXPANSION_TOO_LONG = "FG203"

UNKNOWN_MACRO = "FG210"
MACRO_ARGUMENTS = "FG211"
SILLYTAVERN_MACRO = "FG212"
UNREAD_VARIABLE = "FG213"
MISSING_MACRO_PLUGIN = "FG214"
UNCLOSED_MACRO = "FG215"

register(
    Rule(
        MACRO_FAILED,
        "macro-failed",
        "error",
        "A macro's renderer raised (a custom macro's exception, nesting deeper than the engine "
        "supports, or a result longer than a JavaScript string can hold). The macro is kept as written.",
        bad='{"content": "{{json::{{json::…30 levels…::x}}}}"}',
        good='{"content": "{{json::{{lastUserMessage}}}}"}',
    ),
    Rule(
        UNRESOLVED_MACRO,
        "unresolved-macro",
        "warning",
        "A macro that is neither a built-in, a registered custom macro nor a variable, or a built-in "
        "called without what it needs (an empty name). It stays in the text; one finding per distinct "
        "trimmed expression and block. The level follows defaults.unresolvedMacroPolicy (keep/warn/error).",
        bad='{"content": "Hello {{usr}}"}',
        good='{"variables": {"user": "Ada"}, "items": [{"content": "Hello {{user}}"}]}',
    ),
    Rule(
        EXPANSION_TOO_LONG,
        "expansion-too-long",
        "error",
        "A macro's result, or a block's expanded output, would be longer than forgec's limit of "
        "64 Mi (67,108,864) UTF-16 units per block. The macro (or the block) is kept as written, like "
        "pi-forge's 'Invalid string length' failure; pi-forge itself allows up to 536,870,888 units, "
        "so this is a deliberate deviation that keeps forgec's memory and time bounded.",
        bad='{"content": "{{setvar::v::ab}}{{setvar::v::{{v}}{{v}}}}…40 times…{{v}}"}',
        good='{"content": "{{setvar::v::ab}}{{setvar::v::{{v}}{{v}}}}{{v}}"}',
        pi_forge=False,
    ),
    Rule(
        UNKNOWN_MACRO,
        "unknown-macro",
        "warning",
        "A macro name that no built-in, static variable, setvar in the stack or registered custom "
        "macro provides. Unless the session supplies it at run time, it stays unresolved.",
        bad='{"content": "{{tpoic}}", "variables": {"topic": "x"}}',
        good='{"content": "{{topic}}", "variables": {"topic": "x"}}',
        pi_forge=False,
    ),
    Rule(
        MACRO_ARGUMENTS,
        "macro-arguments",
        "warning",
        "A built-in macro called with too few arguments (it then stays unresolved) or with arguments "
        "it ignores.",
        bad='{"content": "{{ifeq::mode}} {{upper::a::b}}"}',
        good='{"content": "{{ifeq::mode::fast::quick::slow}} {{upper::a}}"}',
        pi_forge=False,
    ),
    Rule(
        SILLYTAVERN_MACRO,
        "sillytavern-macro",
        "warning",
        "A SillyTavern macro that pi-forge does not implement; it stays in the text as written.",
        bad='{"content": "Roll: {{roll::1d20}}"}',
        good='{"content": "Roll: {{getvar::roll}}"}',
        pi_forge=False,
    ),
    Rule(
        UNREAD_VARIABLE,
        "unread-variable",
        "info",
        "A setvar/setturnvar/setsessionvar writes a variable that no macro or variables slot of the "
        "stack reads (it may still be read by a later turn or another stack).",
        bad='{"content": "{{setvar::mood::calm}}"}',
        good='{"content": "{{setvar::mood::calm}}Mood: {{mood}}"}',
        pi_forge=False,
    ),
    Rule(
        MISSING_MACRO_PLUGIN,
        "missing-macro-plugin",
        "warning",
        "The stack uses a namespaced custom macro (a name with a dot) that no loaded plugin registers: "
        "install the plugin and trust it (--trust-plugins or [tool.forgec] plugins).",
        bad='{"content": "{{acme.weather}}"}',
        good="[tool.forgec]\nplugins = [\"acme\"]",
        pi_forge=False,
    ),
)

register(
    Rule(
        UNCLOSED_MACRO,
        "unclosed-macro",
        "warning",
        "A '{{' that no '}}' closes. pi-forge keeps it as literal text, so a dropped brace sends "
        "'{{lastUserMessage}' to the model instead of the message. forgec-only finding.",
        bad='{"content": "Review: {{lastUserMessage}"}',
        good='{"content": "Review: {{lastUserMessage}}"}',
        pi_forge=False,
    ),
)
