"""``forgec validate``: lint prompt stacks (pi-forge's loader checks plus forgec's own rules).

Only option parsing and printing live here; discovery is :mod:`forgec.workspace`, the pipeline is
:mod:`forgec.lint`, configuration is :mod:`forgec.settings`, the formats are :mod:`forgec.output`.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from forgec.cli._common import (
    error,
    fail,
    may_exist,
    no_traceback,
    reject_empty_paths,
    stdin_hint,
    use_color,
    write_out,
)
from forgec.cli._plugins import PluginSetup, echo_plugin_diagnostics, setup_plugins, trust_plugins_option

if TYPE_CHECKING:
    from forgec.lint import FileResult

_EPILOG = """\b
Examples:
  forgec validate                          the current project's stack folders
  forgec validate .pi/forge/prompt-stacks/writer.json
  forgec validate examples/ --format concise
  forgec validate --format github          annotations in a GitHub Actions log
  forgec validate --format sarif -o forgec.sarif
  forgec validate --strict --ignore FG1    warnings fail; skip loader rules
  cat a.json | forgec validate - --stdin-filename a.json

PATH may be a file, a folder (its *.json/*.yaml/*.yml files, not recursive) or a
project root; a file inside a project stack folder is checked together with its
folder (duplicate stack ids across files).  A folder without stack files, or no
PATH outside a Pi project, is a usage error: nothing was checked.
-o FILE is written atomically and replaces an existing file only with --overwrite
(never a checked stack file; a symbolic link is replaced itself, not written
through). Rules can also be chosen in
[tool.forgec] of the nearest pyproject.toml (select, extend-select, ignore,
severity, strict, plugins); `forgec rule CODE` explains a rule.
Custom macros and slots come from trusted plugins: --trust-plugins, or
[tool.forgec] plugins = ["name"] (see docs/plugins.md).

Exit codes: 0 no error (no warning with --strict), 1 errors found (or warnings
with --strict), 2 usage error, missing or unreadable path, no stack files found,
invalid pyproject.toml, an empty --select/--extend-select/--ignore (or an empty
select/extend-select/ignore list in [tool.forgec]), -o file that cannot be written,
internal error."""


def _selectors(values: tuple[str, ...], option: str) -> tuple[str, ...] | None:
    """The selectors of a repeatable ``--select``-style option (None when not given).

    Each occurrence must name at least one rule: ``--select ""`` (an unset CI variable) is a usage
    error, not "no rules, all checks passed".
    """
    from forgec.settings import ConfigError, parse_selector_list

    if not values:
        return None
    try:
        out: list[str] = []
        for value in values:
            out.extend(parse_selector_list(value))
        return tuple(out)
    except ConfigError as exc:
        raise click.BadParameter(str(exc).removeprefix("command line: "), param_hint=f"'{option}'") from exc


@click.command(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["full", "concise", "json", "github", "sarif"]),
    default="full",
    show_default=True,
    help="full: source excerpt with a caret; concise: one line each; json; github: workflow annotations; sarif: SARIF 2.1.0.",
)
@click.option("--strict/--no-strict", default=None, help="Warnings fail too (exit 1). Default: [tool.forgec] strict, else off.")
@click.option("--select", "select", multiple=True, metavar="CODES",
              help="Only these rules: comma-separated codes (FG135), names (duplicate-item-id) or prefixes (FG1). Replaces [tool.forgec] select.")
@click.option("--extend-select", "extend_select", multiple=True, metavar="CODES",
              help="Rules to add to the selection (same forms as --select); keeps [tool.forgec] select.")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES",
              help="Skip these rules (same forms as --select); added to [tool.forgec] ignore.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary (json: only {\"summary\": …}; sarif: unaffected).")
@click.option("--color/--no-color", "color", default=None,
              help="Colour the full format. Default: on a terminal only (NO_COLOR/FORCE_COLOR honoured).")
@click.option("--stdin-filename", metavar="NAME",
              help="With PATH '-': the name of the stack read from standard input (fallback id, JSON or YAML by extension, name in output).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Read [tool.forgec] from this pyproject.toml instead of the nearest one.")
@click.option("--isolated", is_flag=True, help="Ignore any pyproject.toml configuration.")
@click.option("-o", "--output-file", metavar="FILE",
              help="Write the report to FILE instead of standard output ('-': standard output).")
@click.option("--overwrite", is_flag=True, help="Let -o replace an existing file.")
@trust_plugins_option
@no_traceback
def validate(
    paths: tuple[str, ...],
    fmt: str,
    strict: bool | None,
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    quiet: bool,
    color: bool | None,
    stdin_filename: str | None,
    config_file: str | None,
    isolated: bool,
    output_file: str | None,
    overwrite: bool = False,
    trust_plugins: bool = False,
) -> None:
    """Lint prompt stacks: pi-forge's loader diagnostics (exact level, message and item id) plus
    forgec's own rules, each with a code, a name and a file:line:column position."""
    from forgec.lint import build_report, lint_targets
    from forgec.output import render
    from forgec.settings import Config, ConfigError, RuleSelection, load_config, load_config_file
    from forgec.workspace import expand_paths

    cli_select = _selectors(select, "--select")
    cli_extend = _selectors(extend_select, "--extend-select") or ()
    cli_ignore = _selectors(ignore, "--ignore") or ()
    if stdin_filename is not None and "-" not in paths:
        raise click.UsageError("--stdin-filename needs '-' among the paths (the stack is read from standard input)")
    if paths.count("-") > 1:
        raise click.UsageError("'-' (standard input) can be given only once")
    reject_empty_paths(paths)
    if isolated and config_file is not None:
        raise click.UsageError("--isolated ignores every configuration file; it cannot be combined with --config")

    try:
        if isolated:
            config = Config()
        elif config_file is not None:
            config = load_config_file(Path(config_file))
        else:
            config = load_config(_config_start(paths, stdin_filename))
    except ConfigError as exc:
        fail(str(exc))

    found = expand_paths(list(paths))
    for message in found.errors:
        error(message)
    if not found.targets and found.errors:
        sys.exit(2)  # nothing to check: no report that could read as "all checks passed"
    plugins = setup_plugins(trust_all=trust_plugins, trusted=config.plugins)
    if "-" in paths:
        stdin_hint()
    results = lint_targets(found.targets, stdin_filename=stdin_filename, registry=plugins.registry)
    _report_plugins(plugins, results, quiet)
    selection = RuleSelection(config, cli_select, cli_ignore, cli_extend)
    report = build_report(results, selection, strict=config.strict if strict is None else strict)
    report.usage_errors = found.errors
    report.paths = list(paths)

    buffer = io.StringIO()
    colored = use_color(color) and output_file in (None, "-")
    render(fmt, report, buffer, color=colored, quiet=quiet)
    if output_file is not None and output_file != "-":
        checked = {p for p in paths if p != "-"} | {r.path for r in results if r.path != "-"}
        write_out(output_file, buffer.getvalue(), overwrite=overwrite, inputs=tuple(Path(p) for p in sorted(checked)))
    else:
        # color=True stops click from stripping the escapes it would strip on a pipe
        click.echo(buffer.getvalue(), nl=False, color=colored)
    sys.exit(report.exit_code)


#: slot-not-registered, unknown-macro, missing-macro-plugin: what an untrusted plugin may provide
_NEEDS_PLUGIN = frozenset({"FG136", "FG210", "FG214"})


def _report_plugins(plugins: PluginSetup, results: list[FileResult], quiet: bool) -> None:
    """A trusted plugin that failed to load is an error of every checked file (each was checked
    without its macros and slots, like pi-forge's runtime prepends extension-loading diagnostics to
    every stack); notes about untrusted or missing plugins concern the setup and go to stderr."""
    import dataclasses

    needed = any(d.code in _NEEDS_PLUGIN for result in results for d in result.diagnostics)
    plugins.note_untrusted(needed and _plugins_may_be_installed())
    for result in results:
        result.diagnostics[:0] = [dataclasses.replace(d) for d in plugins.errors]
    shown = plugins if not results else PluginSetup(plugins.registry, [d for d in plugins.diagnostics if d.level != "error"])
    echo_plugin_diagnostics(shown, "forgec validate", quiet=quiet)


def _plugins_may_be_installed() -> bool:
    """Whether a distribution on ``sys.path`` may declare a ``forgec.plugins`` entry point.

    Listing entry points through ``importlib.metadata`` costs 20-40 ms of a cold ``forgec validate``
    (its import alone pulls in ``email``, ``zipfile``, ``csv``...); reading the ``entry_points.txt``
    of each ``*.dist-info``/``*.egg-info`` folder, where that listing looks too, takes about 1 ms.
    Only a sure "no" skips the listing: a path entry that is not a readable folder (a zip) is a "maybe".
    """
    header = "[forgec.plugins]"
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


def _config_start(paths: tuple[str, ...], stdin_filename: str | None) -> Path:
    """Where to look for ``pyproject.toml``: the first PATH (or the stdin file name), else the cwd."""
    first = next((p for p in paths if p != "-"), None) or stdin_filename
    if first is None:
        return Path.cwd()
    path = Path(first)
    while not may_exist(path) and path != path.parent:
        path = path.parent  # a file name that does not exist yet (stdin): its nearest real folder
    return path if str(path) else Path.cwd()

