"""Trusted plugins for the commands: ``--trust-plugins`` and ``[tool.forgec] plugins``.

Every command that loads or compiles stacks (``validate``, ``preview``, ``compile``, ``snapshot``)
builds one :class:`~forgec.plugins.Registry` per invocation here, so the same stack gets the same
supported slots, macro lint and compile output from every command.  Importing a plugin runs its
code, so nothing is imported unless the user trusts it.

The loading diagnostics (FG950 a trusted plugin failed, FG951 an installed plugin is not trusted,
FG952 a configured plugin is not installed) are forgec-only (``extra=True``): they never enter a
compile report or pi-forge's diagnostic lists, so stacks without plugins report exactly what
pi-forge reports.  Commands print them on standard error; ``validate`` also attaches the failures
to every file, as pi-forge's runtime prepends extension-loading diagnostics to every stack (§10.7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
    from forgec.plugins import Registry

__all__ = [
    "PluginSetup",
    "configured_plugins",
    "echo_plugin_diagnostics",
    "plugin_setup_for",
    "report_needs_plugin",
    "setup_plugins",
    "trust_plugins_option",
]

F = TypeVar("F", bound=Callable[..., Any])

TRUST_HELP = (
    "Load every installed forgec plugin (entry-point group forgec.plugins): their custom macros "
    "and slots. Plugins run code; without this flag only those named in [tool.forgec] plugins load."
)


def trust_plugins_option(func: F) -> F:
    """The ``--trust-plugins`` flag, with one help text for every command."""
    return click.option("--trust-plugins", "trust_plugins", is_flag=True, help=TRUST_HELP)(func)  # type: ignore[return-value]


#: pi-forge's messages for what a missing extension leaves behind (§6.1, §3.4)
_NEEDS_PLUGIN = ("Unsupported slot:", "Unresolved macro:")


@dataclass(slots=True)
class PluginSetup:
    """The registry of one command run and the diagnostics of filling it."""

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
        ``forgec validate`` in a pre-commit hook; the note only helps when something is missing.
        """
        if self.scanned or not needed:
            return
        from forgec.plugins import Registry, load_plugins

        load_plugins(Registry(), diagnostics=self.diagnostics)  # trusts nothing: imports nothing
        self.scanned = True


def setup_plugins(
    *, trust_all: bool = False, trusted: Iterable[str] = (), entry_points: Iterable[Any] | None = None
) -> PluginSetup:
    """A fresh registry with the trusted plugins loaded.  Never raises: problems are diagnostics.

    With nothing trusted the installed plugins are not even listed (see :meth:`PluginSetup.note_untrusted`).
    """
    from forgec.plugins import Registry, load_plugins

    trusted = tuple(trusted)
    if not trust_all and not trusted and entry_points is None:
        return PluginSetup(Registry(), [], scanned=False)
    diagnostics: list[Diagnostic] = []
    registry = load_plugins(
        Registry(), trust_all=trust_all, trusted=trusted, diagnostics=diagnostics, entry_points=entry_points
    )
    return PluginSetup(registry, diagnostics)


def report_needs_plugin(report: dict[str, Any]) -> bool:
    """Whether a compile report has an unsupported slot or an unresolved macro (validation, system,
    messages): what a missing plugin leaves behind."""
    for section in (report.get("validation"), report.get("system"), report.get("messages")):
        if isinstance(section, dict):
            for d in section.get("diagnostics") or ():
                if isinstance(d, dict) and str(d.get("message", "")).startswith(_NEEDS_PLUGIN):
                    return True
    return False


def configured_plugins(start: Path) -> tuple[str, ...]:
    """``[tool.forgec] plugins`` of the nearest ``pyproject.toml`` above ``start``.

    A broken configuration is a usage error (exit 2), as in ``forgec validate``: silently ignoring
    it would compile without plugins the user trusted.
    """
    from forgec.cli._common import fail
    from forgec.settings import ConfigError, load_config

    try:
        return load_config(start).plugins
    except ConfigError as exc:
        fail(str(exc))
        return ()


def plugin_setup_for(start: Path, trust_all: bool) -> PluginSetup:
    """``setup_plugins`` with the trust of the command line and the configuration above ``start``."""
    return setup_plugins(trust_all=trust_all, trusted=configured_plugins(start))


def echo_plugin_diagnostics(setup: PluginSetup, prog: str, *, quiet: bool = False) -> None:
    """Print the loading diagnostics on standard error (``quiet`` drops the ``info`` ones)."""
    from forgec.output import escape_controls

    for diagnostic in setup.diagnostics:
        if quiet and diagnostic.level == "info":
            continue
        message = escape_controls(diagnostic.message)
        click.echo(f"{prog}: {diagnostic.level}: {message} [{diagnostic.code}]", err=True)
