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
from functools import cache
from typing import TYPE_CHECKING, Any

from forgec.errors import ForgecError
from forgec.model import BUILTIN_MACRO_NAMES, BUILTIN_SLOT_NAMES

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic

__all__ = [
    "ENTRY_POINT_GROUP",
    "MacroDefinition",
    "PluginError",
    "PluginSetup",
    "Registry",
    "SlotDefinition",
    "load_plugins",
    "needs_plugin",
    "plugins_may_be_installed",
    "setup_plugins",
]

ENTRY_POINT_GROUP = "forgec.plugins"
_BUILTIN_MACROS = frozenset(BUILTIN_MACRO_NAMES)
_BUILTIN_SLOTS = frozenset(BUILTIN_SLOT_NAMES)
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


class PluginError(ForgecError, ValueError):
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
        return self._add(
            "Macro", self.macros, _BUILTIN_MACROS, name,
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
        return self._add(
            "Slot", self.slots, _BUILTIN_SLOTS, name,
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

    def supported_slot_names(self) -> list[str]:
        """Built-in slot names, then the custom ones: the loader's "supported slots" (§12)."""
        return [*BUILTIN_SLOT_NAMES, *(name for name in self.slots if name not in _BUILTIN_SLOTS)]


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
    from forgec.diagnostics import Diagnostic
    from forgec.rules.plugins import PLUGIN_LOAD_FAILED, PLUGIN_NOT_INSTALLED, PLUGIN_NOT_TRUSTED

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


# --- one run's plugin setup --------------------------------------------------------------------------


@cache
def _needs_plugin_codes() -> frozenset[str]:
    """What a missing plugin leaves behind: a slot the loader (FG136) or the compile (FG301) does not
    know, a macro nothing resolves (FG202), and the macro lint's unknown macros (FG210, FG214).
    Read from the rule catalogs on first use: a run without findings never imports them."""
    from forgec.rules import loader as loader_codes
    from forgec.rules import macros as macro_codes
    from forgec.rules.slots import UNSUPPORTED_SLOT

    return frozenset({loader_codes.SLOT_NOT_REGISTERED, UNSUPPORTED_SLOT.code, macro_codes.UNRESOLVED_MACRO,
                      macro_codes.UNKNOWN_MACRO, macro_codes.MISSING_MACRO_PLUGIN})  # fmt: skip


def needs_plugin(diagnostics: Iterable[Diagnostic]) -> bool:
    """Whether any of ``diagnostics`` is what an untrusted or missing plugin would leave behind."""
    return any(d.code in _needs_plugin_codes() for d in diagnostics)


@dataclass(slots=True)
class PluginSetup:
    """The registry of one run and the diagnostics of filling it.

    The loading diagnostics (FG950 a trusted plugin failed, FG951 an installed plugin is not
    trusted, FG952 a configured plugin is not installed) are forgec-only (``extra=True``): they never
    enter a compile report or pi-forge's diagnostic lists, so stacks without plugins report exactly
    what pi-forge reports.
    """

    registry: Registry
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: whether the installed entry points were listed (only when something is trusted)
    scanned: bool = True

    @property
    def errors(self) -> list[Diagnostic]:
        """Plugins that were trusted but could not be loaded (the compile output lacks them)."""
        return [d for d in self.diagnostics if d.level == "error"]

    def note_untrusted(self, needed: bool) -> None:
        """When nothing was trusted and a stack lacks a slot or macro, add the FG951 notes.

        Listing entry points costs tens of milliseconds (``importlib.metadata``), too much for every
        ``forgec validate`` in a pre-commit hook; the note only helps when something is missing,
        and only when a plugin may be installed at all (:func:`plugins_may_be_installed`).
        """
        if self.scanned or not needed or not plugins_may_be_installed():
            return
        load_plugins(Registry(), diagnostics=self.diagnostics)  # trusts nothing: imports nothing
        self.scanned = True


def setup_plugins(
    *, trust_all: bool = False, trusted: Iterable[str] = (), entry_points: Iterable[Any] | None = None
) -> PluginSetup:
    """A fresh registry with the trusted plugins loaded.  Never raises: problems are diagnostics.

    With nothing trusted the installed plugins are not even listed (see :meth:`PluginSetup.note_untrusted`).
    """
    trusted = tuple(trusted)
    if not trust_all and not trusted and entry_points is None:
        return PluginSetup(Registry(), [], scanned=False)
    diagnostics: list[Diagnostic] = []
    registry = load_plugins(
        Registry(), trust_all=trust_all, trusted=trusted, diagnostics=diagnostics, entry_points=entry_points
    )
    return PluginSetup(registry, diagnostics)


def plugins_may_be_installed() -> bool:
    """Whether a distribution on ``sys.path`` may declare a ``forgec.plugins`` entry point.

    Listing entry points through ``importlib.metadata`` costs 20-40 ms of a cold ``forgec validate``
    (its import alone pulls in ``email``, ``zipfile``, ``csv``...); reading the ``entry_points.txt``
    of each ``*.dist-info``/``*.egg-info`` folder, where that listing looks too, takes about 1 ms.
    Only a sure "no" skips the listing: a path entry that is not a readable folder (a zip) is a "maybe".
    """
    import os
    import sys

    header = f"[{ENTRY_POINT_GROUP}]"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (FileNotFoundError, NotADirectoryError):
            if entry and os.path.isfile(entry):
                return True  # a zip or egg file: let importlib.metadata look inside
            continue
        except OSError:
            return True
        for name in names:
            if name.lower().endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry, name, "entry_points.txt"), encoding="utf-8") as handle:
                        if header in handle.read():
                            return True
                except (FileNotFoundError, NotADirectoryError):
                    continue
                except (OSError, UnicodeDecodeError):
                    return True
    return False
