"""SillyTavern chat-completion preset -> pi-forge prompt stack, as pi-forge 0.4.1 converts it.

Entry point: :func:`import_preset`.  The pipeline order matters because it decides which problem a
malformed preset reports first (import-regex.md C3 and E3): root check, regex summary, ``prompts``
length, character selection, prompt map, order walk, macro detection, item conversion, report.
The library never raises on bad input: failures come back as ``ImportResult.error``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from forgec.errors import InputError
from forgec.js.clock import iso_timestamp
from forgec.js.clock import now_ms as now_ms_default
from forgec.js.values import UNDEFINED, is_number, js_truthy

from .convert import build_stack, convert_items, raw_content
from .jsonread import JsonParseError, parse_json, read_text
from .macros import MacroScan, ScannedText
from .preset import (
    PresetError,
    build_prompt_map,
    fallback_name,
    file_name_of,
    iterate,
    js_length,
    member,
    nullish,
    select_character,
    stack_id_of,
    walk_order,
)
from .regex_scripts import summarize
from .report import ReportInput, render

#: ``progress(phase, done, total)``
Progress = Callable[[str, int, int], None]

NESTED_TOO_DEEPLY = "Preset values are nested too deeply to convert."
#: a preset with this many prompts is converted with the collector paused
#: (:func:`forgec.source.collector.gc_paused`): converting NemoEngine's 456 makes ~3,000 containers,
#: enough for three young collections and one of the middle generation, which walks the whole
#: parsed preset (~0.4 ms of a 5.6 ms conversion) and finds nothing -- a preset is a tree, and the
#: conversion makes no cycles.  A small preset allocates too little for the collector to run.
LARGE_PRESET_PROMPTS = 128
NUMBER_OUT_OF_RANGE = "Preset holds an integer too large for a JavaScript number."

__all__ = ["LARGE_PRESET_PROMPTS", "NESTED_TOO_DEEPLY", "NUMBER_OUT_OF_RANGE", "ImportResult", "convert_preset", "import_preset", "iso_timestamp", "now_ms_default"]


@dataclass
class ImportResult:
    """``stack`` + ``report`` on success, ``error`` on failure; ``fidelity`` is forgec's JSON report."""

    stack: dict[str, Any] | None = None
    report: str | None = None
    error: str | None = None
    details: dict[str, Any] = field(default_factory=dict, repr=False)
    #: builds :attr:`fidelity` when it is first read, then is dropped
    fidelity_source: Callable[[], dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    _fidelity: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def fidelity(self) -> dict[str, Any] | None:
        """forgec's fidelity document, built on first use: pi-forge's import has none, and most
        front ends never read it (``import-silly --format json`` prints it only with
        ``--report-format json``).  It is built from the conversion's own records, which nothing
        changes after the conversion."""
        if self._fidelity is None and self.fidelity_source is not None:
            self._fidelity, self.fidelity_source = self.fidelity_source(), None
        return self._fidelity

    @property
    def ok(self) -> bool:
        return self.error is None

    def import_section(self) -> dict[str, Any]:
        """The ``import`` section of a conformance report."""
        if self.error is not None:
            return {"error": self.error}
        return {"stack": self.stack, "report": self.report}


def _style_name(value: Any) -> str:
    if is_number(value) and value == 1:
        return "names"
    if is_number(value) and value == 2:
        return "nonames"
    return "default"


def convert_preset(
    raw: Any,
    source_name: str | None = None,
    source_path: str | None = None,
    character_id: Any = UNDEFINED,
    *,
    now_ms: int | None = None,
    stack_id: str | None = None,
    progress: Progress | None = None,
) -> ImportResult:
    """Convert a parsed preset (pi-forge's ``convertSillyTavernPreset``).

    ``stack_id`` overrides the id derived from the file name (forgec's ``--id``); ``progress`` is
    called as ``progress(phase, done, total)`` between phases, for front ends that show progress.
    """
    try:
        with _collector_pause(raw):
            return _convert(raw, source_name, source_path, character_id, now_ms, stack_id, progress)
    except PresetError as exc:
        return ImportResult(error=str(exc))
    except RecursionError:
        # forgec's own text: values nested thousands of levels deep (never a real preset).
        return ImportResult(error=NESTED_TOO_DEEPLY)
    except OverflowError:
        # Only reachable through the Python API: forgec's JSON reader turns integer literals
        # beyond 2**53 into floats, as JavaScript does, so parsed presets never hold such ints.
        return ImportResult(error=NUMBER_OUT_OF_RANGE)


def _collector_pause(raw: Any) -> AbstractContextManager[object]:
    """The collector paused while a preset of :data:`LARGE_PRESET_PROMPTS` prompts or more is
    converted; nothing for a smaller one (whose conversion does not load :mod:`forgec.source`)."""
    prompts = raw.get("prompts") if isinstance(raw, dict) else None
    size = len(prompts) if isinstance(prompts, list) else 0
    if size < LARGE_PRESET_PROMPTS:
        return nullcontext()
    from forgec.source.collector import gc_paused

    return gc_paused(size, LARGE_PRESET_PROMPTS)


def _convert(
    raw: Any,
    source_name: str | None,
    source_path: str | None,
    character_id: Any,
    now_ms: int | None,
    stack_id_override: str | None,
    progress: Progress | None,
) -> ImportResult:
    report_progress = progress or (lambda phase, done, total: None)
    if not isinstance(raw, dict):
        raise PresetError("Preset root must be a JSON object.")
    name_for_source = source_name if source_name is not None else fallback_name(raw)
    path_for_report = source_path if source_path is not None else name_for_source
    prompts = nullish(raw.get("prompts", UNDEFINED), [])
    prompt_order = nullish(raw.get("prompt_order", UNDEFINED), [])
    regex = summarize(raw.get("extensions", UNDEFINED))
    prompts_length = js_length(prompts)
    if is_number(prompts_length) and prompts_length == 0:
        raise PresetError("Preset has no prompts array.")
    selection = select_character(prompt_order, character_id)
    prompt_list = iterate(prompts)
    if prompt_list is None:
        raise PresetError("Preset prompts must be an array.")
    table = build_prompt_map(prompt_list)
    walk = walk_order(selection, table)
    total = len(walk.items)
    report_progress("scanning macros", 0, total)
    macros = MacroScan()
    texts: list[ScannedText | None] = []
    for done, item in enumerate(walk.items, 1):
        content = raw_content(item)
        texts.append(None if content is None else macros.scan(content))
        if done % 50 == 0:
            report_progress("scanning macros", done, total)
    macros.finish()
    conversion = convert_items(
        walk.items,
        texts,
        lambda done, all_: report_progress("converting prompts", done, all_),
        # a {{lastUserMessage}} macro decides the flag alone; without one, search only where it can match
        search_last_user=macros.last_user_possible and "lastusermessage" not in macros.detected,
    )
    report_progress("writing report", total, total)
    uses_last_user_message = conversion.uses_last_user_message or "lastusermessage" in macros.detected

    file_name = file_name_of(name_for_source)
    stack_id = stack_id_override if stack_id_override is not None else stack_id_of(file_name)
    stack_name = next(
        (v for v in (raw.get("preset_name", UNDEFINED), raw.get("name", UNDEFINED)) if js_truthy(v)),
        file_name,
    )
    variables: dict[str, str] = {}
    if "char" in macros.detected:
        variables["char"] = "{{char}}"
    if "user" in macros.detected:
        variables["user"] = "{{user}}"
    selected_id = member(selection.entry, "character_id")
    stack = build_stack(
        stack_id=stack_id,
        name=stack_name,
        variables=variables,
        rules=regex.rules if regex is not None else [],
        items=conversion.items,
        file_name=file_name,
        character_id=selected_id,
        converted_at=iso_timestamp(now_ms if now_ms is not None else now_ms_default()),
        uses_last_user_message=uses_last_user_message,
    )
    names_behavior = raw.get("names_behavior", UNDEFINED)
    report = render(
        ReportInput(
            file_name=file_name,
            source_path=path_for_report,
            character_id=selected_id,
            stack_id=stack_id,
            style_name=_style_name(names_behavior),
            names_behavior=names_behavior,
            prompts_length=prompts_length,
            order_length=walk.order_length,
            conversion=conversion,
            missing=walk.missing,
            regex=regex,
            variables=variables,
            macros=macros,
            uses_last_user_message=uses_last_user_message,
        )
    )
    from .fidelity import build_fidelity

    result = ImportResult(stack=stack, report=report)
    result.fidelity_source = partial(
        build_fidelity, stack, conversion, walk.missing, macros, regex, uses_last_user_message
    )
    result.details = {
        "itemsConsidered": len(walk.items),
        "regexScripts": regex.total if regex is not None else 0,
    }
    return result


def import_preset(
    preset: dict[str, Any] | str | Path | bytes,
    character_id: Any = None,
    *,
    file_name: str | None = None,
    source_path: str | None = None,
    now_ms: int | None = None,
) -> ImportResult:
    """Import a preset given as parsed data, a file path, or the raw file bytes.

    A preset that cannot be converted (pi-forge's refusals, JSON that does not parse) comes back
    as ``result.error`` with pi-forge's text; a path that cannot be read at all raises
    :class:`~forgec.errors.InputError` with the same text (``Failed to read or parse <path>: ENOENT…``).

    ``character_id=None`` means "not given" (as in every pi-forge front end, E4); pass a number,
    or a string to select an entry whose ``character_id`` is that string.  For a path, the report's
    *Source file* is the path and the stack id comes from its file name unless ``file_name`` /
    ``source_path`` override them; for data, ``file_name`` defaults to the preset's own name.
    """
    given = UNDEFINED if character_id is None else character_id
    if isinstance(preset, (str, Path)):
        path_text = str(preset)
        try:
            text = read_text(Path(preset))
        except OSError as exc:  # no preset to convert: the caller's input is wrong, not the preset
            raise InputError(f"Failed to read or parse {path_text}: {exc.args[0]}", path=path_text) from None
        try:
            raw = parse_json(text)
        except JsonParseError as exc:
            return ImportResult(error=f"Failed to read or parse {path_text}: {exc.args[0] if exc.args else exc}")
        return convert_preset(
            raw,
            file_name if file_name is not None else path_text,
            source_path if source_path is not None else path_text,
            given,
            now_ms=now_ms,
        )
    if isinstance(preset, bytes):
        where = source_path or file_name or "preset.json"
        try:
            raw = parse_json(preset.decode("utf-8", errors="replace"))
        except JsonParseError as exc:
            return ImportResult(error=f"Failed to read or parse {where}: {exc}")
        return convert_preset(raw, file_name, source_path, given, now_ms=now_ms)
    return convert_preset(preset, file_name, source_path, given, now_ms=now_ms)
