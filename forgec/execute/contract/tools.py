"""§4.5: ``negotiateSubagentTools`` -- the stack's tool policy ∩ declared effects ∩ request access.

Prompt tool filtering is never an access receipt: the result only says which catalog tools a prompt
may *mention*; enforcing access is the backend's job.  The catalog is validated but not cleaned:
malformed entries take part in the negotiation exactly as the reference's JavaScript handles them
(a string ``effects`` value is iterated character by character and so passes the access filter; a
non-object entry the policy selects makes the negotiation throw).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.passes.policy import apply_policy, matches_pattern
from forgec.execute.contract.common import call_site, iterate, js_eq, prop
from forgec.execute.contract.preflight import validate_tool_catalog
from forgec.execute.contract.shapes import ToolNegotiation
from forgec.execute.host import ContractDiagnostic
from forgec.js.values import UNDEFINED, js_string

__all__ = ["negotiate_subagent_tools", "tool_allowed_by_access"]


def tool_allowed_by_access(tool: Any, access: Any) -> bool:
    """Each declared effect needs its access: ``network`` → ``network: allow``; ``process`` →
    ``allowProcess === true``; ``filesystem-read`` → level not ``none``; ``filesystem-write`` →
    ``workspace-write``.  A tool without effects always passes."""
    for effect in iterate(prop(tool, "effects"), "tool.effects"):
        if effect == "network" and prop(access, "network") != "allow":
            return False
        if effect == "process" and prop(access, "allowProcess") is not True:
            return False
        if effect == "filesystem-read" and prop(access, "level") == "none":
            return False
        if effect == "filesystem-write" and prop(access, "level") != "workspace-write":
            return False
    return True


def _same(left: Any, right: Any) -> bool:
    """``Set.prototype.has``' SameValueZero for the names a catalog holds."""
    return js_eq(left, right) or (left != left and right != right)


def negotiate_subagent_tools(catalog: Any, policy: Any, access: Any) -> ToolNegotiation:
    """pi-forge's ``negotiateSubagentTools(catalog, policy, access)``.

    ``policy`` is the stack's ``tools`` (``None``/``UNDEFINED`` = none).  Effective tools keep the
    catalog's order.  ``unmatchedAllowPatterns`` is reported only when the policy *has* an ``allow``
    key (duplicates kept; ``*`` never listed).  Diagnostics: catalog problems, then one warning per
    unmatched pattern, then one info per selected tool the access removed.
    """
    diagnostics: list[ContractDiagnostic] = []
    if not isinstance(catalog, list):  # validateToolCatalog's `value.forEach(...)` is the first use
        prop(catalog, "forEach")
        raise call_site("value.forEach", catalog, "function")
    validate_tool_catalog(catalog, diagnostics)
    names = [prop(tool, "name") for tool in catalog]
    selected_names = apply_policy(policy if isinstance(policy, dict) else None, names)
    selected = list(selected_names)
    effective = [
        tool for tool in catalog if any(_same(prop(tool, "name"), s) for s in selected) and tool_allowed_by_access(tool, access)
    ]
    unmatched: list[Any] = []
    if isinstance(policy, dict) and "allow" in policy:
        allow = policy.get("allow")
        patterns = [] if allow is None or allow is UNDEFINED else iterate(allow, "policy.allow ?? []")
        unmatched = [p for p in patterns if p != "*" and not any(matches_pattern(p, name) for name in names)]
    for pattern in unmatched:
        diagnostics.append(
            ContractDiagnostic(
                "warning", "tools.unmatched-allow", f"Tool allow pattern matches no backend tools: {js_string(pattern)}", "tools.allow"
            )
        )
    for tool in catalog:
        name = prop(tool, "name")
        if any(_same(name, s) for s in selected) and not any(_same(tool, kept) for kept in effective):
            diagnostics.append(
                ContractDiagnostic(
                    "info",
                    "tools.access-filtered",
                    f"Tool {js_string(name)} was removed by request access policy.",
                    f"tools.{js_string(name)}",
                )
            )
    return ToolNegotiation(
        effective_tool_ids=[prop(tool, "id") for tool in effective],
        effective_tool_names=[prop(tool, "name") for tool in effective],
        stack_selected_tool_names=selected_names,
        unmatched_allow_patterns=unmatched,
        diagnostics=diagnostics,
    )
