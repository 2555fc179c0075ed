"""Shared helpers for the conformance tests: finding cases and laying them out like the reference.

Import them in a test module of this folder with ``from conformance_helpers import stack_cases, ...``:
pytest loads this conftest before the folder's test modules, and it registers itself under that
unambiguous name (several test folders have a ``conftest.py``).  Kept deliberately small:

* :data:`CASES` — ``tests/conformance/cases``; :func:`shared_cases_dir` — the licence-restricted
  ``fixture-*`` cases (``$FORGEC_SHARED_CASES``, default ``../shared/oracle/cases/public``);
* :func:`stack_cases` / :func:`preset_cases` — case folders holding ``stack.json`` / ``preset.json``;
* :func:`case_meta`, :func:`load_expected` — ``case.json`` and ``expected.json`` as data;
* :func:`lay_out_case` — conformance.md *How a case is run* step 2: the stack file written as
  ``<project>/.pi/forge/prompt-stacks/<stackFile>`` next to ``extra-stacks/*.json``;
* :func:`mask_engine_text` — replaces the engine-generated tails that conformance tolerates.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

sys.modules.setdefault("conformance_helpers", sys.modules[__name__])

CASES = Path(__file__).resolve().parent / "cases"
REPO = Path(__file__).resolve().parents[2]


def shared_cases_dir() -> Path:
    """Folder of the full public corpus, including the ``fixture-*`` import cases."""
    return Path(os.environ.get("FORGEC_SHARED_CASES", REPO.parent / "shared" / "oracle" / "cases" / "public"))


def stack_cases(root: Path = CASES) -> list[Path]:
    """Case folders with a ``stack.json``, sorted by name."""
    return sorted(p for p in root.iterdir() if (p / "stack.json").is_file()) if root.is_dir() else []


def preset_cases(root: Path = CASES) -> list[Path]:
    """Case folders with a ``preset.json`` (SillyTavern import cases), sorted by name."""
    return sorted(p for p in root.iterdir() if (p / "preset.json").is_file()) if root.is_dir() else []


def case_meta(case: Path) -> dict[str, Any]:
    """``case.json``."""
    return json.loads((case / "case.json").read_text(encoding="utf-8"))


def load_expected(case: Path) -> dict[str, Any]:
    """``expected.json`` as data."""
    return json.loads((case / "expected.json").read_text(encoding="utf-8"))


def stack_file_name(case: Path) -> str:
    """The name the main stack file gets in the project (``case.json`` ``stackFile``, default ``stack.json``)."""
    return case_meta(case).get("stackFile", "stack.json")


def lay_out_case(case: Path, project: Path) -> Path:
    """Write the case's stack files where the reference runner puts them; returns the main file."""
    folder = project / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True, exist_ok=True)
    extra = case / "extra-stacks"
    if extra.is_dir():
        for file in sorted(extra.glob("*.json")):
            shutil.copyfile(file, folder / file.name)
    target = folder / stack_file_name(case)
    shutil.copyfile(case / "stack.json", target)
    return target


_ENGINE_PREFIXES = (
    re.compile(r"^(Failed to parse JSON: ).*$", re.S),
    re.compile(r"^(.* pattern failed to compile: ).*$", re.S),
    re.compile(r"^(Regex rule .* failed to compile: ).*$", re.S),
)


def mask_engine_text(value: Any, *, regex: bool = True) -> Any:
    """A copy of ``value`` where the engine-specific tail of each diagnostic message is ``<engine text>``
    (conformance.md *Engine-specific text*); ``regex=False`` masks only ``Failed to parse JSON``."""
    patterns = _ENGINE_PREFIXES if regex else _ENGINE_PREFIXES[:1]
    if isinstance(value, dict):
        out = {k: mask_engine_text(v, regex=regex) for k, v in value.items()}
        message = out.get("message")
        if isinstance(message, str) and "level" in out:
            for pattern in patterns:
                message = pattern.sub(r"\1<engine text>", message)
            out["message"] = message
        return out
    if isinstance(value, list):
        return [mask_engine_text(v, regex=regex) for v in value]
    return value
