"""A real client for ``forgec lsp``: pytest-lsp starts the server as a subprocess over stdio.

Each test gets a fresh project under ``tmp_path`` (a ``.pi/forge`` folder) and a server whose
user-global forge folder and home are empty folders of its own, so nothing on the machine leaks in.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytest.importorskip("pygls")

_HOME = Path(tempfile.mkdtemp(prefix="forgec-lsp-home-"))
atexit.register(shutil.rmtree, _HOME, True)
SERVER_ENV = {
    **os.environ,
    "HOME": str(_HOME),
    "XDG_CONFIG_HOME": str(_HOME / ".config"),
    "PI_FORGE_GLOBAL_DIR": str(_HOME / "global-forge"),
}


def server_config(**options: Any) -> ClientServerConfig:
    return ClientServerConfig(server_command=[sys.executable, "-m", "forgec", "lsp"], server_env=SERVER_ENV)


async def start(client: LanguageClient, root: Path, options: dict[str, Any] | None = None) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), root.name)],
            initialization_options={"debounceMs": 50, **(options or {})},
        )
    )


async def diagnostics_for(
    client: LanguageClient, uri: str, *, after: int = 0, timeout: float = 20
) -> list[types.Diagnostic]:
    """The diagnostics of ``uri`` once the server has published them more than ``after`` times."""
    deadline = asyncio.get_running_loop().time() + timeout
    while published(client, uri) <= after:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise AssertionError(f"no diagnostics published for {uri}")
        try:
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining
            )
        except TimeoutError:
            continue
    return list(client.diagnostics[uri])


class Published(dict[str, list[types.Diagnostic]]):
    """pytest-lsp's ``client.diagnostics`` that also counts how often each URI was published."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}

    def __setitem__(self, uri: str, value: list[types.Diagnostic]) -> None:
        self.counts[uri] = self.counts.get(uri, 0) + 1
        super().__setitem__(uri, value)


def published(client: LanguageClient, uri: str) -> int:
    """How many times ``uri``'s diagnostics were published so far."""
    diagnostics = client.diagnostics
    return diagnostics.counts.get(uri, 0) if isinstance(diagnostics, Published) else 0


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    language = "yaml" if path.suffix in (".yaml", ".yml") else "json"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri, language, version, text if text is not None else path.read_text(encoding="utf-8")
            )
        )
    )
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=server_config())
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    lsp_client.diagnostics = Published()
    yield lsp_client
    await lsp_client.shutdown_session()
