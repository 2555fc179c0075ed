"""§3 as the delegation contract uses it: canonical JSON, ``sha256:v1`` and the five fingerprints.

:func:`canonical_subagent_json` is the runtime's ``canonicalize`` exactly, over forgec's stand-ins for
JavaScript values (:data:`~forgec.js.values.UNDEFINED`, :data:`~forgec.js.values.HOLE`,
:class:`~forgec.js.values.JSBigInt`, :class:`~forgec.js.values.JSNonPlainObject`, functions), with the
runtime's ``TypeError`` texts raised as :class:`~forgec.fingerprint.FingerprintError`.  It is its
own writer rather than :func:`forgec.fingerprint.canonical_json` because the contract is fed values
that JSON cannot hold (a ``Date``, a hole, a ``bigint``) and must name each of them as the runtime
does; for plain JSON data both give the same text (a test checks it).

The host computes the profile, prompt-stack and prompt-runtime fingerprints; the *runtime* issues the
conversation and execution fingerprints when it seals a plan.  forgec plays the runtime for its own
HTTP backends (profiles-exec.md §6.6), so the sealing fingerprints are here too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from forgec.fingerprint import FingerprintError, canonical_scalar, write_canonical
from forgec.js.values import (
    HOLE,
    UNDEFINED,
    JSNonPlainObject,
    utf16_key,
)

__all__ = [
    "canonical_equal",
    "canonical_subagent_json",
    "conversation_fingerprint",
    "execution_fingerprint",
    "prompt_runtime_fingerprint",
    "prompt_stack_fingerprint",
    "source_profile_fingerprint",
    "subagent_fingerprint",
]


def _members(container: Any, path: str) -> list[tuple[str, Any]]:
    if isinstance(container, JSNonPlainObject):
        raise FingerprintError(f"Cannot fingerprint non-plain object at {path}.")
    members = [(str(k), v) for k, v in container.items() if v is not UNDEFINED]
    members.sort(key=lambda kv: utf16_key(kv[0]))
    return members


def _array_children(items: Any, path: str) -> Iterator[tuple[str, str, Any]]:
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        if item is HOLE:
            raise FingerprintError(f"Cannot fingerprint sparse array item at {where}.")
        yield ("," if index else ""), where, item


def canonical_subagent_json(value: Any) -> str:
    """``canonicalSubagentJson`` (the runtime's ``canonicalJson``, §3.1).

    Objects: own keys minus those whose value is ``undefined``, sorted by UTF-16 code units; a
    function-valued member is *not* dropped (``Cannot fingerprint function at $.f.``).  Arrays: a
    hole is refused before its element is looked at.  Cycles are refused, shared references are not.
    The walk is :func:`forgec.fingerprint.write_canonical`'s; this dialect's values are the three
    callables.
    """
    return write_canonical(value, "$", canonical_scalar, _members, _array_children)


def subagent_fingerprint(value: Any) -> str:
    """``subagentFingerprint``: ``sha256:v1:`` + hex SHA-256 of the canonical text's UTF-8 bytes."""
    return "sha256:v1:" + hashlib.sha256(canonical_subagent_json(value).encode("utf-8")).hexdigest()


def canonical_equal(left: Any, right: Any) -> bool:
    """``canonicalSubagentJson(left) === canonicalSubagentJson(right)``; raises as canonical JSON does
    (the reference's comparisons throw too, and some callers turn that into a diagnostic)."""
    return canonical_subagent_json(left) == canonical_subagent_json(right)


def source_profile_fingerprint(profile: Any) -> str:
    """``subagentSourceProfileFingerprint``: the digest of the normalised profile, as loaded."""
    return subagent_fingerprint(profile)


def prompt_stack_fingerprint(stack: Any) -> str:
    """``subagentPromptStackFingerprint``: the digest of the loader's normalised stack."""
    return subagent_fingerprint(stack)


def _without(value: Any, key: str, name: str) -> Any:
    """``const {key: _ignored, ...rest} = value``: an object spread copies own enumerable members
    (a string's characters, nothing of a number); a Date loses its prototype and becomes plain."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != key}
    if isinstance(value, str):
        return {str(i): ch for i, ch in enumerate(value)}
    if isinstance(value, (list, tuple)):
        return {str(i): v for i, v in enumerate(value) if v is not HOLE}
    if value is None or value is UNDEFINED:
        from forgec.execute.contract.common import JSTypeError

        raise JSTypeError(f"Cannot destructure '{name}' as it is {'null' if value is None else 'undefined'}.")
    return {}


def prompt_runtime_fingerprint(runtime: Any) -> str:
    """The runtime's ``promptRuntimeFingerprint``: the runtime object minus its own
    ``promptRuntimeFingerprint`` key (so a runtime carrying its fingerprint hashes the same)."""
    return subagent_fingerprint(_without(runtime, "promptRuntimeFingerprint", "runtime"))


def conversation_fingerprint(conversation: Any) -> str:
    """The runtime's ``conversationFingerprint``: the prepared conversation exactly as given.

    The runtime hashes what it is handed; the host hands it ``{systemPrompt, messages}`` with each
    message reduced to ``{role, content}`` (see :func:`forgec.execute.contract.plan.portable_conversation`).
    """
    return subagent_fingerprint(conversation)


def execution_fingerprint(sealed: Any) -> str:
    """The runtime's ``executionFingerprint``: the sealed plan snapshot minus ``executionFingerprint``."""
    return subagent_fingerprint(_without(sealed, "executionFingerprint", "plan"))
