"""The pytest plugin: ``forgec_compile`` and ``prompt_snapshot`` fixtures.

Usage in a test file::

    def test_reviewer(forgec_compile, prompt_snapshot):
        assert forgec_compile("stacks/reviewer.json", context="ctx.yaml") == prompt_snapshot

Paths are relative to the test file, so a test suite can be run from any directory.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def forgec_compile(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Compile a stack file; returns the compile report, or the request body when ``target`` is given."""
    base = Path(str(request.path)).parent

    def compile_(stack: str | Path, context: str | Path | None = None, target: str | None = None,
                 model: str | None = None) -> Any:
        from forgec.snapshots import compile_for_snapshot

        stack_path = base / stack
        context_path = base / context if context is not None else None
        return compile_for_snapshot(stack_path, context_path, target=target, model=model)

    return compile_


@pytest.fixture
def prompt_snapshot(snapshot: Any) -> Any:
    """syrupy's ``snapshot`` bound to forgec's readable golden-file extension."""
    from forgec.testing.syrupy_ext import PromptSnapshotExtension

    return snapshot.use_extension(PromptSnapshotExtension)
