"""The variable store (compile-core.md §4): turn, session and static scopes.

The store is an explicit value owned by the caller of a compile: the system-prompt compile and the
message compile share one store, and the caller reads it back afterwards (the ``variables`` section
of a compile report).  Nothing here is global.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from forgec.js.values import json_stringify

Scope = Literal["turn", "session", "static", "any"]

_MISSING: Any = object()

#: the one key whose plain assignment JavaScript routes to ``Object.prototype``'s accessor: ``obj[k] = "…"``
#: on an object without an own ``__proto__`` property sets nothing (the setter ignores a non-object)
PROTO = "__proto__"


@dataclass(slots=True)
class VariableStore:
    """``session`` holds any JSON values; ``turn`` only strings written by macros."""

    session: dict[str, Any] = field(default_factory=dict)
    turn: dict[str, Any] = field(default_factory=dict)
    session_dirty: bool = False

    @classmethod
    def fresh(cls, persisted_session: dict[str, Any] | None) -> VariableStore:
        """A new turn: empty turn scope, shallow copy of the persisted session (§2 step 1)."""
        # by position (session, turn, session_dirty): every compile makes one, and keywords cost ~0.1 µs
        return cls(dict(persisted_session or {}), {}, False)

    def snapshot(self) -> dict[str, Any]:
        """``{session, turn, sessionDirty}`` as the compile report prints it (§16.1)."""
        return {"session": dict(self.session), "turn": dict(self.turn), "sessionDirty": self.session_dirty}

    def set(self, scope: Literal["turn", "session"], name: str, value: str) -> None:
        """§4.3 with JavaScript's object semantics: ``store.turn[name] = value``.

        For ``__proto__`` that assignment reaches ``Object.prototype``'s setter, which ignores a
        string: a turn ``setvar`` of ``__proto__`` stores nothing (the turn scope is a fresh ``{}``),
        and a session one only marks the session dirty (``session.__proto__`` read the prototype,
        which is never strictly equal to a string) unless the persisted session, parsed from JSON,
        holds an own ``__proto__`` key, which is then an ordinary property (compile-core §15.9)."""
        if scope == "turn":
            if name != PROTO:
                self.turn[name] = value
            return
        current = self.session.get(name, _MISSING)
        if not (isinstance(current, str) and current == value):
            if name != PROTO or name in self.session:
                self.session[name] = value
            self.session_dirty = True

    def clear(self, scope: Literal["turn", "session"], name: str) -> None:
        if scope == "turn":
            self.turn.pop(name, None)
        elif name in self.session:
            del self.session[name]
            self.session_dirty = True


def lookup(
    name: str, store: VariableStore | None, static: dict[str, Any] | None, scope: Scope = "any"
) -> Any:
    """§4.2: turn -> session -> static; returns :data:`MISSING` when no scope has ``name``."""
    if scope == "any":  # what every getvar and unknown macro asks: one comparison, not three
        if store is not None:
            if name in store.turn:
                return store.turn[name]
            if name in store.session:
                return store.session[name]
        if isinstance(static, dict) and name in static:
            return static[name]
        return MISSING
    if store is not None:
        if scope in ("turn", "any") and name in store.turn:
            return store.turn[name]
        if scope in ("session", "any") and name in store.session:
            return store.session[name]
    if scope in ("static", "any") and isinstance(static, dict) and name in static:
        return static[name]
    return MISSING


MISSING: Any = _MISSING


def to_macro_text(value: Any) -> str:
    """§4.4 macro text: strings as is, anything else compact ``JSON.stringify``; missing -> ``""``."""
    if value is MISSING:
        return ""
    if isinstance(value, str):
        return value
    return json_stringify(value) or ""


def to_prompt_text(value: Any) -> str:
    """§4.4 prompt text (``variables`` slot): strings as is, anything else pretty JSON."""
    if isinstance(value, str):
        return value
    return json_stringify(value, 2) or ""
