"""FG3xx: slot rendering (compile-core.md §6.1).

FG300–FG329 are the slot renderers' findings; the system/message assembly rules of the compiler take
the rest of the FG3xx range.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

UNSUPPORTED_SLOT = Rule(
    code="FG301",
    name="unsupported-slot",
    level="warning",
    summary=(
        "The slot name is neither one of pi-forge's twelve built-in slots nor a slot registered by a "
        "plugin. pi-forge renders nothing for it and warns at load time and again at every compile."
    ),
    bad='{"kind": "slot", "id": "status", "role": "system", "slot": "machine-status"}',
    good='{"kind": "slot", "id": "status", "role": "system", "slot": "date-cwd"}',
)

SLOT_FAILED = Rule(
    code="FG302",
    name="slot-failed",
    level="error",
    summary=(
        "The slot renderer raised an error, so the slot renders nothing. For built-in slots this "
        "happens when the host leaves out a string the slot needs (cwd, a skill's description or "
        "filePath, a context file's path or content); the detail is the JavaScript TypeError text."
    ),
    bad='context: {"cwd": null}   stack: {"kind": "slot", "id": "where", "role": "system", "slot": "cwd"}',
    good='context: {"cwd": "/home/dev/project"}   stack: {"kind": "slot", "id": "where", "role": "system", "slot": "cwd"}',
)

register(UNSUPPORTED_SLOT, SLOT_FAILED)
