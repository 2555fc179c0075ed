"""The nouns of forgec: the vocabulary every layer shares, defined once.

pi-forge's formats are full of closed sets -- roles, modes, thinking levels, the four provider
APIs, the built-in slot and macro names, the type tags of its documents.  Each is written here and
nowhere else, so the loader, the hints, the model catalog, the fingerprint and the command-line
choices cannot drift apart.  The documents themselves stay plain JSON data (see
docs/architecture.md, *Data model*); :mod:`forgec.model.shapes` describes them as ``TypedDict``\\ s
for readers and type checkers.

The rest of the room holds the values a compile consumes:

* :mod:`forgec.model.runtime` -- the host snapshot (``Runtime``);
* :mod:`forgec.model.variables` -- the variable store;
* :mod:`forgec.model.messages` -- how an agent message's role and text are read;
* :mod:`forgec.model.source_record` -- the read-only message source compiles of one long history share.

This module imports nothing: it is read by the ground floor's neighbours and by every layer above.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "API_ORDER",
    "BUILTIN_MACRO_ARGS",
    "BUILTIN_MACRO_NAMES",
    "BUILTIN_SLOT_NAMES",
    "CHAT_HISTORY_SLOT",
    "ITEM_FIELDS",
    "MESSAGE_ROLES",
    "MODES",
    "PROFILE_TYPE",
    "ROLES",
    "STACK_FIELDS",
    "STACK_TYPE",
    "THINKING_LEVELS",
    "VARIABLE_READER_MACROS",
    "VARIABLE_SETTER_MACROS",
]

#: ``type`` of a prompt stack (compile-core.md §10.3).
STACK_TYPE: Final = "pi-forge.prompt-stack"
#: the fields of a stack and of an item that pi-forge reads (§10.3); any other is dropped
#: silently, which is why forgec warns about it (FG150) and the strict schema rejects it
STACK_FIELDS: Final = (
    "schemaVersion", "type", "id", "name", "description", "autoActivate", "mode", "defaults",
    "context", "tools", "skills", "variables", "regex", "items", "import", "state",
)  # fmt: skip
ITEM_FIELDS: Final = ("kind", "id", "name", "enabled", "role", "tags", "source", "content", "slot", "options")
#: ``type`` of an agent profile (profiles-exec.md §1.2).
PROFILE_TYPE: Final = "pi-forge.agent-profile"

#: Stack item roles (§10.3); ``custom`` becomes a custom message.
ROLES: Final = ("system", "user", "assistant", "custom")
#: How a stack's system prompt combines with Pi's (§7).
MODES: Final = ("append", "prepend", "replace")
#: The roles an agent message can have in a conversation (context-format.md, §16.14).
MESSAGE_ROLES: Final = (
    "user", "assistant", "toolResult", "custom", "bashExecution", "branchSummary", "compactionSummary",
)  # fmt: skip

#: Pi's thinking levels, lowest first (clamping walks this order; profiles-exec.md §1.9).
THINKING_LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
#: The four provider APIs forgec builds request bodies for, in the order ``payloads`` lists them.
API_ORDER: Final = ("anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses")

#: The slot that splices the conversation in (§6.2, §8).
CHAT_HISTORY_SLOT: Final = "chat-history"
#: pi-forge's twelve built-in slots, in registration order (§6.15).
BUILTIN_SLOT_NAMES: Final = (
    CHAT_HISTORY_SLOT,
    "tools",
    "tool-guidelines",
    "skills",
    "project-context",
    "append-system-prompt",
    "date",
    "cwd",
    "date-cwd",
    "active-model",
    "pi-docs",
    "variables",
)
#: pi-forge's built-in macros in registration order (§3.3), each with its argument shape ``(min_args,
#: max_args)``: fewer raw arguments leave the macro unresolved, later ones are ignored (``None``: all are used).
#: :data:`forgec.compile.macros.builtins.BUILTIN_MACROS` implements exactly these and takes its shapes from here
#: (a test holds the two equal), so ``forgec validate``'s macro lint reads them without importing the renderers
#: and the macro engine (~18 M instructions of a cold run, docs/performance-log.md "Stop 31: cold validate").
BUILTIN_MACRO_ARGS: Final[dict[str, tuple[int, int | None]]] = {
    "cwd": (0, 0), "date": (0, 0), "time": (0, 0), "lastUserMessage": (0, 0), "selectedTools": (0, 0),
    "tools": (0, 0), "activeModel": (0, 0),
    "setvar": (1, None), "setturnvar": (1, None), "setsessionvar": (1, None),
    "getvar": (1, 1), "var": (1, 1), "getturnvar": (1, 1), "getsessionvar": (1, 1),
    "clearvar": (1, 2), "clearturnvar": (1, 1), "clearsessionvar": (1, 1),
    "trim": (0, 1), "upper": (0, 1), "lower": (0, 1), "json": (0, 1), "xml": (0, 1),
    "ifvar": (1, 3), "ifeq": (2, 4), "iftools": (1, 3), "ifslot": (1, 3),
}  # fmt: skip
#: pi-forge's built-in macros, in registration order (:data:`BUILTIN_MACRO_ARGS`' keys)
BUILTIN_MACRO_NAMES: Final = tuple(BUILTIN_MACRO_ARGS)
#: the built-in macros whose first argument names a variable they set (§3.3)
VARIABLE_SETTER_MACROS: Final = ("setvar", "setturnvar", "setsessionvar")
#: the built-in macros whose first argument names a variable they read or clear (§3.3)
VARIABLE_READER_MACROS: Final = (
    "getvar", "var", "getturnvar", "getsessionvar", "ifvar", "ifeq", "clearvar", "clearturnvar", "clearsessionvar",
)  # fmt: skip
