"""One ``forgec validate`` run once its options are parsed: lint, then fix, diff, count or print;
and ``--watch``, which repeats the run whenever a checked file changes.

Kept apart from :mod:`forgec.cli.validate` (the options) so each stays a screenful; the work is
the library's (:func:`forgec.lint.lint`, :func:`forgec.lint.fixes.fix_report`, :mod:`forgec.output`).
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from forgec.cli._common import echo_notes, error, use_color
from forgec.cli._echo import echo
from forgec.cli._io import read_stdin, write_out

if TYPE_CHECKING:
    from forgec.cli._validate_options import ValidateOptions
    from forgec.diagnostics.findings import LintReport
    from forgec.environment import Environment
    from forgec.settings import RuleSelection
    from forgec.workspace import DiscoveryResult

__all__ = ["run_once", "watch"]

#: how often ``--watch`` looks at the files (seconds): fast enough to feel immediate
_POLL = 0.4


def _discover(args: ValidateOptions, env: Environment) -> DiscoveryResult:
    from forgec.workspace import expand_paths, home_targets

    found = expand_paths(list(args.paths), global_dir=args.global_dir)
    if not args.paths and args.global_dir is None and not args.no_global and found.targets:
        found.targets.extend(home_targets(env.global_forge_dir, env.root))
    return found


def _lint(args: ValidateOptions, env: Environment, selection: RuleSelection, found: DiscoveryResult) -> LintReport:
    from forgec.lint import lint

    cache = None
    if args.cache_dir is not None and not (args.fix or args.diff):
        from forgec.lint.result_cache import ResultCache

        cache = ResultCache(args.cache_dir)
    report = lint(
        found, env=env, selection=selection, strict=args.strict, paths=args.paths,
        stdin_filename=args.stdin_filename, read_stdin=read_stdin, check_auth=args.check_auth, cache=cache,
    )  # fmt: skip
    if cache is not None:
        cache.save()
    return report


def _statistics(report: LintReport, fmt: str) -> str:
    """Findings per rule, most frequent first (ruff's ``--statistics``)."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    fixable: Counter[str] = Counter()
    for reported in report.files:
        for finding in reported.findings:
            counts[finding.code] += 1
            names[finding.code] = finding.name
            fixable[finding.code] += finding.diagnostic.fix is not None
    rows = sorted(counts, key=lambda code: (-counts[code], code))
    if fmt == "json":
        doc = [{"code": c, "name": names[c], "count": counts[c], "fixable": fixable[c]} for c in rows]
        return json.dumps(doc, indent=2) + "\n"
    width = max((len(str(counts[c])) for c in rows), default=1)
    lines = [f"{counts[c]:>{width}}  {c}  {names[c]}" + (f"  ({fixable[c]} fixable)" if fixable[c] else "") for c in rows]
    return "".join(line + "\n" for line in lines) + report.summary_line(folded=False) + "\n"


def _fix_or_diff(args: ValidateOptions, report: LintReport) -> int | None:
    """``--fix`` writes the repairs (then the run reports what is left); ``--diff`` prints them and
    ends the run (exit 1 when there is something to fix).  ``None``: go on and report."""
    from forgec.lint.repair import fix_report

    stdin_names = (args.stdin_filename,) if args.stdin_filename else ()
    fixes = fix_report(report, write=args.fix and not args.diff, stdin_names=stdin_names)
    for fixed in fixes:
        if fixed.refused:
            error(f"{fixed.path}: not fixed: {fixed.refused}")
    count = sum(len(f.applied) for f in fixes if not f.refused)
    if args.diff:
        echo("".join(f.diff() for f in fixes if not f.refused), nl=False)
        noun = "fix" if count == 1 else "fixes"
        echo(f"Would apply {count} {noun} in {sum(1 for f in fixes if f.applied)} file(s).", err=True)
        return 1 if count else 0
    if count:
        echo(f"Fixed {count} problem{'s' if count != 1 else ''} "
             f"in {sum(1 for f in fixes if f.applied)} file(s).", err=True)  # fmt: skip
    return None


def run_once(args: ValidateOptions, env: Environment, selection: RuleSelection) -> int:
    """One run: the exit code (0, 1 or 2) it ends with."""
    found = _discover(args, env)
    for message in found.errors:
        error(message)
    if not found.targets and found.errors:
        return 2  # nothing to check: no report that could read as "all checks passed"
    report = _lint(args, env, selection, found)
    if args.fix or args.diff:
        ended = _fix_or_diff(args, report)
        if ended is not None:
            return ended
        if args.fix:
            report = _lint(args, env, selection, _discover(args, env))  # what is left after the fixes
    echo_notes(report.setup_diagnostics, "forgec validate", quiet=args.quiet)
    colored = use_color(args.color) and args.output_file in (None, "-")
    if args.statistics:
        text = _statistics(report, args.fmt)
    else:
        from forgec.output import render

        buffer = io.StringIO()
        render(args.fmt, report, buffer, color=colored, quiet=args.quiet)
        text = buffer.getvalue()
    if args.output_file is not None and args.output_file != "-":
        checked = {p for p in args.paths if p != "-"} | {f.result.path for f in report.files if f.result.path != "-"}
        write_out(args.output_file, text, overwrite=args.overwrite, inputs=tuple(Path(p) for p in sorted(checked)))
    else:
        # color=True stops click from stripping the escapes it would strip on a pipe
        echo(text, nl=False, color=colored)
    return report.exit_code


def _state(args: ValidateOptions, env: Environment) -> tuple[tuple[str, int, int], ...]:
    """What ``--watch`` compares: every file a run would read, with its modification time and size."""
    from forgec.workspace import STACK_SUFFIXES, list_resource_files

    files: set[Path] = set()
    for target in _discover(args, env).targets:
        if target.path is not None:
            files.add(target.path)
        if target.group is not None and target.path is None:
            suffixes = STACK_SUFFIXES if target.kind == "stack" else (".json",)
            files.update(list_resource_files(list(target.group), suffixes))
    files.update(env.catalog_files)
    state = []
    for path in sorted(files):
        try:
            info = path.stat()
        except OSError:
            continue
        state.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(state)


def watch(args: ValidateOptions, env: Environment, selection: RuleSelection) -> None:
    """Run, then run again each time a checked file changes, until Ctrl-C (exit 130)."""
    previous = None
    while True:
        state = _state(args, env)
        if state != previous:
            if previous is not None:
                echo(f"\n[{time.strftime('%H:%M:%S')}] a file changed; checking again", err=True)
            run_once(args, env, selection)
            echo(f"Watching {len(state)} file(s) for changes (Ctrl-C to stop).", err=True)
            previous = _state(args, env)  # the run itself may have fixed files
        sys.stdout.flush()
        time.sleep(_POLL)
