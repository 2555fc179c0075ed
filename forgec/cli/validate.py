"""``forgec validate``: lint a project's prompt stacks, agent profiles, forge config and model catalogs.

Only option parsing and printing live here; discovery is :mod:`forgec.workspace`, the pipeline is
:mod:`forgec.lint`, configuration is :mod:`forgec.settings`, the formats are :mod:`forgec.output`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import no_traceback, reject_empty_paths, trust_plugins_option
from forgec.cli._validate_options import (
    CACHE_DIR_ENVVAR,
    DEFAULTS,
    NO_CACHE_ENVVAR,
    ValidateOptions,
    selectors,
    start,
)
from forgec.output import FORMATS

_EPILOG = """\b
Examples:
  forgec validate                          the current project's stack folders
  forgec validate .pi/forge/prompt-stacks/writer.json
  forgec validate examples/ --format concise
  forgec validate --format github          annotations in a GitHub Actions log
  forgec validate --format sarif -o forgec.sarif
  forgec validate --diff                   the safe fixes, as a diff; --fix applies them
  forgec validate --statistics             how many findings per rule
  forgec validate --strict --ignore FG1    warnings fail; skip loader rules
  cat a.json | forgec validate - --stdin-filename a.json
  forgec validate --no-global              the project only, not ~/.pi/forge too
  forgec validate . --global-dir ~/.pi/forge   a PATH and the user-global folder
  forgec validate --models models.yaml     profiles' models and thinking levels too
  forgec validate --no-cache               check every file again (no .forgec_cache/)

PATH may be a file, a folder (its *.json/*.yaml/*.yml files, not recursive) or a
project root; a file inside a project stack folder is checked together with its
folder (duplicate stack ids across files).  No PATH means the current project
and the user-global forge folder (--global-dir, $PI_FORGE_GLOBAL_DIR, else
~/.pi/forge) if it exists; PATHs mean only what they name.  A project is its
stacks (.pi/forge/prompt-stacks/, .pi/prompt-stacks/), agent profiles
(.pi/forge/agent-profiles/: pi-forge's checks and their stack references),
.pi/forge/config.json and .pi/forge/models.json|yaml.  A profile's model and
thinking level are checked once a model catalog is configured (--models,
.pi/forge/models.*, ~/.config/forgec/models.*); without one, an info note says
they were not.  A folder without stack files, or no PATH outside a Pi project,
is a usage error: nothing was checked.
-o FILE is written atomically and replaces an existing file only with --overwrite
(never a checked stack file; a symbolic link is replaced itself, not written
through). Rules can also be chosen in
[tool.forgec] of the nearest pyproject.toml (select, extend-select, ignore,
severity, strict, plugins); `forgec rule CODE` explains a rule.
Custom macros and slots come from trusted plugins: --trust-plugins, or
[tool.forgec] plugins = ["name"] (see docs/plugins.md).

Results are cached in .forgec_cache/ (in the folder of the pyproject.toml with
[tool.forgec], else the Pi project's root, else the current folder; --cache-dir
or $FORGEC_CACHE_DIR to move it): a stack whose files are unchanged (content,
forgec version) is not checked again, and the output is the same.  --no-cache
(or $FORGEC_NO_CACHE=1) checks every file afresh; --fix and --diff never use it.
The folder holds a .gitignore and a CACHEDIR.TAG; delete it any time.

Exit codes: 0 no error (no warning with --strict), 1 errors found (or warnings
with --strict), 2 usage error, missing or unreadable path, no stack files found,
invalid pyproject.toml, an empty --select/--extend-select/--ignore (or an empty
select/extend-select/ignore list in [tool.forgec]), -o file that cannot be written,
internal error."""


def _selectors(values: tuple[str, ...], option: str) -> tuple[str, ...] | None:
    """:func:`~forgec.cli._validate_options.selectors`, an empty one reported as click's usage error.

    Each occurrence must name at least one rule: ``--select ""`` (an unset CI variable) is a usage
    error, not "no rules, all checks passed".
    """
    from forgec.errors import SettingsError

    try:
        return selectors(values)
    except SettingsError as exc:
        raise click.BadParameter(str(exc).removeprefix("command line: "), param_hint=f"'{option}'") from exc


@click.command(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, metavar="[PATH]...", default=DEFAULTS["paths"])
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=DEFAULTS["fmt"],
    show_default=True,
    help="full: source excerpt with a caret; concise: one line each; json; github: workflow annotations; "
         "sarif: SARIF 2.1.0; junit: JUnit XML test report; gitlab: GitLab Code Quality.",
)
@click.option("--strict/--no-strict", default=DEFAULTS["strict"], help="Warnings fail too (exit 1). Default: [tool.forgec] strict, else off.")
@click.option("--select", "select", multiple=True, default=DEFAULTS["select"], metavar="CODES",
              help="Only these rules: comma-separated codes (FG135), names (duplicate-item-id) or prefixes (FG1). Replaces [tool.forgec] select.")
@click.option("--extend-select", "extend_select", multiple=True, default=DEFAULTS["extend_select"], metavar="CODES",
              help="Rules to add to the selection (same forms as --select); keeps [tool.forgec] select.")
@click.option("--ignore", "ignore", multiple=True, default=DEFAULTS["ignore"], metavar="CODES",
              help="Skip these rules (same forms as --select); added to [tool.forgec] ignore.")
@click.option("-q", "--quiet", is_flag=True, default=DEFAULTS["quiet"], help="Print only the summary (json: only {\"summary\": …}; sarif: unaffected).")
@click.option("--color/--no-color", "color", default=DEFAULTS["color"],
              help="Colour the full format. Default: on a terminal only (NO_COLOR/FORCE_COLOR honoured).")
@click.option("--stdin-filename", metavar="NAME", default=DEFAULTS["stdin_filename"],
              help="With PATH '-': the name of the stack read from standard input (fallback id, JSON or YAML by extension, name in output).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE", default=DEFAULTS["config_file"],
              help="Read [tool.forgec] from this pyproject.toml instead of the nearest one.")
@click.option("--isolated", is_flag=True, default=DEFAULTS["isolated"], help="Ignore any pyproject.toml configuration.")
@click.option("-o", "--output-file", metavar="FILE", default=DEFAULTS["output_file"],
              help="Write the report to FILE instead of standard output ('-': standard output).")
@click.option("--overwrite", is_flag=True, default=DEFAULTS["overwrite"], help="Let -o replace an existing file.")
@click.option("--global-dir", "global_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              default=DEFAULTS["global_dir"],
              help="The user-global forge folder (default: $PI_FORGE_GLOBAL_DIR, else ~/.pi/forge): its stacks, "
                   "agent profiles and config.json are checked -- without PATH always, with PATHs when this "
                   "option is given -- and profiles' stack references are resolved against it.")
@click.option("--no-global", "no_global", is_flag=True, default=DEFAULTS["no_global"],
              help="Without PATH: check the project only, not the user-global forge folder too.")
@click.option("--models", "models_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
              default=DEFAULTS["models_file"],
              help="A model catalog (JSON or YAML) to check agent profiles' models and thinking levels against, "
                   "over .pi/forge/models.json and ~/.config/forgec/models.json.")
@click.option("--check-auth", is_flag=True, default=DEFAULTS["check_auth"],
              help="Also require each agent profile's model to have its credentials variable (auth.env) set "
                   "-- checks presence only, never reads the value out; the models are then checked even "
                   "without a configured catalog.")
@click.option("--fix", is_flag=True, default=DEFAULTS["fix"], help="Apply the safe fixes (a misspelt key with one candidate, a role or slot "
              "in the wrong case, a repeated regex flag) in place, then report what is left.")
@click.option("--diff", is_flag=True, default=DEFAULTS["diff"], help="Show the fixes --fix would make as a unified diff; write nothing.")
@click.option("--statistics", is_flag=True, default=DEFAULTS["statistics"], help="Print how many findings each rule has, instead of the findings.")
@click.option("--watch", is_flag=True, default=DEFAULTS["watch"], help="Check again whenever a checked file changes (Ctrl-C to stop).")
@click.option("--no-cache", "no_cache", is_flag=True, default=DEFAULTS["no_cache"], envvar=NO_CACHE_ENVVAR,
              help="Check every file afresh: neither read nor write the cache ($FORGEC_NO_CACHE=1 too).")
@click.option("--cache-dir", "cache_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              default=DEFAULTS["cache_dir"], envvar=CACHE_DIR_ENVVAR, show_envvar=True,
              help="Where the cache lives. Default: .forgec_cache in the folder of the pyproject.toml with "
                   "[tool.forgec], else the Pi project's root, else the current folder.")
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
    overwrite: bool,
    global_dir: Path | None,
    no_global: bool,
    models_file: Path | None,
    check_auth: bool,
    fix: bool,
    diff: bool,
    statistics: bool,
    watch: bool,
    no_cache: bool,
    cache_dir: Path | None,
    trust_plugins: bool,
) -> None:
    """Lint prompt stacks, agent profiles, forge config and model catalogs: pi-forge's diagnostics
    (exact level, message and item id or field) plus forgec's own rules, each with a code, a name
    and a file:line:column position."""
    for values, option in ((select, "--select"), (extend_select, "--extend-select"), (ignore, "--ignore")):
        _selectors(values, option)
    if stdin_filename is not None and "-" not in paths:
        raise click.UsageError("--stdin-filename needs '-' among the paths (the stack is read from standard input)")
    if paths.count("-") > 1:
        raise click.UsageError("'-' (standard input) can be given only once")
    reject_empty_paths(paths)
    if isolated and config_file is not None:
        raise click.UsageError("--isolated ignores every configuration file; it cannot be combined with --config")
    if no_global and global_dir is not None:
        raise click.UsageError("--no-global leaves the user-global folder out; it cannot be combined with --global-dir")
    if (watch or fix or diff) and "-" in paths:
        raise click.UsageError("--watch, --fix and --diff work on files, not on standard input ('-')")
    sys.exit(start(ValidateOptions(
        paths=paths, fmt=fmt, strict=strict, select=select, extend_select=extend_select, ignore=ignore, quiet=quiet,
        color=color, stdin_filename=stdin_filename, config_file=config_file, isolated=isolated,
        output_file=output_file, overwrite=overwrite, global_dir=global_dir, no_global=no_global,
        models_file=models_file, check_auth=check_auth, fix=fix, diff=diff, statistics=statistics, watch=watch,
        no_cache=no_cache, cache_dir=cache_dir, trust_plugins=trust_plugins,
    )))  # fmt: skip
