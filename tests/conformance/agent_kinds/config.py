"""The ``config`` kind: pi-forge's forge config (profiles-exec.md §2) for one laid-out project.

The settings of both files layered (global, then the project when trusted), the defaults, the
effective policy of each selector, the web editor's port, timeout validity checks, and the updater's
steps (each with the scope's file text after it), then the settings and policies read again.
"""

from __future__ import annotations

from typing import Any

from forgec.agents.config import (
    ForgeConfigPaths,
    SubagentSettings,
    configured_profile,
    load_subagent_settings,
    load_web_editor,
    resolve_backend,
    resolve_policy,
    resolve_timeout,
    update_profile_config,
)
from forgec.codecs.forge_config import ProfileConfigUpdate, is_valid_timeout_ms


def run(case: Any) -> dict[str, Any]:
    given = case.input
    trusted = given.get("trusted", True)
    paths = ForgeConfigPaths.for_project(case.project, global_config=case.global_dir / "config.json")
    selectors = given.get("selectors") or []
    settings = load_subagent_settings(paths, trusted=trusted)
    out: dict[str, Any] = {
        "trusted": trusted,
        "settings": settings.to_json(),
        "defaults": {"backend": resolve_backend(settings).to_json(), "timeout": resolve_timeout(settings).to_json()},
        "policies": _policies(settings, selectors),
        "webEditor": load_web_editor(paths, trusted=trusted).to_json(),
    }
    if "timeoutValues" in given:
        out["timeoutChecks"] = [{"value": v, "valid": is_valid_timeout_ms(v)} for v in given["timeoutValues"]]
    if "updates" in given:
        steps = []
        for entry in given["updates"]:
            scope = entry.get("scope", "project")
            result = update_profile_config(
                paths, entry["profileId"], ProfileConfigUpdate.from_json(entry["update"]), scope=scope
            )
            target = paths.for_scope(scope)
            text = target.read_text(encoding="utf-8") if target.is_file() else None
            steps.append({**entry, "result": result.to_json(), "file": text})
        out["updates"] = steps
        after = load_subagent_settings(paths, trusted=trusted)
        out["settingsAfterUpdates"] = after.to_json()
        out["policiesAfterUpdates"] = _policies(after, selectors)
    return out


def _policies(settings: SubagentSettings, selectors: list[Any]) -> list[dict[str, Any]]:
    rows = []
    for item in selectors:
        entry = dict(item) if isinstance(item, dict) else {"selector": item}
        selector = entry["selector"]
        explicit = entry.get("explicitBackend")
        configured = configured_profile(settings, selector)
        rows.append(
            {
                **entry,
                "configured": configured.to_json() if configured is not None else None,
                "policy": resolve_policy(settings, selector, explicit).to_json(),
            }
        )
    return rows
