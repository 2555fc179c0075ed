"""The model catalog: forgec's stand-in for the Pi host's model registry (profiles-exec.md §6.2).

A request body depends on the target model's limits (output-token cap), capabilities (reasoning,
image input), thinking-level map and compatibility flags, and on its identity (whether a replayed
assistant turn is the model's *own*).  The bundled ``models.json`` lists the four reference models
that produced the corpus; users can load their own catalog, validated by
``schemas/model-catalog.schema.json``.  Entries are pi-ai ``Model`` objects (``cost``, ``headers``
and the other pi-ai members are accepted and kept or ignored as nothing here depends on them).

Authentication (§6.3) is the *presence* of an environment variable: an entry's ``auth.env`` names
it (``ANTHROPIC_API_KEY``); ``"auth": {}`` declares a model that needs no credentials (a local
server); an entry without ``auth`` has no configured authentication.  The value is never read here.
Profile resolution (§1.9) looks models up by exact provider and id (:meth:`Catalog.find`) and asks
which of them are authenticated (:meth:`Catalog.authenticated`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from forgec.diagnostics import Diagnostic
from forgec.errors import InputError
from forgec.model import THINKING_LEVELS

if TYPE_CHECKING:
    from forgec.source import SourceDocument

__all__ = [
    "Catalog",
    "CatalogError",
    "Model",
    "ModelAuth",
    "catalog_from_json",
    "catalog_from_models",
    "clamp_thinking_level",
    "default_catalog",
    "load_catalog",
    "supported_thinking_levels",
]

_BUNDLED: Final = Path(__file__).with_name("models.json")


class CatalogError(InputError, ValueError):
    """A catalog file that cannot be read or does not match the schema, or an unknown model."""


@dataclass(frozen=True, slots=True)
class ModelAuth:
    """How a model's credentials are found (§6.3): the environment variable that must be set
    (``None``: the model needs none) and, for custom gateways, the header it is sent in."""

    env: str | None = None
    header: str | None = None

    @classmethod
    def from_json(cls, entry: Any) -> ModelAuth | None:
        if not isinstance(entry, dict):
            return None
        env, header = entry.get("env"), entry.get("header")
        return cls(env if isinstance(env, str) else None, header if isinstance(header, str) else None)

    def configured(self, environ: Mapping[str, str] | None = None) -> bool:
        """Whether the credential is present: no variable needed, or the variable is set and non-empty."""
        if self.env is None:
            return True
        return bool((os.environ if environ is None else environ).get(self.env))


@dataclass(frozen=True, slots=True)
class Model:
    """One catalog entry (pi-ai's ``Model`` shape, reduced to what a request body depends on)."""

    provider: str
    id: str
    api: str
    context_window: int
    max_tokens: int
    reasoning: bool = False
    input: tuple[str, ...] = ("text",)
    base_url: str = ""
    name: str = ""
    thinking_level_map: dict[str, str | None] = field(default_factory=dict)
    thinking_budgets: dict[str, int] = field(default_factory=dict)
    compat: dict[str, Any] = field(default_factory=dict)
    #: pi-ai's ``cost`` (per million tokens: input, output, cacheRead, cacheWrite); informational
    cost: dict[str, float] = field(default_factory=dict)
    #: how the credentials are found; ``None``: not configured (§6.3)
    auth: ModelAuth | None = None

    @property
    def ref(self) -> dict[str, str]:
        """``{api, provider, id}`` as ``payloads.<api>.model`` records it."""
        return {"api": self.api, "provider": self.provider, "id": self.id}

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.id}"

    @property
    def supports_images(self) -> bool:
        return "image" in self.input

    def has_auth(self, environ: Mapping[str, str] | None = None) -> bool:
        """Whether the model's credentials are configured (§6.3): ``auth`` declared and present."""
        return self.auth is not None and self.auth.configured(environ)

    @classmethod
    def from_json(cls, entry: dict[str, Any]) -> Model:
        return cls(
            provider=entry["provider"],
            id=entry["id"],
            api=entry.get("api", ""),
            context_window=entry.get("contextWindow", 0),
            max_tokens=entry.get("maxTokens", 0),
            reasoning=bool(entry.get("reasoning", False)),
            input=tuple(entry.get("input", ["text"])),
            base_url=entry.get("baseUrl", ""),
            name=entry.get("name", ""),
            thinking_level_map=dict(entry.get("thinkingLevelMap", {})),
            thinking_budgets=dict(entry.get("thinkingBudgets", {})),
            compat=dict(entry.get("compat", {})),
            cost=dict(entry.get("cost", {})),
            auth=ModelAuth.from_json(entry.get("auth")),
        )


@dataclass(frozen=True, slots=True)
class Catalog:
    """Models by ``provider/id`` plus the default model of each API."""

    models: dict[str, Model]
    defaults: dict[str, str]

    def get(self, key: str) -> Model:
        """The model ``PROVIDER/ID``; :class:`CatalogError` ``Unknown model: …`` if absent."""
        model = self.models.get(key)
        if model is None:
            raise CatalogError(f"Unknown model: {key}")
        return model

    def default_for(self, api: str) -> Model:
        """The model a ``payloads`` entry for ``api`` uses: the declared default, else the first one."""
        key = self.defaults.get(api)
        if key is not None:
            return self.get(key)
        for model in self.models.values():
            if model.api == api:
                return model
        raise CatalogError(f"No model for API {api} in the model catalog")

    def find(self, provider: str, model_id: str) -> Model | None:
        """The model with exactly this provider and id (§1.9: no aliasing, no case folding)."""
        model = self.models.get(f"{provider}/{model_id}")
        if model is not None and model.provider == provider and model.id == model_id:
            return model
        return next((m for m in self.models.values() if m.provider == provider and m.id == model_id), None)

    def authenticated(self, environ: Mapping[str, str] | None = None) -> list[Model]:
        """The models whose credentials are configured (Pi's "available" models, §6.3)."""
        return [m for m in self.models.values() if m.has_auth(environ)]

    def merged(self, other: Catalog) -> Catalog:
        """``other``'s entries override same provider/id entries (project over user over bundled)."""
        return Catalog({**self.models, **other.models}, {**self.defaults, **other.defaults})


def catalog_from_json(doc: Any, *, source: str = "<catalog>") -> Catalog:
    """Validate a parsed catalog document against the schema and build the :class:`Catalog`."""
    import jsonschema

    from forgec.resources import schema_path

    schema = json.loads(schema_path("model-catalog").read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "(root)"
        raise CatalogError(f"{source}: {where}: {first.message}")
    models: dict[str, Model] = {}
    for entry in doc["models"]:
        model = Model.from_json(entry)
        models[model.key] = model
    defaults = dict(doc.get("defaults", {}))
    for api, key in defaults.items():
        if key not in models:
            raise CatalogError(f"{source}: defaults/{api}: Unknown model: {key}")
    return Catalog(models, defaults)


def catalog_from_models(models: Iterable[Model | dict[str, Any]], *, validate: bool = True) -> Catalog:
    """A catalog of exactly these models (pi-ai ``Model`` objects or :class:`Model`\\ s), without
    the bundled ones; for a list that repeats a provider/id, the first entry is the one found
    (pi-ai's ``models.find``).  ``validate`` checks dict entries against the schema."""
    entries = list(models)
    raw = [e for e in entries if isinstance(e, dict)]
    if validate and raw:
        catalog_from_json({"models": raw}, source="<models>")
    built: dict[str, Model] = {}
    for entry in entries:
        model = entry if isinstance(entry, Model) else Model.from_json(entry)
        held = built.get(model.key)
        if held is None:
            built[model.key] = model
        elif (held.provider, held.id) != (model.provider, model.id):  # "a/b"+"c" and "a"+"b/c": keep both
            built.setdefault(f"{model.provider}\0{model.id}", model)
    return Catalog(built, {})


def catalog_diagnostics(path: str | Path) -> tuple[Any, list[Diagnostic], SourceDocument]:
    """Read a catalog file (JSON, or YAML by its suffix) with forgec's reader and check it against
    the schema: the parsed value (``None`` when it is unusable), every problem as an FG812 (or a
    reading) diagnostic with its pointer, and the document (for positions)."""
    import jsonschema

    from forgec.resources import schema_path
    from forgec.rules.payloads import CATALOG_INVALID
    from forgec.source import read_source

    document = read_source(path)
    if not document.parsed:
        return None, [d for d in document.diagnostics if d.level == "error"], document
    schema = json.loads(schema_path("model-catalog").read_text(encoding="utf-8"))
    problems: list[Diagnostic] = []
    for error in sorted(jsonschema.Draft202012Validator(schema).iter_errors(document.data), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in error.path) or "(root)"
        problems.append(Diagnostic("error", f"{where}: {error.message}", CATALOG_INVALID, pointer=tuple(error.path), extra=True))
    data = document.data
    if not problems and isinstance(data, dict):
        known = {f"{m.get('provider')}/{m.get('id')}" for m in data.get("models", [])}
        for api, key in (data.get("defaults") or {}).items():
            if key not in known:
                problems.append(
                    Diagnostic("error", f"defaults/{api}: Unknown model: {key}", CATALOG_INVALID, pointer=("defaults", api), extra=True)
                )
    return (None if problems else data), problems, document


def load_catalog(path: str | Path, *, base: Catalog | None = None) -> Catalog:
    """Read a catalog file (JSON or YAML); its entries are merged over ``base`` (the bundled
    catalog by default).  :class:`CatalogError` names the first problem as ``path:line:col: …``."""
    from forgec.source import resolve_spans

    data, problems, document = catalog_diagnostics(path)
    if data is None:
        first = resolve_spans(problems[:1], document)[0] if problems else None
        line, column = (first.span.line, first.span.column) if first is not None and first.span else (1, 1)
        reason = first.message if first is not None else "not a model catalog"
        raise CatalogError(f"{path}:{line}:{column}: invalid model catalog: {reason}", path=str(path))
    catalog = catalog_from_json(data, source=str(path))
    return (base if base is not None else default_catalog()).merged(catalog)


@cache
def default_catalog() -> Catalog:
    """The bundled catalog with the four reference models (conformance.md *Models*).

    Read without schema validation (it is tested), so building payloads does not import jsonschema.
    """
    doc = json.loads(_BUNDLED.read_text(encoding="utf-8"))
    models = {m.key: m for m in (Model.from_json(e) for e in doc["models"])}
    return Catalog(models, dict(doc.get("defaults", {})))


def supported_thinking_levels(model: Model) -> list[str]:
    """The levels the model supports (pi-ai 0.83, §1.9), lowest first."""
    return [level for level in THINKING_LEVELS if _level_supported(model, level)]


def _level_supported(model: Model, level: str) -> bool:
    if not model.reasoning:
        return level == "off"
    mapping = model.thinking_level_map
    if level in ("xhigh", "max"):
        return mapping.get(level) is not None
    return not (level in mapping and mapping[level] is None)


def clamp_thinking_level(model: Model, level: str) -> str:
    """Pi's ``clampThinkingLevel``: the level if supported, else the nearest supported level above,
    else the nearest below; an unknown level becomes the first supported one (§1.9).

    Examples: a plain reasoning model clamps ``xhigh`` and ``max`` to ``high``; a model without
    reasoning clamps everything to ``off``; a map with ``"off": null`` clamps ``off`` to ``minimal``.
    """
    if level not in THINKING_LEVELS:
        level = "off"
    if _level_supported(model, level):
        return level
    index = THINKING_LEVELS.index(level)
    for candidate in THINKING_LEVELS[index + 1 :]:
        if _level_supported(model, candidate):
            return candidate
    for candidate in reversed(THINKING_LEVELS[:index]):
        if _level_supported(model, candidate):
            return candidate
    return "off"
