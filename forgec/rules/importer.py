"""Rules of the SillyTavern importer (FG7xx).

FG701-FG709 are import failures: pi-forge's own texts (C16), except FG706 whose messages are
forgec's for the inputs on which pi-forge throws a TypeError (import-regex.md E3).  FG710-FG712
belong to ``forgec import-silly`` writing files.  FG720-FG725 are the fidelity-report findings
(what a successful import lost); they are forgec's own.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

PRESET_UNREADABLE = "FG701"
PRESET_ROOT = "FG702"
PRESET_NO_PROMPTS = "FG703"
PRESET_NO_PROMPT_ORDER = "FG704"
PRESET_CHARACTER = "FG705"
PRESET_MALFORMED = "FG706"
IMPORT_WOULD_OVERWRITE = "FG710"
IMPORT_SYMLINK = "FG711"
IMPORT_BAD_CHARACTER_ID = "FG712"
FIDELITY_MARKER_DROPPED = "FG720"
FIDELITY_MISSING_IDENTIFIER = "FG721"
FIDELITY_MACRO_MIGRATION = "FG722"
FIDELITY_REGEX_UNCONVERTED = "FG723"
FIDELITY_REGEX_APPROXIMATED = "FG724"
FIDELITY_IN_CHAT_DEPTH = "FG725"

register(
    Rule(
        PRESET_UNREADABLE,
        "preset-unreadable",
        "error",
        "The preset file cannot be read or is not JSON (JavaScript's JSON.parse rules: no NaN, no BOM).",
        bad='\ufeff{"prompts": []}    (a UTF-8 byte-order mark before the JSON)',
        good='{"prompts": [], "prompt_order": []}',
    ),
    Rule(
        PRESET_ROOT,
        "preset-root-not-object",
        "error",
        "The preset's top level must be a JSON object.",
        bad='[{"identifier": "main"}]',
        good='{"prompts": [{"identifier": "main", "role": "system", "content": "Hi"}], "prompt_order": [...]}',
    ),
    Rule(
        PRESET_NO_PROMPTS,
        "preset-no-prompts",
        "error",
        "The preset has no prompts (a missing or empty prompts array): it is probably not a "
        "chat-completion preset (text-completion presets have no prompts).",
        bad='{"prompt_order": []}',
        good='{"prompts": [{"identifier": "main", "role": "system", "content": "Hi"}], "prompt_order": [...]}',
    ),
    Rule(
        PRESET_NO_PROMPT_ORDER,
        "preset-no-prompt-order",
        "error",
        "The preset has prompts but no prompt_order entry, so there is no order to convert.",
        bad='{"prompts": [...], "prompt_order": []}',
        good='{"prompts": [...], "prompt_order": [{"character_id": 100001, "order": [{"identifier": "main"}]}]}',
    ),
    Rule(
        PRESET_CHARACTER,
        "preset-character-ambiguous",
        "error",
        "Several prompt_order entries exist (usually 100000 and 100001) and no character id chose one, "
        "or the given id matches none. Pass the id: `forgec import-silly preset.json 100001`.",
        bad="forgec import-silly preset.json          (prompt_order has 100000 and 100001)",
        good="forgec import-silly preset.json 100001",
    ),
    Rule(
        PRESET_MALFORMED,
        "preset-malformed",
        "error",
        "A preset member has a type pi-forge cannot read (pi-forge itself crashes with a TypeError "
        "there): prompts or an order that is not an array, a null entry, a non-string content or role.",
        bad='{"prompts": [{"identifier": "main", "role": "system", "content": 5}], ...}',
        good='{"prompts": [{"identifier": "main", "role": "system", "content": "5"}], ...}',
        pi_forge=False,
    ),
    Rule(
        IMPORT_WOULD_OVERWRITE,
        "import-would-overwrite",
        "error",
        "The stack or report file already exists; nothing was written. Re-run with --overwrite "
        "(the replacement is atomic) or choose another --id.",
        bad="forgec import-silly preset.json 100001             (stack already imported)",
        good="forgec import-silly preset.json 100001 --overwrite",
    ),
    Rule(
        IMPORT_SYMLINK,
        "import-through-symlink",
        "error",
        "An existing component of the target path is a symbolic link; forgec, like pi-forge, refuses "
        "to write through it.",
        bad=".pi/forge/prompt-stacks -> /elsewhere",
        good=".pi/forge/prompt-stacks/ as a real folder",
    ),
    Rule(
        IMPORT_BAD_CHARACTER_ID,
        "import-invalid-character-id",
        "error",
        "The CHARACTER_ID argument is neither a number (JavaScript Number() syntax) nor a string id "
        "stored in the preset.",
        bad="forgec import-silly preset.json abc",
        good="forgec import-silly preset.json 100001",
        pi_forge=False,
    ),
    Rule(
        FIDELITY_MARKER_DROPPED,
        "import-marker-dropped",
        "info",
        "A SillyTavern marker (world info, character card fields, persona, examples, custom markers) "
        "has no pi-forge equivalent and was left out.",
        bad='{"identifier": "charDescription", "marker": true}',
        good="a block holding the character description as static text",
        pi_forge=False,
    ),
    Rule(
        FIDELITY_MISSING_IDENTIFIER,
        "import-missing-identifier",
        "warning",
        "prompt_order references an identifier that prompts does not define; nothing was imported for it.",
        bad='"order": [{"identifier": "deleted-prompt"}]',
        good='"order": [{"identifier": "main"}]',
    ),
    Rule(
        FIDELITY_MACRO_MIGRATION,
        "import-macro-needs-migration",
        "warning",
        "A SillyTavern macro without a pi-forge equivalent stays as literal text; rewrite it.",
        bad="{{random::a::b}}",
        good="{{ifvar::mood::...}}",
    ),
    Rule(
        FIDELITY_REGEX_UNCONVERTED,
        "import-regex-unconverted",
        "warning",
        "A SillyTavern regex script was not converted (not prompt-only, invalid, or placed outside chat "
        "messages); the report's Converted column says why.",
        bad='{"findRegex": "/x/y", "promptOnly": true}',
        good='{"findRegex": "/x/g", "promptOnly": true, "placement": [2]}',
    ),
    Rule(
        FIDELITY_REGEX_APPROXIMATED,
        "import-regex-approximated",
        "info",
        "A regex script was converted but SillyTavern-only semantics ({{match}}, $0, substituteRegex, "
        "reasoning placement) were rewritten or kept only as metadata.",
        bad='{"replaceString": "**{{match}}**", "substituteRegex": 1}',
        good='{"replaceString": "**$&**"}',
        pi_forge=False,
    ),
    Rule(
        FIDELITY_IN_CHAT_DEPTH,
        "import-in-chat-depth-lost",
        "info",
        "An in-chat prompt (injection_position 1) became an ordinary block at its prompt_order "
        "position; its injection depth has no pi-forge equivalent.",
        bad='{"identifier": "x", "injection_position": 1, "injection_depth": 4}',
        good="a block placed after the chat-history slot",
        pi_forge=False,
    ),
)
