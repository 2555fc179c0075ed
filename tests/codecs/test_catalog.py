"""The model catalog: bundled reference models, user catalogs and schema validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.codecs.catalog import CatalogError, catalog_from_json, default_catalog, load_catalog
from forgec.emit import Prompt, build_payloads
from forgec.model import API_ORDER

BUNDLED = Path(__file__).resolve().parents[2] / "forgec" / "codecs" / "models.json"


def test_bundled_catalog_matches_the_schema_and_reference_models() -> None:
    catalog = catalog_from_json(json.loads(BUNDLED.read_text(encoding="utf-8")))
    limits = {api: (m.provider, m.id, m.context_window, m.max_tokens) for api in API_ORDER
              for m in [catalog.default_for(api)]}
    assert limits == {
        "anthropic-messages": ("anthropic", "claude-sonnet-4-5", 1000000, 64000),
        "google-generative-ai": ("google", "gemini-2.5-pro", 1048576, 65536),
        "openai-completions": ("openrouter", "google/gemini-2.5-flash", 1048576, 65535),
        "openai-responses": ("openai", "gpt-5.1", 400000, 128000),
    }
    assert all(catalog.default_for(api).reasoning and catalog.default_for(api).supports_images for api in API_ORDER)


def test_user_catalog_overrides_and_adds(tmp_path: Path) -> None:
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps(
            {
                "defaults": {"openai-completions": "acme/fast-1"},
                "models": [
                    {"provider": "acme", "id": "fast-1", "api": "openai-completions", "contextWindow": 32000,
                     "maxTokens": 2048, "compat": {"supportsDeveloperRole": False}}
                ],
            }
        ),
        encoding="utf-8",
    )
    catalog = load_catalog(path)
    assert catalog.get("anthropic/claude-sonnet-4-5") is default_catalog().get("anthropic/claude-sonnet-4-5")
    section = build_payloads(Prompt("S", [{"role": "user", "content": "hi", "timestamp": 1}], None, "high"), models=catalog)
    entry = section["openai-completions"]
    assert entry["model"] == {"api": "openai-completions", "provider": "acme", "id": "fast-1"}
    assert entry["thinkingLevel"] == "off"  # a model without reasoning supports only off
    assert entry["body"]["max_completion_tokens"] == 2048


@pytest.mark.parametrize(
    "doc",
    [
        {"models": [{"provider": "acme", "id": "m"}]},
        {"models": [{"provider": "a", "id": "m", "api": "rest", "contextWindow": 1, "maxTokens": 1}]},
        {"models": [], "defaults": {"openai-responses": "nobody/none"}},
        {"items": []},
    ],
)
def test_invalid_catalogs(doc: object, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CatalogError):
        load_catalog(path)


def test_unknown_model() -> None:
    with pytest.raises(CatalogError, match="Unknown model: openai/gpt-9"):
        default_catalog().get("openai/gpt-9")
