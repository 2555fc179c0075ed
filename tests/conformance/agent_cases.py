"""Run one case of ``../shared/oracle/agent-cases`` through forgec's public API (its README, *How a
case is run*) and return the canonical text of the case's document -- what ``expected.json`` holds.

``run_case(case_dir)`` works for any case folder (inside the repository or not) with forgec
installed: it lays out ``project/`` and ``global/`` in temporary folders byte for byte, decodes the
``$special`` values and ``<project>``/``<global>`` paths of ``input.json``, freezes the clock at
``case.now``, runs the kind (``tests/conformance/agent_kinds/<kind>.py``), and writes the result as
the reference writes it: a JSON round trip (``undefined`` members vanish, ``-0`` is ``0``,
NaN/Infinity are ``null``), the two real folders replaced by ``<project>`` and ``<global>``
everywhere (keys included), ``"kind"`` added, keys sorted, two-space indentation, non-ASCII raw,
numbers as JavaScript prints them.  A kind forgec does not implement yet raises
``NotImplementedError`` naming it; the test reports it, never skips it silently.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.js.values import HOLE, UNDEFINED, JSBigInt, JSNonPlainObject, dumps_report, json_stringify

__all__ = ["AgentCase", "decode_special", "run_case"]

DEFAULT_NOW = "2026-01-01T00:00:00.000Z"
KINDS = ("profiles", "config", "contract", "redact")


@dataclass(frozen=True)
class AgentCase:
    """One laid-out case: its metadata, the decoded input, and the two temporary folders."""

    folder: Path
    meta: dict[str, Any]
    input: Any
    project: Path
    global_dir: Path
    now: str


def decode_special(value: Any, project: Path, global_dir: Path) -> Any:
    """``input.json`` as the reference's JavaScript sees it: ``{"$special": …}`` values become
    forgec's stand-ins for JavaScript values JSON cannot hold, ``<project>``/``<global>`` prefixes
    become the real folders."""
    if isinstance(value, str):
        for marker, real in (("<project>", project), ("<global>", global_dir)):
            if value.startswith(marker):
                return str(real) + value[len(marker) :]
        return value
    if isinstance(value, list):
        return [decode_special(v, project, global_dir) for v in value]
    if not isinstance(value, dict):
        return value
    special = value.get("$special")
    if special is None:
        return {k: decode_special(v, project, global_dir) for k, v in value.items()}
    match special:
        case "undefined":
            return UNDEFINED
        case "NaN":
            return math.nan
        case "Infinity":
            return math.inf
        case "-Infinity":
            return -math.inf
        case "-0":
            return -0.0
        case "bigint":
            return JSBigInt(int(value["value"]))
        case "date":
            return JSNonPlainObject("Date", value["value"])
        case "map":
            return JSNonPlainObject("Map")
        case "function":
            return lambda *args: None
        case "repeat":
            return value["text"] * value["count"]
        case "array":
            item = decode_special(value["item"], project, global_dir)
            return [item for _ in range(value["count"])]  # the same value N times, as JS's fill does
        case "sparse":
            items = [HOLE] * value["length"]
            for index, item in value["items"].items():
                items[int(index)] = decode_special(item, project, global_dir)
            return items
        case "cyclic":
            target = decode_special(value["value"], project, global_dir)
            target[value["key"]] = target
            return target
        case "nullProto":
            return decode_special(value["value"], project, global_dir)
    raise ValueError(f"unknown $special value: {special}")


def _copy_tree(source: Path, target: Path) -> None:
    """Copy a case's files byte for byte (several are deliberately not JSON)."""
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True, symlinks=True)


def _replace_paths(value: Any, replacements: list[tuple[str, str]]) -> Any:
    if isinstance(value, str):
        for real, marker in replacements:
            value = value.replace(real, marker)
        return value
    if isinstance(value, list):
        return [_replace_paths(v, replacements) for v in value]
    if isinstance(value, dict):
        return {_replace_paths(k, replacements): _replace_paths(v, replacements) for k, v in value.items()}
    return value


def canonical_document(result: dict[str, Any], kind: str, project: Path, global_dir: Path) -> str:
    """The reference's output writer (README step 4)."""
    text = json_stringify(result)
    assert text is not None
    doc = json.loads(text)
    replacements = []
    for real, marker in ((project, "<project>"), (global_dir, "<global>")):
        for spelling in {str(real), os.path.realpath(real)}:
            replacements.append((spelling, marker))
    replacements.sort(key=lambda pair: -len(pair[0]))  # the longer spelling first
    doc = _replace_paths(doc, replacements)
    doc["kind"] = kind
    return dumps_report(doc)


def _kind_runner(kind: str) -> Any:
    """``agent_kinds/<kind>.py``'s ``run(case) -> dict``, loaded by path (no package needed)."""
    path = Path(__file__).with_name("agent_kinds") / f"{kind}.py"
    if not path.is_file():
        raise NotImplementedError(f"forgec does not implement agent-case kind {kind!r} yet")
    name = f"forgec_agent_kind_{kind}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.run


@contextmanager
def laid_out(case_dir: Path) -> Iterator[AgentCase]:
    """README step 1-3: temporary project and global folders with the case's files, the input decoded."""
    meta = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="forgec-agent-case-") as tmp:
        project, global_dir = Path(tmp) / "project", Path(tmp) / "global"
        project.mkdir()
        global_dir.mkdir()
        _copy_tree(case_dir / "project", project)
        _copy_tree(case_dir / "global", global_dir)
        raw = json.loads((case_dir / "input.json").read_text(encoding="utf-8"))
        decoded = decode_special(raw, project, global_dir)
        yield AgentCase(case_dir, meta, decoded, project, global_dir, meta.get("now", DEFAULT_NOW))


def run_case(case_dir: Path) -> str:
    """The canonical text of ``case_dir``'s document as forgec produces it (see the module docstring)."""
    case_dir = Path(case_dir).resolve()
    kind = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))["kind"]
    if kind not in KINDS:
        raise ValueError(f"unknown agent-case kind {kind!r} in {case_dir}")
    runner = _kind_runner(kind)
    with laid_out(case_dir) as case:
        result = runner(case)
        return canonical_document(result, kind, case.project, case.global_dir)


if __name__ == "__main__":  # python tests/conformance/agent_cases.py CASE_DIR [...]: print or diff
    for argument in sys.argv[1:]:
        folder = Path(argument)
        actual = run_case(folder)
        expected = (folder / "expected.json").read_text(encoding="utf-8")
        print(f"{'ok  ' if actual == expected else 'DIFF'} {folder.name}")
