"""``forgec validate``'s options as one value, their defaults, and the start of a run from them.

Two front ends parse a ``validate`` command line: the click command (:mod:`forgec.cli.validate`,
every option, ``--help``, usage errors) and the click-free path of the console script
(:mod:`forgec.cli._fast`, the plain forms only).  Both build a :class:`ValidateOptions` and call
:func:`start`, so a run cannot depend on which of them parsed it; the defaults are this tuple's, and
the click options take theirs from :data:`DEFAULTS` (``tests/cli/test_click_free_validate.py``
checks every click parameter against it).  Not a module a cold start may make heavy: the click-free
path imports it first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["CACHE_DIR_ENVVAR", "DEFAULTS", "NO_CACHE_ENVVAR", "ValidateOptions", "selectors", "start"]

#: the environment variables behind ``--no-cache`` and ``--cache-dir``
NO_CACHE_ENVVAR = "FORGEC_NO_CACHE"
CACHE_DIR_ENVVAR = "FORGEC_CACHE_DIR"


class ValidateOptions:
    """Every option of ``forgec validate`` as click passes it to the command (attribute = parameter name).

    A plain class, not a named tuple or dataclass: defining a 24-field named tuple execs its generated
    ``__new__`` at import, ~1.3 ms of a cold run.  Once a run starts, ``cache_dir`` is the cache folder
    it uses (None: no cache), see :func:`start`.
    """

    def __init__(
        self,
        *,
        paths: tuple[str, ...] = (),
        fmt: str = "full",
        strict: bool | None = None,
        select: tuple[str, ...] = (),
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        quiet: bool = False,
        color: bool | None = None,
        stdin_filename: str | None = None,
        config_file: str | None = None,
        isolated: bool = False,
        output_file: str | None = None,
        overwrite: bool = False,
        global_dir: Path | None = None,
        no_global: bool = False,
        models_file: Path | None = None,
        check_auth: bool = False,
        fix: bool = False,
        diff: bool = False,
        statistics: bool = False,
        watch: bool = False,
        no_cache: bool = False,
        cache_dir: Path | None = None,
        trust_plugins: bool = False,
    ) -> None:
        self.paths = paths
        self.fmt = fmt
        self.strict = strict
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore
        self.quiet = quiet
        self.color = color
        self.stdin_filename = stdin_filename
        self.config_file = config_file
        self.isolated = isolated
        self.output_file = output_file
        self.overwrite = overwrite
        self.global_dir = global_dir
        self.no_global = no_global
        self.models_file = models_file
        self.check_auth = check_auth
        self.fix = fix
        self.diff = diff
        self.statistics = statistics
        self.watch = watch
        self.no_cache = no_cache
        self.cache_dir = cache_dir
        self.trust_plugins = trust_plugins

    def replace(self, **changes: Any) -> ValidateOptions:
        """A copy with ``changes`` (the options are not changed in place: a caller may hold them)."""
        return ValidateOptions(**{**vars(self), **changes})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ValidateOptions) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ValidateOptions({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


#: parameter name -> default: the one source of the click options' defaults and the click-free path's
DEFAULTS: dict[str, Any] = dict(ValidateOptions.__init__.__kwdefaults__ or {})


def selectors(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """The rules a repeatable ``--select``-style option names (None when it is not given); raises
    :class:`~forgec.errors.SettingsError` for an empty one (the click command reports that as a
    usage error before the run starts)."""
    from forgec.settings import parse_selector_list

    if not values:
        return None
    out: list[str] = []
    for value in values:
        out.extend(parse_selector_list(value))
    return tuple(out)


def start(options: ValidateOptions) -> int:
    """Discover the environment, choose the rules and the cache, then run (or ``--watch``): the exit
    code.  The command line's consistency (``-`` once, ``--isolated`` without ``--config``…) is
    checked before, by the front end that parsed it."""
    from forgec.cli._validate_run import run_once, watch
    from forgec.environment import Environment
    from forgec.settings import RuleSelection
    from forgec.workspace import config_start

    o = options
    env = Environment.discover(
        config_start(o.paths, o.stdin_filename), trust_plugins=o.trust_plugins, isolated=o.isolated,
        config_file=Path(o.config_file) if o.config_file is not None else None,
        global_dir=o.global_dir, models_file=o.models_file,
    )  # fmt: skip
    selection = RuleSelection(env.settings, selectors(o.select), selectors(o.ignore) or (),
                              selectors(o.extend_select) or ())  # fmt: skip
    cache_dir = o.cache_dir
    if not o.no_cache and cache_dir is None:
        from forgec.lint.result_cache import default_cache_dir

        cache_dir = default_cache_dir(env.settings.path, env.project_root)
    args = o.replace(cache_dir=None if o.no_cache else cache_dir)
    if o.watch:
        watch(args, env, selection)
    return run_once(args, env, selection)
