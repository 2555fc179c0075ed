"""The library's entry points on fuzzed input: a result or a ``ForgecError``, never anything else.

The invariant of docs/limits.md, checked in process: every input gives diagnostics (or one of
forgec's own errors, which carry an exit code) within a bounded time -- no ``TypeError`` from a
shape nobody expected, no ``RecursionError``, no hang.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.errors import ForgecError

from .conftest import FUZZ, bounded, memory_bound
from .strategies import (
    contexts,
    hostile_blocks,
    hostile_patterns,
    json_values,
    macro_text,
    presets,
    regex_rules,
    stacks,
)


@pytest.fixture(autouse=True, scope="module")
def _bounded_memory() -> Iterator[None]:
    """Every property of this module runs with at most 1 GiB more address space (FORGEC_FUZZ_MEMORY_MB)."""
    with memory_bound():
        yield


def _forgec_only(call: Any) -> Any:
    """Run ``call``; a ForgecError is an allowed outcome (it is how forgec refuses), anything else fails.
    forgec turning a ``MemoryError`` into a refusal is a failure too: the input needed over the bound."""
    try:
        return bounded(call)
    except ForgecError as error:
        assert "more memory" not in str(error), str(error)
        return None


@FUZZ
@given(stacks())
def test_loading_any_stack_gives_diagnostics(stack: Any) -> None:
    from forgec.codecs.stack import load_stack_data

    loaded = bounded(lambda: load_stack_data(stack, "fuzz.json"))
    assert isinstance(loaded.stack["id"], str) and isinstance(loaded.stack["items"], list)
    assert all(d.code.startswith("FG") for d in loaded.diagnostics)


@FUZZ
@given(stacks(), contexts())
def test_compiling_any_stack_and_context(stack: Any, context: Any) -> None:
    import forgec

    result = _forgec_only(lambda: forgec.compile_report(stack, context, payloads=True))
    if result is not None:
        doc = result.to_report()
        assert isinstance(doc["system"]["prompt"], str)
        assert set(doc["payloads"]) == {"anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"}
        for entry in doc["payloads"].values():
            assert ("body" in entry) != ("error" in entry)
            assert "unhashable" not in entry.get("error", "") and "object has no attribute" not in entry.get("error", "")


@FUZZ
@given(macro_text(), st.dictionaries(st.text(max_size=5), json_values(4), max_size=3))
def test_expanding_any_macro_text(text: str, variables: dict[str, Any]) -> None:
    from forgec.compile.macros import expand_text
    from forgec.model.variables import VariableStore

    out, diagnostics = bounded(lambda: expand_text(text, store=VariableStore.fresh(variables)))
    assert isinstance(out, str)
    assert all(d.code.startswith("FG") for d in diagnostics)


@FUZZ
@given(st.lists(regex_rules(), min_size=1, max_size=3), st.text(max_size=40))
def test_any_regex_rule_on_any_text(rules: list[dict[str, Any]], text: str) -> None:
    import forgec

    stack = {"id": "r", "items": [{"kind": "block", "id": "a", "role": "system", "content": text},
                                  {"kind": "slot", "id": "h", "slot": "chat-history"}], "regex": {"rules": rules}}  # fmt: skip
    result = bounded(lambda: forgec.compile_report(stack, {"messages": [{"role": "user", "content": text, "timestamp": 1}]}))
    assert isinstance(result.system_prompt, str)


@FUZZ
@given(presets(), st.sampled_from([None, 100001, "100001", 5]))
def test_importing_any_preset(preset: Any, character: Any) -> None:
    from forgec.importers.sillytavern import convert_preset
    from forgec.js.values import UNDEFINED, dumps_report

    result = bounded(lambda: convert_preset(preset, "fuzz.json", None, UNDEFINED if character is None else character, now_ms=0))
    assert (result.error is None) == (result.stack is not None)
    dumps_report({"import": result.import_section()})


@FUZZ
@given(json_values(20))
def test_fingerprint_and_redaction_of_any_value(value: Any) -> None:
    from forgec.emit.redact import capture_payload
    from forgec.fingerprint import canonical_json, sha256_v1

    text = _forgec_only(lambda: canonical_json(value))
    if text is not None:
        assert bounded(lambda: sha256_v1(value)).startswith("sha256:v1:")
    for deep in (False, True):
        capture = bounded(lambda deep=deep: capture_payload(value, deep=deep))
        assert capture.chars == len(capture.text.encode("utf-16-le", "surrogatepass")) // 2


@FUZZ
@given(st.binary(max_size=400), st.sampled_from(["s.json", "s.yaml"]))
def test_any_bytes_as_a_stack_or_context_file(data: bytes, name: str) -> None:
    from forgec.codecs.context import load_context
    from forgec.codecs.stack import load_stack_bytes

    loaded = bounded(lambda: load_stack_bytes(data, name))
    assert isinstance(loaded.stack["items"], list)
    from forgec.source import decode_source

    document = bounded(lambda: decode_source(data, name, "yaml" if name.endswith(".yaml") else "json"))
    if document.parsed:
        _forgec_only(lambda: load_context(document.data))


def test_the_memory_bound_is_real() -> None:
    """The bound the properties run under refuses an allocation past it (so a runaway input fails)."""
    with pytest.raises(MemoryError):
        bytearray(2 * 1024 * 1024 * 1024)


HOSTILE = settings(FUZZ, max_examples=max(4, FUZZ.max_examples // 6))


@HOSTILE
@given(hostile_blocks())
def test_pathological_blocks_are_bounded(text: str) -> None:
    """Issue 13 families 6-9 as shapes, at drawn sizes: compile and lint stay within the bound."""
    import forgec
    from forgec.compile.macros.lint import lint_stack_macros

    stack = {"id": "h", "items": [{"kind": "block", "id": "a", "role": "system", "content": text}]}
    result = bounded(lambda: forgec.compile_report(stack))
    assert isinstance(result.system_prompt, str)
    assert all(d.code.startswith("FG") for d in bounded(lambda: lint_stack_macros(stack)))


@HOSTILE
@given(hostile_patterns())
def test_pathological_patterns_compile_or_are_refused_within_the_bound(case: tuple[str, str]) -> None:
    """Issue 13 family 10 as shapes: a pattern compiles or is refused as too costly, never runs away."""
    from forgec.js.regex import JSRegexError, compile_js

    pattern, flags = case
    try:
        bounded(lambda: compile_js(pattern, flags))
    except JSRegexError as error:
        assert error.reason and "more memory" not in error.reason


def test_the_time_bound_is_real() -> None:
    """The bound the properties run under stops a computation that runs past it (CPU time) and a
    wait that costs no CPU (wall time)."""
    import time

    from .conftest import TooSlow

    with pytest.raises(TooSlow, match="CPU"):
        bounded(lambda: sum(i for i in iter(int, 1)), seconds=0.3)  # an endless computation
    with pytest.raises(TooSlow, match="wall-clock"):
        bounded(lambda: time.sleep(30), seconds=0.3)  # 1.8 s of waiting
