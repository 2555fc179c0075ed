"""``compile_report`` of two file paths takes ``load_inputs``'s steps itself (forgec/report.py): the same
report as the general route for every corpus case, spelled as ``str`` or ``Path`` in any pairing, the
folder siblings of a project stack, and the same refusals (an unreadable stack, a refused context)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.codecs.context import ContextError
from forgec.errors import InputError
from forgec.report import compile_inputs, compile_report, load_inputs

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
STACK_CASES = sorted(c.name for c in CASES.iterdir() if (c / "stack.json").is_file())


def _general(stack: object, context: object) -> dict[str, object]:
    return compile_inputs(load_inputs(stack, context)).to_report()


@pytest.mark.parametrize("case", STACK_CASES)
def test_every_spelling_gives_the_general_routes_report(case: str) -> None:
    stack, context = CASES / case / "stack.json", CASES / case / "context.json"
    expected = json.dumps(_general(stack, context), ensure_ascii=False)
    for pair in ((stack, context), (str(stack), str(context)), (str(stack), context), (stack, str(context))):
        for _ in range(2):  # a first load and a stack-cache hit
            assert json.dumps(compile_report(*pair).to_report(), ensure_ascii=False) == expected


def test_a_project_stack_keeps_its_folder_siblings(tmp_path: Path) -> None:
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    items = [{"id": "a", "kind": "block", "content": "Hello"}]
    for name in ("one", "two"):
        (folder / f"{name}.json").write_text(json.dumps({"schemaVersion": 1, "id": name, "items": items}))
    context = CASES / STACK_CASES[0] / "context.json"
    report = compile_report(str(folder / "one.json"), str(context)).to_report()
    assert report == _general(folder / "one.json", context)
    assert [entry["file"] for entry in report["validation"]["otherFiles"]] == ["two.json"]


def test_the_refusals_are_the_general_routes(tmp_path: Path) -> None:
    context = CASES / STACK_CASES[0] / "context.json"
    with pytest.raises(InputError, match="cannot read the stack file"):
        compile_report(str(tmp_path / "missing.json"), str(context))
    bad = tmp_path / "context.json"
    bad.write_text('{"now": 5}')
    with pytest.raises(ContextError):
        compile_report(str(CASES / STACK_CASES[0] / "stack.json"), str(bad))
