"""What a slot renderer receives, and how it fails the way pi-forge fails.

pi-forge calls a slot renderer with ``{item, stack, runtime, diagnostics, options, helpers,
variables, format}`` (compile-core §12) and turns any exception into the error diagnostic
``Slot "<slot>" failed: <detail>`` (§6.1).  The detail of a built-in renderer's exception is V8's
``TypeError`` text (for instance ``Cannot read properties of undefined (reading 'replace')`` when
``cwd`` is missing), so renderers that touch a runtime value which may not be a string go through
:func:`require_str`, which raises :class:`SlotFailure` with the text V8 would have produced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from forgec.compile.slots import helpers
from forgec.diagnostics import Diagnostic
from forgec.errors import ForgecError
from forgec.js.values import UNDEFINED
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore, to_macro_text, to_prompt_text

__all__ = ["SlotContext", "SlotFailure", "SlotRenderer", "nullish", "require_str"]

TextFormat = Literal["plain", "xml", "json"]


class SlotFailure(ForgecError):
    """A renderer error whose ``str()`` is the exact detail pi-forge prints after ``failed: ``."""


def nullish(value: Any) -> bool:
    """``value == null`` in JavaScript: absent (``UNDEFINED``) or ``null`` (``None``)."""
    return value is None or value is UNDEFINED


def require_str(value: Any, method: str, receiver: str = "value") -> str:
    """Return ``value`` if it is a string, else raise the ``TypeError`` V8 gives for ``value.method()``.

    ``undefined``/``null`` give ``Cannot read properties of undefined (reading 'replace')``; any other
    non-string gives ``<receiver>.<method> is not a function``, where ``receiver`` is the name of the
    variable in pi-forge's source (a best guess; docs/compatibility.md lists these texts).
    """
    if isinstance(value, str):
        return value
    if value is None:
        raise SlotFailure(f"Cannot read properties of null (reading '{method}')")
    if value is UNDEFINED:
        raise SlotFailure(f"Cannot read properties of undefined (reading '{method}')")
    raise SlotFailure(f"{receiver}.{method} is not a function")


class _VariableAccess:
    """The ``variables`` object handed to custom slots (§4.5)."""

    def __init__(self, store: VariableStore | None, static: Any) -> None:
        self._store = store
        self._static = static if isinstance(static, dict) else None

    def get(self, name: str, scope: str = "any") -> Any:
        from forgec.model.variables import lookup

        return lookup(name, self._store, self._static, scope)  # type: ignore[arg-type]

    def set(self, scope: Literal["turn", "session"], name: str, value: str) -> None:
        if self._store is not None:
            self._store.set(scope, name, value)

    def clear(self, scope: Literal["turn", "session"], name: str) -> None:
        if self._store is not None:
            self._store.clear(scope, name)

    to_macro_text = staticmethod(to_macro_text)
    to_prompt_text = staticmethod(to_prompt_text)


@dataclass(slots=True)
class SlotContext:
    """One slot invocation: the item, the stack, the runtime, the store and the diagnostics list."""

    item: dict[str, Any]
    stack: dict[str, Any]
    runtime: Runtime
    store: VariableStore | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def slot(self) -> Any:
        return self.item.get("slot", UNDEFINED)

    @property
    def options(self) -> dict[str, Any]:
        """``item.options ?? {}``; a non-object (raw stack) reads like an object without properties."""
        options = self.item.get("options")
        return options if isinstance(options, dict) else {}

    def option(self, key: str) -> Any:
        """A raw option value, ``UNDEFINED`` when absent."""
        return self.options.get(key, UNDEFINED)

    def flag(self, key: str) -> bool:
        """Boolean options are honoured only when strictly ``true`` (§6.1)."""
        return self.options.get(key) is True

    def format(self, allow_json: bool = False) -> TextFormat:
        """``slotTextFormat``: exactly ``"plain"`` -> plain; ``"json"`` only if allowed; else XML."""
        value = self.options.get("format")
        if value == "plain" and isinstance(value, str):
            return "plain"
        if allow_json and value == "json" and isinstance(value, str):
            return "json"
        return "xml"

    @property
    def helpers(self) -> Any:
        """The §6.14 helpers module, for custom slot plugins."""
        return helpers

    @property
    def variables(self) -> _VariableAccess:
        return _VariableAccess(self.store, self.stack.get("variables"))


#: a renderer returns the slot text, or None for "nothing" (rendered as "")
SlotRenderer = Callable[[SlotContext], "str | None"]
