"""Golden files without pytest: ``forgec snapshot check|update``.

Each stack ``<dir>/<name>`` gets the golden file ``<dir>/__golden__/<name>.prompt.md`` — in a
subfolder, because pi-forge loads every ``*.json`` file of a stack folder and must not see anything
but stacks there.  The format is the one the pytest plugin writes (:mod:`forgec.output.golden`), so a team can
move between the two.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.errors import InputError
from forgec.output.golden import diff_golden, render_golden

if TYPE_CHECKING:
    from forgec.batch import Batch
    from forgec.diagnostics import Diagnostic
    from forgec.environment import Environment
    from forgec.report import CompileResult

GOLDEN_DIR = "__golden__"
GOLDEN_SUFFIX = ".prompt.md"
_CONTEXT_NOTE = re.compile(r"^<!-- context: (.+) -->$", re.MULTILINE)


def compile_for_snapshot(
    stack: Path,
    context: Path | None,
    *,
    target: str | None = None,
    model: str | None = None,
    env: Environment | None = None,
    require_usable: bool = False,
) -> Any:
    """The compile report of ``stack`` (or its request body for ``target``), ready to snapshot.

    ``env``: the run's environment (trusted plugins' custom macros and slots).
    ``require_usable``: raise :class:`SnapshotError` for a missing stack file or one with loader
    errors, instead of snapshotting pi-forge's fallback stack (a typo in a test path must not give a
    green test that checks nothing).
    """
    result = _compile(stack, context, target=target, env=env, require_usable=require_usable)
    if target is None:
        return result.to_report()
    from forgec.codecs.catalog import CatalogError, default_catalog
    from forgec.emit import PayloadError, emit_body

    try:
        return emit_body(target, result.request_prompt(), model)
    except PayloadError as exc:
        raise SnapshotError(f"{stack}: pi-ai would fail to build the {target} request: {exc}") from None
    except CatalogError as exc:  # an unknown ``model`` (or one of another API): a test's typo
        known = "" if "API" in str(exc) else "; known models: " + ", ".join(sorted(default_catalog().models))
        raise SnapshotError(f"{exc}{known}") from None


def _compile(
    stack: Path,
    context: Path | None,
    *,
    target: str | None,
    env: Environment | None,
    require_usable: bool,
    batch: Batch | None = None,
) -> CompileResult:
    from forgec.model import API_ORDER
    from forgec.report import compile_report

    if target is not None and target not in API_ORDER:
        raise SnapshotError(f"unknown target {target!r}; choose one of {', '.join(API_ORDER)}")
    if require_usable and not Path(stack).is_file():
        raise SnapshotError(f"{stack}: no such stack file")
    result = batch.compile(stack, context) if batch is not None else compile_report(stack, context, env=env)
    if require_usable and not result.loaded.usable:
        errors = [d.message for d in result.loaded.diagnostics if d.level == "error"]
        raise SnapshotError(f"{stack}: the stack has loader errors: " + "; ".join(errors))
    return result


def golden_path(stack: Path) -> Path:
    """Where the golden file of ``stack`` lives."""
    return stack.parent / GOLDEN_DIR / (stack.name + GOLDEN_SUFFIX)


class SnapshotError(InputError):
    """A golden file or its inputs cannot be used; the message is for the user."""


@dataclass(slots=True)
class SnapshotResult:
    """The outcome for one stack.

    ``status`` is ``same``, ``changed``, ``missing``, ``written`` or ``unusable`` (the loader reported
    errors: a golden file of a broken stack would only freeze the breakage, so none is compared or
    written; ``errors`` lists them, each with its position in the stack file).
    """

    stack: Path
    golden: Path
    status: str
    diff: list[str] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    context: Path | None = None
    #: the rendered golden text (what ``update`` writes)
    text: str = field(default="", repr=False)


def _read_golden(golden: Path) -> str | None:
    try:
        return golden.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SnapshotError(f"{golden}: is a folder, not a golden file") from None
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"{golden}: not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise SnapshotError(f"{golden}: cannot be read: {exc.strerror or exc}") from None


def recorded_context(golden: Path, text: str | None) -> Path | None:
    """The context a golden file was written with (``<!-- context: … -->``), resolved from its folder."""
    if not text:
        return None
    match = _CONTEXT_NOTE.search(text)
    if match is None:
        return None
    path = (golden.parent / match.group(1)).resolve()
    if not path.is_file():
        raise SnapshotError(
            f"{golden}: was written with the context {match.group(1)}, which does not exist "
            "(pass --context, or run `forgec snapshot update --context FILE`)"
        )
    return path


def _render(
    stack: Path, context: Path | None, golden: Path, env: Environment | None, batch: Batch | None = None
) -> tuple[str, list[Diagnostic]]:
    """The golden text of one stack, and the loader's errors (empty when the stack is usable)."""
    from forgec.source import resolve_spans

    result = _compile(stack, context, target=None, env=env, require_usable=False, batch=batch)
    if not result.loaded.usable:
        errors = [d for d in result.loaded.diagnostics if d.level == "error"]
        return "", resolve_spans(errors, result.loaded.document)
    notes: list[str] = []
    if context is not None:
        relative = os.path.relpath(context.resolve(), golden.parent.resolve()).replace(os.sep, "/")
        notes.append(f"context: {relative}")
    title = stack.name + (f" with {context.name}" if context else " with the built-in sample context")
    return render_golden(result.to_report(), title=title, notes=notes), []


def check(
    stack: Path, context: Path | None = None, *, env: Environment | None = None, batch: Batch | None = None
) -> SnapshotResult:
    """Compare a stack's compile output with its golden file.

    Without ``context``, the context the golden file records is used (so ``check`` compiles with
    what ``update`` used); with neither, forgec's built-in sample context.  ``batch``: the run's
    :class:`~forgec.batch.Batch` (built on ``env``), so each context file is read once per run.
    """
    golden = golden_path(stack)
    expected = _read_golden(golden)
    context = context or recorded_context(golden, expected)
    actual, errors = _render(stack, context, golden, env, batch)
    if errors:
        return SnapshotResult(stack, golden, "unusable", errors=errors, context=context)
    if expected is None:
        return SnapshotResult(stack, golden, "missing", context=context, text=actual)
    if expected == actual:
        return SnapshotResult(stack, golden, "same", context=context, text=actual)
    return SnapshotResult(stack, golden, "changed", diff_golden(expected, actual), context=context, text=actual)


def update(
    stack: Path, context: Path | None = None, *, env: Environment | None = None, batch: Batch | None = None
) -> SnapshotResult:
    """Write (atomically) the golden file when it is missing or different."""
    result = check(stack, context, env=env, batch=batch)
    if result.status not in ("missing", "changed"):
        return result
    from forgec.atomic import symlink_on_path, write_text_atomic

    link = symlink_on_path(stack.parent, result.golden)
    if link is not None:  # a __golden__ link could point anywhere: never write through it
        raise SnapshotError(f"{result.golden}: refusing to write through the symbolic link {link}")
    try:
        write_text_atomic(result.golden, result.text, overwrite=True)
    except OSError as exc:
        raise SnapshotError(f"{result.golden}: cannot be written: {exc.strerror or exc}") from None
    result.status = "written"
    return result
