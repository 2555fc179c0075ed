"""§4.1: the contract's documents as types, and the results its functions return.

The documents (request, snapshot, preflight, plan, response) cross process and tool boundaries as
JSON, and every validator must accept *any* value and report what is wrong with it, so the
validators take ``Any``; the :class:`~typing.TypedDict` s below say what a well-formed document holds
and type the values forgec builds itself.  The results are small dataclasses whose ``to_json`` is the
reference's object (absent optional members are left out, as ``undefined`` members vanish from JSON).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from forgec.execute.host import ContractDiagnostic

__all__ = [
    "AccessReceipt",
    "AccessRequest",
    "AgentRequest",
    "BackendCapabilities",
    "BackendDescriptor",
    "BackendTool",
    "ContextBudget",
    "ContextBudgetReceipt",
    "InitialMessages",
    "LimitReceipt",
    "LimitRequirement",
    "ModelReference",
    "PlanResult",
    "Preparation",
    "PreparedMessage",
    "PromptRuntime",
    "ToolNegotiation",
    "diagnostics_json",
]

AccessLevel = Literal["none", "read-only", "workspace-write"]
Fidelity = Literal["exact-preflight", "backend-assisted", "partial"]


class ModelReference(TypedDict):
    provider: str
    id: str


class WorkspaceRequest(TypedDict):
    handle: str
    mode: Literal["read-only", "read-write"]


class WorkingDirectoryRequest(TypedDict):
    workspaceHandle: str
    path: str


class AccessRequest(TypedDict):
    level: AccessLevel
    executionBoundary: Literal["isolated", "shared-user"]
    workspaces: list[WorkspaceRequest]
    workingDirectory: NotRequired[WorkingDirectoryRequest]
    network: Literal["deny", "allow"]
    allowProcess: NotRequired[bool]


class LimitRequirement(TypedDict):
    value: int
    enforcement: Literal["required", "best-effort"]


class MediaReference(TypedDict):
    id: str
    kind: Literal["image"]
    mimeType: str
    digest: str
    resourceHandle: str


class TaskInput(TypedDict):
    text: str
    media: NotRequired[list[MediaReference]]


class ContextProvenance(TypedDict):
    source: str
    reference: NotRequired[str]


class ContextItem(TypedDict):
    id: str
    kind: str
    text: str
    required: NotRequired[bool]
    provenance: ContextProvenance


class SelectedContext(TypedDict):
    maxBytes: int
    items: list[ContextItem]


class ParentRun(TypedDict):
    runId: NotRequired[str]
    sessionId: NotRequired[str]
    depth: int
    maxDepth: int


class AgentRequest(TypedDict):
    """What a host asks a backend to run (§4.1)."""

    schemaVersion: Literal[1]
    requestId: str
    profileId: str
    expectedProfileFingerprint: NotRequired[str]
    input: TaskInput
    selectedContext: NotRequired[SelectedContext]
    access: AccessRequest
    limits: dict[str, LimitRequirement]
    resultProjection: dict[str, int]
    parent: ParentRun
    remoteEgressConsent: bool


class BackendTool(TypedDict):
    id: str
    name: str
    effects: list[str]
    description: NotRequired[str]
    promptSnippet: NotRequired[str]
    adapterMapping: NotRequired[str]


class BackendCapabilities(TypedDict):
    access: dict[str, bool]
    executionBoundaries: list[str]
    limits: dict[str, list[str]]
    cancellation: bool
    mediaMimeTypes: list[str]
    remoteTransport: bool
    promptRuntimeFidelity: Fidelity
    traceInspection: bool
    artifactRetention: bool


class BackendDescriptor(TypedDict):
    id: str
    version: str
    capabilities: BackendCapabilities


class MountMapping(TypedDict):
    workspaceHandle: str
    mountId: str
    mode: Literal["read-only", "read-write"]


class AccessReceipt(TypedDict):
    level: AccessLevel
    mounts: list[MountMapping]
    workingDirectory: NotRequired[dict[str, str]]
    network: Literal["deny", "allow"]
    process: bool
    executionBoundary: NotRequired[Literal["isolated", "shared-user"]]
    enforcement: dict[str, bool]


class EnforcedLimit(TypedDict):
    value: int
    enforcement: Literal["backend-hard", "host-abort", "best-effort"]


LimitReceipt = dict[str, EnforcedLimit]


class PromptRuntimeOptions(TypedDict):
    customPrompt: NotRequired[str]
    selectedTools: list[str]
    toolSnippets: dict[str, str]
    promptGuidelines: list[str]
    appendSystemPrompt: NotRequired[str]
    cwd: str
    contextFiles: list[dict[str, str]]
    skills: list[dict[str, Any]]


class PromptRuntime(TypedDict):
    """The runtime's description of the prompt a backend will build (§3.5)."""

    baseSystemPrompt: str
    options: PromptRuntimeOptions
    model: ModelReference
    preparedAt: str
    fidelity: Literal["exact-preflight", "backend-assisted"]
    promptRuntimeFingerprint: NotRequired[str]


class PreparedMessage(TypedDict):
    role: Literal["user", "assistant", "custom"]
    content: list[dict[str, Any]]
    protectedTask: NotRequired[bool]
    source: NotRequired[Literal["selected-context", "prompt-stack", "delegated-task"]]


class ContextBudgetReceipt(TypedDict):
    maxBytes: Any
    includedBytes: int
    includedItemIds: list[Any]
    omittedItemIds: list[Any]


def diagnostics_json(diagnostics: list[ContractDiagnostic]) -> list[dict[str, str]]:
    return [d.to_json() for d in diagnostics]


@dataclass(slots=True)
class ToolNegotiation:
    """``negotiateSubagentTools``' result (§4.5); names keep the catalog's values as they are."""

    effective_tool_ids: list[Any]
    effective_tool_names: list[Any]
    stack_selected_tool_names: list[Any]
    unmatched_allow_patterns: list[Any]
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "effectiveToolIds": list(self.effective_tool_ids),
            "effectiveToolNames": list(self.effective_tool_names),
            "stackSelectedToolNames": list(self.stack_selected_tool_names),
            "unmatchedAllowPatterns": list(self.unmatched_allow_patterns),
            "diagnostics": diagnostics_json(self.diagnostics),
        }


@dataclass(slots=True)
class ContextBudget:
    """``budgetSubagentContext``' result (§4.6): the kept items (copies, original order) and the receipt."""

    items: list[Any]
    receipt: dict[str, Any]
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "items": copy.deepcopy(self.items),
            "receipt": copy.deepcopy(self.receipt),
            "diagnostics": diagnostics_json(self.diagnostics),
        }


@dataclass(slots=True)
class InitialMessages:
    """``prepareSubagentInitialMessages``' result; ``context_budget`` only when context was selected."""

    messages: list[dict[str, Any]]
    context_budget: dict[str, Any] | None = None
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"messages": copy.deepcopy(self.messages)}
        if self.context_budget is not None:
            out["contextBudget"] = copy.deepcopy(self.context_budget)
        out["diagnostics"] = diagnostics_json(self.diagnostics)
        return out


@dataclass(slots=True)
class Preparation:
    """``prepareSubagentHostPlan``' result (``SubagentPreparationOutput``, §4.7)."""

    system_prompt: str
    messages: list[dict[str, Any]]
    tool_negotiation: ToolNegotiation
    context_budget: dict[str, Any] | None = None
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "systemPrompt": self.system_prompt,
            "messages": copy.deepcopy(self.messages),
            "toolNegotiation": self.tool_negotiation.to_json(),
        }
        if self.context_budget is not None:
            out["contextBudget"] = copy.deepcopy(self.context_budget)
        out["diagnostics"] = diagnostics_json(self.diagnostics)
        return out


@dataclass(slots=True)
class PlanResult:
    """``createAgentExecutionPlan``' result: the plan only when no diagnostic is an error."""

    plan: dict[str, Any] | None
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.plan is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.plan is not None:
            out["plan"] = copy.deepcopy(self.plan)
        out["diagnostics"] = diagnostics_json(self.diagnostics)
        return out
