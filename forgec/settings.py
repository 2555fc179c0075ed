"""forgec's own settings, ``[tool.forgec]`` in ``pyproject.toml``: which rules run, at which severity.

Not to be confused with pi-forge's *forge config* (``.pi/forge/config.json``, the delegation policy
and the editor port), which is an input forgec reads and checks like a stack.

The shape follows ruff, because users already know it::

    [tool.forgec]
    select = ["FG1", "FG2"]          # codes, kebab-case names or code prefixes; default: every rule
    extend-select = ["FG901"]        # added to ``select``
    ignore = ["unsupported-slot"]    # removed
    severity = { FG135 = "warning" } # re-level a rule (error | warning | info)
    strict = true                    # warnings fail too (like ``--strict``)
    plugins = ["my_forgec_plugin"]   # read here, used by the plugin system
    max-prompt-tokens = 8000         # budget of pi-ai's estimate (FG890); or a table:
    # max-prompt-tokens = { default = 8000, coding = 6000, "openai-completions" = 12000 }

    [tool.forgec.per-file-ignores]   # globs relative to this file's folder (JSON has no comments)
    "prompts/legacy/*.json" = ["unknown-field"]

Selection is resolved in *layers* (the configuration file, then the command line): a layer that has
``select`` starts from nothing, one without it starts from the previous layer's set.  Inside a
layer, for each rule the most specific matching selector wins (a full code or name beats ``FG1``,
which beats ``FG``/``ALL``); on a tie ``ignore`` wins.  So ``--select FG101`` on the command line
replaces the file's selection, and ``--ignore FG1`` adds to the file's ignores.

Re-levelling and ignoring change only what forgec *prints* and its exit code; pi-forge's own
``level``/``usable`` values are never rewritten (see :mod:`forgec.lint`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgec.errors import SettingsError

__all__ = [
    "RuleSelection",
    "Settings",
    "SettingsError",
    "find_pyproject",
    "load_settings",
    "load_settings_file",
    "parse_selector_list",
    "selects",
    "suggest_rule",
]

_PREFIX = re.compile(r"^FG\d{0,3}$")




@dataclass(frozen=True, slots=True)
class Settings:
    """The parsed ``[tool.forgec]`` table (``path`` is the file it came from, ``None`` without one)."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)
    strict: bool = False
    plugins: tuple[str, ...] = ()
    path: Path | None = None
    #: glob (relative to the settings file's folder, ``/``-separated) -> the selectors it ignores
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: ``max-prompt-tokens``: ``default``, stack ids and target API names -> the token budget (FG890)
    max_prompt_tokens: dict[str, int] = field(default_factory=dict)


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` that has a ``[tool.forgec]`` table.

    Like ruff, a ``pyproject.toml`` without our table is passed over, so a monorepo's package
    files do not hide the root configuration.  A file we cannot read, decode (not UTF-8) or parse
    (not TOML) is a usage error, ``<path>: invalid pyproject.toml: <reason>``: silently ignoring a
    broken configuration would change what gets checked.
    """
    start = start.resolve()
    try:
        folder = start if start.is_dir() else start.parent
    except OSError:  # in a folder we may not search: its parent is where the lookup starts
        folder = start.parent
    for candidate_dir in (folder, *folder.parents):
        candidate = candidate_dir / "pyproject.toml"
        try:
            is_file = candidate.is_file()
        except OSError:  # a folder we may not search: none of its files can be checked either
            is_file = False
        if is_file and _read_table(candidate) is not None:
            return candidate
    return None


def _read_table(path: Path) -> dict[str, Any] | None:
    import tomllib

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read pyproject.toml: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        raise SettingsError(f"{path}: invalid pyproject.toml: {reason}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: invalid pyproject.toml: {exc}") from exc
    except RecursionError as exc:  # absurdly nested arrays or inline tables
        raise SettingsError(f"{path}: invalid pyproject.toml: nested too deeply") from exc
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return None
    table = tool.get("forgec")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: [tool.forgec] must be a table")
    return table


def load_settings(start: Path | None = None) -> Settings:
    """Read ``[tool.forgec]`` from the nearest ``pyproject.toml`` above ``start`` (default: cwd)."""
    path = find_pyproject(start if start is not None else Path.cwd())
    if path is None:
        return Settings()
    table = _read_table(path) or {}
    return parse_table(table, path)


def load_settings_file(path: Path) -> Settings:
    """Read ``[tool.forgec]`` from this file (``--config``); a file without the table is empty config."""
    if not path.is_file():
        raise SettingsError(f"{path}: no such configuration file")
    table = _read_table(path)
    return parse_table(table or {}, path)


_KNOWN_KEYS = {"select", "extend-select", "ignore", "severity", "strict", "plugins", "per-file-ignores", "max-prompt-tokens"}


def parse_table(table: dict[str, Any], path: Path | None = None) -> Settings:
    """Check and convert a ``[tool.forgec]`` table; every problem is a :class:`SettingsError`."""
    where = f"{path}: [tool.forgec]" if path else "[tool.forgec]"
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        raise SettingsError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN_KEYS))})")

    def str_list(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingsError(f"{where}: {key} must be a list of strings")
        return tuple(value)

    def selector_list(key: str) -> tuple[str, ...]:
        # an empty list (or [""], e.g. from an unset variable in a generated file) would silently
        # turn every rule off (select) or do nothing while looking configured: refuse it
        value = str_list(key)
        if key in table and not any(v.strip() for v in value):
            raise SettingsError(f"{where}: {key} is empty; {_EMPTY_HINT}")
        return tuple(v for v in value if v.strip())

    select = selector_list("select") if "select" in table else None
    extend_select = selector_list("extend-select")
    ignore = selector_list("ignore")
    plugins = str_list("plugins")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise SettingsError(f"{where}: strict must be true or false")
    from forgec.diagnostics import LEVELS  # here: a run without [tool.forgec] never needs the module

    severity_raw = table.get("severity", {})
    if not isinstance(severity_raw, dict):
        raise SettingsError(f"{where}: severity must be a table like {{ FG135 = \"warning\" }}")
    severity: dict[str, str] = {}
    for key, level in severity_raw.items():
        if level not in LEVELS:
            raise SettingsError(f"{where}: severity for {key} must be one of {', '.join(LEVELS)}, not {level!r}")
        severity[key] = level
    per_file_raw = table.get("per-file-ignores", {})
    if not isinstance(per_file_raw, dict):
        raise SettingsError(f'{where}: per-file-ignores must be a table like {{ "prompts/*.json" = ["FG150"] }}')
    per_file: dict[str, tuple[str, ...]] = {}
    for pattern, selectors in per_file_raw.items():
        if not isinstance(selectors, list) or not selectors or not all(isinstance(v, str) and v.strip() for v in selectors):
            raise SettingsError(f"{where}: per-file-ignores {pattern!r} must be a non-empty list of rule selectors")
        per_file[pattern] = tuple(v.strip() for v in selectors)
    # fail early, with the file named, on selectors that match no rule
    for selector in (*(select or ()), *extend_select, *ignore, *severity, *(v for vs in per_file.values() for v in vs)):
        _check_selector(selector, where)
    budgets = _budgets(table.get("max-prompt-tokens"), where)
    return Settings(select, extend_select, ignore, severity, strict, plugins, path, per_file, budgets)


def _budgets(value: Any, where: str) -> dict[str, int]:
    """``max-prompt-tokens``: a positive integer (every stack and target) or a table of them keyed by
    ``default``, stack ids and target API names."""
    if value is None:
        return {}
    table = value if isinstance(value, dict) else {"default": value}
    out: dict[str, int] = {}
    for key, limit in table.items():
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise SettingsError(
                f"{where}: max-prompt-tokens{'' if key == 'default' and not isinstance(value, dict) else f'.{key}'} "
                f"must be a positive integer (a token budget), not {limit!r}"
            )
        out[str(key)] = limit
    return out


_EMPTY_HINT = (
    "give at least one rule code (FG101), rule name (duplicate-item-id), code prefix (FG1) or ALL, "
    "or leave the option out"
)


def parse_selector_list(text: str | None, option: str = "command line") -> tuple[str, ...]:
    """``"FG101, slot-not-registered,FG2"`` -> the selectors, each checked (for ``--select/--ignore``).

    ``None`` (the option was not given) is ``()``.  An empty list (``--select ""``, often an unset
    CI variable) is a :class:`SettingsError`: taken literally it would select no rule at all and
    report success without checking anything.
    """
    if text is None:
        return ()
    selectors = tuple(part.strip() for part in text.split(",") if part.strip())
    if not selectors:
        raise SettingsError(f"{option}: empty rule selector list; {_EMPTY_HINT}")
    for selector in selectors:
        _check_selector(selector, "command line")
    return selectors


def _check_selector(selector: str, where: str) -> None:
    specificity = _specificity(selector)
    if specificity < 0:
        raise SettingsError(
            f"{where}: unknown rule selector {selector!r}{suggest_rule(selector)}: use a code (FG101), a rule "
            "name (duplicate-item-id), a code prefix (FG1) or ALL; `forgec rule` lists the rules"
        )
    if 0 < specificity < 5:
        # a prefix that matches no rule would silently select (or ignore) nothing -- with --select,
        # every check off and a green run on a broken stack
        from forgec.rules import all_rules

        prefix = selector.strip().upper()
        if not any(rule.code.startswith(prefix) for rule in all_rules()):
            raise SettingsError(
                f"{where}: rule selector {selector!r} matches no rule; `forgec rule` lists the rules"
            )


def suggest_rule(selector: str) -> str:
    """`` (did you mean 'item-role-invalid'?)`` for a selector one typo away from a rule name or
    code (``--select``, ``[tool.forgec]`` and ``forgec rule`` give the same hint)."""
    import difflib

    from forgec.rules import all_rules

    rules = all_rules()
    names = [r.name for r in rules] + [r.code for r in rules]
    close = difflib.get_close_matches(selector.strip(), names, n=1, cutoff=0.75)
    if not close:
        close = difflib.get_close_matches(selector.strip().upper(), [r.code for r in rules], n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _specificity(selector: str) -> int:
    """How specific a selector is (higher wins); -1 when it names nothing.

    A full code or a name is 5; a prefix ``FG1`` is its length; ``ALL`` is 0.  A prefix has the
    shape ``FG`` plus up to three digits; :func:`_check_selector` also requires it to match a rule.
    """
    from forgec.rules import rule_for

    key = selector.strip()
    if key.upper() == "ALL":
        return 0
    try:
        rule_for(key)
    except KeyError:
        pass
    else:
        return 5
    upper = key.upper()
    if _PREFIX.match(upper) and len(upper) < 5:
        return len(upper)
    return -1


def _matches(selector: str, code: str) -> bool:
    from forgec.rules import rule_for

    key = selector.strip()
    upper = key.upper()
    if upper == "ALL":
        return True
    try:
        return rule_for(key).code == code
    except KeyError:
        return code.startswith(upper)


def _best(selectors: Iterable[str], code: str) -> int:
    return max((_specificity(s) for s in selectors if _matches(s, code)), default=-1)


def selects(selectors: Iterable[str], code: str) -> bool:
    """Whether any of ``selectors`` (codes, names, prefixes, ``ALL``) names the rule ``code``."""
    return _best(selectors, code) >= 0


@dataclass(frozen=True, slots=True)
class RuleSelection:
    """The effective rule set and severities: the config layer, then the command-line layer."""

    settings: Settings = field(default_factory=Settings)
    cli_select: tuple[str, ...] | None = None
    cli_ignore: tuple[str, ...] = ()
    cli_extend_select: tuple[str, ...] = ()

    def enabled(self, code: str) -> bool:
        """Whether findings of ``code`` are reported."""
        on = True  # default: every rule
        layers = (
            (self.settings.select, self.settings.extend_select, self.settings.ignore),
            (self.cli_select, self.cli_extend_select, self.cli_ignore),
        )
        for select, extend, ignore in layers:
            chosen = (*(select or ()), *extend)
            if select is not None:
                on = False
            best_on = _best(chosen, code)
            best_off = _best(ignore, code)
            if best_on < 0 and best_off < 0:
                continue
            on = best_on > best_off
        return on

    def ignored_in(self, code: str, path: str | Path) -> bool:
        """Whether ``per-file-ignores`` turns ``code`` off for the file at ``path`` (globs are
        matched against the path relative to the settings file's folder, ``/``-separated)."""
        if not self.settings.per_file_ignores or self.settings.path is None:
            return False
        import fnmatch
        import os

        base = self.settings.path.parent.resolve()
        try:
            relative = Path(os.path.abspath(path)).relative_to(base).as_posix()
        except ValueError:
            return False
        return any(
            (fnmatch.fnmatchcase(relative, pattern) or fnmatch.fnmatchcase(Path(relative).name, pattern))
            and _best(selectors, code) >= 0
            for pattern, selectors in self.settings.per_file_ignores.items()
        )

    def level(self, code: str, level: str) -> str:
        """The severity to report for ``code`` (``level`` unless ``severity`` re-levels it)."""
        best, chosen = -1, level
        for selector, new_level in self.settings.severity.items():
            if _matches(selector, code):
                spec = _specificity(selector)
                if spec > best:
                    best, chosen = spec, new_level
        return chosen
