"""Importing a preset *into a project*: the workflow around the conversion.

The conversion is pi-forge 0.4.1's (:func:`forgec.importers.sillytavern.convert_preset`); this
module is what ``forgec import-silly`` (and any other front end: a web editor's import button) does
around it: read the preset file as Node reads it, check the stack id, pick the character, lay out
``.pi/forge/prompt-stacks/<id>.json`` and ``.pi/forge/import-reports/<id>.md`` (and forgec's
``<id>.fidelity.json``) under the project, refuse symbolic links and existing files, and write
atomically.  Every refusal is an :class:`ImportFailure` with pi-forge's text where pi-forge has one,
a forgec code, and the exit code the command ends with.

Stack ids are at most :data:`MAX_ID_LENGTH` characters: the id names three files (``<id>.json``,
``<id>.md``, ``<id>.fidelity.json``), and file systems limit a name to 255 bytes.  A longer
``stack_id`` is refused; an id derived from a very long preset file name is cut to that length.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.errors import EXIT_FAILED, EXIT_USAGE, ForgecError
from forgec.rules import importer as codes

from . import NESTED_TOO_DEEPLY, ImportResult, convert_preset

__all__ = ["MAX_ID_LENGTH", "ImportFailure", "ProjectImport", "collector_pause", "import_into_project"]

_ID_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
#: longest stack id forgec writes (``<id>.fidelity.json`` and the temporary files stay < 255 bytes)
MAX_ID_LENGTH = 200


class ImportFailure(ForgecError):
    """The preset cannot be imported: ``message`` (pi-forge's text where it has one), ``code``
    (FG9xx), ``exit_code`` (1 the preset cannot be converted or a file exists, 2 a usage or I/O
    problem) and forgec's own ``hint`` (never part of pi-forge's JSON document)."""

    def __init__(self, message: str, code: str, exit_code: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.hint = code, hint
        self.exit_code = exit_code  # type: ignore[misc]  # per instance: the same refusal has two causes


@dataclass(frozen=True, slots=True)
class ProjectImport:
    """A converted preset and where it goes: ``files`` are ``(path, text)`` in writing order."""

    result: ImportResult
    stack_path: Path
    report_path: Path
    fidelity_path: Path
    files: tuple[tuple[Path, str], ...]
    #: whether the files were written (False for a dry run)
    written: bool
    #: forgec's own warnings about the import (a stack id Windows reserves)
    warnings: tuple[str, ...] = ()
    #: False for a dry run asked not to render the files (``texts=False``): every text is empty
    rendered: bool = True

    @property
    def with_fidelity(self) -> bool:
        """Whether forgec's ``<id>.fidelity.json`` is one of the files."""
        return len(self.files) == 3


def collector_pause(preset: Path) -> AbstractContextManager[object]:
    """The cyclic collector off while a front end imports a large preset file and prints what it
    made (``LARGE_INPUT_CHARS`` bytes or more; :func:`forgec.source.collector.gc_paused`).

    The parse and the conversion pause it themselves, but each pause leaves its young containers to
    the next collection -- the parsed preset's, then the converted stack's -- which walks them
    (~0.2 ms on a 1.7 MB preset) and finds nothing.  Paused from the read until the front end has
    printed and dropped the import, everything is freed before a collection runs.  A file that
    cannot be sized gets no pause: the import reports it."""
    try:
        size = preset.stat().st_size
    except (OSError, ValueError):
        return nullcontext()
    from forgec.source.collector import LARGE_INPUT_CHARS, gc_paused

    return gc_paused(size, LARGE_INPUT_CHARS)


def _error_code(message: str) -> str:
    if message.startswith("Failed to read or parse"):
        return codes.PRESET_UNREADABLE
    if message.startswith("Preset root"):
        return codes.PRESET_ROOT
    if message.startswith("Preset has no prompts"):
        return codes.PRESET_NO_PROMPTS
    if message.startswith("Preset has no prompt_order"):
        return codes.PRESET_NO_PROMPT_ORDER
    if message.startswith("Multiple character configs"):
        return codes.PRESET_CHARACTER
    return codes.PRESET_MALFORMED


def _check_id(stack_id: str) -> None:
    if not _ID_RE.fullmatch(stack_id):
        raise ImportFailure(
            f"Invalid stack id: {stack_id} (letters, digits, _ and - only)", codes.IMPORT_BAD_CHARACTER_ID, EXIT_USAGE
        )
    if len(stack_id) > MAX_ID_LENGTH:
        raise ImportFailure(
            f"Invalid stack id: {stack_id[:40]}… is {len(stack_id)} characters long (at most {MAX_ID_LENGTH})",
            codes.IMPORT_BAD_CHARACTER_ID,
            EXIT_USAGE,
        )


def _check_no_symlinks(root: Path, targets: list[Path]) -> None:
    from forgec.atomic import symlink_on_path

    for target in targets:
        if symlink_on_path(root, target) is not None:
            raise ImportFailure(
                "pi-forge: refusing to import outside project prompt-stack storage or through a symbolic link.",
                codes.IMPORT_SYMLINK,
                EXIT_FAILED,
            )


def _is_temp(name: str) -> bool:
    """Whether ``name`` is one of :mod:`forgec.atomic`'s temporary files (not worth showing)."""
    return Path(name).name.startswith(".") and name.endswith(".tmp")


def character_ids_hint(raw: Any, token: str | None = None) -> str | None:
    """``available character ids: 100000, 100001`` from the preset's ``prompt_order``."""
    from forgec.js.values import UNDEFINED, js_string

    from .preset import member

    order = member(raw, "prompt_order") if isinstance(raw, dict) else UNDEFINED
    if not isinstance(order, list):
        return None
    ids = []
    for entry in order:
        value = member(entry, "character_id") if isinstance(entry, dict) else UNDEFINED
        if value is not UNDEFINED and value is not None:
            ids.append(js_string(value))
    if not ids:
        return None
    head = f"character id {token} is not in this preset; " if token is not None else ""
    return f"{head}available character ids: {', '.join(ids)}"


def _convert(preset: Path, token: str | None, stack_id: str | None, progress: Callable[[str, int, int], None] | None) -> tuple[ImportResult, Any]:
    from forgec.js.values import UNDEFINED

    from .jsonread import JsonParseError, read_json
    from .preset import character_id_from_token, file_name_of, member, stack_id_of

    if stack_id is None:
        derived = stack_id_of(file_name_of(str(preset)))
        if len(derived) > MAX_ID_LENGTH:
            stack_id = derived[:MAX_ID_LENGTH].rstrip("-") or "imported"
    try:
        raw = read_json(preset)
    except (OSError, JsonParseError) as exc:
        message = f"Failed to read or parse {preset}: {exc.args[0] if exc.args else exc}"
        raise ImportFailure(message, codes.PRESET_UNREADABLE, EXIT_USAGE) from None
    given: Any = UNDEFINED
    if token is not None:
        try:
            given = character_id_from_token(token, member(raw, "prompt_order"))
        except ValueError:
            raise ImportFailure(
                f"Invalid character_id: {token}", codes.IMPORT_BAD_CHARACTER_ID, EXIT_USAGE, character_ids_hint(raw)
            ) from None
    return convert_preset(raw, str(preset), str(preset), given, stack_id=stack_id, progress=progress), raw


def import_into_project(
    preset: Path,
    character: str | None = None,
    *,
    out_dir: Path | None = None,
    stack_id: str | None = None,
    dry_run: bool = False,
    overwrite: bool = False,
    fidelity_report: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
    pi_forge_report: bool = False,
    texts: bool = True,
) -> ProjectImport:
    """Convert ``preset`` and write the stack and its report under the project ``out_dir``.

    ``character`` is the CHARACTER_ID as typed (a number, or the string of a string id);
    ``stack_id`` overrides the id derived from the file name; ``fidelity_report`` also writes
    ``<id>.fidelity.json``; ``dry_run`` writes nothing.  The written ``<id>.md`` is pi-forge's report
    followed by forgec's fidelity section and next steps (:func:`fidelity_markdown`);
    ``pi_forge_report`` writes pi-forge's text alone, byte for byte.  An existing file is replaced only with
    ``overwrite`` (atomically, all files or none).  ``texts=False`` with ``dry_run`` leaves the files'
    texts empty instead of rendering them (``--format json`` prints only their paths, and the stack
    written out is a third of the command's time on a large preset); a real import always renders.
    Raises :class:`ImportFailure`.
    """
    from forgec.js.values import json_stringify
    from forgec.workspace import import_report_paths, windows_reserved_name

    if stack_id is not None:
        _check_id(stack_id)
    # pi-forge joins a relative path to the working directory with Node's ``path`` module, which
    # also normalises it lexically (``sub/../x.json`` -> ``x.json``): the report's *Source file*
    # line shows that normalised path, so forgec normalises the same way (never resolving links).
    path = preset if preset.is_absolute() else Path(os.path.normpath(Path.cwd() / preset))
    try:
        result, raw = _convert(path, character, stack_id, progress)
    except RecursionError:  # serialising values nested thousands of levels deep (forgec's own text)
        raise ImportFailure(NESTED_TOO_DEEPLY, codes.PRESET_MALFORMED, EXIT_FAILED) from None
    if result.error is not None:
        code = _error_code(result.error)
        hint = character_ids_hint(raw, character) if character is not None and code == codes.PRESET_CHARACTER else None
        raise ImportFailure(result.error, code, EXIT_FAILED, hint)
    assert result.stack is not None and result.report is not None  # the fidelity document is built when read
    root = (out_dir or Path.cwd()).absolute()
    stack_path, report_path, fidelity_path = import_report_paths(root, result.stack["id"])
    rendered = texts or not dry_run
    paths = [stack_path, report_path] + ([fidelity_path] if fidelity_report else [])
    try:
        if rendered:
            fidelity = result.fidelity
            assert fidelity is not None
            report = result.report
            if not pi_forge_report:
                import shlex

                from forgec.importers.sillytavern.fidelity import fidelity_markdown

                shown = shlex.quote(stack_path.relative_to(root).as_posix())
                report += "\n\n" + fidelity_markdown(fidelity, stack_path=shown)
            texts_of = [json_stringify(result.stack, 2) or "", report]
            if fidelity_report:
                texts_of.append(json_stringify(fidelity, 2) or "")
        else:
            texts_of = [""] * len(paths)
        files = list(zip(paths, texts_of, strict=True))
    except RecursionError:
        raise ImportFailure(NESTED_TOO_DEEPLY, codes.PRESET_MALFORMED, EXIT_FAILED) from None
    _check_no_symlinks(root, [p for p, _ in files])
    if not dry_run:
        _write(files, overwrite=overwrite, stack_path=stack_path)
    warnings: tuple[str, ...] = ()
    if windows_reserved_name(result.stack["id"]):
        warnings = (
            f'the stack id "{result.stack["id"]}" is a device name on Windows: a repository holding '
            f"{stack_path.name} cannot be checked out there (pass --id to choose another) [FG152]",
        )
    return ProjectImport(result, stack_path, report_path, fidelity_path, tuple(files), not dry_run, warnings, rendered)


def _write(files: list[tuple[Path, str]], *, overwrite: bool, stack_path: Path) -> None:
    """All files atomically, or none; an existing one only with ``overwrite``."""
    from forgec.atomic import ExistingFilesError, existing, write_files

    found = existing([p for p, _ in files])
    if found and not overwrite:
        joined = ", ".join(str(p) for p in found)
        raise ImportFailure(
            f"pi-forge: import would overwrite existing file(s): {joined}. Re-run with --overwrite.",
            codes.IMPORT_WOULD_OVERWRITE,
            EXIT_FAILED,
        )
    try:
        write_files(files, overwrite=overwrite)
    except ExistingFilesError as exc:  # created by someone else meanwhile
        raise ImportFailure(
            f"pi-forge: import would overwrite existing file(s): {exc}. Re-run with --overwrite.",
            codes.IMPORT_WOULD_OVERWRITE,
            EXIT_FAILED,
        ) from None
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) and not _is_temp(exc.filename) else None
        raise ImportFailure(
            f"cannot write {where or str(stack_path.parent)}: {exc.strerror or exc}", codes.IMPORT_WOULD_OVERWRITE, EXIT_USAGE
        ) from None
