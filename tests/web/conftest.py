"""A real editor server on 127.0.0.1 (a thread running uvicorn), and a small HTTP client for it."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="forgec ui needs the [ui] extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="forgec ui needs the [ui] extra (starlette, uvicorn)")

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FIXTURES = Path(os.environ.get("FORGEC_FIXTURES", REPO.parent / "shared" / "fixtures" / "sillytavern"))


@dataclass
class Running:
    """A started editor: its port and token, and requests against it."""

    editor: Any
    server: Any
    thread: threading.Thread
    root: Path

    @property
    def port(self) -> int:
        port: int = self.editor.port
        return port

    @property
    def token(self) -> str:
        return self.editor.url.split("token=", 1)[1]

    def request(
        self, method: str, path: str, body: Any = None, *, token: bool = True, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": f"127.0.0.1:{self.port}"}
        if token:
            sent["X-Forgec-Token"] = self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        try:
            return response.status, json.loads(raw), response
        except ValueError:
            return response.status, raw.decode("utf-8", "replace"), response

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        status, body, _ = self.request("GET", path, **kw)
        return status, body

    def post(self, path: str, body: Any, **kw: Any) -> tuple[int, Any]:
        status, body, _ = self.request("POST", path, body, **kw)
        return status, body


def start(root: Path, global_dir: Path, **options: Any) -> Running:
    from forgec.web.server import prepare

    editor = prepare(root, port=options.pop("port", 0), global_dir=global_dir, **options)
    server = editor.server()
    thread = threading.Thread(target=server.run, kwargs={"sockets": [editor.sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the editor did not start"
    return Running(editor, server, thread, root)


def stop(running: Running) -> None:
    running.server.should_exit = True
    running.thread.join(10)


def copy_examples(tmp: Path) -> Path:
    """A copy of examples/ (its .pi/forge project included) to edit freely."""
    root = tmp / "project"
    shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("__pycache__", "__snapshots__", "tests"))
    return root


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    global_dir = tmp_path / "global"
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(global_dir))
    running = start(copy_examples(tmp_path), global_dir)
    yield running
    stop(running)
