"""``forgec schema NAME --strict``: an editor flags the same typos ``forgec validate`` does.

A corpus of typo'd stacks is made from one clean stack (every key misspelt in turn, and the values
forgec warns about put out of their known set); ``check-jsonschema`` with the strict schema must
report exactly the files and JSON pointers forgec reports for unknown keys (FG150, FG310) and
unknown values (FG118 role, FG136 slot, FG311 format).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from forgec.output.strict_schema import STRICT_SCHEMAS, strict_schema
from forgec.resources import schema_path

_CLEAN = {
    "schemaVersion": 1,
    "id": "clean",
    "name": "Clean",
    "mode": "replace",
    "variables": {"focus": "tests"},
    "defaults": {"syntheticMessagesVisible": False},
    "tools": {"deny": ["write"]},
    "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "Review {{focus}}."},
        {"kind": "slot", "id": "tools", "slot": "tools", "options": {"format": "plain", "onlyWithSnippets": True}},
        {"kind": "slot", "id": "history", "slot": "chat-history", "options": {"maxMessages": 20, "toolMode": "drop"}},
    ],
    "regex": {"rules": [{"id": "trim", "stage": "compiled", "pattern": "\\s+$", "replace": ""}]},
}
_KEY_CODES = {"FG150", "FG310"}
_VALUE_CODES = {"FG118", "FG136", "FG311"}


def _swap(word: str) -> str:
    """A typo: the first two different neighbouring letters after the first swapped (``tools`` -> ``tolos``)."""
    for i in range(1, len(word) - 1):
        if word[i] != word[i + 1]:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word + "x"


def _corpus() -> dict[str, dict]:
    """name -> a stack with one mistake."""
    out: dict[str, dict] = {}
    for key in ("name", "mode", "variables", "defaults", "tools", "items"):
        doc = json.loads(json.dumps(_CLEAN))
        doc[_swap(key)] = doc.pop(key)
        out[f"stack-{key}"] = doc
    for index, item in enumerate(_CLEAN["items"]):
        for key in item:
            if key in ("kind", "id"):
                continue
            doc = json.loads(json.dumps(_CLEAN))
            doc["items"][index][_swap(key)] = doc["items"][index].pop(key)
            out[f"item{index}-{key}"] = doc
        for option in item.get("options", {}):
            doc = json.loads(json.dumps(_CLEAN))
            options = doc["items"][index]["options"]
            options[_swap(option)] = options.pop(option)
            out[f"item{index}-option-{option}"] = doc
    for name, (index, field, value) in {
        "role-case": (0, "role", "System"), "slot-underscore": (2, "slot", "chat_history"),
        "format-typo": (1, "options", {"format": "markdwn"}),
    }.items():  # fmt: skip
        doc = json.loads(json.dumps(_CLEAN))
        doc["items"][index][field] = value
        out[name] = doc
    return out


def _forgec(folder: Path) -> set[tuple[str, tuple]]:
    import forgec

    found = set()
    for reported in forgec.lint_paths([str(folder)]).files:
        for f, _ in reported.grouped():  # one finding per mistake: a missing slot's FG136 is a consequence
            if f.code in _KEY_CODES | _VALUE_CODES:
                found.add((Path(reported.result.path).name, tuple(f.diagnostic.pointer or ())))
    return found


def _path(text: str) -> tuple:
    parts: list[object] = []
    for name, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", text.removeprefix("$")):
        parts.append(int(index) if index else name)
    return tuple(parts)


def _yaml(doc: dict) -> str:
    """A block-style YAML stack, as a person writes one, with the editor's schema comment."""
    import io

    from ruamel.yaml import YAML

    out = io.StringIO()
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.dump(doc, out)
    return "# yaml-language-server: $schema=strict.json\n" + out.getvalue()


@pytest.mark.parametrize("suffix", ["json", "yaml"])
def test_check_jsonschema_flags_what_forgec_flags(tmp_path: Path, suffix: str) -> None:
    cli = shutil.which("check-jsonschema") or str(Path(sys.executable).with_name("check-jsonschema"))
    schema = tmp_path / "strict.json"
    schema.write_text(json.dumps(strict_schema("prompt-stack", json.loads(schema_path("prompt-stack").read_text()))))
    folder = tmp_path / "stacks"
    folder.mkdir()
    corpus = _corpus()
    for name, doc in corpus.items():
        text = json.dumps(doc, indent=2) if suffix == "json" else _yaml(doc)
        (folder / f"{name}.{suffix}").write_text(text, encoding="utf-8")
    done = subprocess.run([cli, "--schemafile", str(schema), "-o", "JSON", *sorted(map(str, folder.iterdir()))],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    report = json.loads(done.stdout)
    flagged = {
        (Path(e["filename"]).name, _path(e["path"]))
        for e in report["errors"]
        if e["message"].endswith("should not be valid under {}") or " is not one of " in e["message"]
    }
    expected = _forgec(folder)
    assert {name for name, _ in expected} == {f"{name}.{suffix}" for name in corpus}  # every mistake found by forgec
    assert flagged == expected


def test_the_clean_stack_and_the_examples_pass_the_strict_schema() -> None:
    validator = jsonschema.Draft202012Validator(strict_schema("prompt-stack", json.loads(schema_path("prompt-stack").read_text())))
    assert list(validator.iter_errors(_CLEAN)) == []
    from ruamel.yaml import YAML

    examples = Path(__file__).resolve().parents[2] / "examples" / ".pi" / "forge" / "prompt-stacks"
    for path in sorted(examples.glob("*.*")) if examples.is_dir() else []:
        doc = YAML(typ="safe").load(path.read_text(encoding="utf-8")) if path.suffix == ".yaml" else json.loads(path.read_text())
        assert [e.message for e in validator.iter_errors(doc)] == [], path.name


@pytest.mark.parametrize("name", sorted(STRICT_SCHEMAS))
def test_every_strict_schema_is_a_valid_schema(run, name: str) -> None:
    result = run("schema", name, "--strict")
    assert result.exit_code == 0
    jsonschema.Draft202012Validator.check_schema(json.loads(result.stdout))


def test_a_schema_without_a_strict_variant_is_a_usage_error(run) -> None:
    from forgec.cli.schema import schema_names

    others = sorted(set(schema_names()) - set(STRICT_SCHEMAS))
    if not others:
        assert run("schema", "nope", "--strict").exit_code == 2
        return
    assert run("schema", others[0], "--strict").exit_code == 2
