"""The ``forgec validate`` pipeline: load -> pi-forge's loader diagnostics -> forgec's extra checks.

Loading is the stack codec's job (:mod:`forgec.codecs.stack`); this module decides *what* to load
together (a file in a project stack folder is loaded with its whole folder group, so cross-file
duplicate ids come out exactly as pi-forge reports them), runs the extra checks, resolves positions
once, and applies the user's rule selection.

Rule selection and re-levelling change only what is reported and the exit code: the ``level``,
``message`` and ``itemId`` of a pi-forge diagnostic, the ``stackId`` and the ``usable`` flag always
stay pi-forge's.  A :class:`~forgec.diagnostics.findings.Finding` therefore carries both the
diagnostic (untouched) and the ``severity`` forgec reports it at.

Three steps, each a function a front end may call on its own (the CLI prints between them):
:func:`forgec.workspace.expand_paths` (which files), :func:`lint_targets` (load and check them) and
:func:`select_findings` (rule selection); :func:`lint` runs the last two with the plugin setup,
:func:`lint_paths` all three.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from forgec.diagnostics.findings import FileResult, Finding, LintReport, ReportedFile
from forgec.settings import RuleSelection
from forgec.workspace import (
    STACK_SUFFIXES,
    DiscoveryResult,
    Target,
    expand_paths,
    list_resource_files,
    stdin_stack_name,
)

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack
    from forgec.diagnostics import Diagnostic
    from forgec.environment import Environment
    from forgec.lint.result_cache import ResultCache
    from forgec.lint.suppressions import Suppression
    from forgec.plugins import Registry
    from forgec.source import SourceDocument

__all__ = ["extra_checks", "lint", "lint_paths", "lint_targets", "select_findings"]

#: reads the bytes of a stack given as ``-`` (the CLI's reads standard input after a hint)
ReadStdin = Callable[[], bytes]


def extra_checks(loaded: LoadedStack, registry: Registry | None = None) -> list[Diagnostic]:
    """forgec's own checks on a loaded stack (every finding ``extra=True``): the static macro lint
    (FG21x), the typo hints (FG15x), then the prompt analyses -- cache stability (FG87x) and
    injection boundaries (FG88x), which share one flow analysis.  ``registry``'s custom macros and
    slots count as known."""
    from forgec.compile.macros.lint import lint_stack_macros
    from forgec.lint.cache import lint_stack_cache
    from forgec.lint.flow import analyse_stack
    from forgec.lint.hints import lint_stack_hints
    from forgec.lint.injection import lint_stack_injection

    flow = analyse_stack(loaded.stack, registry)
    return [
        *lint_stack_macros(loaded.stack, registry),
        *lint_stack_hints(loaded, registry),
        *lint_stack_cache(loaded.stack, registry, flow),
        *lint_stack_injection(loaded.stack, registry, flow),
    ]


def _finish(loaded: LoadedStack, display: str, registry: Registry | None, prefix: Sequence[Diagnostic]) -> FileResult:
    """Extra checks, positions resolved once, and the result record of one loaded stack.

    ``prefix``: findings that belong to every file of the run (a trusted plugin that failed to
    load), first, as pi-forge's runtime prepends extension-loading diagnostics to every stack.
    """
    from forgec.source import resolve_spans

    diagnostics = [*prefix, *loaded.diagnostics]
    document = loaded.document
    if document is not None and document.parsed:
        from forgec.lint.causes import link_causes
        from forgec.lint.fixes import attach_loader_fixes

        diagnostics.extend(extra_checks(loaded, registry))
        diagnostics = link_causes(attach_loader_fixes(diagnostics, loaded.raw), loaded.raw)
        diagnostics = _at_item_ids(diagnostics, document, loaded.raw)
    diagnostics = resolve_spans(diagnostics, document)
    text = document.text if document is not None else None
    return FileResult(display, "stack", loaded.stack_id, loaded.usable, diagnostics, text)


def _at_item_ids(diagnostics: list[Diagnostic], document: SourceDocument, raw: Any) -> list[Diagnostic]:
    """A finding about a whole item (or a field it lacks) is shown at the item's ``id``, not at
    the item's opening brace: that names the item and is one token an editor can underline."""
    from dataclasses import replace

    items = raw.get("items") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        return diagnostics
    out = []
    for d in diagnostics:
        pointer = tuple(d.pointer) if d.pointer is not None else ()
        if d.span is None and d.offset is None and len(pointer) >= 2 and pointer[0] == "items" and isinstance(pointer[1], int):
            item = items[pointer[1]] if 0 <= pointer[1] < len(items) else None
            lacking = len(pointer) == 3 and isinstance(item, dict) and pointer[2] not in item
            if isinstance(item, dict) and "id" in item and (len(pointer) == 2 or lacking) and not d.at_key:
                span = document.locate(("items", pointer[1], "id"))
                if span is not None:
                    d = replace(d, span=span)
        out.append(d)
    return out


def _resolved(path: str | os.PathLike[str]) -> Path:
    try:
        return Path(path).resolve()
    except OSError:
        return Path(os.path.abspath(path))


def lint_targets(
    targets: list[Target],
    *,
    env: Environment | None = None,
    read_stdin: ReadStdin | None = None,
    stdin_filename: str | None = None,
    cwd: Path | None = None,
    check_auth: bool = False,
    cache: ResultCache | None = None,
) -> list[FileResult]:
    """Load and check every target; each project group is loaded at most once.

    ``env`` adds the trusted plugins' slot names to the loader's supported slots and their macros
    to the macro lint, and puts a failed plugin's FG950 first in every file.  ``read_stdin`` reads
    the stack of a ``-`` target (named ``stdin_filename``).  ``check_auth``: profiles' models must
    have their credentials variable set (:mod:`forgec.lint.agents`).  ``cache``: stacks' results
    are looked up there and stored in it (:mod:`forgec.lint.result_cache`; the caller saves it).
    """
    slots = env.supported_slots if env is not None else None
    registry = env.registry if env is not None else None
    prefix = env.plugins.errors if env is not None else []
    cwd = cwd if cwd is not None else Path.cwd()
    groups: dict[tuple[tuple[Path, ...], str], list[LoadedStack]] = {}
    by_path: dict[tuple[Path, ...], dict[Path, LoadedStack]] = {}

    def group_of(dirs: tuple[Path, ...], scope: str = "project") -> list[LoadedStack]:
        """A folder group loaded once per run, for the stack targets and the profiles alike."""
        from forgec.codecs.stack import load_stack_folder

        if (dirs, scope) not in groups:
            groups[dirs, scope] = load_stack_folder(list(dirs), scope=scope, supported_slots=slots)
        return groups[dirs, scope]

    def member(dirs: tuple[Path, ...], path: Path) -> LoadedStack | None:
        """The group's stack loaded from ``path``, if the group loader listed that file."""
        if dirs not in by_path:
            by_path[dirs] = {_resolved(x.path): x for x in group_of(dirs)}
        return by_path[dirs].get(path)

    if cache is not None and (prefix or (registry is not None and (registry.macros or registry.slots))):
        cache = None  # a plugin is foreign code: its findings may change without any file changing
    agent_results: dict[int, list[FileResult]] = {}
    if any(t.kind != "stack" for t in targets):
        from forgec.lint.agents import lint_agent_targets

        agents_key = None
        if cache is not None and env is not None and not check_auth:
            agents_key = cache.agents_key(targets, env.global_forge_dir, env.catalog_files, cwd)
        cached_agents = cache.get_agents(agents_key) if cache is not None and agents_key is not None else None
        if cached_agents is not None:
            agent_results = cached_agents
        else:
            agent_results = lint_agent_targets(targets, env=env, check_auth=check_auth, load_group=group_of)
            if cache is not None and agents_key is not None:
                cache.put_agents(agents_key, agent_results)
    results: list[FileResult] = []
    from_stdin: set[int] = set()

    def check(index: int, target: Target) -> list[FileResult]:
        """The results of one target (imports the loader only now: a run the cache answers whole
        never needs it)."""
        from forgec.codecs.stack import load_stack_bytes, load_stack_file

        if target.kind != "stack":
            return agent_results.get(index, [])
        if target.stdin:
            raw = read_stdin() if read_stdin is not None else b""
            display = stdin_filename or "-"
            loaded = load_stack_bytes(raw, stdin_stack_name(stdin_filename), path=display, supported_slots=slots)
            result = _finish(loaded, display, registry, prefix)
            from_stdin.add(id(result))
            return [result]
        if target.path is None:
            assert target.group is not None
            arg, base = target.display_base or ("", cwd.resolve())
            return [
                _finish(loaded, os.path.normpath(os.path.join(arg, os.path.relpath(loaded.path, base))), registry, prefix)
                for loaded in group_of(target.group, target.scope)
            ]
        found = None
        if target.group is not None:
            found = member(target.group, target.path)
        if found is None:
            # not in a group, or not something the group loader lists (a YAML file, a legacy
            # file shadowed by the primary folder): load it on its own
            found = load_stack_file(target.path, scope="project", supported_slots=slots)
        if _is_context(found):
            from forgec.lint.context import lint_context_file

            return [lint_context_file(target.path, target.display)]
        return [_finish(found, target.display, registry, prefix)]

    def members(dirs: tuple[Path, ...], scope: str) -> _GroupState | None:
        """A folder group's listing and duplicate-id names, from the ids the cache remembers for
        unchanged files (only the others are loaded); None when a file cannot be keyed."""
        from forgec.codecs.stack import duplicate_id_diagnostic, load_stack_file

        assert cache is not None
        if (dirs, scope) in states:
            return states[dirs, scope]
        listing = list_resource_files(list(dirs), STACK_SUFFIXES)
        known = {Path(x.path): x for x in groups.get((dirs, scope), [])}  # the profiles' load, annotated
        ids: dict[Path, str] = {}
        fresh: dict[Path, LoadedStack] = {}
        for path in listing:
            stack_id = cache.stack_id(path, scope)
            if stack_id is None:
                loaded = known.get(path) or load_stack_file(path, scope=scope, supported_slots=slots)
                if not cache.record_stack_id(path, scope, loaded.stack_id):
                    states[dirs, scope] = None
                    return None
                stack_id = loaded.stack_id
                fresh[path] = loaded
            ids[path] = stack_id
        by_id: dict[str, list[Path]] = {}
        for path in listing:
            by_id.setdefault(ids[path], []).append(path)
        names = {path: ", ".join(os.path.basename(os.fspath(p)) for p in same) if len(same) > 1 else None
                 for same in by_id.values() for path in same}  # fmt: skip
        for path, loaded in fresh.items():
            others = names[path]
            if path not in known and others is not None:
                loaded.diagnostics.append(duplicate_id_diagnostic(loaded, others))
        state = _GroupState(listing, names, {_resolved(path): path for path in listing}, {**known, **fresh})
        states[dirs, scope] = state
        return state

    def loaded_member(state: _GroupState, path: Path, scope: str) -> LoadedStack:
        from forgec.codecs.stack import duplicate_id_diagnostic, load_stack_file

        if path not in state.loaded:
            loaded = load_stack_file(path, scope=scope, supported_slots=slots)
            others = state.names[path]
            if others is not None:
                loaded.diagnostics.append(duplicate_id_diagnostic(loaded, others))
            state.loaded[path] = loaded
        return state.loaded[path]

    def per_file(target: Target) -> list[FileResult] | None:
        """A stack target of a folder group, each file's result cached on its own (None: not this way)."""
        assert cache is not None and target.group is not None
        scope = target.scope if target.path is None else "project"  # as group_of and member above
        state = members(target.group, scope)
        if state is None:
            return None
        if target.path is None:
            arg, base = target.display_base or ("", cwd.resolve())
            pairs = [(path, os.path.normpath(os.path.join(arg, os.path.relpath(os.fspath(path), base))))
                     for path in state.listing]  # fmt: skip
        else:
            match = state.resolved.get(target.path)
            if match is None:
                return None
            pairs = [(match, target.display)]
        out: list[FileResult] = []
        for path, display in pairs:
            key = cache.member_key(path, [scope, display, state.names[path], str(target.path), str(cwd)])
            hit = cache.get(key) if key is not None else None
            if hit is not None:
                out.extend(hit)
                continue
            loaded = loaded_member(state, path, scope)
            if target.path is not None and _is_context(loaded):
                from forgec.lint.context import lint_context_file

                checked = [lint_context_file(target.path, target.display)]
            else:
                checked = [_finish(loaded, display, registry, prefix)]
            if key is not None:
                cache.put(key, checked)
            out.extend(checked)
        return out

    states: dict[tuple[tuple[Path, ...], str], _GroupState | None] = {}
    for index, target in enumerate(targets):
        if cache is not None and target.kind == "stack" and not target.stdin and target.group is not None:
            answered = per_file(target)
            if answered is not None:
                results.extend(answered)
                continue
        key = cache.key(target, cwd) if cache is not None else None
        cached = cache.get(key) if cache is not None and key is not None else None
        if cached is not None:
            results.extend(cached)
            continue
        checked = check(index, target)
        if cache is not None and key is not None:
            cache.put(key, checked)
        results.extend(checked)
    return _once_each(results, from_stdin)


class _GroupState(NamedTuple):
    """A folder group as the cache sees it in one run: its listing, each file's duplicate-id names
    (None: its id is its own), the listing by resolved path, and the files loaded so far (a named
    tuple: defining a dataclass costs every cold start its generated methods' compile)."""

    listing: list[Path]
    names: dict[Path, str | None]
    resolved: dict[Path, Path]
    loaded: dict[Path, LoadedStack]


def _is_context(loaded: LoadedStack) -> bool:
    """A context file named to ``validate`` (outside a project's stack folders, where pi-forge
    would load it as a stack): it is linted as a context (:mod:`forgec.lint.context`)."""
    from forgec.lint.context import looks_like_context

    document = loaded.document
    if document is None or not document.parsed or Path(loaded.path).parent.name == "prompt-stacks":
        return False
    return looks_like_context(loaded.raw)


def _once_each(results: list[FileResult], from_stdin: set[int]) -> list[FileResult]:
    """Each file reported once, where it was first named: a file given as a PATH and again within
    its folder or project (``validate a.json .``, a pre-commit run with ``--global-dir``) is one
    file with one set of findings.  Names are relative to the current folder or absolute; the
    stack read from standard input (``from_stdin``: its ``id``) is never a file on disk."""
    seen: set[Path] = set()
    kept: list[FileResult] = []
    for result in results:
        if id(result) not in from_stdin:
            where = _resolved(result.path)
            if where in seen:
                continue
            seen.add(where)
        kept.append(result)
    return kept


def select_findings(results: list[FileResult], selection: RuleSelection, *, strict: bool) -> LintReport:
    """Apply rule selection, ``per-file-ignores``, ``# forgec: ignore[...]`` comments (YAML) and
    severities; the order of files and diagnostics is kept, unused suppressions come last."""
    files: list[ReportedFile] = []
    for result in results:
        yaml = result.text is not None and result.path.lower().endswith((".yaml", ".yml"))
        suppressions = _suppressions(result.text or "") if yaml else []
        findings = []
        for d in result.diagnostics:
            if not selection.enabled(d.code) or selection.ignored_in(d.code, result.path):
                continue
            line = d.span.line if d.span is not None else None
            covering = [s for s in suppressions if s.covers == line and s.matches(d.code)]
            for s in covering:
                s.used.add(d.code)
            if not covering:
                findings.append(Finding(d, selection.level(d.code, d.level)))
        if suppressions:
            from forgec.lint.suppressions import unused_findings

            findings.extend(
                Finding(d, selection.level(d.code, d.level))
                for d in unused_findings(suppressions, result.path)
                if selection.enabled(d.code) and not selection.ignored_in(d.code, result.path)
            )
        files.append(ReportedFile(result, findings))
    return LintReport(files, strict=strict)


def _suppressions(text: str) -> list[Suppression]:
    """The ``# forgec: ignore`` comments of a YAML text; the module (and the rule catalog it
    reads) is imported only for a YAML file, which a JSON-only run never has."""
    from forgec.lint.suppressions import find_suppressions

    return find_suppressions(text)


def lint(
    found: DiscoveryResult,
    *,
    env: Environment,
    selection: RuleSelection,
    strict: bool | None = None,
    read_stdin: ReadStdin | None = None,
    stdin_filename: str | None = None,
    paths: Sequence[str] = (),
    check_auth: bool = False,
    cache: ResultCache | None = None,
) -> LintReport:
    """Check the discovered targets and report them under ``selection``.

    ``strict`` None takes ``[tool.forgec] strict``.  The plugin setup's findings that concern the
    run rather than a file (FG951 untrusted, FG952 not installed) are the report's
    ``setup_diagnostics``; they are all there when no file was checked.  ``cache``: see
    :func:`lint_targets` (``forgec validate`` passes one unless ``--no-cache``).
    """
    from forgec.plugins import needs_plugin

    targets = found.targets
    if any(t.kind == "profile" for t in targets):
        from forgec.lint.agents import with_catalog_targets

        targets = with_catalog_targets(targets, env)
    results = lint_targets(targets, env=env, read_stdin=read_stdin, stdin_filename=stdin_filename,
                           check_auth=check_auth, cache=cache)
    env.plugins.note_untrusted(any(needs_plugin(result.diagnostics) for result in results))
    report = select_findings(results, selection, strict=env.settings.strict if strict is None else strict)
    setup = env.plugin_diagnostics
    report.setup_diagnostics = list(setup) if not results else [d for d in setup if d.level != "error"]
    if any(r.kind == "profile" for r in results) and not env.catalog_files and not check_auth:
        from forgec.lint.agents import catalog_note

        note = catalog_note()
        if selection.enabled(note.code):
            report.setup_diagnostics.append(note)
    report.usage_errors = list(found.errors)
    report.paths = list(paths)
    return report


def lint_paths(
    paths: Sequence[str] = (),
    *,
    env: Environment | None = None,
    select: Sequence[str] | None = None,
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    strict: bool | None = None,
    stdin: bytes | None = None,
    stdin_filename: str | None = None,
    check_auth: bool = False,
    unsaved: Mapping[str, str] | None = None,
) -> LintReport:
    """Lint files and folders as ``forgec validate PATH...`` does (no PATH: the current project).

    ``select``/``extend_select``/``ignore`` are the command line's rule selectors, layered over the
    environment's ``[tool.forgec]``; ``stdin`` is the text of a ``-`` path; the environment's
    ``global_dir`` is checked too, when it was given; ``check_auth`` as ``--check-auth``.  Paths that cannot be
    checked are ``report.usage_errors`` (``report.exit_code`` is then 2), never exceptions.
    ``unsaved`` (path -> text) is read in place of those files (an editor's buffers; nothing is
    written: :mod:`forgec.source.overlay`).
    """
    from forgec.environment import Environment
    from forgec.source.overlay import overlay

    env = env if env is not None else Environment.discover()
    selection = RuleSelection(
        env.settings, tuple(select) if select is not None else None, tuple(ignore), tuple(extend_select)
    )
    with overlay(unsaved or {}):
        found = expand_paths(list(paths), global_dir=env.global_dir)
        return lint(
            found, env=env, selection=selection, strict=strict, paths=paths, stdin_filename=stdin_filename,
            read_stdin=(lambda: stdin) if stdin is not None else None, check_auth=check_auth,
        )  # fmt: skip
