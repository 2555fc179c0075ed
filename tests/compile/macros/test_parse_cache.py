"""The macro parser the compiler uses: the fast pass for every block (lark's AST, without lark), and
a parse cache that holds a 1,000-item stack and is bounded by an estimate of bytes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from forgec.codecs.stack import ByteCache
from forgec.compile.macros import grammar
from forgec.compile.macros.grammar import MACRO_BYTES, Document, parse, parse_cost, parse_with_lark


def _block(i: int) -> str:
    return f"Rule {i}: {{{{setvar::k{i}::v}}}} {{{{if::{{{{getvar::k{i}}}}}::yes::no}}}} {{{{x::{{{{ {{{{y}}}} }}}} tail {i} ::"


def test_small_and_large_blocks_get_larks_ast() -> None:
    small = _block(1)
    large = "".join(_block(i) for i in range(400))
    assert len(small) < 16_384 < len(large)
    for text in (small, large, "{{a}}}}{{", "::{{b::c}}::", "{{{{{{x}}}}"):
        assert parse(text) == parse_with_lark(text)
        assert parse(text, use_lark=True) == parse_with_lark(text)


def test_a_compile_with_macros_never_imports_lark() -> None:
    code = textwrap.dedent(
        """
        import sys
        from forgec.compile.macros import expand_text
        from forgec.model.variables import VariableStore
        out, _ = expand_text("{{setvar::a::1}}{{getvar::a}} {{upper::x}} " * 50, store=VariableStore())
        assert out.startswith("1 X"), out
        assert "lark" not in sys.modules, "lark imported"
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_cache_holds_a_thousand_item_stack() -> None:
    texts = [_block(i) for i in range(1_000)]
    for text in texts:  # a text is kept from its second parse on (second sight)
        parse(text)
    first = [parse(t) for t in texts]
    for _round in range(2):  # a cyclic walk: with an LRU of 512 entries nothing would hit
        assert all(parse(t) is doc for t, doc in zip(texts, first, strict=True))


def test_the_cache_is_bounded_by_its_byte_estimate() -> None:
    cache: ByteCache[Document] = ByteCache(10_000)
    texts = [f"{{{{m{i}}}}} " + "x" * 200 for i in range(200)]
    for text in texts:
        cache.put(text, parse(text), parse_cost(text))
        assert cache.size <= cache.capacity
    cost = len(texts[0]) + MACRO_BYTES
    assert parse_cost(texts[0]) == cost
    assert len(cache) == 10_000 // cost
    assert cache.get(texts[-1]) is not None and cache.get(texts[0]) is None  # least recently used went first
    huge = "{{a}}" * 1_000  # estimated above a quarter of the budget: parsed, never cached
    cache.put(huge, parse(huge), parse_cost(huge))
    assert cache.get(huge) is None and cache.size <= cache.capacity
    cache.clear()
    assert cache.size == 0 and not len(cache)


def test_the_process_cache_has_room_for_a_megabyte_block() -> None:
    text = ("{{upper::x}}" + "y" * 38) * 20_000  # 1 MB with 20,000 macros, as benchmarks/bench_macros.py
    assert (len(text) + MACRO_BYTES * text.count("}}")) * 4 <= grammar.CACHE_BUDGET


def test_sweep_forgets_texts_not_parsed_since_the_last_sweep() -> None:
    cache: ByteCache[Document] = ByteCache(1 << 20)
    old, new, kept = "{{a}} old", "{{a}} new", "{{b}} kept"
    for text in (old, kept):
        cache.put(text, parse_with_lark(text), parse_cost(text))
    cache.sweep()
    assert cache.get(kept) is not None  # the unchanged block, read by the next check
    cache.put(new, parse_with_lark(new), parse_cost(new))  # the edited block, parsed by the next check
    cache.sweep()  # the superseded version was neither read nor stored: it goes
    assert cache.get(old) is None
    assert cache.get(new) == parse_with_lark(new) and cache.get(kept) == parse_with_lark(kept)
    assert cache.size == len(new) + len(kept) + 2 * MACRO_BYTES
