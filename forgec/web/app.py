"""The editor's HTTP interface: a Starlette app over the library workflows.

Every route is a thin call into :mod:`forgec.web.storage`, :mod:`forgec.web.live`,
:mod:`forgec.web.project` or the agent and import workflows; the browser holds the edit state.  The
guard (:mod:`forgec.web.guard`) wraps the whole app, static files included: nothing is served
without the session token and a loopback ``Host``/``Origin``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from forgec.web import guard
from forgec.web.storage import Conflict, Refused, StackStorage, digest, render_stack

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, MutableMapping

    from forgec.environment import Environment

__all__ = ["EditorState", "create_app"]

STATIC = Path(__file__).parent / "static"
_ASSETS = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}


@dataclass
class EditorState:
    """One editor session: the project, its environment and storage, the token and port."""

    root: Path
    env: Environment
    storage: StackStorage
    token: str
    port: int = 0
    #: context file (relative to root) -> loaded context, read once per session
    _contexts: dict[str, Any] = field(default_factory=dict)

    def context(self, name: str | None) -> Any:
        from forgec.web.live import load_context_file
        from forgec.web.project import context_files

        key = name or ""
        if key not in self._contexts:
            if key and key not in context_files(self.root):
                raise Refused(f"not a context file of this project: {key!r}", 403)
            self._contexts[key] = load_context_file(self.root / key if key else None)
        return self._contexts[key]

    def workspace(self) -> Any:
        from forgec.agents.profiles import load_workspace

        return load_workspace(self.root, global_dir=self.storage.global_dir, supported_slots=self.env.supported_slots)

    def config_paths(self) -> Any:
        from forgec.agents.config import ForgeConfigPaths

        return ForgeConfigPaths.for_project(self.root, global_dir=self.storage.global_dir)


class Guard:
    """ASGI middleware: loopback ``Host``/``Origin`` (403), then the session token (401)."""

    def __init__(self, app: Any, state: EditorState) -> None:
        self.app, self.state = app, state

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        port = self.state.port
        if not guard.check_host(request.headers.get("host"), port):
            await PlainTextResponse("refused: not a loopback Host\n", 403)(scope, receive, send)
            return
        if not guard.check_origin(request.headers.get("origin"), port):
            await PlainTextResponse("refused: cross-origin request\n", 403)(scope, receive, send)
            return
        token = self.state.token
        given = request.headers.get(guard.HEADER) or request.cookies.get(guard.cookie_name(port))
        if request.url.path == "/" and guard.token_matches(request.query_params.get("token"), token):
            # the printed URL: remember the token in a cookie and drop it from the address bar
            response = RedirectResponse("/", 303)
            response.set_cookie(guard.cookie_name(port), token, httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        if not guard.token_matches(given, token):
            await PlainTextResponse(
                "401: open the editor from the URL 'forgec ui' printed (it carries the session token)\n", 401
            )(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _error(exc: Exception) -> JSONResponse:
    if isinstance(exc, Conflict):
        current = exc.current.to_json() if exc.current is not None else None
        return JSONResponse({"error": str(exc), "conflict": True, "current": current}, 409)
    if isinstance(exc, Refused):
        return JSONResponse({"error": str(exc)}, exc.status)
    hint = getattr(exc, "hint", None)
    return JSONResponse({"error": str(exc), "hint": hint}, 400)


def _handler(fn: Callable[[Request, EditorState], Awaitable[Any]], state: EditorState) -> Callable[[Request], Awaitable[Response]]:
    from forgec.errors import ForgecError

    async def endpoint(request: Request) -> Response:
        try:
            result = await fn(request, state)
        except (Refused, Conflict, ForgecError) as exc:
            return _error(exc)
        return result if isinstance(result, Response) else JSONResponse(result)

    return endpoint


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body())
    except ValueError:
        raise Refused("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object")
    return data


def _str(data: dict[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise Refused(f"{key!r} must be a string")
    return value


# --- routes -------------------------------------------------------------------------------------------


async def index(request: Request, state: EditorState) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html", headers=_NO_STORE)


_NO_STORE = {"Cache-Control": "no-store", "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'"}


async def static(request: Request, state: EditorState) -> Response:
    name = request.path_params["name"]
    if name not in _ASSETS:
        raise Refused("no such asset", 404)
    return FileResponse(STATIC / name, media_type=_ASSETS[name], headers=_NO_STORE)


async def api_state(request: Request, state: EditorState) -> dict[str, Any]:
    from forgec.model import API_ORDER, BUILTIN_SLOT_NAMES, ROLES, THINKING_LEVELS
    from forgec.web.project import TEMPLATES, context_files, import_candidates, profile_rows, stack_rows

    workspace = state.workspace()
    auto = workspace.auto_activation()
    config = _delegation(state)
    return {
        "project": str(state.root), "globalDir": str(state.storage.global_dir),
        "readOnly": state.storage.read_only, "globalWritable": state.storage.allow_global and not state.storage.read_only,
        "stacks": stack_rows(state.storage, workspace), "profiles": profile_rows(workspace),
        "autoActivation": auto.to_json(), "delegation": config,
        "templates": {k: v[0] for k, v in TEMPLATES.items()}, "contexts": context_files(state.root),
        "presets": import_candidates(state.root), "targets": list(API_ORDER), "roles": list(ROLES),
        "slots": list(state.env.supported_slots or BUILTIN_SLOT_NAMES), "thinkingLevels": list(THINKING_LEVELS),
    }  # fmt: skip


def _delegation(state: EditorState) -> dict[str, Any]:
    from forgec.agents.config import load_subagent_settings

    settings = load_subagent_settings(state.config_paths(), trusted=True)
    return settings.to_json()


async def api_context(request: Request, state: EditorState) -> dict[str, Any]:
    ctx = state.context(request.query_params.get("context") or None)
    skills = ctx.data.get("skills") if isinstance(ctx.data.get("skills"), list) else []
    return {
        "tools": [t["name"] for t in ctx.tools],
        "skills": [s.get("name") for s in skills if isinstance(s, dict) and isinstance(s.get("name"), str)],
    }


async def api_stack(request: Request, state: EditorState) -> dict[str, Any]:
    stored = state.storage.read(request.query_params.get("ref", ""))
    return {**stored.to_json(), **_parse(stored.text, stored.path.name)}


def _parse(text: str, file_name: str) -> dict[str, Any]:
    from forgec.source import parse_source_text
    from forgec.source.read import is_yaml_path

    document = parse_source_text(text, file_name, "yaml" if is_yaml_path(file_name) else "json")
    if not document.parsed:
        return {"data": None, "parseError": "; ".join(d.message for d in document.diagnostics)}
    return {"data": document.data}


async def api_parse(request: Request, state: EditorState) -> dict[str, Any]:
    data = await _body(request)
    return _parse(_str(data, "text"), _str(data, "file", "stack.json"))


async def api_render(request: Request, state: EditorState) -> dict[str, Any]:
    data = await _body(request)
    fmt = _str(data, "format", "json")
    return {"text": render_stack(data.get("data"), fmt, data.get("original") if isinstance(data.get("original"), str) else None)}


async def api_analyze(request: Request, state: EditorState) -> dict[str, Any]:
    from forgec.web.live import analyze

    data = await _body(request)
    file_name = _str(data, "file", "stack.json")
    saved: str | None = None
    ref = data.get("ref")
    if isinstance(ref, str) and ref:
        try:
            saved = state.storage.read(ref).text
        except Refused:
            saved = None
    target = data.get("target") if isinstance(data.get("target"), str) else None
    context = state.context(data.get("context") if isinstance(data.get("context"), str) else None)
    return analyze(state.env, _str(data, "text"), file_name, context=context, target=target, saved_text=saved)


async def api_save(request: Request, state: EditorState) -> dict[str, Any]:
    data = await _body(request)
    ref, text = _str(data, "ref"), _str(data, "text")
    parsed = _parse(text, ref.rsplit("/", 1)[-1])
    if parsed["data"] is None:
        raise Refused(f"not saved: the text does not parse ({parsed['parseError']})", 422)
    base = data.get("hash")
    stored = state.storage.save(ref, text, base if isinstance(base, str) else None)
    return stored.to_json()


async def api_new(request: Request, state: EditorState) -> dict[str, Any]:
    from forgec.web.project import template_stack

    data = await _body(request)
    fmt = _str(data, "format", "json")
    ref = state.storage.new_ref(_str(data, "location", "project"), _str(data, "id"), fmt)
    text = render_stack(template_stack(_str(data, "template", "minimal"), _str(data, "id")), fmt)
    if fmt == "yaml":
        text = f"# {_str(data, 'id')}: made by forgec ui from the {_str(data, 'template', 'minimal')} template\n" + text
    return state.storage.save(ref, text, None).to_json()


async def api_fork(request: Request, state: EditorState) -> dict[str, Any]:
    """A copy under a new id (ids are immutable): the same format, comments kept for YAML."""
    data = await _body(request)
    source = state.storage.read(_str(data, "ref"))
    parsed = _parse(source.text, source.path.name)
    if not isinstance(parsed["data"], dict):
        raise Refused("only a stack that parses can be forked", 422)
    new_id = _str(data, "id")
    fmt = "yaml" if source.path.suffix in (".yaml", ".yml") else "json"
    ref = state.storage.new_ref(_str(data, "location", "project"), new_id, fmt)
    doc = dict(parsed["data"])
    doc["id"] = new_id
    return state.storage.save(ref, render_stack(doc, fmt, source.text), None).to_json()


async def api_delete(request: Request, state: EditorState) -> dict[str, Any]:
    data = await _body(request)
    path = state.storage.delete(_str(data, "ref"), _str(data, "hash"))
    return {"deleted": str(path)}


async def api_export(request: Request, state: EditorState) -> Response:
    stored = state.storage.read(request.query_params.get("ref", ""))
    media = "application/yaml" if stored.path.suffix in (".yaml", ".yml") else "application/json"
    return Response(stored.text.encode("utf-8"), media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{stored.path.name}"'})  # fmt: skip


async def api_import(request: Request, state: EditorState) -> dict[str, Any]:
    """Import a SillyTavern preset of the project, as ``forgec import-silly PRESET --out-dir ROOT``."""
    from forgec.importers.sillytavern.project import import_into_project
    from forgec.web.project import import_candidates

    data = await _body(request)
    state.storage.check_writable("project")
    rel = _str(data, "path")
    if rel not in {c["path"] for c in import_candidates(state.root)}:
        raise Refused(f"not a SillyTavern preset of this project: {rel!r}", 403)
    character = data.get("character")
    stack_id = data.get("id") or None
    done = import_into_project(
        state.root / rel, str(character) if character not in (None, "") else None, out_dir=state.root,
        stack_id=stack_id if isinstance(stack_id, str) else None, overwrite=data.get("overwrite") is True,
    )  # fmt: skip
    # the report as written beside the stack (pi-forge's text, then forgec's fidelity section)
    report = next(text for path, text in done.files if path == done.report_path)
    return {"ref": f"project/{done.stack_path.name}", "report": report, "warnings": list(done.warnings),
            "stackPath": str(done.stack_path), "reportPath": str(done.report_path)}  # fmt: skip


async def api_import_stack(request: Request, state: EditorState) -> dict[str, Any]:
    """Import a pi-forge stack file chosen in the browser: its bytes kept as they are, under the id
    the file declares, in the project's stack folder (never replacing a stack unless asked)."""
    from forgec.web.storage import check_id

    data = await _body(request)
    text, file_name = _str(data, "text"), _str(data, "file", "stack.json")
    suffix = Path(file_name).suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise Refused(f"a stack file is .json, .yaml or .yml, not {file_name!r}")
    parsed = _parse(text, file_name)
    doc = parsed["data"]
    if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
        reason = parsed.get("parseError") or "it has no items list"
        raise Refused(f"{file_name} is not a pi-forge stack: {reason}", 422)
    declared = doc.get("id")
    stack_id: str = declared if isinstance(declared, str) else Path(file_name).stem
    ref = f"project/{check_id(stack_id.strip())}{suffix}"
    base: str | None = None
    if data.get("overwrite") is True:
        try:
            base = state.storage.read(ref).hash
        except Refused:
            base = None
    return state.storage.save(ref, text, base).to_json()


async def api_profile_save(request: Request, state: EditorState) -> dict[str, Any]:
    """Create or replace a profile through pi-forge's guarded writer; one auto-activation per scope."""
    data = await _body(request)
    scope = _str(data, "scope", "project")
    state.storage.check_writable(scope, "user-global profiles are")
    if scope not in ("project", "global"):
        raise Refused(f"unknown scope {scope!r}")
    profile = data.get("profile")
    if not isinstance(profile, dict):
        raise Refused("'profile' must be an object")
    workspace = state.workspace()
    pid = profile.get("id")
    if profile.get("autoActivate") is True:
        others = [p for p in workspace.profiles if p.scope == scope and p.profile_id != pid and p.profile.get("autoActivate") is True]
        if others:
            raise Conflict(f"{others[0].profile_id} already auto-activates in the {scope} scope; only one may", None)
    existing = next((p for p in workspace.profiles if p.scope == scope and p.profile_id == pid), None)
    base = data.get("hash")
    if existing is not None:
        current = digest(Path(existing.path).read_bytes())
        if base != current:
            raise Conflict(f"profile {pid} exists or changed on disk since it was loaded; nothing was written", None)
    result = workspace.write(profile, scope=scope, overwrite=existing is not None)
    if not result.ok:
        problems = [d.message for d in result.diagnostics if d.level == "error"]
        raise Refused(f"profile not written ({result.reason}): " + "; ".join(problems or [result.error or ""]), 422)
    written: dict[str, Any] = result.to_json()
    return written


async def api_profile_file(request: Request, state: EditorState) -> dict[str, Any]:
    key = request.query_params.get("key", "")
    loaded = state.workspace().profile_by_key(key)
    if loaded is None:
        raise Refused(f"no such profile: {key}", 404)
    raw = Path(loaded.path).read_bytes()
    return {"key": key, "profile": loaded.profile, "hash": digest(raw), "path": loaded.path}


async def api_profile_config(request: Request, state: EditorState) -> dict[str, Any]:
    """The per-profile delegation settings (``subagents.profiles.<id>``) through pi-forge's updater."""
    from forgec.agents.config import update_profile_config
    from forgec.codecs.forge_config import ProfileConfigUpdate

    data = await _body(request)
    scope = _str(data, "scope", "project")
    state.storage.check_writable(scope, "the user-global config is", "it")
    update = data.get("update")
    if not isinstance(update, dict):
        raise Refused("'update' must be an object")
    result = update_profile_config(state.config_paths(), _str(data, "id"), ProfileConfigUpdate.from_json(update),
                                   scope="global" if scope == "global" else "project")  # fmt: skip
    if not result.ok:
        raise Refused(result.error or "not written", 422)
    answer: dict[str, Any] = result.to_json()
    return answer


def create_app(state: EditorState) -> Any:
    """The ASGI app for one editor session (wrapped in the guard)."""
    get = [("/", index), ("/static/{name}", static), ("/api/state", api_state), ("/api/context", api_context),
           ("/api/stack", api_stack), ("/api/export", api_export), ("/api/profile", api_profile_file)]  # fmt: skip
    post = [("/api/parse", api_parse), ("/api/render", api_render), ("/api/analyze", api_analyze),
            ("/api/save", api_save), ("/api/new", api_new), ("/api/fork", api_fork), ("/api/delete", api_delete),
            ("/api/import", api_import), ("/api/import-stack", api_import_stack), ("/api/profile/save", api_profile_save),
            ("/api/profile/config", api_profile_config)]  # fmt: skip
    routes = [Route(path, _handler(fn, state), methods=["GET"]) for path, fn in get]
    routes += [Route(path, _handler(fn, state), methods=["POST"]) for path, fn in post]
    return Guard(Starlette(routes=routes), state)
