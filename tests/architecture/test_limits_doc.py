"""docs/limits.md names, for every limit, the test that proves it: each named test must exist.

A row may name ``tests/x.py::test_name``, a bare file ``tests/x.py`` (every test in it), or continue
with ``::test_other`` in the same cell (same file), so the page cannot point at a test that was
renamed or removed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "limits.md"
_REF = re.compile(r"`(tests/[\w/]+\.py)?((?:::\w+)?)`")


def _references() -> list[tuple[str, str]]:
    refs: list[tuple[str, str]] = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        for cell in line.split("|"):
            current = ""
            for path, name in _REF.findall(cell):
                current = path or current
                if current:
                    refs.append((current, name.removeprefix("::")))
    return refs


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_limits_page_names_exists() -> None:
    refs = _references()
    assert len(refs) >= 20
    missing = []
    for path, name in refs:
        file = ROOT / path
        if not file.is_file():
            missing.append(path)
        elif name and name not in _tests_in(file):
            missing.append(f"{path}::{name}")
    assert not missing, missing
