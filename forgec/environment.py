"""One :class:`Environment` per run: everything a workflow needs to know besides its inputs.

A compile of the same stack must give the same output from every front end -- ``forgec validate``,
``preview``, ``compile``, ``snapshot``, the pytest plugin, a language server, a web editor -- and
the things that decide it besides the stack and the context are few: forgec's settings
(``[tool.forgec]``), the trusted plugins' custom macros and slots, the model catalog, and where the
project and the user-global forge folder are.  They are built once, by :meth:`Environment.discover`
(or :meth:`Environment.create` for a library caller that has its own pieces), and the one object is
passed to every workflow (:mod:`forgec.report`, :mod:`forgec.lint`, :mod:`forgec.snapshots`), as
Jinja passes its ``Environment`` and black its ``Mode``.  Two environments coexist in one process
(a language server holds one per workspace folder) without seeing each other: nothing here is a
module global.

The compile stage below does not see the environment: it takes the one piece it needs, the plugin
:class:`~forgec.plugins.Registry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.plugins import PluginSetup, Registry, setup_plugins
from forgec.settings import Settings, load_settings, load_settings_file

if TYPE_CHECKING:
    from forgec.codecs.catalog import Catalog
    from forgec.diagnostics import Diagnostic

__all__ = ["Environment"]


@dataclass(frozen=True, eq=False)
class Environment:
    """Settings, plugins, model catalog and the project's place, for one run.

    Build it with :meth:`discover` (what the commands do) or :meth:`create`; the fields are read-only.
    ``plugins`` is the one mutable part: the FG951 notes about untrusted plugins are added to it
    only when a stack turns out to need one (listing entry points is slow; see
    :meth:`~forgec.plugins.PluginSetup.note_untrusted`).
    """

    settings: Settings = field(default_factory=Settings)
    plugins: PluginSetup = field(default_factory=lambda: setup_plugins())
    #: the project folder (where ``.pi/forge`` is looked for): :meth:`discover` finds it from its
    #: start upward (:func:`forgec.workspace.find_project_root`); ``None``: the current folder
    project_root: Path | None = None
    #: the user-global forge folder; ``None`` means ``$PI_FORGE_GLOBAL_DIR`` or ``~/.pi/forge``
    global_dir: Path | None = None
    #: a model catalog file merged over the bundled one (``--models``); ``None``: the bundled one
    models_file: Path | None = None

    # -- construction

    @classmethod
    def discover(
        cls,
        start: Path | None = None,
        *,
        trust_plugins: bool = False,
        isolated: bool = False,
        config_file: Path | None = None,
        models_file: Path | None = None,
        global_dir: Path | None = None,
        entry_points: Iterable[Any] | None = None,
    ) -> Environment:
        """The environment of a command run: settings found from ``start`` (default: the current
        folder) unless ``isolated`` or an explicit ``config_file``, the plugins those settings and
        ``trust_plugins`` trust, and the catalog of ``models_file``.

        Raises :class:`~forgec.errors.SettingsError` for a broken ``pyproject.toml``: checking on
        without the plugins or rules the user configured would check the wrong thing.
        """
        if isolated:
            settings = Settings()
        elif config_file is not None:
            settings = load_settings_file(config_file)
        else:
            settings = load_settings(start)
        from forgec.workspace import find_project_root

        plugins = setup_plugins(trust_all=trust_plugins, trusted=settings.plugins, entry_points=entry_points)
        project = find_project_root(start if start is not None else Path.cwd(), global_dir)
        return cls(settings, plugins, project_root=project, global_dir=global_dir, models_file=models_file)

    @classmethod
    def create(
        cls,
        *,
        settings: Settings | None = None,
        registry: Registry | None = None,
        models_file: Path | None = None,
        project_root: Path | None = None,
        global_dir: Path | None = None,
    ) -> Environment:
        """An environment from pieces a library caller already has (a :class:`Registry` it filled itself)."""
        plugins = PluginSetup(registry, [], scanned=True) if registry is not None else setup_plugins()
        return cls(settings or Settings(), plugins, project_root, global_dir, models_file)

    # -- what the workflows read

    @property
    def registry(self) -> Registry:
        """The custom macros and slots of the trusted plugins."""
        return self.plugins.registry

    @property
    def plugin_diagnostics(self) -> list[Diagnostic]:
        """FG950-FG952: the plugin setup's findings, for the front end to print."""
        return self.plugins.diagnostics

    @cached_property
    def supported_slots(self) -> tuple[str, ...] | None:
        """The loader's supported slot names, or ``None`` when only the built-ins are (the fast path)."""
        registry = self.plugins.registry
        return tuple(registry.supported_slot_names()) if registry.slots else None

    @cached_property
    def catalog_files(self) -> tuple[Path, ...]:
        """The catalog files merged over the bundled catalog, later ones winning (§6.2): the user's
        (``~/.config/forgec/models.json``), the project's (``.pi/forge/models.json``), ``models_file``."""
        from forgec.workspace import project_catalog_path, user_catalog_path

        found = (user_catalog_path(), project_catalog_path(self.root), self.models_file)
        return tuple(path for path in found if path is not None)

    @cached_property
    def catalog(self) -> Catalog:
        """The model catalog: :attr:`catalog_files` merged over the bundled one, loaded on first use.

        Raises :class:`~forgec.codecs.catalog.CatalogError` for a catalog file that cannot be used.
        """
        from forgec.codecs.catalog import default_catalog, load_catalog

        catalog = default_catalog()
        for path in self.catalog_files:
            catalog = load_catalog(path, base=catalog)
        return catalog

    @cached_property
    def catalog_sources(self) -> dict[str, Path]:
        """The file each model of :attr:`catalog` comes from (the last layer that declares it), by
        ``provider/id``; the bundled catalog's own models are not in it.  Raises as :attr:`catalog`."""
        from forgec.codecs.catalog import Catalog, load_catalog

        sources: dict[str, Path] = {}
        for path in self.catalog_files:
            sources.update(dict.fromkeys(load_catalog(path, base=Catalog({}, {})).models, path))
        return sources

    @property
    def root(self) -> Path:
        """The project root: :attr:`project_root`, else the current folder."""
        return self.project_root if self.project_root is not None else Path.cwd()

    @property
    def global_forge_dir(self) -> Path:
        """The user-global forge folder (see :func:`forgec.workspace.global_forge_dir`)."""
        from forgec.workspace import global_forge_dir

        return self.global_dir if self.global_dir is not None else global_forge_dir()
