"""Who may talk to the editor: the session token, and requests that come from this machine.

The server listens on ``127.0.0.1`` only, but a web page in the user's browser can still send
requests there (cross-site requests, DNS rebinding: ``evil.example`` resolving to 127.0.0.1).  So
every request must

* name a ``Host`` that is the loopback address or ``localhost`` on the server's port (a rebinding
  page's requests carry its own host name);
* when it has an ``Origin`` (every cross-site request and every browser ``POST``), come from
  ``http://127.0.0.1:<port>`` or ``http://localhost:<port>``;
* carry the session token: the ``forgec_token_<port>`` cookie (set when the printed URL is opened) or an
  ``X-Forgec-Token`` header; otherwise 401.

The token is 32 random bytes, compared in constant time, never logged.
"""

from __future__ import annotations

import hmac
import secrets

__all__ = ["HEADER", "check_host", "check_origin", "cookie_name", "new_token", "token_matches"]


HEADER = "x-forgec-token"
_LOOPBACK_NAMES = ("127.0.0.1", "localhost")


def cookie_name(port: int) -> str:
    """The token cookie of the editor on ``port``: browsers share cookies between the ports of one
    host, so two editors running at once would otherwise overwrite each other's token."""
    return f"forgec_token_{port}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def check_host(host: str | None, port: int) -> bool:
    """``Host`` is ``127.0.0.1:<port>`` or ``localhost:<port>`` (the port may be left out)."""
    if not host:
        return False
    name, _, given_port = host.rpartition(":") if ":" in host else (host, "", "")
    if name.lower() not in _LOOPBACK_NAMES:
        return False
    return given_port in ("", str(port))


def check_origin(origin: str | None, port: int) -> bool:
    """No ``Origin`` (a same-origin ``GET``, a command-line client), or the editor's own origin."""
    if origin is None:
        return True
    return origin.lower() in {f"http://{name}:{port}" for name in _LOOPBACK_NAMES}
