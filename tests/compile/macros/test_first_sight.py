"""A first sight expanded from the top level (``grammar.scan_top_level``, ``engine.expand_first_sight``).

A block no call saw before is not recorded and its parse is not kept, so ``block.expand_block`` expands it
from its top-level spans: flat macros rendered from their text, the others parsed on their own.  These
tests hold that path to the whole parse and ``engine.expand_session`` -- output, findings (every field, in
order), the store afterwards -- on random texts over the pair tokens, runs of ``{``/``}``/``:``, nesting,
unclosed ``{{`` and stray ``}}``, every plain built-in and a generic one, unknown macros resolved by a
variable or not, and under lowered caps; and ``scan_top_level``/``parse_macro_at`` to the parser's own
top level and macros.
"""

from __future__ import annotations

import random
from types import FunctionType
from typing import Any

from forgec.compile.macros import engine, expand_block, grammar
from forgec.compile.macros.builtins import BUILTIN_RENDERERS
from forgec.compile.macros.grammar import _parse_fast, parse_macro_at, scan_top_level
from forgec.compile.macros.nodes import Macro
from forgec.compile.macros.replay import REPLAYS, Trace
from forgec.js.values import JS_WHITESPACE
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.resources import compiled_modules

PIECES = ["{{", "}}", "::", "{", "}", ":", "a", " ", "getvar", "setvar", "upper", "if", "b", "x y", "\u03a3", "ifvar",
          "session", "trim", "lower", "setturnvar", "getturnvar", "json", "var", "unknown", "\t", "ß"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 24)))


def _macro_text(rng: random.Random) -> str:
    """Well-formed macros (mostly), nested now and then: the shapes real blocks have."""
    def macro(depth: int) -> str:
        command = rng.choice(["getvar", "setvar", "upper", "if", "a", "b", "unknown", " var ", "", "trim", "ifvar", "json"])
        args = []
        for _ in range(rng.randint(0, 3)):
            if depth < 2 and rng.random() < 0.25:
                args.append(macro(depth + 1))
            else:
                args.append(rng.choice(["a", " b ", "", "x::y", "turn", "session", "v {", "}", "ß"]))
        return "{{" + "::".join([command, *args]) + "}}"

    return "".join(rng.choice([macro(0), "text ", ": ", "}}", "{{", ""]) for _ in range(rng.randint(1, 6)))


def _store(rng: random.Random) -> VariableStore:
    session = {n: rng.choice(["s", " t ", 3, {"k": [1]}]) for n in ["a", "b", "if"] if rng.random() < 0.5}
    turn = {n: rng.choice(["", "u", "ß"]) for n in ["a", "unknown"] if rng.random() < 0.5}
    return VariableStore(session=session, turn=turn, session_dirty=False)


def _run(first_sight: bool, text: str, store: VariableStore | None, stack: dict[str, Any],
         custom: dict[str, Any], traced: bool) -> tuple[Any, ...]:
    diagnostics: list[Any] = []
    runtime = Runtime(now_ms=0)
    pointer = ("items", 1, "content")
    trace: Trace | None = Trace() if traced else None
    if first_sight:
        spans = scan_top_level(text)
        assert spans is not None
        out, trace = engine.expand_first_sight(text, spans, "item-1", stack, runtime, store, diagnostics, [],
                                               BUILTIN_RENDERERS, custom, pointer, trace)
    else:
        doc = _parse_fast(text) if "{{" in text and "}}" in text else ((text,) if text else ())
        out, trace = engine.expand_session(text, doc, "item-1", stack, runtime, store, diagnostics, [],
                                           BUILTIN_RENDERERS, custom, pointer, trace)
    found = [(type(d), d.level, d.message, d.code, d.item_id, d.pointer, d.offset, d.length, d.span) for d in diagnostics]
    state = None if store is None else (list(store.turn.items()), list(store.session.items()), store.session_dirty)
    recorded = None if trace is None else (trace.reads, trace.writes)
    return out, found, state, recorded


def _same(text: str, rng: random.Random, custom: dict[str, Any] | None = None) -> bool:
    """Whether the span path applies to ``text`` (nothing left unclosed), and if so that it matches."""
    if scan_top_level(text) is None:
        return False
    stack = {"variables": {"b": "static", "a": 5}, "defaults": {"unresolvedMacroPolicy": rng.choice(["warn", "error", "keep"])}}
    seed = rng.random()
    traced = rng.random() < 0.5  # a second sight is traced (its reads, writes, and whether it can be recorded)
    results = []
    for first_sight in (True, False):
        store = None if seed < 0.1 else _store(random.Random(seed))
        results.append(_run(first_sight, text, store, stack, custom or {}, traced))
    assert results[0] == results[1], text
    return True


def test_the_scan_is_the_parsers_top_level() -> None:
    rng = random.Random(28)
    for _ in range(20_000):
        text = _text(rng) if rng.random() < 0.6 else _macro_text(rng)
        spans = scan_top_level(text)
        doc = _parse_fast(text) if "{{" in text and "}}" in text else ((text,) if text else ())
        if spans is None:  # a "{{" left unclosed: the parser flattens it
            assert "{{" in text
            continue
        top = [node if isinstance(node, str) else (node.start, node.end) for node in doc]
        assert [s if isinstance(s, str) else s[:2] for s in spans] == top, text
        for span, node in zip(spans, doc, strict=True):
            if isinstance(node, Macro):
                assert not isinstance(span, str)
                assert span[2] == ("{{" not in text[node.start + 2 : node.end - 2]), text  # flat
                assert parse_macro_at(text, node.start, node.end) == node, text


def test_the_first_sight_path_is_the_whole_parse() -> None:
    rng = random.Random(2028)
    compared = 0
    for _ in range(8_000):
        text = _text(rng) if rng.random() < 0.4 else _macro_text(rng)
        compared += _same(text, rng)
    assert compared > 5_000


def test_custom_macros_and_the_benchmarks_block() -> None:
    rng = random.Random(7)
    custom = {"a": lambda ctx: ctx.expand_arg(0) + "!", "if": lambda ctx: None, "b": lambda ctx: 3}
    for _ in range(2_000):
        _same(_macro_text(rng), rng, custom)
    block = ("Rule 1: {{setvar::k1::value 1}}keep answer 1 short. Previous: {{getvar::k0}}; mood {{getvar::mood}}; "
             "{{upper::section 1}} {{if::{{getvar::k1}}::set 1::unset}} {{unknown1}} and some plain text after.")
    assert _same(block, rng)


def test_near_the_limits(monkeypatch: Any) -> None:
    """Lowered caps: the macros that cross them fail at the same places, with the same findings."""
    monkeypatch.setattr(engine, "MAX_BLOCK_LENGTH", 40)
    monkeypatch.setattr(engine, "MAX_BLOCK_WORK", 60)
    rng = random.Random(3)
    texts = [
        "{{getvar::a}}{{getvar::a}}",
        "{{upper::" + "y" * 30 + "}}{{lower::" + "Z" * 30 + "}}{{trim::  " + "t" * 25 + "  }}{{upper::after}}",
        "{{setvar::c::" + "v" * 45 + "}}{{getvar::c}}{{setvar::d::" + "w" * 12 + "::" + "w" * 12 + "}}",
        "{{upper::{{getvar::a}}}}{{upper::ß" + "ß" * 12 + "}}" + "z" * 30,
        "x" * 50 + "{{getvar::b}}",
    ]
    for text in texts:
        assert _same(text, rng)
    monkeypatch.setattr(engine, "MAX_DEPTH", 0)
    for text in texts:
        assert _same(text, rng)


def test_expand_block_takes_the_path_until_a_text_is_recorded(monkeypatch: Any) -> None:
    """A first sight goes through ``expand_first_sight``, and so does the second (traced); the third
    (replayed) does not; an unclosed ``{{`` goes through the whole parse; output is the same each time."""
    calls: list[str] = []
    real = engine.expand_first_sight

    def spy(text: str, *args: Any) -> tuple[str, Any]:
        calls.append(text)
        return real(text, *args)

    from forgec.compile.macros import block

    if not hasattr(block.engine, "__dict__"):  # pragma: no cover - the compiled block binds its calls
        return
    monkeypatch.setattr(block.engine, "expand_first_sight", spy)
    REPLAYS.clear()
    outs = []
    for text in ["s28 {{getvar::a}} {{nope}}", "s28 {{getvar::a}} {{"]:
        for _ in range(3):
            store = VariableStore(session={}, turn={"a": "A"}, session_dirty=False)
            diagnostics: list[Any] = []
            outs.append((expand_block(text, item_id="i", stack={}, runtime=Runtime(now_ms=0), store=store,
                                      diagnostics=diagnostics, selected_tools=[], pointer=("items", 0, "content")),
                         [d.message for d in diagnostics]))
    REPLAYS.clear()
    assert outs[0] == outs[1] == outs[2] == ("s28 A {{nope}}", ["Unresolved macro: {{nope}}"])
    assert outs[3] == outs[4] == outs[5] == ("s28 A {{", [])
    assert calls in (["s28 {{getvar::a}} {{nope}}"] * 2, [])  # [] where block is compiled (native call)


def test_flat_pieces_cut_by_find_where_split_cuts() -> None:
    """A flat macro's pieces are cut with ``str.find`` from its first ``::`` on (``render_span``): runs of ``:``,
    extra arguments, empty and blank names, a last argument's trailing white space, the command alone, an
    unknown macro with and without arguments (its finding's expression the command, or the trimmed inside)."""
    rng = random.Random(11)
    texts = [
        "{{getvar::a::ignored}}{{getvar}}{{getvar::}}{{getvar:: ::x}}{{getvar:::a}}{{getvar::a:::b}}",
        "{{getturnvar:: a }}{{getsessionvar::b::}}{{var::unknown}}{{ getvar :: b }}",
        "{{upper::a::b}}{{upper::a  }}{{upper:: a \t}}{{upper}}{{upper::}}{{lower:::x}}{{trim::  y  ::z}}",
        "{{setvar::x::a::b  }}{{getvar::x}}{{setvar::::v}}{{setvar::turn}}{{setvar::session::s::t::u }}{{getvar::s}}",
        "{{setvar}}{{setvar::}}{{setvar:: n :::v:}}{{getvar::n}}{{setvar::turn:: ::v}}",
        "{{ unknownx }}{{unknownx}}{{unknownx::a}}{{ unknownx::a }}{{unknown}}{{a}}{{if}}{{if::x}}{{::}}{{ }}",
    ]
    for text in texts:
        for _ in range(6):  # the stores, the policies and no store
            assert _same(text, rng)


def test_a_scan_without_macros_is_the_text_in_one_piece() -> None:
    """``block.expand_block`` returns the text as it is when the scan gives at most one piece, a string: the scan
    cuts only where a top-level macro is, so that is exactly a text without one."""
    rng = random.Random(29)
    for _ in range(5_000):
        text = _text(rng)
        spans = scan_top_level(text)
        if spans is None:
            continue
        without = all(isinstance(span, str) for span in spans)
        assert without == (len(spans) < 2 and (not spans or isinstance(spans[0], str))), text
        if without:
            assert "".join(spans) == text, text  # type: ignore[arg-type]


def test_a_custom_macro_may_return_any_value() -> None:
    """A custom renderer's non-string result is printed as JavaScript would (``String()``), not refused: the
    dispatch's renderer is typed ``Any`` where it is called (a ``Renderer`` would have its result checked
    for ``str | None`` in the mypyc build)."""
    from forgec.plugins import Registry

    registry = Registry()
    registry.register_macro("listy", lambda ctx: [ctx.expand_arg(0), ctx.arg_count, None])
    registry.register_macro("numbery", lambda ctx: 3)
    diagnostics: list[Any] = []
    out = expand_block("{{listy::a}} {{numbery}} {{getvar::x}}", item_id="i", stack={}, runtime=Runtime(now_ms=0),
                       store=VariableStore(session={}, turn={"x": "X"}, session_dirty=False), diagnostics=diagnostics,
                       selected_tools=[], registry=registry, pointer=None)
    assert (out, diagnostics) == ("a,1, 3 X", [])


def test_the_scan_in_place_is_the_split_scan() -> None:
    """``_scan_in_place`` (the mypyc build's ``scan_top_level``: ``find`` where ``split`` cuts) gives the
    split scan's spans, or its None, on random texts and on runs of braces where the cuts overlap.  In the
    pure build ``scan_top_level`` is the split scan; in the compiled one it is ``_scan_in_place`` itself,
    and ``test_the_scan_is_the_parsers_top_level`` holds it against the parser."""
    rng = random.Random(29)
    texts = ["", "{{", "}}", "{{{", "}}}", "{{{{", "{{}}}", "{{{}}", "{{{{}}}}", "a{{b}}}}c{{", "{{a}}b}}{{c}}}",
             "{{a{{b}}", "{{a{{b}}}}", "{{a::{{b::c}}}}d", "x}}{{y}}", "{{{a}}}}}"]
    texts += [_text(rng) if rng.random() < 0.6 else _macro_text(rng) for _ in range(20_000)]
    texts += ["".join(rng.choice("{}a:") for _ in range(rng.randint(0, 16))) for _ in range(20_000)]
    for text in texts:
        assert grammar._scan_in_place(text) == scan_top_level(text), text


def test_the_scan_in_place_is_taken_exactly_in_the_compiled_build() -> None:
    """``NATIVE_SCAN`` is True only where ``grammar`` is compiled (as Python its ``find`` calls cost more
    than the ``split`` they replace)."""
    assert grammar.NATIVE_SCAN is ("compile/macros/grammar.py" in compiled_modules())
    assert grammar.NATIVE_SCAN is not isinstance(grammar._scan_in_place, FunctionType)


def test_an_unknown_macro_with_macros_inside_keeps_its_trim() -> None:
    """A top-level unknown macro with macros inside (the benchmark's ``{{if::{{getvar::k}}::…}}``) is found
    by its trimmed inside; compiled, the trim is skipped when both ends are printable ASCII (``NATIVE_TRIM``):
    every JS white space character at either end, non-ASCII letters, control and edge characters, and the
    first ``::`` before or after the first inner ``{{``, each against the whole parse."""
    rng = random.Random(30)
    ends = [*JS_WHITESPACE, "\x1f", "\x7f", "\x85", "ß", "\u03a3", "~", "!", "a", "}", ":", "{"]
    texts = []
    for left in ends:
        for right in ends:
            texts.append(f"x {{{{{left}if::{{{{getvar::a}}}}::b{right}}}}} y {{{{{left}q{{{{a}}}}{right}}}}}")
    texts += ["{{if::{{a}}}}{{ if::{{a}}}}{{if::{{a}} }}{{{{a}}::if}}{{i:{{a}}:f}}", "{{ {{a}}}}{{{{a}} }}"]
    for text in texts:
        assert _same(text, rng), text


def test_no_js_white_space_is_printable_ascii() -> None:
    """What ``Session._unresolved_span``'s skipped trim rests on: a text whose two ends are printable ASCII
    (``32 < ord < 127``) has nothing for ``strip(JS_WHITESPACE)`` to remove."""
    assert all(not 32 < ord(char) < 127 for char in JS_WHITESPACE)
    assert engine.NATIVE_TRIM is ("compile/macros/engine.py" in compiled_modules())
    assert engine.NATIVE_TRIM is not isinstance(engine.check_units, FunctionType)


def test_the_unresolved_policy_without_defaults() -> None:
    """``unresolved_policy``'s early answer for a stack with no ``defaults`` object is the general one's."""
    for stack in ({}, {"defaults": None}, {"defaults": []}, {"defaults": "keep"}, [], None, "x"):
        assert engine.unresolved_policy(stack) == "warn"
    for value, policy in (("keep", "keep"), ("error", "error"), ("warn", "warn"), (None, "warn"), (1, "warn"),
                          ("Keep", "warn"), (["keep"], "warn")):
        assert engine.unresolved_policy({"defaults": {"unresolvedMacroPolicy": value}}) == policy
    assert engine.unresolved_policy({"defaults": {}}) == "warn"


def test_a_last_arguments_trim_at_every_kind_of_end() -> None:
    """A flat ``setvar``'s or filter's last argument loses its trailing white space; compiled, the trim is
    skipped when the macro's last character is printable ASCII (``NATIVE_TRIM``): every JS white space
    character, control, non-ASCII and edge characters at the end, an empty last argument, each against the
    whole parse (the value written is read back)."""
    rng = random.Random(31)
    ends = [*JS_WHITESPACE, "\x1f", "\x7f", "\x85", "ß", "\u03a3", "~", "}", ":", "{", "a", ""]
    for end in ends:
        text = (f"{{{{setvar::v::x{end}}}}}{{{{getvar::v}}}}|{{{{setvar::w::a::b{end}}}}}{{{{getvar::w}}}}|"
                f"{{{{upper::a{end}}}}}|{{{{lower::B {end}}}}}|{{{{setvar::u::{end}}}}}{{{{getvar::u}}}}|{{{{trim::{end}}}}}")
        assert _same(text, rng), text


def test_the_pair_find_is_strs_find() -> None:
    """``grammar._find_pair`` (the compiled scan's ``{{``/``}}`` search) equals ``str.find`` of the pair, for
    every start and stop over runs of braces, lone braces and the ends of the text."""
    rng = random.Random(32)
    texts = ["", "{", "{{", "{{{", "}}}}", "a{b{{c", "}{}}{", "{ {{ {", "x}}"]
    texts += ["".join(rng.choice(["{", "}", "a", "{{", "}}", ":"]) for _ in range(rng.randint(0, 12))) for _ in range(400)]
    for text in texts:
        for char, code in (("{", 123), ("}", 125)):
            for start in range(len(text) + 1):
                for stop in range(start, len(text) + 1):
                    assert grammar._find_pair(text, char, code, start, stop) == text.find(char * 2, start, stop), text
