"""Custom macros and slots from trusted Python code (compile-core.md §12).

pi-forge loads JavaScript modules from ``~/.pi/forge/extensions``; forgec's equivalent is a
:class:`Registry` *object* (never module globals: two compiles with different plugin sets must not
see each other) that plugins fill through the ``forgec.plugins`` entry-point group.  Importing a
plugin runs its code, so nothing is loaded unless the user trusts it: ``--trust-plugins`` trusts every
installed plugin, ``[tool.forgec] plugins = ["name", …]`` trusts the named entry points only.

A plugin entry point names a callable ``register(registry)`` (or a module that has one)::

    [project.entry-points."forgec.plugins"]
    acme = "acme_forgec:register"

    def register(registry):
        registry.register_macro("acme.weather", lambda ctx: "sunny")

Names, duplicate handling and error texts are pi-forge's (§12); built-in macros and slots are
pre-registered, so they cannot be overridden.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from forgec.diagnostics import Diagnostic
from forgec.rules.plugins import PLUGIN_LOAD_FAILED, PLUGIN_NOT_INSTALLED, PLUGIN_NOT_TRUSTED

__all__ = [
    "ENTRY_POINT_GROUP",
    "MacroDefinition",
    "PluginError",
    "Registry",
    "SlotDefinition",
    "load_plugins",
]

ENTRY_POINT_GROUP = "forgec.plugins"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


class PluginError(ValueError):
    """A registration pi-forge would reject; the message is pi-forge's text."""


@dataclass(slots=True)
class MacroDefinition:
    """A custom macro: ``render(ctx)`` returns text, or ``None`` to leave the macro unresolved."""

    name: str
    render: Callable[[Any], str | None]
    description: str = ""
    source: str = ""
    #: informational: ``[{name, required, variadic, expansion}]`` (§12)
    args: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class SlotDefinition:
    """A custom slot: ``render(ctx)`` returns text or ``None``; exceptions become ``Slot … failed``."""

    name: str
    renderer: Callable[[Any], str | None]
    description: str = ""
    source: str = ""
    #: informational option schema (§6.15)
    options: dict[str, Any] = field(default_factory=dict)

    def render(self, ctx: Any) -> str | None:
        return self.renderer(ctx)


class Registry:
    """The custom macros (``macros``) and slots (``slots``) of one compile setup, by name."""

    def __init__(self) -> None:
        self.macros: dict[str, MacroDefinition] = {}
        self.slots: dict[str, SlotDefinition] = {}
        #: entry-point names that were loaded, in order
        self.loaded: list[str] = []

    def register_macro(
        self,
        name: str,
        render: Callable[[Any], str | None],
        *,
        description: str = "",
        source: str = "",
        args: list[dict[str, Any]] | None = None,
    ) -> Callable[[], None]:
        """Add a macro; returns the unregister handle (a no-op once another definition replaced it)."""
        from forgec.compile.macros.builtins import BUILTIN_MACROS

        return self._add(
            "Macro", self.macros, BUILTIN_MACROS, name,
            lambda: MacroDefinition(name, render, description, source, list(args or [])),
        )  # fmt: skip

    def register_slot(
        self,
        name: str,
        render: Callable[[Any], str | None],
        *,
        description: str = "",
        source: str = "",
        options: dict[str, Any] | None = None,
    ) -> Callable[[], None]:
        """Add a slot renderer; returns the unregister handle."""
        from forgec.model.slot_names import BUILTIN_SLOT_NAMES

        return self._add(
            "Slot", self.slots, BUILTIN_SLOT_NAMES, name,
            lambda: SlotDefinition(name, render, description, source, dict(options or {})),
        )  # fmt: skip

    def _add(
        self, kind: str, table: dict[str, Any], builtin: Container[str], name: str, build: Callable[[], Any]
    ) -> Callable[[], None]:
        """pi-forge's one registration rule for macros and slots alike (§12).

        The name must be well formed and taken by neither a built-in nor an earlier registration;
        only then is the definition built (``build``), so a bad name is reported before any
        problem with the other arguments.  The handle removes this definition only, never one
        that replaced it.
        """
        _check_name(kind, name)
        if name in builtin or name in table:
            raise PluginError(f"{kind} is already registered: {name}")
        definition = build()
        table[name] = definition
        return lambda: self._remove(table, name, definition)

    @staticmethod
    def _remove(table: dict[str, Any], name: str, definition: Any) -> None:
        if table.get(name) is definition:
            del table[name]

    def macro_names(self) -> list[str]:
        return list(self.macros)


def _check_name(kind: str, name: Any) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise PluginError(
            f"{kind} name must start with a letter and contain only letters, numbers, underscore, dot, "
            f"or hyphen: {name}"
        )


def _entry_points() -> list[Any]:
    from importlib.metadata import entry_points

    return list(entry_points(group=ENTRY_POINT_GROUP))


def load_plugins(
    registry: Registry,
    *,
    trust_all: bool = False,
    trusted: Iterable[str] = (),
    diagnostics: list[Diagnostic] | None = None,
    entry_points: Iterable[Any] | None = None,
) -> Registry:
    """Load the trusted plugins of group ``forgec.plugins`` into ``registry``.

    An installed plugin that is not trusted is reported (FG951, info) and not imported; one that
    fails to import or register is reported (FG950, error) and the rest still load; a ``trusted``
    name no entry point has is reported (FG952, warning).  Never raises.
    """
    sink = diagnostics if diagnostics is not None else []
    wanted = list(dict.fromkeys(trusted))
    allowed = set(wanted)
    seen: set[str] = set()
    for ep in entry_points if entry_points is not None else _entry_points():
        name = getattr(ep, "name", str(ep))
        seen.add(name)
        if not trust_all and name not in allowed:
            sink.append(
                Diagnostic(
                    "info",
                    f"Plugin {name} is installed but not trusted; add it to [tool.forgec] plugins or pass --trust-plugins.",
                    PLUGIN_NOT_TRUSTED,
                    extra=True,
                )
            )
            continue
        try:
            target = ep.load()
            register = target if callable(target) else getattr(target, "register", None)
            if not callable(register):
                raise PluginError("entry point is neither a register(registry) callable nor a module with one")
            register(registry)
        except Exception as error:  # a broken plugin is a finding, never a traceback
            sink.append(
                Diagnostic("error", f"Plugin {name} failed to load: {error}", PLUGIN_LOAD_FAILED, extra=True)
            )
            continue
        registry.loaded.append(name)
    for name in wanted:
        if name not in seen:  # a typo or an uninstalled package: the user expects its macros and slots
            sink.append(
                Diagnostic(
                    "warning",
                    f"Plugin {name} is trusted in [tool.forgec] plugins but no installed package provides "
                    f"a {ENTRY_POINT_GROUP} entry point of that name.",
                    PLUGIN_NOT_INSTALLED,
                    extra=True,
                )
            )
    return registry
