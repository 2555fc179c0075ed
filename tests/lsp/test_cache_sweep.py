"""A whole check in the language server leaves in forgec's caches only what the workspace holds now.

Memory while typing stays flat (benchmarks/bench_lsp.py measures the RSS): the superseded versions of
an edited buffer -- its loaded stack and the parsed texts of edited blocks -- are swept after each
check instead of filling the caches' byte budgets.
"""

from __future__ import annotations

import json
from pathlib import Path

from forgec.codecs.stack import STACK_CACHE
from forgec.compile.macros import grammar
from forgec.lsp.project import Project


def _stack(word: str) -> str:
    items = [
        {"id": f"b{i}", "kind": "block", "role": "system", "content": f"Item {i} {word} {{{{getvar::x{i}}}}}"}
        for i in range(20)
    ]
    return json.dumps({"id": "s", "name": "S", "items": items}, indent=2)


def test_edits_leave_only_the_current_buffer_in_the_caches(tmp_path: Path) -> None:
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    path = folder / "s.json"
    path.write_text(_stack("start"), encoding="utf-8")
    project = Project([tmp_path])
    STACK_CACHE.clear()
    grammar._CACHE.clear()
    for n in range(30):
        project.open(path, _stack(f"edit{n}"))
        project.check()
    texts = [str(text) for text in grammar._CACHE.held()]
    assert texts and all("edit29" in text for text in texts if "Item" in text)
    assert not any("edit28" in text for text in texts)
    assert len(STACK_CACHE) <= 1  # the current buffer's load at most, not 30 versions
