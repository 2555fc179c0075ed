"""The execution transport: one compiled body, sent once to its provider through the API's official SDK.

:func:`send` takes a :class:`ProviderCall` -- the API, base URL, model, the body exactly as
:mod:`forgec.emit` (``forgec compile``) builds it, the credential's value and the timeout -- and
returns a :class:`ProviderOutcome` in the statuses of profiles-exec.md §4.9 (§6.5): one request,
streamed, no retries and no fallback; Ctrl-C or the ``cancel`` event gives ``cancelled``, the
timeout ``timed-out``, an HTTP error ``failed`` with ``http.<status>`` and the provider's message,
anything else that keeps a usable answer from arriving ``failed`` with ``transport``.  Nothing here
raises for what the provider or the network does; :class:`MissingSdkError` (``pip install
'forgec[run]'``) and an unknown API are the only errors.

The SDKs (``openai``, ``anthropic``, ``google-genai``) are the optional ``run`` extra and are
imported only when a call is sent.  Each API's module says how its body reaches the wire unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Final

from forgec.errors import UsageError
from forgec.execute.transport.common import (
    STATUSES,
    MissingSdkError,
    ProviderCall,
    ProviderOutcome,
    TransportFailure,
    Usage,
    require_sdk,
    run_call,
)

__all__ = [
    "APIS",
    "STATUSES",
    "MissingSdkError",
    "ProviderCall",
    "ProviderOutcome",
    "TransportFailure",
    "Usage",
    "ensure_sdk",
    "send",
]

#: API -> (module to import, distribution that provides it)
_SDKS: Final = {
    "anthropic-messages": ("anthropic", "anthropic"),
    "google-generative-ai": ("google.genai", "google-genai"),
    "openai-completions": ("openai", "openai"),
    "openai-responses": ("openai", "openai"),
}
APIS: Final = tuple(_SDKS)


def ensure_sdk(api: str) -> None:
    """Raise :class:`MissingSdkError` (or :class:`~forgec.errors.UsageError` for an API with no
    transport) now, before a person is asked to approve a run that could not be sent."""
    if api not in _SDKS:
        raise UsageError(f"No transport for the {api} API (known: {', '.join(APIS)})")
    module, package = _SDKS[api]
    require_sdk(module, package, api)


def send(
    call: ProviderCall,
    *,
    on_text: Callable[[str], object] | None = None,
    cancel: threading.Event | None = None,
) -> ProviderOutcome:
    """Send ``call`` once and wait for its outcome; ``on_text`` gets the model's text as it streams
    (in this thread, in order); setting ``cancel`` (from any thread) ends the call as ``cancelled``.

    Raises :class:`MissingSdkError` when the API's SDK is not installed and
    :class:`~forgec.errors.UsageError` for an API forgec has no transport for; never for a failure
    of the exchange itself, which is the outcome's ``status``/``error``.
    """
    ensure_sdk(call.api)
    if call.api == "anthropic-messages":
        from forgec.execute.transport.anthropic_messages import stream
    elif call.api == "google-generative-ai":
        from forgec.execute.transport.google_generative_ai import stream
    elif call.api == "openai-completions":
        from forgec.execute.transport.openai_completions import stream
    else:
        from forgec.execute.transport.openai_responses import stream
    return run_call(call, stream, on_text=on_text, cancel=cancel)
