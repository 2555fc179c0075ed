"""Rules of forgec's typo hints (:mod:`forgec.lint.hints`): values pi-forge accepts silently.

All are forgec-only (``extra=True``) and never change pi-forge's own diagnostics.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

UNKNOWN_FIELD = "FG150"
TYPO = "FG151"
WINDOWS_RESERVED_NAME = "FG152"
UNUSED_SUPPRESSION = "FG153"
UNKNOWN_OPTION = "FG310"
OPTION_VALUE = "FG311"
REGEX_ROLE = "FG650"

register(
    Rule(
        UNKNOWN_FIELD,
        "unknown-field",
        "warning",
        "A stack or item field pi-forge does not know. The loader drops it silently, so a misspelt "
        "field (contnet, itmes) just disappears. $schema and $comment are accepted.",
        bad='{"kind": "block", "id": "a", "role": "system", "contnet": "Hello"}',
        good='{"kind": "block", "id": "a", "role": "system", "content": "Hello"}',
        pi_forge=False,
    ),
    Rule(
        TYPO,
        "likely-typo",
        "info",
        "A role or slot name close to a known one: pi-forge reports it as invalid or unsupported; this "
        "hint names the value that was probably meant.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-histroy"}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history"}',
        pi_forge=False,
    ),
    Rule(
        WINDOWS_RESERVED_NAME,
        "windows-reserved-name",
        "warning",
        "A stack id or file name that Windows reserves for a device (CON, PRN, AUX, NUL, COM1-COM9, "
        "LPT1-LPT9, in any case and with any extension): pi-forge saves a stack as <id>.json, and a "
        "repository holding such a file cannot be checked out on Windows.",
        bad='con.json: {"id": "con", "items": []}',
        good='console.json: {"id": "console", "items": []}',
        pi_forge=False,
    ),
    Rule(
        UNUSED_SUPPRESSION,
        "unused-suppression",
        "warning",
        "A `# forgec: ignore[...]` comment that suppressed nothing: the finding it was written for is "
        "gone (or never was at that line), and a stale suppression would hide the next real one. "
        "Remove it, or name the rule that is still reported there.",
        bad="  - {kind: block, id: a, role: system, content: hi}  # forgec: ignore[FG118]",
        good="  - {kind: block, id: a, role: System, content: hi}  # forgec: ignore[FG118]",
        pi_forge=False,
    ),
    Rule(
        UNKNOWN_OPTION,
        "unknown-slot-option",
        "warning",
        "An option the slot does not read. Slot options are kept as written and never checked, so a "
        "misspelt option (maxMesages) is ignored without a word.",
        bad='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMesages": 10}}',
        good='{"kind": "slot", "id": "h", "slot": "chat-history", "options": {"maxMessages": 10}}',
        pi_forge=False,
    ),
    Rule(
        OPTION_VALUE,
        "slot-option-value",
        "warning",
        'A slot option value the slot cannot use: a format other than "plain" renders XML, a '
        "chat-history role that no message has filters everything of it out.",
        bad='{"kind": "slot", "id": "t", "slot": "tools", "options": {"format": "html"}}',
        good='{"kind": "slot", "id": "t", "slot": "tools", "options": {"format": "plain"}}',
        pi_forge=False,
    ),
    Rule(
        REGEX_ROLE,
        "regex-role-unknown",
        "warning",
        "A regex rule's roles entry that no message has: the rule never runs on such messages.",
        bad='{"id": "r", "stage": "compiled", "pattern": "x", "roles": ["usr"]}',
        good='{"id": "r", "stage": "compiled", "pattern": "x", "roles": ["user"]}',
        pi_forge=False,
    ),
)
