"""The pygls server: the protocol's events wired to the library, and nothing else.

Diagnostics are published on open and save at once and, while typing, after a short pause
(``initializationOptions.debounceMs``, default 150 ms), for *every* open file: a change to one file
can change another's findings (duplicate ids, a profile's ``promptStack``).  Requests are answered
from the buffers as they are.  A handler that fails unexpectedly is logged to the client and
answers nothing; it never ends the server (the same guard as the command line's
``internal error``, :mod:`forgec.cli._common`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from forgec.lsp.convert import lsp_diagnostics, uri_path
from forgec.lsp.files import DEFAULT_CONTEXT_PATTERNS, FileKind
from forgec.lsp.positions import LineIndex
from forgec.lsp.project import CheckedFile, Project
from forgec.resources import VERSION

__all__ = ["ForgecServer", "build_server"]

_T = TypeVar("_T")
_log = logging.getLogger("forgec.lsp")
PREVIEW_COMMAND = "forgec.preview"


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, minus a leak: pygls 2.1 files each notification handled by a generator (all
    its built-in ``didOpen``/``didChange``/``didSave``/``didClose`` handlers) under a fresh id among
    the pending requests and never removes it -- about 0.7 KiB per keystroke, for ever.  Each such
    entry is dropped once its handler is done, so the server's memory stays flat over a long edit
    session (benchmarks/bench_lsp.py, docs/performance.md)."""

    def _handle_notification(self, method_name: str, params: Any) -> None:
        pending = self._request_futures
        before = set(pending)
        super()._handle_notification(method_name, params)
        for key in set(pending) - before:
            future = pending[key]
            if future.done():
                pending.pop(key, None)
            else:
                future.add_done_callback(partial(_forget, pending, key))


def _forget(pending: dict[Any, Any], key: Any, _done: Any) -> None:
    pending.pop(key, None)


class ForgecServer(LanguageServer):
    """The server and its state: the project (buffers, environments) and the last check."""

    def __init__(self) -> None:
        super().__init__(
            "forgec",
            VERSION,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=_Protocol,
        )
        self.project = Project()
        self.checked: dict[Path, CheckedFile] = {}
        self.uris: dict[Path, str] = {}
        self.debounce = 0.15
        self.formatting = False
        self._pending: asyncio.TimerHandle | None = None

    @property
    def encoding(self) -> str:
        value = self.workspace.position_encoding
        return str(getattr(value, "value", value) or "utf-16")

    def guarded(self, what: str, call: Callable[[], _T], default: _T) -> _T:
        """``call()``, or ``default`` when it fails: a bug shows in the client's log, never ends the server."""
        try:
            return call()
        except Exception as error:  # the front end's guard (module docstring)
            _log.exception("forgec lsp: %s failed", what)
            self.window_log_message(
                types.LogMessageParams(
                    types.MessageType.Error, f"forgec: internal error in {what}: {error!r}"
                )
            )
            return default

    # --- documents ------------------------------------------------------------------------------

    def document(self, uri: str) -> tuple[Path, FileKind | None, str]:
        path = uri_path(uri)
        text = self.workspace.get_text_document(uri).source
        return path, self.project.kind(path), text

    def publish_all(self) -> None:
        """Check every open file and publish each one's findings."""
        self._pending = None
        empty: dict[Path, CheckedFile] = {}
        checked = self.guarded("checking", lambda: self.project.check(), empty)
        for path, uri in list(self.uris.items()):
            result = checked.get(path)
            if result is None:
                continue
            self.checked[path] = result
            none: list[types.Diagnostic] = []
            found = self.guarded("diagnostics", partial(lsp_diagnostics, result, uri, self.encoding), none)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found))

    def schedule(self, delay: float) -> None:
        if self._pending is not None:
            self._pending.cancel()
        if delay <= 0:
            self.publish_all()
            return
        self._pending = asyncio.get_running_loop().call_later(delay, self.publish_all)

    def track(self, uri: str) -> Path | None:
        path = uri_path(uri)
        text = self.workspace.get_text_document(uri).source
        if self.project.kind(path) is None:
            return None
        self.project.open(path, text)
        self.uris[path.resolve()] = uri
        return path


def _options(params: types.InitializeParams) -> dict[str, Any]:
    options = params.initialization_options
    return options if isinstance(options, dict) else {}


def build_server() -> ForgecServer:
    """A server with every feature registered (not yet started)."""
    server = ForgecServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: ForgecServer, params: types.InitializeParams) -> None:
        options = _options(params)
        roots = [uri_path(f.uri) for f in params.workspace_folders or []]
        if not roots and params.root_uri:
            roots = [uri_path(params.root_uri)]
        patterns = options.get("contextFiles")
        context = options.get("context")
        root = roots[0] if roots else Path.cwd()
        ls.project = Project(
            roots,
            trust_plugins=options.get("trustPlugins") is True,
            context_patterns=tuple(str(p) for p in patterns)
            if isinstance(patterns, list)
            else DEFAULT_CONTEXT_PATTERNS,
            context=(root / context) if isinstance(context, str) and context else None,
        )
        debounce = options.get("debounceMs")
        if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and 0 <= debounce <= 10_000:
            ls.debounce = debounce / 1000
        ls.formatting = options.get("formatting") is True

    @server.feature(types.INITIALIZED)
    def initialized(ls: ForgecServer, params: types.InitializedParams) -> None:
        """Ask to hear of files changed outside the editor (a ``git checkout``, another tool), so
        cross-file findings follow them -- when the client can register watchers at all."""
        watch = ls.client_capabilities.workspace
        dynamic = watch.did_change_watched_files if watch is not None else None
        if dynamic is None or not dynamic.dynamic_registration:
            return
        globs = ["**/.pi/**/*.json", "**/.pi/**/*.yaml", "**/.pi/**/*.yml", "**/pyproject.toml"]
        options = types.DidChangeWatchedFilesRegistrationOptions([types.FileSystemWatcher(g) for g in globs])
        registration = types.Registration("forgec-watch", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)
        ls.client_register_capability(types.RegistrationParams([registration]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ForgecServer, params: types.DidOpenTextDocumentParams) -> None:
        if ls.guarded("open", lambda: ls.track(params.text_document.uri), None) is not None:
            ls.schedule(0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ForgecServer, params: types.DidChangeTextDocumentParams) -> None:
        if ls.guarded("change", lambda: ls.track(params.text_document.uri), None) is not None:
            ls.schedule(ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ForgecServer, params: types.DidSaveTextDocumentParams) -> None:
        path = uri_path(params.text_document.uri)
        ls.project.saved(path)
        ls.schedule(0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ForgecServer, params: types.DidCloseTextDocumentParams) -> None:
        path = uri_path(params.text_document.uri).resolve()
        ls.project.close(path)
        ls.uris.pop(path, None)
        ls.checked.pop(path, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )
        ls.schedule(0)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: ForgecServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            ls.project.saved(uri_path(change.uri))
        ls.schedule(ls.debounce)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["{", ":", '"', " ", "-"])
    )
    def completion(ls: ForgecServer, params: types.CompletionParams) -> types.CompletionList | None:
        from forgec.lsp.completion import complete

        def run() -> types.CompletionList | None:
            path, kind, text = ls.document(params.text_document.uri)
            if kind is None:
                return None
            offset = LineIndex(text, ls.encoding).offset(params.position.line, params.position.character)
            return types.CompletionList(
                is_incomplete=False, items=complete(ls.project, path, kind, text, offset)
            )

        return ls.guarded("completion", run, None)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: ForgecServer, params: types.HoverParams) -> types.Hover | None:
        from forgec.lsp.hover import hover_markdown

        def run() -> types.Hover | None:
            path, kind, text = ls.document(params.text_document.uri)
            if kind is None:
                return None
            lines = LineIndex(text, ls.encoding)
            found = hover_markdown(
                ls.project, path, kind, text, lines.offset(params.position.line, params.position.character)
            )
            if found is None:
                return None
            markdown, start, end = found
            where = types.Range(types.Position(*lines.position(start)), types.Position(*lines.position(end)))
            return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, markdown), where)

        return ls.guarded("hover", run, None)

    def _locations(
        ls: ForgecServer, params: types.DefinitionParams | types.ReferenceParams, which: str
    ) -> list[types.Location]:
        from forgec.lsp import navigation

        path, kind, text = ls.document(params.text_document.uri)
        if kind is None:
            return []
        offset = LineIndex(text, ls.encoding).offset(params.position.line, params.position.character)
        find = navigation.definitions if which == "definition" else navigation.references
        out = []
        for target, span in find(ls.project, path, kind, text, offset):
            target_text = ls.project.buffers.get(target.resolve())
            if target_text is None:
                try:
                    target_text = target.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    target_text = ""
            lines = LineIndex(target_text, ls.encoding)
            if span is None:
                where = types.Range(types.Position(0, 0), types.Position(0, 0))
            else:
                where = types.Range(
                    types.Position(*lines.utf16(span.line, span.column)),
                    types.Position(*lines.utf16(span.end_line, span.end_column)),
                )
            out.append(types.Location(target.resolve().as_uri(), where))
        return out

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: ForgecServer, params: types.DefinitionParams) -> list[types.Location] | None:
        return ls.guarded("definition", lambda: _locations(ls, params, "definition"), None) or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: ForgecServer, params: types.ReferenceParams) -> list[types.Location] | None:
        return ls.guarded("references", lambda: _locations(ls, params, "references"), None) or None

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]
        ),
    )
    def code_action(ls: ForgecServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        from forgec.lsp.actions import code_actions

        def run() -> list[types.CodeAction] | None:
            path = uri_path(params.text_document.uri).resolve()
            checked = ls.checked.get(path)
            text = ls.workspace.get_text_document(params.text_document.uri).source
            if checked is None or checked.text != text:  # asked before the pause ended: check now
                ls.schedule(0)
                checked = ls.checked.get(path)
            if checked is None:
                return None
            settings_file = ls.project.environment(path).settings.path
            settings = None
            if settings_file is not None:
                held = ls.project.buffers.get(settings_file.resolve())
                toml = (
                    held if held is not None else settings_file.read_text(encoding="utf-8", errors="replace")
                )
                settings = (settings_file, toml)
            return (
                code_actions(checked, params.text_document.uri, params.range, ls.encoding, settings) or None
            )

        return ls.guarded("code actions", run, None)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: ForgecServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
        from forgec.lsp.symbols import document_symbols

        def run() -> list[types.DocumentSymbol] | None:
            path, kind, text = ls.document(params.text_document.uri)
            return document_symbols(path, kind, text, ls.encoding) if kind is not None else None

        return ls.guarded("document symbols", run, None)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: ForgecServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        from forgec.lsp.actions import minimal_edit
        from forgec.lsp.formatting import formatted

        def run() -> list[types.TextEdit] | None:
            if not ls.formatting:
                return None
            path, kind, text = ls.document(params.text_document.uri)
            new = formatted(path, text) if kind is not None else None
            return [minimal_edit(text, new, LineIndex(text, ls.encoding))] if new is not None else None

        return ls.guarded("formatting", run, None)

    @server.command(PREVIEW_COMMAND)
    def preview(ls: ForgecServer, *args: Any) -> dict[str, Any]:
        from forgec.lsp.preview import preview as compile_preview

        def run() -> dict[str, Any]:
            first = args[0] if args else None
            uri = first.get("uri") if isinstance(first, dict) else first
            if not isinstance(uri, str):
                return {"error": "forgec.preview takes the stack's URI (or {uri, context})"}
            context = (
                first.get("context") if isinstance(first, dict) else (args[1] if len(args) > 1 else None)
            )
            chosen = uri_path(context) if isinstance(context, str) and context.startswith("file:") else (
                Path(context) if isinstance(context, str) and context else None
            )  # fmt: skip
            return compile_preview(ls.project, uri_path(uri), chosen)

        return ls.guarded("preview", run, {"error": "internal error (see the server log)"})

    return server


def serve() -> None:
    """Run the server over standard input and output until the client says ``exit``."""
    build_server().start_io()
