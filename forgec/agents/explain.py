"""A profile's resolution for a person: what it was checked against, and why it cannot be used.

``forgec profile resolve`` prints this (and an editor can show it): the model and the catalog it
was looked up in, whether the credentials variable is set (never its value), the thinking level and
Pi's clamp, the referenced stack, the tools the allow patterns were matched against, a verdict, and
pi-forge's own diagnostics in its rendering (``ERROR: field: message``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace, ResolvedProfile

__all__ = ["explain_resolution", "profile_rows"]


def profile_rows(workspace: ProfileWorkspace, *, path: Callable[[str], str] = str) -> list[dict[str, Any]]:
    """One row per loaded profile, both scopes, for a listing (``forgec profile list``, an editor's
    tree): its key, file, model, thinking level, stack reference, whether it loads without errors,
    asks to auto-activate, is the one auto-activation chooses, is shadowed by a project profile."""
    effective = {id(p) for p in workspace.effective_profiles}
    chosen = workspace.auto_activation().chosen
    rows = []
    for loaded in workspace.profiles:
        profile = loaded.profile
        model = profile["model"]
        rows.append({
            "key": str(loaded.key), "file": path(loaded.path), "model": f"{model['provider']}/{model['id']}",
            "thinkingLevel": profile["thinkingLevel"], "promptStack": profile["promptStack"], "usable": loaded.usable,
            "autoActivate": profile.get("autoActivate") is True, "autoActivated": loaded is chosen,
            "shadowed": id(loaded) not in effective,
        })  # fmt: skip
    return rows


def explain_resolution(
    resolved: ResolvedProfile,
    catalog_files: Sequence[str],
    tools: Sequence[str] | None,
    *,
    model_source: str | None = None,
    path: Callable[[str], str] = str,
) -> str:
    """One screen about one resolution (no trailing newline).

    ``catalog_files`` are the catalog layers that were searched (none: the bundled catalog only),
    ``model_source`` the one the found model came from (``None``: the bundled catalog), ``tools``
    the context's tool names (``None``: not checked); ``path`` shortens file names.
    """
    loaded, profile = resolved.loaded, resolved.loaded.profile
    named = profile["model"]["provider"] and profile["model"]["id"]
    model_ref = f"{profile['model']['provider']}/{profile['model']['id']}" if named else "(none)"
    searched = ", ".join(["the bundled catalog", *catalog_files])
    lines = [f"{loaded.key}  ({path(loaded.path)})"]
    model = resolved.model
    where = f"(from {model_source or 'the bundled catalog'})" if model else (f"(not in {searched})" if named else "")
    lines.append(f"  model           {model_ref}  {where}".rstrip())
    if model is not None:
        auth = model.auth
        variable = auth.env if auth is not None else None
        if auth is not None and variable is None:
            state = "needs no credentials"
        elif variable:
            state = f"{variable} is {'set' if model.has_auth() else 'NOT set'}"
        else:
            state = "no credentials declared (auth.env in the catalog)"
        lines.append(f"  credentials     {state}")
    level, effective = profile["thinkingLevel"], resolved.effective_thinking_level
    lines.append(f"  thinking level  {level}" + (f"  (Pi would clamp it to {effective})" if effective != level else ""))
    reference, stack = profile["promptStack"], resolved.stack
    if reference is None:
        lines.append("  prompt stack    none")
    elif stack is None:
        lines.append(f"  prompt stack    {reference}  (not found)")
    else:
        state = "usable" if stack.usable else "has errors"
        lines.append(f"  prompt stack    {stack.scope}:{stack.stack_id}  ({path(stack.path)}, {state})")
    if tools is not None:
        lines.append(f"  context tools   {', '.join(tools) or '(none)'}")
    errors = sum(1 for d in resolved.diagnostics if d.level == "error")
    verdict = "usable" if resolved.usable else f"cannot be used ({errors} error{'s' if errors != 1 else ''})"
    lines.append(f"  verdict         {verdict}")
    if resolved.diagnostics:
        lines.append("")
        lines.extend(f"  {line}" for line in resolved.rendered.splitlines())
    return "\n".join(lines)
