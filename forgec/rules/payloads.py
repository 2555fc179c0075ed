"""Rules of the provider-payload emitters and fingerprints (FG8xx).

None of these texts come from pi-forge: pi-ai reports a failed request only through its error
message (which forgec reproduces inside FG801), and the clamps are silent in Pi.  They exist so
``forgec compile`` can say why a body differs from what the user asked for.
An unknown ``--model``, a broken ``--models`` catalog or a model of another API than ``--target``
are usage errors of ``forgec compile`` (exit 2), not findings, so they have no rule.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

PAYLOAD_REQUEST_FAILED = "FG801"
THINKING_LEVEL_CLAMPED = "FG802"
OUTPUT_CAP_CLAMPED = "FG803"
FINGERPRINT_NON_JSON = "FG810"
FINGERPRINT_WRONG_KIND = "FG811"
CATALOG_INVALID = "FG812"
CONTEXT_USAGE_MISSING = "FG804"
CONTEXT_IMAGE_INCOMPLETE = "FG805"
CONTEXT_TOOL_CALL_ID = "FG806"

register(
    Rule(
        CATALOG_INVALID,
        "model-catalog-invalid",
        "error",
        "A model catalog file (--models, .pi/forge/models.json, ~/.config/forgec/models.json) that is not "
        "valid JSON or YAML or does not match schemas/model-catalog.schema.json: the models it declares "
        "cannot be used, so profiles naming them and compiles choosing them fail.",
        bad='{"models": [{"provider": "acme", "id": "fast-1"}]}',
        good='{"models": [{"provider": "acme", "id": "fast-1", "api": "openai-completions", '
        '"contextWindow": 128000, "maxTokens": 8192}]}',
        pi_forge=False,
    ),
    Rule(
        PAYLOAD_REQUEST_FAILED,
        "payload-request-failed",
        "error",
        "pi-ai throws while building the request body for this API, so Pi would fail the turn. The "
        "message is pi-ai's (for example a replayed tool call without an `id`, which the OpenAI id "
        "normalisers cannot read).",
        bad='{"role": "assistant", "content": [{"type": "toolCall", "callId": "c1", "name": "read", "arguments": {}}]}',
        good='{"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}]}',
        pi_forge=False,
    ),
    Rule(
        THINKING_LEVEL_CLAMPED,
        "thinking-level-clamped",
        "info",
        "The requested thinking level is not supported by the target model; Pi moves it to the nearest "
        "supported level above (else below), e.g. `minimal` becomes `low` on GPT-5.1 and `xhigh` becomes "
        "`high` on Claude Sonnet 4.5.",
        bad='{"thinkingLevel": "xhigh"}   // target anthropic/claude-sonnet-4-5',
        good='{"thinkingLevel": "high"}',
        pi_forge=False,
    ),
    Rule(
        OUTPUT_CAP_CLAMPED,
        "output-cap-clamped",
        "warning",
        "The estimated context (last assistant usage, or characters / 4) leaves less room than the "
        "model's maximum output, so pi-ai lowers the output-token cap (and Anthropic's thinking budget) "
        "to `contextWindow - estimate - 4096`.",
        bad="a history whose last assistant turn reports usage.totalTokens close to the context window",
        good="a shorter history (chat-history maxMessages / maxChars) that leaves room for the answer",
        pi_forge=False,
    ),
    Rule(
        FINGERPRINT_NON_JSON,
        "fingerprint-non-json",
        "error",
        "The value cannot be fingerprinted: canonical JSON rejects non-finite numbers, cycles and "
        "non-plain objects (the runtime's `Cannot fingerprint … at <path>.`).",
        bad='{"budget": Infinity}',
        good='{"budget": 1000}',
        pi_forge=False,
    ),
    Rule(
        FINGERPRINT_WRONG_KIND,
        "fingerprint-wrong-kind",
        "error",
        "`forgec fingerprint --as profile|runtime` was given a document that is not one: an agent "
        "profile has `\"type\": \"pi-forge.agent-profile\"`, a prompt runtime is an object with "
        "`baseSystemPrompt` and an `options` object (profiles-exec.md §1.2, §3.5). Its digest would "
        "match nothing pi-forge computes.",
        bad='forgec fingerprint --as profile coding-stack.json',
        good='forgec fingerprint --as profile .pi/forge/agents/reviewer.json',
        pi_forge=False,
    ),
    Rule(
        CONTEXT_USAGE_MISSING,
        "context-usage-missing",
        "error",
        "An assistant message of the conversation has no `usage` (or `usage: null`). pi-ai reads "
        "`usage.totalTokens` of the assistant turns to size the request, so every provider body fails "
        "with `Cannot read properties of undefined (reading 'totalTokens')`. Turns with `stopReason` "
        "`error` or `aborted` are not read. Found in context files by `validate` and `preview`.",
        bad='{"role": "assistant", "content": [{"type": "text", "text": "Hi"}], "timestamp": 2}',
        good='{"role": "assistant", "content": [{"type": "text", "text": "Hi"}], "timestamp": 2, '
        '"usage": {"input": 10, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 12}}',
        pi_forge=False,
    ),
    Rule(
        CONTEXT_IMAGE_INCOMPLETE,
        "context-image-incomplete",
        "error",
        "An image part of a user or tool-result message has no `data` or no `mimeType`: the body carries "
        "`data:undefined;base64,undefined` (or no media type) and the provider refuses the request.",
        bad='{"type": "image", "mimeType": "image/png"}',
        good='{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo..."}',
        pi_forge=False,
    ),
    Rule(
        CONTEXT_TOOL_CALL_ID,
        "context-tool-call-id",
        "error",
        "A tool call in an assistant message has no string `id`: pi-ai's tool-call id normalisers throw "
        "on it when the turn is replayed to another API, and no provider can match the call with its "
        "result.",
        bad='{"type": "toolCall", "name": "read", "arguments": {"path": "a.py"}}',
        good='{"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "a.py"}}',
        pi_forge=False,
    ),
)
