"""``forgec profile list|validate|show|resolve``: agent profiles of the project and the user-global folder.

The library does the work (:mod:`forgec.agents.profiles`, :mod:`forgec.codecs.profile`); this module
parses options and prints.  Texts are pi-forge's (profiles-exec.md §1.4 rendering:
``ERROR: field: message``); forgec adds positions, a verdict and what the resolution looked at.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from forgec.cli._common import echo_diagnostics, fail, no_traceback
from forgec.workspace import shown_path

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace, ResolvedProfile
    from forgec.codecs.profile import LoadedProfile
    from forgec.environment import Environment

_EPILOG = """\b
Examples:
  forgec profile list                        every profile, project and global
  forgec profile validate                    loading and stack-reference problems, file:line:col
  forgec profile show reviewer               one profile (project first), its fingerprints
  forgec profile resolve reviewer --context ctx.yaml   can it be used, and why not

\b
SELECTOR is an id (the project profile, else the global one), project:ID or global:ID.
Profiles live in .pi/forge/agent-profiles/ and <global>/agent-profiles/, where <global> is
--global-dir, else $PI_FORGE_GLOBAL_DIR, else ~/.pi/forge.  resolve checks the model against
the catalog (the bundled one, ~/.config/forgec/models.json, .pi/forge/models.json, --models),
its credentials variable (auth.env: only whether it is set, never its value), the thinking level,
the referenced stack, and the stack's allowed tools against the --context's tools.

\b
Exit codes: 0 no error, 1 a profile has errors (resolve: cannot be used), 2 usage error
(unknown selector, unreadable --models or --context)."""


def _options(func: Any) -> Any:
    func = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)(func)
    func = click.option("--global-dir", "global_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
                        help="The user-global forge folder (default: $PI_FORGE_GLOBAL_DIR or ~/.pi/forge).")(func)  # fmt: skip
    return click.option("--untrusted", is_flag=True,
                        help="Read the project as pi-forge reads an untrusted one: global profiles and stacks only.")(func)  # fmt: skip


def _environment(global_dir: Path | None, models_file: Path | None = None) -> Environment:
    """The run's environment; the project is found from the current folder upward."""
    from forgec.environment import Environment

    return Environment.discover(Path.cwd(), global_dir=global_dir, models_file=models_file)


def _workspace(env: Environment, untrusted: bool) -> ProfileWorkspace:
    from forgec.agents.profiles import load_workspace

    return load_workspace(env.root, global_dir=env.global_forge_dir, trusted=not untrusted, supported_slots=env.supported_slots)




def _select(workspace: ProfileWorkspace, selectors: tuple[str, ...]) -> list[LoadedProfile]:
    if not selectors:
        return list(workspace.profiles)
    chosen = []
    for selector in selectors:
        found = workspace.find_profile(selector)
        if found is None:
            known = ", ".join(str(p.key) for p in workspace.effective_profiles) or "none"
            fail(f"no agent profile {selector!r} (known: {known})")
        chosen.append(found)
    return chosen


def _source(sources: dict[str, Path], resolved: ResolvedProfile) -> str | None:
    """The catalog file the resolved model was found in (``None``: the bundled catalog)."""
    found = sources.get(resolved.model.key) if resolved.model is not None else None
    return shown_path(str(found)) if found is not None else None


def _echo(doc: Any) -> None:
    from forgec.output import escape_json_controls

    click.echo(escape_json_controls(json.dumps(doc, indent=2, ensure_ascii=False)))


def _say(text: str) -> None:
    """Text made of file content: terminal controls made visible (a profile may hold anything)."""
    from forgec.output import escape_controls

    click.echo(escape_controls(text, keep_newlines=True))


@click.group(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
def profile() -> None:
    """Agent profiles: a provider/model, a thinking level and a prompt stack (pi-forge 0.4)."""


@profile.command("list", epilog=_EPILOG)
@_options
@no_traceback
def list_cmd(fmt: str, global_dir: Path | None, untrusted: bool) -> None:
    """List the profiles of both scopes: model, thinking level, stack, usability, shadowing."""
    from forgec.agents.explain import profile_rows

    rows = profile_rows(_workspace(_environment(global_dir), untrusted), path=shown_path)
    if fmt == "json":
        _echo({"profiles": rows})
        return
    if not rows:
        click.echo("No agent profiles (.pi/forge/agent-profiles/, <global>/agent-profiles/).")
        return
    for row in rows:
        notes = [n for n, on in (("auto-activates", row["autoActivated"]), ("shadowed", row["shadowed"]),
                                 ("has errors", not row["usable"])) if on]  # fmt: skip
        stack = row["promptStack"] if row["promptStack"] is not None else "(no stack)"
        model = row["model"] if row["model"] != "/" else "(none)"
        _say(f"{row['key']:<24} {model:<28} {row['thinkingLevel']:<8} {stack:<20} {', '.join(notes)}".rstrip())


@profile.command("validate", epilog=_EPILOG)
@click.argument("selectors", nargs=-1, metavar="[SELECTOR]...")
@_options
@no_traceback
def validate_cmd(selectors: tuple[str, ...], fmt: str, global_dir: Path | None, untrusted: bool) -> None:
    """Check profiles as pi-forge loads them, with their stack references (and models, when a
    catalog is configured), as `forgec validate` does; file:line:col each."""
    from forgec.lint.agents import profile_findings
    from forgec.source import resolve_spans

    env = _environment(global_dir)
    workspace = _workspace(env, untrusted)
    failed, out = False, []
    for loaded in _select(workspace, selectors):
        found = profile_findings(loaded, workspace, env)
        failed = failed or any(d.level == "error" for d in found)
        positioned = resolve_spans(found, loaded.document)
        out.append({"key": str(loaded.key), "file": shown_path(loaded.path), "diagnostics": [d.to_pi() for d in positioned if not d.extra]})
        if fmt == "text":
            echo_diagnostics(shown_path(loaded.path), positioned, err=False)
    if fmt == "json":
        _echo({"profiles": out})
    elif not failed:
        click.echo(f"All checks passed ({len(out)} profile{'s' if len(out) != 1 else ''}).", err=True)
    sys.exit(1 if failed else 0)


@profile.command("show", epilog=_EPILOG)
@click.argument("selector")
@_options
@no_traceback
def show_cmd(selector: str, fmt: str, global_dir: Path | None, untrusted: bool) -> None:
    """Show one profile: its file, scope, normalised content, fingerprints and diagnostics."""
    from forgec.fingerprint import sha256_v1

    loaded = _select(_workspace(_environment(global_dir), untrusted), (selector,))[0]
    doc = {**loaded.to_json(), "file": shown_path(loaded.path), "rendered": loaded.rendered,
           "fingerprints": {"profile": sha256_v1(loaded.profile), "legacy": loaded.legacy_fingerprint}}  # fmt: skip
    if fmt == "json":
        _echo(doc)
        return
    _say(f"{loaded.key}  ({doc['file']})\n{json.dumps(loaded.profile, indent=2, ensure_ascii=False)}")
    _say(f"fingerprint  {doc['fingerprints']['profile']}\n{loaded.rendered}")
    sys.exit(0 if loaded.usable else 1)


@profile.command("resolve", epilog=_EPILOG)
@click.argument("selectors", nargs=-1, metavar="[SELECTOR]...")
@click.option("--models", "models_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
              help="A model catalog (JSON or YAML) over the bundled, user and project ones.")  # fmt: skip
@click.option("--context", "context_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
              help="A context file whose tools are the registered tools for the allow-pattern check.")  # fmt: skip
@_options
@no_traceback
def resolve_cmd(selectors: tuple[str, ...], models_file: Path | None, context_path: Path | None,
                fmt: str, global_dir: Path | None, untrusted: bool) -> None:  # fmt: skip
    """Resolve profiles as Pi applies them, and say why one cannot be used.

    Without SELECTOR: the profile that auto-activates, else every effective profile."""
    from forgec.codecs.context import load_context

    env = _environment(global_dir, models_file)
    workspace = _workspace(env, untrusted)
    tools = [t["name"] for t in load_context(context_path).tools] if context_path is not None else None
    if selectors:
        chosen = _select(workspace, selectors)
    else:
        auto = workspace.auto_activation().chosen
        chosen = [auto] if auto is not None else list(workspace.effective_profiles)
    if not chosen:
        fail("no agent profiles to resolve (.pi/forge/agent-profiles/, <global>/agent-profiles/)")
    catalog = env.catalog
    resolved = [workspace.resolve(p, models=catalog, available=catalog.authenticated(), tool_names=tools) for p in chosen]
    if fmt == "json":
        _echo({"resolutions": [r.to_json() for r in resolved]})
    else:
        from forgec.agents.explain import explain_resolution

        shown, sources = tuple(shown_path(str(p)) for p in env.catalog_files), env.catalog_sources
        texts = [explain_resolution(one, shown, tools, path=shown_path, model_source=_source(sources, one)) for one in resolved]
        _say("\n\n".join(texts))
    sys.exit(0 if all(r.usable for r in resolved) else 1)
