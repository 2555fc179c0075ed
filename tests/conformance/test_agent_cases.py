"""The agent-cases corpus (profiles, forge config, the delegation contract, payload redaction):
every public case, run through :func:`agent_cases.run_case`, equals its ``expected.json`` byte for byte.

The corpus is read in place from ``$FORGEC_SHARED_AGENT_CASES`` (default
``../shared/oracle/agent-cases/public``).  A case of a kind forgec does not implement yet is an
expected failure that names the kind (docs/compatibility.md lists them), never a silent skip.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .agent_cases import run_case

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORGEC_SHARED_AGENT_CASES", REPO.parent / "shared" / "oracle" / "agent-cases" / "public"))
CASES = sorted(p for p in CORPUS.iterdir() if (p / "case.json").is_file()) if CORPUS.is_dir() else []


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 60, f"agent-cases corpus not found at {CORPUS}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_agent_case_matches_the_reference(case: Path) -> None:
    try:
        actual = run_case(case)
    except NotImplementedError as exc:
        kind = json.loads((case / "case.json").read_text(encoding="utf-8"))["kind"]
        pytest.xfail(f"{kind}: {exc}")
    assert actual == (case / "expected.json").read_text(encoding="utf-8")
