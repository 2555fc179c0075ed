"""The strict editor schemas: ``forgec schema NAME --strict``.

The bundled schemas are *permissive*: a file pi-forge loads without an error validates, so CI can
use them as a gate.  That makes them poor editor schemas -- pi-forge silently drops an unknown
field, so ``contnet`` validates.  The strict variant rejects what forgec *warns* about, at the same
JSON pointer as forgec's finding, so yaml-language-server or VS Code underline the same typos
``forgec validate`` reports:

* an unknown key (FG150 ``unknown-field``, FG310 ``unknown-slot-option``) fails *at the key's
  path* -- ``additionalProperties: {"not": {}}`` rather than ``false``, whose error a validator
  reports at the parent object -- with the rule's summary as the description;
* a value that is one of a known set (a slot name, a ``format``) loses the schema's lenient
  ``anyOf`` alternative, so only the known values validate (FG136, FG311).

The strict schema is generated from the permissive one and the rule registry, never kept by hand,
so the two cannot drift.
"""

from __future__ import annotations

import copy
from typing import Any

from forgec.model import ITEM_FIELDS, STACK_FIELDS
from forgec.rules import rule_for

__all__ = ["STRICT_SCHEMAS", "strict_schema"]

#: the schemas that have a strict variant, and the rule an unknown key of each is reported by
STRICT_SCHEMAS: dict[str, str] = {
    "prompt-stack": "FG150",
    "agent-profile": "FG501",
    "forge-config": "FG580",
    "context": "FG011",
    "model-catalog": "FG812",
}
_FREE_KEYS = ("$schema", "$comment")


def _unknown(code: str, where: str) -> dict[str, Any]:
    """The schema of a key that should not be there; ``errorMessage`` is what VS Code and
    yaml-language-server show instead of the validator's own words."""
    rule = rule_for(code)
    text = f"{rule.code} {rule.name}: {where} is not one pi-forge reads; it is ignored."
    return {"not": {}, "description": f"{text} {rule.summary}", "errorMessage": text}


def _strict_enums(node: Any) -> Any:
    """``anyOf: [{"enum": …}, {}]`` (a suggestion list that accepts anything) becomes the enum."""
    if isinstance(node, list):
        return [_strict_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict_enums(value) for key, value in node.items()}
    alternatives = out.get("anyOf")
    if isinstance(alternatives, list) and len(alternatives) == 2:
        enums = [a for a in alternatives if isinstance(a, dict) and "enum" in a]
        loose = [a for a in alternatives if isinstance(a, dict) and set(a) <= {"type"} and a.get("type", "string") == "string"]
        if len(enums) == 1 and len(loose) == 1:
            del out["anyOf"]
            out["enum"] = enums[0]["enum"]
    return out


def _close(node: dict[str, Any], code: str, where: str, known: tuple[str, ...] = ()) -> None:
    """Reject the keys of object schema ``node`` that are not in its ``properties`` (nor ``known``)."""
    properties = node.setdefault("properties", {})
    for key in (*known, *_FREE_KEYS):
        properties.setdefault(key, True)
    if node.get("additionalProperties") is None or node.get("additionalProperties") is True:
        node["additionalProperties"] = _unknown(code, where)


def _stack(schema: dict[str, Any]) -> dict[str, Any]:
    _close(schema, "FG150", "This stack field", STACK_FIELDS)
    items = schema["properties"]["items"]["items"]
    _close(items, "FG150", "This item field", ITEM_FIELDS)
    for branch in items.get("allOf", []):
        for side in ("then", "else"):
            for case in branch.get(side, {}).get("allOf", []):
                options = case.get("then", {}).get("properties", {}).get("options")
                if isinstance(options, dict) and options.get("type") == "object":
                    _close(options, "FG310", "This slot option")
    return schema


def _objects(node: Any, code: str) -> None:
    """Every object schema with ``properties`` rejects other keys (the other schemas' strictness)."""
    if isinstance(node, list):
        for item in node:
            _objects(item, code)
        return
    if not isinstance(node, dict):
        return
    if "properties" in node and node.get("type") in ("object", None) and "additionalProperties" not in node:
        _close(node, code, "This field")
    for key, value in node.items():
        if key != "properties":
            _objects(value, code)
        else:
            for child in value.values():
                _objects(child, code)


def strict_schema(name: str, permissive: dict[str, Any]) -> dict[str, Any]:
    """The strict variant of the bundled schema ``name`` (``permissive`` is its parsed text)."""
    schema: dict[str, Any] = _strict_enums(copy.deepcopy(permissive))
    schema["$id"] = str(schema.get("$id", name)).replace(".schema.json", ".strict.schema.json")
    schema["title"] = f"{schema.get('title', name)} (strict: forgec's warnings as errors)"
    if name == "prompt-stack":
        return _stack(schema)
    _objects(schema, STRICT_SCHEMAS[name])
    return schema
