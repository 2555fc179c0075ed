"""Engine behaviour pinned by compile-core §3, §3.5, §16.6, §16.9, §16.13, §16.16 (their own examples)."""

from __future__ import annotations

import pytest

from forgec.compile.macros import engine, expand_text
from forgec.compile.macros.grammar import parse
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.plugins import Registry

from .spec_examples import LATEST_USER_MESSAGE, SESSION_TOPIC, SPEC_EXAMPLES

RT = Runtime(options={"cwd": "/home/dev/project"}, latest_user_message=LATEST_USER_MESSAGE)

@pytest.mark.parametrize(("text", "output", "unresolved"), SPEC_EXAMPLES)
def test_spec_examples(text: str, output: str, unresolved: list[str]) -> None:
    store = VariableStore(session={"topic": SESSION_TOPIC})
    out, diagnostics = expand_text(text, runtime=RT, store=store, selected_tools=["read"])
    assert out == output
    assert [d.message for d in diagnostics] == [f"Unresolved macro: {{{{{e}}}}}" for e in unresolved]


def test_ifeq_expands_its_name_first() -> None:  # §16.13
    store = VariableStore()
    out, diagnostics = expand_text("{{ifeq::{{setvar::x::1}}n}}", store=store)
    assert out == "{{ifeq::{{setvar::x::1}}n}}" and store.turn == {"x": "1"}
    assert [d.message for d in diagnostics] == ["Unresolved macro: {{ifeq::{{setvar::x::1}}n}}"]


def test_typed_session_values_and_json_order() -> None:
    store = VariableStore(session={"n": 2, "f": 1.5, "z": None, "o": {"z": 1, "1": 1.5}, "b": True})
    out, _ = expand_text("{{n}} {{f}} {{z}} {{o}} {{b}} {{ifvar::z::yes}} {{ifeq::n::2::eq}}", store=store)
    assert out == '2 1.5 null {"1":1.5,"z":1} true yes eq'


def test_session_dirty_only_on_change() -> None:
    store = VariableStore(session={"topic": "t", "n": 2})
    expand_text("{{setsessionvar::topic::t}}{{clearsessionvar::missing}}", store=store)
    assert store.session_dirty is False
    expand_text("{{setsessionvar::n::2}}", store=store)  # a non-string existing value always differs
    assert store.session_dirty is True and store.session["n"] == "2"


def test_no_store_reads_static_only_and_ignores_writes() -> None:
    stack = {"variables": {"s": "static"}}
    out, _ = expand_text("{{setvar::s::x}}{{s}}{{getvar::s}}", stack=stack, store=None)
    assert out == "staticstatic"


def test_builtins_shadow_variables_and_failure_order() -> None:
    def boom(ctx):
        raise RuntimeError("boom")

    registry = Registry()
    registry.register_macro("boom", boom)
    out, diagnostics = expand_text("{{nope}}{{boom::{{nope2}}}}{{date}}", registry=registry, stack={"variables": {"date": "v"}})
    assert out.startswith("{{nope}}{{boom::{{nope2}}}}2026-01-01")
    assert [d.message for d in diagnostics] == [
        "Macro {{boom}} failed: boom",
        "Unresolved macro: {{nope}}",
    ]
    assert diagnostics[0].offset == 8 and diagnostics[0].length == 19


@pytest.mark.parametrize(("policy", "level"), [("keep", None), ("error", "error"), ("warn", "warning"), ("ERROR", "warning"), (["error"], "warning"), (None, "warning")])
def test_policy_read_leniently(policy: object, level: str | None) -> None:
    _, diagnostics = expand_text("{{x}}", stack={"defaults": {"unresolvedMacroPolicy": policy}})
    assert [d.level for d in diagnostics] == ([level] if level else [])
    _, diagnostics = expand_text("{{x}}", stack={"defaults": "junk"})
    assert [d.level for d in diagnostics] == ["warning"]


def test_nesting_1600_levels_expands() -> None:
    n = 1_600
    out, diagnostics = expand_text("{{upper::" * n + "x" + "}}" * n)
    assert out == "X" and diagnostics == []


def test_nesting_beyond_the_limit_fails_one_macro() -> None:
    n = engine.MAX_DEPTH + 5
    text = "a{{upper::" * n + "x" + "}}" * n
    out, diagnostics = expand_text(text)
    assert [d.message for d in diagnostics] == ["Macro {{upper}} failed: Maximum call stack size exceeded"]
    inner = diagnostics[0].offset
    assert text[inner:].startswith("{{upper::")
    assert out.endswith("A{{UPPER::" + "A{{UPPER::" * 4 + "X" + "}}" * 5)  # kept, then upper-cased by its parent


def test_string_length_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_STRING_LENGTH", 1_000)
    text = "{{json::" * 12 + "x" + "}}" * 12
    out, diagnostics = expand_text(text)
    assert [d.message for d in diagnostics] == ["Macro {{json}} failed: Invalid string length"]
    assert len(out) <= 1_000
    _, diagnostics = expand_text("{{xml::{{setvar::v::" + "&" * 300 + "}}{{v}}}}", store=VariableStore())
    assert [d.message for d in diagnostics] == ["Macro {{xml}} failed: Invalid string length"]


def test_date_time_in_zone() -> None:
    runtime = Runtime(now_ms=1783220709000, time_zone="Asia/Tokyo")  # 2026-07-05T03:05:09Z
    out, _ = expand_text("{{date}} {{time}}", runtime=runtime)
    assert out == "2026-07-05 12:05:09"


def test_active_model_shapes() -> None:
    assert expand_text("{{activeModel}}", runtime=Runtime(model=None))[0] == ""
    assert expand_text("{{activeModel}}", runtime=Runtime(model={}))[0] == "undefined/undefined"
    assert expand_text("{{cwd}}", runtime=Runtime(options={}))[1][0].message == "Unresolved macro: {{cwd}}"


def test_parse_offsets_and_cache() -> None:
    text = "line1\r\n  {{upper::{{x}}}} and {{y::a::b}}"
    first = parse(text)
    doc = parse(text)  # a text is kept from its second parse on (the cache's second sight)
    assert doc == first and doc is not first
    assert parse(text) is doc
    outer = doc[1]
    assert text[outer.start : outer.end] == "{{upper::{{x}}}}"
    assert text[doc[3].seps[0] : doc[3].seps[0] + 2] == "::"
    assert doc[3].raw_args(text) == ["a", "b"]


@pytest.mark.parametrize("recording", [False, True])
def test_expand_session_is_a_session_run_from_start_to_end(recording: bool) -> None:
    """``engine.expand_session`` (expand_block's one positional call) does what a ``Session`` made with
    the same arguments does: output, findings, store, and the trace handed in (None once it stops)."""
    from forgec.compile.macros.builtins import BUILTIN_RENDERERS
    from forgec.compile.macros.replay import Trace

    for text in ["{{setvar::a::1}}{{getvar::a}} {{nowhere}} {{upper::x}}", "{{date}} {{getvar::b}}", "{{if::x}}"]:
        runs = []
        for direct in (False, True):
            store = VariableStore(session={"b": "B"})
            diagnostics: list[object] = []
            trace = Trace() if recording else None
            doc = parse(text)
            if direct:
                session = engine.Session(text, item_id="i", stack={}, runtime=RT, store=store, diagnostics=diagnostics,  # type: ignore[arg-type]
                                         selected_tools=[], builtins=BUILTIN_RENDERERS, custom={}, pointer=("items", 0))
                session.trace = trace
                out = session.expand_block(doc)
                session.report_unresolved()
                kept = session.trace
            else:
                out, kept = engine.expand_session(text, doc, "i", {}, RT, store, diagnostics, [],  # type: ignore[arg-type]
                                                  BUILTIN_RENDERERS, {}, ("items", 0), trace)
            assert (kept is trace) or kept is None
            shown = None if kept is None else (kept.reads, kept.writes)
            runs.append((out, diagnostics, store.turn, store.session, shown))
        assert runs[0] == runs[1], text
