"""The delegation contract of pi-forge 0.4.1 (profiles-exec.md §4, with the §3 fingerprints it uses).

One job per module:

* :mod:`~forgec.execute.contract.common` -- §4.0 predicates, shared texts, JavaScript reads and errors;
* :mod:`~forgec.execute.contract.shapes` -- §4.1 document types and result objects;
* :mod:`~forgec.execute.contract.fingerprints` -- canonical JSON and the profile, stack, prompt-runtime,
  conversation and execution fingerprints;
* :mod:`~forgec.execute.contract.request` -- §4.2 ``validateAgentRequest`` and request builders;
* :mod:`~forgec.execute.contract.preflight` -- §4.4 preflight, descriptor, receipts, prompt runtime,
  and forgec's self-issued preflight;
* :mod:`~forgec.execute.contract.tools` -- §4.5 tool negotiation;
* :mod:`~forgec.execute.contract.budget` -- §4.6 selected-context rendering and budgeting;
* :mod:`~forgec.execute.contract.messages` -- §4.6 the protected task and the initial messages;
* :mod:`~forgec.execute.contract.prepare` -- §4.7 host compilation (``prepareSubagentHostPlan``);
* :mod:`~forgec.execute.contract.plan` -- §4.8 plan creation/validation and runtime sealing;
* :mod:`~forgec.execute.contract.response` -- §4.9 response, artifact and trace validation.

Host resolution into a snapshot (§4.3) lives in :mod:`forgec.execute.host`.  Validators take any
value and return :class:`~forgec.execute.host.ContractDiagnostic` lists with the reference's exact
codes, texts, paths and order; functions the reference *throws* from raise
:class:`~forgec.execute.contract.common.JSTypeError` / ``JSError`` (see
:func:`~forgec.execute.contract.common.thrown_as_js`).
"""

from __future__ import annotations

from forgec.execute.contract.budget import budget_subagent_context, render_subagent_selected_context
from forgec.execute.contract.common import JSError, JSRangeError, JSTypeError, thrown_as_js
from forgec.execute.contract.fingerprints import (
    canonical_subagent_json,
    conversation_fingerprint,
    execution_fingerprint,
    prompt_runtime_fingerprint,
    prompt_stack_fingerprint,
    source_profile_fingerprint,
    subagent_fingerprint,
)
from forgec.execute.contract.messages import (
    append_protected_subagent_task,
    create_protected_subagent_task,
    is_protected_subagent_task_preserved,
    prepare_subagent_initial_messages,
)
from forgec.execute.contract.plan import (
    SealedExecution,
    build_execution_intent,
    create_agent_execution_plan,
    portable_conversation,
    preflight_id_for,
    seal_execution,
    validate_agent_execution_plan,
    verify_sealed_plan,
)
from forgec.execute.contract.preflight import (
    forgec_http_descriptor,
    self_issued_preflight,
    validate_backend_preflight,
    validate_preflight_against_request,
    validate_preparation_runtime,
    validate_prompt_runtime,
)
from forgec.execute.contract.prepare import prepare_subagent_host_plan
from forgec.execute.contract.request import (
    build_agent_request,
    forge_delegation_request,
    validate_agent_request,
)
from forgec.execute.contract.response import (
    validate_agent_response,
    validate_subagent_artifact_reference,
    validate_subagent_trace_reference,
)
from forgec.execute.contract.shapes import (
    ContextBudget,
    InitialMessages,
    PlanResult,
    Preparation,
    ToolNegotiation,
)
from forgec.execute.contract.tools import negotiate_subagent_tools

__all__ = [
    "ContextBudget",
    "InitialMessages",
    "JSError",
    "JSRangeError",
    "JSTypeError",
    "PlanResult",
    "Preparation",
    "SealedExecution",
    "ToolNegotiation",
    "append_protected_subagent_task",
    "budget_subagent_context",
    "build_agent_request",
    "build_execution_intent",
    "canonical_subagent_json",
    "conversation_fingerprint",
    "create_agent_execution_plan",
    "create_protected_subagent_task",
    "execution_fingerprint",
    "forge_delegation_request",
    "forgec_http_descriptor",
    "is_protected_subagent_task_preserved",
    "negotiate_subagent_tools",
    "portable_conversation",
    "preflight_id_for",
    "prepare_subagent_host_plan",
    "prepare_subagent_initial_messages",
    "prompt_runtime_fingerprint",
    "prompt_stack_fingerprint",
    "render_subagent_selected_context",
    "seal_execution",
    "self_issued_preflight",
    "source_profile_fingerprint",
    "subagent_fingerprint",
    "thrown_as_js",
    "validate_agent_execution_plan",
    "validate_agent_request",
    "validate_agent_response",
    "validate_backend_preflight",
    "validate_preflight_against_request",
    "validate_preparation_runtime",
    "validate_prompt_runtime",
    "validate_subagent_artifact_reference",
    "validate_subagent_trace_reference",
    "verify_sealed_plan",
]
