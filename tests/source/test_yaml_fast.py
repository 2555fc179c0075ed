"""The C composer (ruamel.yaml.clib) and the pure one give forgec the same reading of every text.

:mod:`forgec.source.yaml_fast` composes with libyaml where it reads a text as ruamel's pure-Python
composer does, and hands everything else to the pure path.  This is the differential proof: for
every YAML file of tests/ and examples/, the YAML-looking texts the tests use, the benchmark's
stacks, the fuzz strategies' stacks and contexts written as YAML (ruamel's dumper in block, flow
and mixed styles, and the robustness test's rough rendering), and thousands of mutations of all of
them (indicators, quotes, anchors, tags, block-scalar headers, line breaks, cuts), both paths must
give the same data, the same diagnostics, the same position for every value and key, and the
same node tree (kinds, tags, values, scalar styles, start and end marks).  Where the C path is
taken it must be exact; where it declines the pure path runs, so it cannot be wrong there.
"""

from __future__ import annotations

import ast
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.source import parse_source_text, yaml_fast
from tests.fuzz.strategies import contexts, json_values, stacks

ROOT = Path(__file__).resolve().parents[2]

needs_clib = pytest.mark.skipif(
    not yaml_fast.fast_composer_available(), reason="ruamel.yaml.clib is not installed"
)


def _pure_compose(text: str) -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).compose(text)


def _tree(node: Any, seen: dict[int, int] | None = None) -> Any:
    """A node tree as plain data: kind, tag, marks, style, value; an alias as a back-reference.
    A plain scalar's style is ``None`` (libyaml: ``''``; forgec tells only quoted and block apart)."""
    if seen is None:
        seen = {}
    if node is None:
        return None
    if id(node) in seen:
        return ("alias", seen[id(node)])
    seen[id(node)] = len(seen)
    start, end = node.start_mark, node.end_mark
    head = (
        type(node).__name__,
        str(node.tag),
        (start.line, start.column, start.index),
        (end.line, end.column, end.index),
    )
    if isinstance(node.value, str):
        return (*head, node.value, node.style or None)
    if type(node).__name__ == "SequenceNode":
        return (*head, [_tree(child, seen) for child in node.value])
    return (*head, [(_tree(k, seen), _tree(v, seen)) for k, v in node.value])


def _pointers(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _pointers(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _pointers(child, (*prefix, index))


def _reading(text: str) -> Any:
    """What forgec sees of a text: data, diagnostics, and the span of every value, key and string
    character range (first, middle, last characters)."""
    doc = parse_source_text(text, "t.yaml", "yaml")
    spans = []
    if doc.locator is not None:
        for pointer in _pointers(doc.data):
            spans.append(
                (pointer, doc.locator.locate(doc, pointer, False), doc.locator.locate(doc, pointer, True))
            )
            value = doc.data
            for part in pointer:
                value = value[part]
            if isinstance(value, str):
                for offset in sorted({0, len(value) // 2, max(len(value) - 1, 0)}):
                    spans.append((pointer, offset, doc.locator.locate_in_string(doc, pointer, offset, 1)))
    data = json.dumps(doc.data, sort_keys=False, ensure_ascii=False, default=repr) if doc.parsed else None
    return doc.parsed, data, [repr(d) for d in doc.diagnostics], spans


def _pure_reading(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(yaml_fast, "compose_fast", lambda text: (False, None))
        return _reading(text)


def check_same(text: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Assert both paths agree on ``text``; True when the C path took it."""
    fast, root = yaml_fast.compose_fast(text)
    if not fast:
        return False
    assert _tree(root) == _tree(_pure_compose(text)), f"node trees differ for {text!r}"
    assert _reading(text) == _pure_reading(text, monkeypatch), f"forgec's reading differs for {text!r}"
    return True


# -- the corpus


def _files() -> list[str]:
    texts = []
    for folder in (ROOT / "tests", ROOT / "examples"):
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() in (".yaml", ".yml") and path.is_file():
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return texts


def _test_strings() -> list[str]:
    """String constants of the test suite that look like YAML (a key or a list entry)."""
    texts = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            value = node.value if isinstance(node, ast.Constant) else None
            if (
                isinstance(value, str)
                and len(value) < 20_000
                and (": " in value or ":\n" in value or "- " in value)
            ):
                texts.add(value)
    return sorted(texts)


def _bench_stacks() -> list[str]:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_lsp import stack_text
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return [stack_text(30), stack_text(200, seed=3)]


def _dump(value: Any, style: int) -> str:
    """``value`` written by ruamel's dumper: block (0), flow (1), or default style with wide lines
    and literal blocks for multi-line strings (2)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    def literal(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: literal(x) for k, x in v.items()}
        if isinstance(v, list):
            return [literal(x) for x in v]
        if isinstance(v, str) and "\n" in v and v.strip() and not any(c in v for c in "\r\t\x85\u2028\u2029"):
            return LiteralScalarString(v)
        return v

    yaml = YAML(typ="rt" if style == 2 else "safe", pure=True)
    yaml.default_flow_style = {0: False, 1: True, 2: None}[style]
    if style == 2:
        yaml.width = 4096
        value = literal(value)
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue()


_CUTS = ["-", ":", "?", "[", "]", "{", "}", ",", "#", "&a ", "*a", "!!str ", "!x ", "|", ">-", "|2+", "'", '"',
         "%", "@", "`", "\n", "\n  ", "  ", "- ", ": ", "---", "...", "<<: ", "é", "😀", "\r\n", "\\n", "\\x41",
         "\\u00e9", "\\", "~", "null", "1e3", "0x1F", "0o17", ".inf", "2024-01-01", "yes", "&a:b", "#x"]  # fmt: skip


def _yamlish(value: Any, indent: int = 0) -> str:
    """A rough block-YAML rendering, not always valid YAML (as tests/lsp/test_robustness.py's)."""
    pad = " " * indent
    if isinstance(value, dict):
        return "".join(
            f"{pad}{k}:\n{_yamlish(v, indent + 2)}"
            if isinstance(v, (dict, list)) and v
            else f"{pad}{k}: {json.dumps(v)}\n"
            for k, v in value.items()
        )
    if isinstance(value, list):
        return "".join(f"{pad}- {json.dumps(v)}\n" for v in value)
    return f"{pad}{json.dumps(value)}\n"


def mutate(text: str, rng: random.Random) -> str:
    """A text an editor might hold on the way to ``text``: insertions, deletions, cuts, lines
    repeated or re-indented."""
    for _ in range(rng.randint(1, 4)):
        if not text:
            text = rng.choice(_CUTS)
            continue
        at = rng.randint(0, len(text))
        op = rng.randint(0, 6)
        if op <= 2:
            text = text[:at] + rng.choice(_CUTS) + text[at:]
        elif op == 3:
            text = text[:at] + text[at + rng.randint(1, 3) :]
        elif op == 4:
            text = text[:at]
        else:
            lines = text.split("\n")
            row = rng.randrange(len(lines))
            if op == 5:
                lines.insert(row, lines[rng.randrange(len(lines))])
            else:
                lines[row] = " " * rng.randint(0, 3) + lines[row].lstrip(" ")
            text = "\n".join(lines)
    return text


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return _files() + _test_strings() + _bench_stacks()


@needs_clib
def test_the_corpus_reads_alike(corpus: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    taken = sum(check_same(text, monkeypatch) for text in corpus)
    # the C path must really be exercised: most YAML-looking test strings are valid YAML
    assert taken > len(corpus) // 3
    for text in _bench_stacks():
        assert yaml_fast.compose_fast(text)[0], "the benchmark's stack fell back to the pure composer"
    files = [text for text in _files() if "\t" not in text]
    assert sum(yaml_fast.compose_fast(text)[0] for text in files) >= 0.8 * len(files)


@needs_clib
def test_mutated_texts_read_alike(corpus: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """1,500 mutations drawn from the corpus.  The draw is fixed for one corpus, but the corpus is every
    YAML-looking string of the test suite, so a test added anywhere (or an untracked file in the tree)
    draws other mutations: a failure that comes and goes with unrelated changes is a divergence the
    draw hit, not noise (stop 28: a second ``...`` document-end marker, now in :data:`DIVERGENT`)."""
    rng = random.Random(16)
    small = [text for text in corpus if len(text) < 4000]
    taken = sum(check_same(mutate(rng.choice(small), rng), monkeypatch) for _ in range(1500))
    assert taken > 300


@needs_clib
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(
    value=st.one_of(stacks(), contexts(), json_values(30)),
    style=st.integers(0, 2),
    seed=st.integers(0, 2**16),
)
def test_generated_documents_read_alike(value: Any, style: int, seed: int) -> None:
    monkeypatch = pytest.MonkeyPatch()
    try:
        texts = [_dump(value, style), _yamlish(value)]
        rng = random.Random(seed)
        texts += [mutate(texts[0], rng), mutate(texts[1], rng)]
        for text in texts:
            text = text.encode("utf-8", errors="replace").decode("utf-8")
            check_same(text, monkeypatch)
    finally:
        monkeypatch.undo()


#: texts the two parsers read differently (found by this differential); the C path must decline
#: each, so the pure path reads them
DIVERGENT = {
    "a tab after a colon (the pure scanner refuses it)": "a:\tb\n",
    "a tab at the end of a line": "a: b\t\n",
    "NEL as a line break": "a: b\x85c: d\n",
    "LS as a line break": "a: b\u2028c: d\n",
    "a lone CR as a line break": "a: b\rc: d\r",
    "a byte-order mark": "\ufeffa: b\n",
    "a %YAML directive": "%YAML 1.1\n---\na: yes\n",
    "an anchor name with a colon": "&project:b\n",
    "a tag handle and suffix split differently": "!!!int 3\n",
    "a block scalar header with a comment not set off": "a: >+#c\n  x\n",
    "a left-out value with an anchor": "a: &x\nb: 1\n",
    "a left-out value in a flow mapping": "{a: , b: 1}\n",
    "a left-out list entry": "- a\n-\n- b\n",
    "a left-out key": ": a\n",
    "a left-out value before an explicit key": "a:\n? b\n: c\n",
    "a document that is a block scalar with a line at column 0": "|\n# x\n",
    "two document-end markers (libyaml: one document; the pure parser: a second)": "a: b\n...\n...\n",
    "a document-end marker with a comment, then another": "- a\n... # end\n...\n",
    "a single document-end marker": "a: b\n...\n",
    "nesting deeper than C_MAX_DEPTH": "- " * (yaml_fast.C_MAX_DEPTH + 5) + "x\n",
}


@needs_clib
@pytest.mark.parametrize("text", DIVERGENT.values(), ids=DIVERGENT.keys())
def test_divergent_texts_take_the_pure_path(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert yaml_fast.compose_fast(text) == (False, None)
    assert _reading(text) == _pure_reading(text, monkeypatch)


@needs_clib
def test_errors_take_the_pure_path_and_its_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("a: [1, 2\n", "a: 'x\n", "a:\n- b\n c: d\n", "a: *nope\n", "--- 1\n--- 2\n", "a: b: c\n"):
        assert yaml_fast.compose_fast(text) == (False, None)
        reading = _reading(text)
        assert reading == _pure_reading(text, monkeypatch)
        assert reading[0] is False and any("FG" in d for d in reading[2])


@needs_clib
def test_deep_nesting_never_reaches_the_c_stack() -> None:
    # a million levels would overflow the C composer's stack (a crash, not an exception)
    for text in ("- " * 1_000_000 + "x", "[" * 1_000_000, "{a: " * 300_000):
        assert yaml_fast.compose_fast(text) == (False, None)


@needs_clib
def test_the_end_of_a_text_without_a_final_line_break(monkeypatch: pytest.MonkeyPatch) -> None:
    # libyaml marks these ends on a line after the text; the pure composer at the text's end
    for text in ("a: b", "- a", "a:\n  b: c", "a: |\n  x", "a: [1]", "a: b\n# c", "a: b  "):
        assert check_same(text, monkeypatch)


@needs_clib
def test_left_out_values_of_block_mappings_are_settled_where_the_pure_parser_puts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # libyaml puts them right after the ":", ruamel at the next key or the mapping's end; typing
    # `role:` before its value is the commonest transient text an editor sends
    for text in ("a:\nb: 1\n", "a: # c\nb: 1\n", "x:\n  a:\nb: 1\n", "a:\n&k b: 1\n", "a: ", "a:\n  ",
                 "- deploy: \n- deploy:", "items:\n  - kind: block\n    role:\n    content: x\n"):  # fmt: skip
        assert check_same(text, monkeypatch), text


def test_without_the_clib_the_pure_path_reads_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_fast, "_parser", False)
    assert yaml_fast.compose_fast("a: b\n") == (False, None)
    doc = parse_source_text("id: x\nitems:\n  - kind: block\n", "t.yaml", "yaml")
    assert doc.parsed and doc.data == {"id": "x", "items": [{"kind": "block"}]}


def _offsets_step_by_step(text: str, node: Any) -> list[int]:
    """The character walk ``_yaml_scalar_offsets`` uses for flow scalars (before its shortcut for
    one-line scalars without escapes): the reference the shortcut must equal."""
    quote = node.style if node.style in ('"', "'") else None
    pos = node.start_mark.index + (1 if quote else 0)
    stop = node.end_mark.index
    offsets = [pos]
    while pos < stop:
        char = text[pos]
        if char == "\n":
            pos += 1
            while pos < stop and text[pos] in " \t":
                pos += 1
        elif quote == '"' and char == "\\":
            pos += {"x": 4, "u": 6, "U": 10}.get(text[pos + 1 : pos + 2], 2)
        elif quote == "'" and char == "'" and text[pos + 1 : pos + 2] == "'":
            pos += 2
        else:
            pos += 1
        offsets.append(pos)
    return offsets


@needs_clib
def test_scalar_offsets_shortcut_equals_the_walk(corpus: list[str]) -> None:
    from forgec.source.yaml import _yaml_scalar_offsets

    rng = random.Random(5)
    texts = corpus + [mutate(rng.choice(corpus[:200] or corpus), rng) for _ in range(300)]
    texts += ["a: 'it''s'\n", 'a: "x\\ty"\n', "a: 'x''\n", "a: 'x'''\n", 'a: "q"\n', "a: ''\n", 'a: ""\n']
    checked = 0
    for text in texts:
        fast, root = yaml_fast.compose_fast(text)  # the pure composer's tree (proven above), quickly
        todo = [root] if fast and root is not None else []
        seen: set[int] = set()
        while todo:
            node = todo.pop()
            if id(node) in seen:  # an alias (perhaps of an ancestor)
                continue
            seen.add(id(node))
            if isinstance(node.value, str):
                if node.style not in ("|", ">"):
                    assert _yaml_scalar_offsets(text, node) == _offsets_step_by_step(text, node), text
                    checked += 1
            else:
                todo.extend(
                    part for child in node.value for part in (child if isinstance(child, tuple) else (child,))
                )
    assert checked > 1000
