"""Start the editor: bind ``127.0.0.1`` (never another address), print the URL, serve.

The port is the trusted project's ``webEditor.port`` (profiles-exec.md §2.7) when it is free,
otherwise one the system picks, with a warning -- as pi-forge's editor does.  The socket is bound
here and handed to uvicorn, so the URL printed is the address actually listened on, and a test can
start the server on port 0 and read the port back.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.web.guard import new_token

__all__ = ["BIND_ADDRESS", "Editor", "bind", "prepare"]

#: the only address the editor listens on
BIND_ADDRESS = "127.0.0.1"


def bind(port: int | None) -> tuple[socket.socket, str | None]:
    """A listening socket on ``127.0.0.1:port``; a busy or missing port gives a free one and a warning."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    warning = None
    try:
        sock.bind((BIND_ADDRESS, port or 0))
    except OSError as exc:
        warning = f"port {port} is not available ({exc.strerror or exc}); using an available editor port"
        sock.close()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((BIND_ADDRESS, 0))
    sock.listen(64)
    sock.setblocking(False)
    return sock, warning


@dataclass
class Editor:
    """A prepared editor session: the listening socket, its URL and the ASGI app."""

    sock: socket.socket
    url: str
    app: Any
    warnings: list[str]

    @property
    def port(self) -> int:
        port: int = self.sock.getsockname()[1]
        return port

    def server(self) -> Any:
        """The uvicorn server for this editor (``.run(sockets=[editor.sock])`` serves; setting
        ``.should_exit`` stops it -- how the tests run one in a thread)."""
        import uvicorn

        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        return uvicorn.Server(config)

    def serve(self) -> None:
        """Serve until interrupted (uvicorn handles Ctrl-C and closes the socket)."""
        self.server().run(sockets=[self.sock])


def prepare(
    root: Path,
    *,
    port: int | None = None,
    read_only: bool = False,
    allow_global: bool = False,
    global_dir: Path | None = None,
    env_factory: Callable[[Path], Any] | None = None,
) -> Editor:
    """Everything up to serving: the environment, the port, the token and the app.

    ``port`` None reads ``webEditor.port`` from the project's forge config.
    """
    from forgec.environment import Environment
    from forgec.web.app import EditorState, create_app
    from forgec.web.storage import StackStorage
    from forgec.workspace import global_forge_dir

    root = root.resolve()
    warnings: list[str] = []
    env = env_factory(root) if env_factory is not None else Environment.discover(root)
    if port is None:
        from forgec.agents.config import ForgeConfigPaths, load_web_editor

        preferred = load_web_editor(ForgeConfigPaths.for_project(root), trusted=True)
        warnings.extend(preferred.warnings)
        port = preferred.preferred_port
    sock, warning = bind(port)
    if warning:
        warnings.append(f"forgec ui: {warning}")
    storage = StackStorage(root, global_dir or global_forge_dir(), read_only=read_only, allow_global=allow_global)
    state = EditorState(root, env, storage, new_token())
    state.port = sock.getsockname()[1]
    url = f"http://{BIND_ADDRESS}:{state.port}/?token={state.token}"
    return Editor(sock, url, create_app(state), warnings)
