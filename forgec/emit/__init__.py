"""Provider request bodies: what the Pi agent host sends for a compiled prompt (payloads.md).

:func:`build_payloads` reproduces the ``payloads`` section of a compile report (one body per target
API, each with the API's reference model); :func:`emit_body` builds one body for one target and
model.  Both are pure and offline: no provider SDK is imported and no socket is opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ParamSpec

from forgec.codecs.catalog import (
    API_ORDER,
    Catalog,
    CatalogError,
    Model,
    clamp_thinking_level,
    default_catalog,
)
from forgec.emit.convert import PayloadError, Request, convert_to_llm, output_token_cap
from forgec.emit.openai_responses import DEFAULT_SESSION_ID

__all__ = [
    "API_ORDER",
    "DEFAULT_SESSION_ID",
    "PayloadError",
    "PayloadResult",
    "active_tools",
    "build_payloads",
    "compile_payload",
    "emit_body",
    "report_payloads",
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
    diagnostics: list[Any] = field(default_factory=list)

    def to_entry(self) -> dict[str, Any]:
        """The ``payloads.<api>`` entry."""
        entry: dict[str, Any] = {"model": self.model.ref, "thinkingLevel": self.thinking_level}
        if self.error is not None:
            entry["error"] = self.error
        else:
            entry["body"] = self.body
        return entry


@dataclass(frozen=True, slots=True)
class _Prompt:
    """What the host hands pi-ai besides the model: pi-forge's output and the context's tools/level."""

    system_prompt: str
    messages: list[Any]
    tools: list[Any] | None
    thinking_level: str | None
    session_id: str


def _run(target: str, model: Model, prompt: _Prompt) -> tuple[PayloadResult, Request | None]:
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


def compile_payload(
    target: str,
    system_prompt: str,
    messages: list[Any],
    tools: list[Any] | None,
    thinking_level: str | None,
    model: Model | str | None = None,
    *,
    catalog: Catalog | None = None,
    session_id: str = DEFAULT_SESSION_ID,
) -> PayloadResult:
    """The body ``target`` receives for pi-forge's compiled agent ``messages``, the context ``tools``
    (inactive ones are skipped) and the requested ``thinking_level`` (clamped to the model here).

    Never raises for pi-ai failures (they are ``result.error``) and explains clamps (FG80x).
    :class:`CatalogError` (unknown model, wrong API) is still raised: that is a usage problem.
    """
    from forgec.diagnostics import Diagnostic
    from forgec.rules import payloads as rules

    chosen = resolve_model(target, model, catalog)
    if chosen.api != target:
        raise CatalogError(f"Model {chosen.key} uses the {chosen.api} API, not {target}")
    requested = _thinking_level(thinking_level)
    prompt = _Prompt(system_prompt, messages, tools, thinking_level, session_id)
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
                f"pi-ai fails to build the {target} request: {result.error}",
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


_P = ParamSpec("_P")


def _raising(build: Callable[_P, PayloadResult]) -> Callable[_P, dict[str, Any]]:
    """:func:`compile_payload` with pi-ai's failure raised instead of returned (same parameters)."""

    def emit_body(*args: _P.args, **kwargs: _P.kwargs) -> dict[str, Any]:
        """The request body ``target`` receives; raises :class:`PayloadError` where pi-ai would throw.

        Takes :func:`compile_payload`'s parameters: ``(target, system_prompt, messages, tools,
        thinking_level, model=None, *, catalog=None, session_id=DEFAULT_SESSION_ID)``.
        """
        result = build(*args, **kwargs)
        if result.error is not None or result.body is None:
            raise PayloadError(result.error or "no body")
        return result.body

    return emit_body


emit_body = _raising(compile_payload)


def build_payloads(
    system_prompt: str,
    messages: list[Any],
    tools: list[Any] | None,
    thinking_level: str | None,
    *,
    models: Catalog | Mapping[str, Model] | None = None,
    session_id: str = DEFAULT_SESSION_ID,
) -> dict[str, Any]:
    """The ``payloads`` section: ``{api: {model, thinkingLevel, body | error}}`` for the four APIs.

    ``models`` is a catalog (its default model per API is used) or an explicit ``{api: Model}``.
    """
    prompt = _Prompt(system_prompt, messages, tools, thinking_level, session_id)
    section: dict[str, Any] = {}
    for api in API_ORDER:
        catalog = models if isinstance(models, Catalog) else default_catalog()
        model = models[api] if isinstance(models, Mapping) else catalog.default_for(api)
        result, _ = _run(api, model, prompt)
        section[api] = result.to_entry()
    return section


def _context_field(ctx: Any, key: str, attribute: str) -> Any:
    """A context value from raw context data or from the context loader's object."""
    if ctx is None:
        return None
    if isinstance(ctx, Mapping):
        return ctx.get(key)
    for name in ("raw", "data", "source"):
        raw = getattr(ctx, name, None)
        if isinstance(raw, Mapping) and key in raw:
            return raw[key]
    return getattr(ctx, attribute, None)


def _tool_dict(tool: Any) -> Any:
    if isinstance(tool, Mapping) or tool is None:
        return tool
    out: dict[str, Any] = {}
    for key, attribute in (("name", "name"), ("description", "description"), ("parameters", "parameters")):
        value = getattr(tool, attribute, None)
        if value is not None:
            out[key] = value
    if getattr(tool, "active", True) is False:
        out["active"] = False
    return out


def report_payloads(
    doc: Mapping[str, Any], ctx: Any, *, models: Catalog | Mapping[str, Model] | None = None
) -> dict[str, Any]:
    """The ``payloads`` section for a compile report ``doc`` (``system``/``messages`` filled in)."""
    tools = _context_field(ctx, "tools", "tools")
    level = _context_field(ctx, "thinkingLevel", "thinking_level")
    return build_payloads(
        doc["system"]["prompt"],
        doc["messages"]["messages"],
        [_tool_dict(t) for t in tools] if isinstance(tools, (list, tuple)) else None,
        level,
        models=models,
    )
