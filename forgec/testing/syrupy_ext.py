"""A syrupy extension that stores one readable golden file per assertion.

The stored text is :func:`forgec.output.golden.render_golden`'s Markdown (``.prompt.md``): the system prompt
and every message as plain text with role and source, then the canonical JSON.  A failing comparison
is reported part by part (:func:`forgec.output.golden.diff_golden`), naming the message or block that changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from forgec.output.golden import diff_golden, render_golden


class PromptSnapshotExtension(SingleFileSnapshotExtension):
    """Golden files for compile reports and provider request bodies."""

    _write_mode = WriteMode.TEXT
    file_extension = "prompt.md"

    def serialize(self, data: Any, **_: Any) -> str:
        if isinstance(data, str):
            return data
        return render_golden(data)

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        yield from diff_golden(str(snapshot_data or ""), str(serialized_data))
