"""The pytest plugin: ``forgec_compile`` and ``prompt_snapshot`` fixtures.

Usage in a test file::

    def test_reviewer(forgec_compile, prompt_snapshot):
        assert forgec_compile("stacks/reviewer.json", context="ctx.yaml") == prompt_snapshot

Paths are relative to the test file, so a test suite can be run from any directory.  Custom
macros and slots of installed plugins are used only when the test trusts them::

    forgec_compile("stacks/status.json", trust_plugins=True)         # every installed plugin
    forgec_compile("stacks/status.json", trust_plugins=["acme"])     # these entry-point names
    forgec_compile("stacks/status.json", registry=my_registry)       # a Registry built by the test

A trusted plugin that fails to load fails the test (its output would silently lack the plugin).
So does a stack file that is missing or has loader errors (pi-forge would compile its fallback stack,
and a golden file of that checks nothing) — pass ``allow_errors=True`` to snapshot such a stack on
purpose — and a ``target`` that is not one of the four provider APIs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from forgec.environment import Environment
    from forgec.plugins import Registry


@pytest.fixture
def forgec_compile(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Compile a stack file; returns the compile report, or the request body when ``target`` is given."""
    base = Path(str(request.path)).parent

    def compile_(stack: str | Path, context: str | Path | None = None, target: str | None = None,
                 model: str | None = None, *, trust_plugins: bool | Iterable[str] = False,
                 registry: Registry | None = None, allow_errors: bool = False) -> Any:
        from forgec.codecs.context import ContextError
        from forgec.errors import InputError
        from forgec.snapshots import SnapshotError, compile_for_snapshot

        stack_path = base / stack
        context_path = base / context if context is not None else None
        env = _environment(trust_plugins, registry)
        # The failure is raised outside the ``except`` blocks so pytest shows only forgec's message,
        # not the internal exception it replaces ("During handling of the above exception…").
        try:
            return compile_for_snapshot(
                stack_path, context_path, target=target, model=model, env=env,
                require_usable=not allow_errors,
            )
        except SnapshotError as exc:
            message = f"forgec_compile: {exc}"
        except ContextError as exc:  # every problem, one ``path:line:col: FG011 [error] …`` line each
            message = "forgec_compile: the context file cannot be used:\n" + _context_lines(exc)
        except InputError as exc:  # a stack file that cannot be read
            message = f"forgec_compile: {exc}"
        pytest.fail(message, pytrace=False)

    return compile_


def _context_lines(exc: Any) -> str:
    from forgec.diagnostics.findings import Finding
    from forgec.output.concise import format_finding

    return "\n".join(format_finding(exc.path or "<context>", Finding(d, d.level)) for d in exc.problems)


def _environment(trust: bool | Iterable[str], registry: Registry | None) -> Environment | None:
    """The test's environment: its own ``registry``, or the plugins it trusts (None: no plugins).

    A trusted plugin that is missing or fails to load fails the test: its output would silently
    lack the plugin's macros and slots.
    """
    from forgec.environment import Environment
    from forgec.plugins import setup_plugins

    if registry is not None:
        return Environment.create(registry=registry)
    if trust is False:
        return None
    names: Iterable[str] = () if isinstance(trust, bool) else [trust] if isinstance(trust, str) else trust
    setup = setup_plugins(trust_all=trust is True, trusted=names)
    problems = [d.message for d in setup.diagnostics if d.level != "info"]
    if problems:
        pytest.fail("forgec_compile: " + "; ".join(problems), pytrace=False)
    return Environment(plugins=setup)


@pytest.fixture
def prompt_snapshot(snapshot: Any) -> Any:
    """syrupy's ``snapshot`` bound to forgec's readable golden-file extension."""
    from forgec.testing.syrupy_ext import PromptSnapshotExtension

    return snapshot.use_extension(PromptSnapshotExtension)
