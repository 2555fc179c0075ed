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


_YAML = """# a project catalog
models:
  - provider: acme
    id: fast-1
    api: openai-completions
    contextWindow: 32000
    maxTokens: 2048
"""


def test_a_yaml_catalog_reads_like_json(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(_YAML, encoding="utf-8")
    model = load_catalog(path).get("acme/fast-1")
    assert (model.api, model.context_window, model.max_tokens) == ("openai-completions", 32000, 2048)


def test_catalog_diagnostics_point_into_yaml(tmp_path: Path) -> None:
    from forgec.codecs.catalog import catalog_diagnostics
    from forgec.source import resolve_spans

    path = tmp_path / "models.yaml"
    path.write_text(_YAML.replace("maxTokens: 2048", "maxTokens: lots"), encoding="utf-8")
    data, problems, document = catalog_diagnostics(path)
    assert data is None
    [problem] = resolve_spans(problems, document)
    assert (problem.code, problem.message) == ("FG812", "models/0/maxTokens: 'lots' is not of type 'integer'")
    assert problem.span is not None and (problem.span.line, problem.span.column) == (7, 16)
    with pytest.raises(CatalogError, match=r"models\.yaml:7:16: invalid model catalog: models/0/maxTokens"):
        load_catalog(path)


def test_environment_layers_user_then_project_then_models_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """§6.2: later layers override the same provider/id; every layer's other models stay."""
    from forgec.environment import Environment

    def catalog(path: Path, window: int, extra: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        models = [{"provider": "acme", "id": "fast-1", "api": "openai-completions", "contextWindow": window, "maxTokens": 1},
                  {"provider": "acme", "id": extra, "api": "openai-completions", "contextWindow": 1, "maxTokens": 1}]
        path.write_text(json.dumps({"models": models}), encoding="utf-8")

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    catalog(tmp_path / "xdg" / "forgec" / "models.json", 1000, "from-user")
    project = tmp_path / "project"
    (project / ".pi" / "forge" / "prompt-stacks").mkdir(parents=True)
    catalog(project / ".pi" / "forge" / "models.json", 2000, "from-project")
    env = Environment.discover(project)
    assert [p.name for p in env.catalog_files] == ["models.json", "models.json"]
    assert env.catalog.get("acme/fast-1").context_window == 2000
    assert {env.catalog.get(f"acme/{name}").id for name in ("from-user", "from-project")} == {"from-user", "from-project"}
    catalog(tmp_path / "cli.json", 3000, "from-cli")
    env = Environment.discover(project, models_file=tmp_path / "cli.json")
    assert env.catalog.get("acme/fast-1").context_window == 3000
    assert env.catalog.get("acme/from-user").id == "from-user"
