"""The ``profiles`` kind: agent profiles and prompt stacks of both scopes loaded from disk, and what
pi-forge derives from them (profiles-exec.md §1, §4.3; the agent-cases README, *profiles*).

Every value comes from forgec's library: :func:`forgec.agents.profiles.load_workspace` reads the
folders, the workspace answers effective views, selectors, auto-activation, resolution, capture,
writes and drift; :func:`forgec.execute.host.resolve_host_profile` gives the subagent snapshot.
This module only lays the inputs out and shapes the output document.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from forgec.agents.profiles import ProfileWorkspace, load_workspace, stack_key
from forgec.codecs.catalog import catalog_from_models
from forgec.codecs.profile import LoadedProfile, check_stack_scope, is_profile_provenance
from forgec.codecs.stack import LoadedStack
from forgec.diagnostics import to_pi_list
from forgec.execute.host import Registrations, resolve_host_profile
from forgec.fingerprint import sha256_v1, stack_fingerprint
from forgec.model.identity import ResourceKey, parse_selector


def run(case: Any) -> dict[str, Any]:
    spec = case.input if isinstance(case.input, dict) else {}
    trusted = spec.get("trusted", True) is not False
    _make_links(spec.get("symlinks") or [])
    workspace = load_workspace(case.project, global_dir=case.global_dir, trusted=trusted, include_yaml=False)
    catalog = catalog_from_models(spec.get("models") or [], validate=False)
    available = (
        [(m["provider"], m["id"]) for m in spec["availableModels"]] if "availableModels" in spec else None
    )
    tool_names = list(spec["toolNames"]) if "toolNames" in spec else None
    registrations = Registrations.from_json(spec["registrations"]) if "registrations" in spec else None
    out: dict[str, Any] = {
        "trusted": trusted,
        "profiles": [_profile(p) for p in workspace.profiles],
        "stacks": [_stack(s) for s in workspace.stacks],
        "effective": {
            "profiles": [str(p.key) for p in workspace.effective_profiles],
            "stacks": [str(stack_key(s)) for s in workspace.effective_stacks],
        },
        "autoActivate": workspace.auto_activation().to_json(),
        "resolutions": [
            r.to_json()
            for r in workspace.resolve_all(models=catalog, available=available, tool_names=tool_names)
        ],
        "hostResolutions": [
            {"profile": str(p.key), **resolve_host_profile(p, workspace.stacks, registrations).to_json()}
            for p in workspace.profiles
        ],
    }
    if "selectors" in spec:
        out["selectors"] = [_selector(workspace, text) for text in spec["selectors"]]
    if "captures" in spec:
        out["captures"] = [_capture(workspace, entry) for entry in spec["captures"]]
    if "writes" in spec:
        out["writes"] = [_write(workspace, entry) for entry in spec["writes"]]
    if "status" in spec:
        out["status"] = [
            {
                "isProvenance": is_profile_provenance(entry.get("provenance")),
                "status": workspace.status(entry.get("provenance"), entry.get("current") or {}),
            }
            for entry in spec["status"]
        ]
    return out


def _make_links(links: Any) -> None:
    """``symlinks``: ``{path, target}`` entries (``link``/``from``/``source`` and ``to`` are accepted
    too), ``[path, target]`` pairs, or one ``{path: target}`` object."""
    pairs: list[tuple[str, str]] = []
    if isinstance(links, dict):
        pairs = [(str(k), str(v)) for k, v in links.items()]
    else:
        for link in links:
            if isinstance(link, (list, tuple)):
                pairs.append((str(link[0]), str(link[1])))
                continue
            where = link.get("path") or link.get("link") or link.get("from") or link.get("source")
            target = link.get("target") or link.get("to")
            pairs.append((str(where), str(target)))
    for where, target in pairs:
        Path(where).parent.mkdir(parents=True, exist_ok=True)
        resolved = target if os.path.isabs(target) else os.path.join(os.path.dirname(where), target)
        os.symlink(target, where, target_is_directory=os.path.isdir(resolved))


def _profile(loaded: LoadedProfile) -> dict[str, Any]:
    return {
        **loaded.to_json(),
        "rendered": loaded.rendered,
        "fingerprints": {"legacy": loaded.legacy_fingerprint, "profile": sha256_v1(loaded.profile)},
        "stackScopeCheck": to_pi_list(check_stack_scope(loaded.profile, loaded.scope)),
    }


def _stack(loaded: LoadedStack) -> dict[str, Any]:
    return {
        "file": loaded.file_name,
        "filePath": loaded.path,
        "scope": loaded.scope,
        "key": str(stack_key(loaded)),
        "diagnostics": to_pi_list(loaded.diagnostics),
        "usable": loaded.usable,
        "fingerprint": stack_fingerprint(loaded.stack),
    }


def _selector(workspace: ProfileWorkspace, text: str) -> dict[str, Any]:
    parsed = parse_selector(text)
    selector = parsed.selector
    shown: dict[str, Any] = parsed.to_json()
    if selector is not None:
        shown["formatted"] = selector.formatted
    profile = workspace.profile_catalog.resolve_selector(selector) if selector is not None else None
    stack = workspace.stack_catalog.resolve_selector(selector) if selector is not None else None
    return {
        "input": text,
        "parsed": shown,
        "profile": str(profile.key) if profile is not None else None,
        "stack": str(stack_key(stack)) if stack is not None else None,
    }


def _capture(workspace: ProfileWorkspace, entry: dict[str, Any]) -> dict[str, Any]:
    runtime = entry.get("runtime") or {}
    stack = runtime.get("promptStack")
    existing = _existing(workspace, entry.get("existing"))
    result = workspace.capture(
        entry["id"],
        entry.get("targetScope", "project"),
        model=runtime.get("model"),
        thinking_level=runtime.get("thinkingLevel", "off"),
        prompt_stack=ResourceKey(stack["scope"], stack["id"]) if isinstance(stack, dict) else None,
        existing=existing,
    )
    return {**entry, "result": result.to_json()}


def _existing(workspace: ProfileWorkspace, named: Any) -> LoadedProfile | None:
    """The profile a capture keeps metadata from: the first with that ``scope:id`` key, else the
    one a selector names."""
    if not isinstance(named, str) or not named:
        return None
    found = next((p for p in workspace.profiles if str(p.key) == named), None)
    return found if found is not None else workspace.find_profile(named)


def _write(workspace: ProfileWorkspace, entry: dict[str, Any]) -> dict[str, Any]:
    result = workspace.write(
        entry["profile"],
        scope=entry.get("scope", "project"),
        file_path=entry.get("filePath"),
        overwrite=bool(entry.get("overwrite", False)),
    )
    written = Path(result.file_path).read_text(encoding="utf-8") if result.ok and result.file_path else None
    return {**entry, "result": result.to_json(), "written": written}
