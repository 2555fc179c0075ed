"""The model catalog: forgec's stand-in for the Pi host's model registry (profiles-exec.md §6.2).

A request body depends on the target model's limits (output-token cap), capabilities (reasoning,
image input), thinking-level map and compatibility flags, and on its identity (whether a replayed
assistant turn is the model's *own*).  The bundled ``models.json`` lists the four reference models
that produced the corpus; users can load their own catalog, validated by
``schemas/model-catalog.schema.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from forgec.errors import InputError
from forgec.model import THINKING_LEVELS

__all__ = [
    "Catalog",
    "CatalogError",
    "Model",
    "clamp_thinking_level",
    "default_catalog",
    "load_catalog",
]

_BUNDLED: Final = Path(__file__).with_name("models.json")


class CatalogError(InputError, ValueError):
    """A catalog file that cannot be read or does not match the schema, or an unknown model."""


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

    @classmethod
    def from_json(cls, entry: dict[str, Any]) -> Model:
        return cls(
            provider=entry["provider"],
            id=entry["id"],
            api=entry["api"],
            context_window=entry["contextWindow"],
            max_tokens=entry["maxTokens"],
            reasoning=bool(entry.get("reasoning", False)),
            input=tuple(entry.get("input", ["text"])),
            base_url=entry.get("baseUrl", ""),
            name=entry.get("name", ""),
            thinking_level_map=dict(entry.get("thinkingLevelMap", {})),
            thinking_budgets=dict(entry.get("thinkingBudgets", {})),
            compat=dict(entry.get("compat", {})),
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


def load_catalog(path: str | Path, *, base: Catalog | None = None) -> Catalog:
    """Read a user catalog file; entries are merged over ``base`` (the bundled catalog by default)."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:  # path:line:col, as every other file problem is reported
        raise CatalogError(
            f"{path}:{exc.lineno}:{exc.colno}: invalid JSON in model catalog: {exc.msg}"
        ) from None
    except (OSError, ValueError) as exc:
        raise CatalogError(f"{path}: cannot read model catalog: {exc}") from None
    catalog = catalog_from_json(doc, source=str(path))
    return (base if base is not None else default_catalog()).merged(catalog)


@cache
def default_catalog() -> Catalog:
    """The bundled catalog with the four reference models (conformance.md *Models*).

    Read without schema validation (it is tested), so building payloads does not import jsonschema.
    """
    doc = json.loads(_BUNDLED.read_text(encoding="utf-8"))
    models = {m.key: m for m in (Model.from_json(e) for e in doc["models"])}
    return Catalog(models, dict(doc.get("defaults", {})))


def _level_supported(model: Model, level: str) -> bool:
    if not model.reasoning:
        return level == "off"
    mapping = model.thinking_level_map
    if level in ("xhigh", "max"):
        return mapping.get(level) is not None
    return not (level in mapping and mapping[level] is None)


def clamp_thinking_level(model: Model, level: str) -> str:
    """Pi's ``clampThinkingLevel``: the nearest supported level above, else the nearest below."""
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
