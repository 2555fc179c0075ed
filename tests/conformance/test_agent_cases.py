"""The agent-cases corpus (profiles, forge config, the delegation contract, payload redaction):
every public case, run through :func:`agent_cases.run_case`, equals its ``expected.json`` byte for byte.

The corpus is read in place from ``$FORGEC_SHARED_AGENT_CASES`` (default
``../shared/oracle/agent-cases/public``).  Every kind is implemented (``agent_kinds/profiles.py``,
``config.py``, ``contract.py``, ``redact.py``), so every case must match: a kind without its module
fails (``run_case`` raises ``NotImplementedError`` naming it), it is never skipped or expected to fail.
"""

from __future__ import annotations

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
    actual = run_case(case)
    assert actual == (case / "expected.json").read_text(encoding="utf-8")
