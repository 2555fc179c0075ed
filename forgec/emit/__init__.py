"""Provider request bodies: what the Pi agent host sends for a compiled prompt (payloads.md).

The input is a :class:`Prompt` -- what the host hands pi-ai besides the model: pi-forge's compiled
system prompt and messages, the context's tools and thinking level, the session id.
:func:`build_request` builds one body for one target and model (with forgec's FG8xx findings about
it), :func:`emit_body` the same body or pi-ai's failure raised, and :func:`build_payloads` the
``payloads`` section of a compile report (one body per target API, each with the API's reference
model).  All are pure and offline: no provider SDK is imported and no socket is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forgec.codecs.catalog import Catalog, CatalogError, Model, clamp_thinking_level, default_catalog
from forgec.diagnostics import Diagnostic
from forgec.emit.convert import PayloadError, Request, convert_to_llm, output_token_cap
from forgec.emit.openai_responses import DEFAULT_SESSION_ID
from forgec.model import API_ORDER
from forgec.rules import payloads as rules

if TYPE_CHECKING:
    from forgec.codecs.context import Context

__all__ = [
    "DEFAULT_SESSION_ID",
    "PayloadError",
    "PayloadResult",
    "Prompt",
    "active_tools",
    "build_payloads",
    "build_request",
    "emit_body",
    "resolve_model",
]

_DEFAULT_PARAMETERS = {"type": "object", "properties": {}}


def _builder(api: str) -> Any:
    if api == "anthropic-messages":
        from forgec.emit.anthropic import build_body
    elif api == "google-generative-ai":
        from forgec.emit.google import build_body
    elif api == "openai-completions":
        from forgec.emit.openai_completions import build_body
    elif api == "openai-responses":
        from forgec.emit.openai_responses import build_body
    else:
        raise CatalogError(f"Unknown target API: {api}")
    return build_body


def active_tools(tools: list[Any] | None) -> list[dict[str, Any]]:
    """The tools Pi hands to the model: ``active`` not ``false``, as ``{name, description, parameters}``."""
    out: list[dict[str, Any]] = []
    for tool in tools or []:
        if not isinstance(tool, dict) or tool.get("active") is False:
            continue
        description = tool.get("description")
        parameters = tool.get("parameters")
        out.append(
            {
                "name": tool.get("name"),
                "description": "" if description is None else description,
                "parameters": dict(_DEFAULT_PARAMETERS) if parameters is None else parameters,
            }
        )
    return out


def resolve_model(target: str, model: Model | str | None = None, catalog: Catalog | None = None) -> Model:
    """A :class:`Model` for ``target`` from a model object, a ``PROVIDER/ID`` key, or the default."""
    catalog = catalog or default_catalog()
    if isinstance(model, Model):
        return model
    if model is None:
        return catalog.default_for(target)
    return catalog.get(model)


def _thinking_level(level: Any) -> str:
    return level if isinstance(level, str) and level else "off"


@dataclass(slots=True)
class PayloadResult:
    """One target's body (or pi-ai's error) with forgec's FG8xx findings about it."""

    model: Model
    thinking_level: str
    body: dict[str, Any] | None = None
    error: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_entry(self) -> dict[str, Any]:
        """The ``payloads.<api>`` entry."""
        entry: dict[str, Any] = {"model": self.model.ref, "thinkingLevel": self.thinking_level}
        if self.error is not None:
            entry["error"] = self.error
        else:
            entry["body"] = self.body
        return entry


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the host hands pi-ai besides the model: pi-forge's output and the context's tools/level.

    ``tools`` are the context's tools (inactive ones are skipped when a body is built);
    ``thinking_level`` is the level asked for, clamped to each model when its body is built.
    """

    system_prompt: str
    messages: list[Any]
    tools: list[Any] | None = None
    thinking_level: str | None = None
    session_id: str = DEFAULT_SESSION_ID

    @classmethod
    def for_context(
        cls,
        system_prompt: str,
        messages: list[Any],
        context: Context,
        *,
        thinking_level: str | None = None,
        session_id: str | None = None,
    ) -> Prompt:
        """The prompt of a compile against ``context``: its tools, and its thinking level unless
        ``thinking_level`` overrides it (``forgec compile --thinking``)."""
        level = thinking_level if thinking_level is not None else context.data.get("thinkingLevel")
        return cls(system_prompt, messages, context.tools, level, session_id or DEFAULT_SESSION_ID)


def _run(target: str, model: Model, prompt: Prompt) -> tuple[PayloadResult, Request | None]:
    """Build one body: clamp the level (§3), convert (§2), cap (§3), then the API builder.

    pi-ai failures become ``result.error``; so do malformed messages pi-ai would also trip over, so a
    traceback never escapes.  The request is returned for the caller's diagnostics (``None`` when
    the failure came before it was complete).
    """
    level = clamp_thinking_level(model, _thinking_level(prompt.thinking_level))
    result = PayloadResult(model, level)
    request: Request | None = None
    try:
        llm_messages = convert_to_llm(prompt.messages)
        active = active_tools(prompt.tools)
        cap, estimate = output_token_cap(model, prompt.system_prompt, llm_messages, active)
        request = Request(
            prompt.system_prompt, llm_messages, active, level, model, cap, estimate, prompt.session_id
        )
        result.body = _builder(target)(request)
    except PayloadError as exc:
        result.error = str(exc)
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        result.error = f"{type(exc).__name__}: {exc}"
    return result, request


def build_request(
    target: str, prompt: Prompt, model: Model | str | None = None, *, catalog: Catalog | None = None
) -> PayloadResult:
    """The body ``target`` receives for ``prompt`` with ``model`` (a :class:`Model`, a
    ``PROVIDER/ID`` key of ``catalog``, or the target's reference model).

    Never raises for pi-ai failures (they are ``result.error``) and explains clamps (FG80x).
    :class:`CatalogError` (unknown model, wrong API) is still raised: that is a usage problem.
    """
    chosen = resolve_model(target, model, catalog)
    if chosen.api != target:
        raise CatalogError(f"Model {chosen.key} uses the {chosen.api} API, not {target}")
    requested = _thinking_level(prompt.thinking_level)
    result, request = _run(target, chosen, prompt)
    if result.thinking_level != requested:
        result.diagnostics.append(
            Diagnostic(
                "info",
                f"Thinking level {requested} is not supported by {chosen.key}; "
                f"Pi clamps it to {result.thinking_level}.",
                rules.THINKING_LEVEL_CLAMPED,
                extra=True,
            )
        )
    if result.error is not None:
        result.diagnostics.append(
            Diagnostic(
                "error",
                f"pi-ai fails to build the {target} request: {result.error}"
                f"{_failure_cause(target, chosen, prompt, result.error)}",
                rules.PAYLOAD_REQUEST_FAILED,
                extra=True,
            )
        )
    elif request is not None and request.cap < chosen.max_tokens:
        result.diagnostics.append(
            Diagnostic(
                "warning",
                f"Output-token cap lowered from {chosen.max_tokens} to {request.cap}: the context is "
                f"estimated at {int(request.estimate)} of {chosen.context_window} tokens.",
                rules.OUTPUT_CAP_CLAMPED,
                extra=True,
            )
        )
    return result


def _failure_cause(target: str, model: Model, prompt: Prompt, error: str) -> str:
    """``: compiled message 2 (assistant): …`` naming the message a failed body tripped over, when
    one is known.

    pi-ai's error text stays as it is (it is what ``payloads.<api>.error`` compares); this says
    which message and why, so the reader need not guess from a TypeError.
    """
    from forgec.emit.hazards import describe_hazard, message_hazards
    from forgec.rules import payloads as codes

    if "(reading 'totalTokens')" in error:
        wanted = codes.CONTEXT_USAGE_MISSING
    elif error.startswith("Cannot read properties of undefined") and error.endswith(
        ("(reading 'includes')", "(reading 'replace')", "(reading 'split')")
    ):
        wanted = codes.CONTEXT_TOOL_CALL_ID  # an id normaliser on a call without ``id``
    else:
        return _shape_culprit(target, model, prompt, error)
    hazards = [h for h in message_hazards(prompt.messages) if h.code == wanted]
    if not hazards:
        return _shape_culprit(target, model, prompt, error)
    return " -- compiled " + describe_hazard(hazards[0], prompt.messages)


def _shape_culprit(target: str, model: Model, prompt: Prompt, error: str) -> str:
    """The first message that fails the same way on its own: a shape pi-ai cannot read (``content``
    that is an object, a ``null`` part, a number where text belongs…; issue 12).  Only run once a
    body has failed, one small request per message."""
    for index, msg in enumerate(prompt.messages):
        alone, _ = _run(target, model, Prompt("", [msg], None, prompt.thinking_level, prompt.session_id))
        if alone.error == error:
            role = msg.get("role") if isinstance(msg, dict) else None
            label = f"message {index + 1}" + (f" ({role})" if isinstance(role, str) else "")
            return f" -- compiled {label}: pi-ai cannot read a field of this message as the type it expects"
    return ""


def emit_body(
    target: str, prompt: Prompt, model: Model | str | None = None, *, catalog: Catalog | None = None
) -> dict[str, Any]:
    """The request body ``target`` receives (:func:`build_request`'s parameters); raises
    :class:`PayloadError` where pi-ai would throw."""
    result = build_request(target, prompt, model, catalog=catalog)
    if result.error is not None or result.body is None:
        raise PayloadError(result.error or "no body")
    return result.body


def build_payloads(prompt: Prompt, *, models: Catalog | Mapping[str, Model] | None = None) -> dict[str, Any]:
    """The ``payloads`` section: ``{api: {model, thinkingLevel, body | error}}`` for the four APIs.

    ``models`` is a catalog (its default model per API is used) or an explicit ``{api: Model}``.
    """
    section: dict[str, Any] = {}
    for api in API_ORDER:
        catalog = models if isinstance(models, Catalog) else default_catalog()
        model = models[api] if isinstance(models, Mapping) else catalog.default_for(api)
        result, _ = _run(api, model, prompt)
        section[api] = result.to_entry()
    return section
