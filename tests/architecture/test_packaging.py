"""The wheel carries the top-level ``schemas/`` and ``grammar/`` folders (issue: foundation).

CI installs the project with ``pip install .`` (a built wheel, not an editable install), so these
tests check the real artefact there; in an editable development install they are skipped, because
the data is read from the checkout instead.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

import forgec
from forgec.resources import data_dir, grammar_path, schema_path

REPO = Path(__file__).resolve().parents[2]


def _editable() -> bool:
    dist = metadata.distribution("forgec")
    direct = dist.read_text("direct_url.json")
    return bool(direct and json.loads(direct).get("dir_info", {}).get("editable"))


@pytest.mark.skipif(_editable(), reason="editable install: data is read from the checkout")
def test_the_installed_wheel_contains_every_schema_and_grammar() -> None:
    files = {str(f) for f in metadata.files("forgec") or []}
    for folder in ("schemas", "grammar"):
        for source in sorted((REPO / folder).iterdir()):
            if source.name.startswith("."):
                continue
            assert f"forgec/_data/{folder}/{source.name}" in files, source.name
    installed = Path(forgec.__file__).resolve().parent
    assert data_dir("schemas") == installed / "_data" / "schemas"


def test_bundled_resources_are_readable() -> None:
    schema = json.loads(schema_path("prompt-stack").read_text(encoding="utf-8"))
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert "macro" in grammar_path("macros").read_text(encoding="utf-8")


@pytest.mark.skipif(_editable(), reason="editable install: data is read from the checkout")
def test_the_installed_wheel_contains_the_web_editors_assets() -> None:
    files = {str(f) for f in metadata.files("forgec") or []}
    for source in sorted((REPO / "forgec" / "web" / "static").iterdir()):
        assert f"forgec/web/static/{source.name}" in files, source.name
