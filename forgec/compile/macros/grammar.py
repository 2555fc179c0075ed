"""Parsing pi-forge macro text (compile-core.md §3.1-§3.2) into an offset-carrying AST.

The grammar is ``grammar/macros.lark``.  Two facts about pi-forge's scanner shape this module:

* **Tokens.** The reference walks two-character pairs, so a run of ``{`` (``}``, ``:``) is cut into
  pairs from its start: ``{{{`` is ``{{`` then ``{``; ``a:::b`` splits into ``a`` and ``:b``.  A
  greedy left-to-right tokenisation into ``OPEN``/``CLOSE``/``SEP`` pairs and ``TEXT`` produces the
  same cut everywhere, and because every run of one character starts on a token boundary, the
  tokens of an argument re-scanned on its own (``expandArg``) are exactly the tokens it had inside
  the whole block.  So one parse of the block serves every later (lazy) argument expansion.
* **Structure.** Whether an ``{{`` opens a macro depends on whether a matching ``}}`` follows
  *anywhere* later (§3.1 step 4: an unclosed ``{{`` is emitted literally and scanning resumes right
  after it).  No LR(1) grammar can decide that, so code takes over for this one step: a stack
  matches ``OPEN``/``CLOSE`` exactly like the reference's depth counter (an ``OPEN`` is closed by
  the ``CLOSE`` that brings the depth back to zero; a ``CLOSE`` with nothing open is text) and
  re-types the leftovers as ``LITERAL_OPEN``/``LITERAL_CLOSE``.  What remains is an unambiguous
  LALR(1) grammar, which lark parses (:mod:`.lark_parse`, reached through :func:`parse_with_lark`).

Every terminal is acceptable in every parser state, so lark's contextual lexer would gain nothing;
the lark path uses the basic lexer plus the post-lexer above.

**Speed.** lark creates a ``Token`` object per token and runs its LALR loop in Python: about 0.5 s
for a 1 MB block holding 10,000 macros, and ~0.2 ms for a 300-character block with six macros
(docs/performance.md).  :func:`parse` therefore parses every block with :func:`_parse_fast`, a
hand-written shift/reduce pass over the same tokens (found by ``str.split`` at each pair token in C;
``TEXT`` is whatever lies between them).  Both produce identical ASTs, which the
test suite checks on random texts and against an independent reference scanner; lark stays the
executable grammar (:func:`parse_with_lark`) those tests compare against.  Parses are cached per
distinct text, bounded by an estimate of their bytes (:func:`parse_cost`).

AST (:mod:`.nodes`, shared with the lark path): a :class:`Document` is a tuple of nodes; a node is a
``str`` (literal text, adjacent pieces merged) or a :class:`Macro`.  A macro keeps its offsets in the block text and its children split
at its own separators.
"""

from __future__ import annotations

from typing import Any, Final

from forgec.codecs.stack import ByteCache
from forgec.compile.macros.nodes import Document, Macro, Node, merge_text
from forgec.resources import is_compiled

__all__ = [
    "CACHE_BUDGET",
    "Document",
    "Macro",
    "Node",
    "Span",
    "iter_macros",
    "parse",
    "parse_macro_at",
    "parse_seen",
    "parse_with_lark",
    "parsed",
    "scan_top_level",
]


# --- the lark path ---------------------------------------------------------------------------------


def parse_with_lark(text: str) -> Document:
    """Parse with the lark grammar (uncached; :func:`parse` is the entry point).

    The lark path lives in :mod:`.lark_parse`, imported here on first use: its AST builder is a class
    made inside a function (lark is imported only when asked for), which mypyc cannot compile, and this
    module is compiled in the mypyc build (the parser of every new block)."""
    from forgec.compile.macros.lark_parse import parse_with_lark as parse_lark

    return parse_lark(text)


# --- the fast path ---------------------------------------------------------------------------------

def _parse_fast(text: str, base: int = 0) -> Document:
    """The same automaton as the grammar, hand-written: shift text, push on ``{{``, reduce on ``}}``.

    **Tokens.** The three pair tokens never overlap (each is two of one character), and each is cut
    greedily from the start of its character's run, which is exactly what ``str.split`` does with it.
    So splitting the text at ``{{``, each chunk at ``}}`` and each segment at ``::`` yields the grammar
    lexer's tokens in order, in C (a regular expression's ``split`` over the three alternatives took
    ~10 times as long as the three ``str.split`` levels); a ``{{`` stands between two chunks, a ``}}``
    between two segments, a ``::`` between two pieces.

    **Structure.** Frames are ``(start, parts, seps)``.  A frame still open at the end was an unclosed
    ``{{``: it is flattened back into literal text (its separators included), innermost first; its
    complete inner macros stay macros, as the reference's rescan from the next character would find
    them.  Inside a frame every ``}}`` closes and every ``::`` separates, so a closed macro's parts
    already alternate text and macros; only the top level (a stray ``}}`` or ``::`` beside text) and
    the flattening of an unclosed ``{{`` can put two text pieces side by side, and only then is the
    top level merged.

    **Loops.** Every loop runs over a whole list, the first element told apart by a flag (the head before
    the first ``{{``, the piece before a segment's first ``::``), and every chunk is split at ``}}``
    even without one: in the mypyc build a ``for`` over a list is a C loop over its items while
    ``iter``/``next`` and a list-or-tuple go through the generic iterator protocol (~17 % fewer
    instructions for a 7-macro block compiled, ~4 % as Python; measured with callgrind).

    ``base``: ``text`` is the block from that offset on (:func:`parse_macro_at`); offsets are the block's.
    """
    chunks = text.split("{{")
    head = chunks[0]  # before the first "{{" nothing is open: its "}}" and "::" are text
    root: list[Any] = [head] if head else []
    frames: list[tuple[int, list[list[Any]], list[int]]] = []
    current = root
    stray = False
    pos = base + len(head)  # offset of what comes next in the block (``text`` is the block from ``base`` on)
    opened = False  # the head comes before any "{{"
    for chunk in chunks:
        if not opened:
            opened = True
            continue
        current = []  # a "{{" before this chunk
        frames.append((pos, [current], []))
        pos += 2
        closing = False
        for segment in chunk.split("}}"):
            if closing:  # a "}}" before this segment
                pos += 2
                if frames:
                    start, parts, seps = frames.pop()
                    macro = Macro(start, pos, parts, seps)
                    current = frames[-1][1][-1] if frames else root
                    current.append(macro)
                else:
                    current.append("}}")
                    stray = True
            closing = True
            if not segment:
                continue
            if "::" not in segment:
                current.append(segment)
                pos += len(segment)
            elif frames:  # each "::" directly inside the open macro separates its arguments
                _start, parts, seps = frames[-1]
                separating = False
                for piece in segment.split("::"):
                    if separating:  # a "::" before this piece
                        seps.append(pos)
                        pos += 2 + len(piece)
                        current = [piece] if piece else []
                        parts.append(current)
                    else:
                        separating = True
                        if piece:
                            current.append(piece)
                            pos += len(piece)
            else:  # nothing open: the segment is text, its "::" included
                current.append(segment)
                pos += len(segment)
                stray = True
    if not frames:
        return tuple(merge_text(root)) if stray else tuple(root)
    while frames:  # unclosed "{{": literal text, children kept
        _start, parts, _seps = frames.pop()
        target = frames[-1][1][-1] if frames else root
        target.append("{{")
        for index, part in enumerate(parts):
            if index:
                target.append("::")
            target.extend(part)
    return tuple(merge_text(root))


#: a top-level macro found by :func:`scan_top_level`: its start and end offsets in the block, and whether
#: it holds no ``{{`` (a *flat* macro: its inside is one segment, split only at its ``::``)
Span = tuple[int, int, bool]


def scan_top_level(text: str) -> list[str | Span] | None:
    """The block's top level without its inner structure: the text between top-level macros (as
    :func:`_parse_fast` merges it) and a :data:`Span` for each top-level macro; None when a ``{{`` is
    left unclosed (its flattening is :func:`_parse_fast`'s business).

    What a first-sight block needs (:func:`forgec.compile.macros.engine.expand_first_sight`): a flat macro
    is rendered from its text, with no :class:`Macro`, parts lists or parser frames; a macro with macros
    inside is parsed on its own (:func:`parse_macro_at`) only when it is rendered.  The tokens are the
    parser's (the same ``str.split`` at ``{{``; in each chunk, ``str.find`` of ``}}`` from the end of the
    previous one, the cut ``split`` makes, without making the segments); a depth counter stands for
    the parser's stack of frames (every ``}}`` closes the innermost open ``{{``; with none open it is
    text), so with nothing left open the top-level macros are exactly the parser's: a macro ends where
    the depth comes back to zero.  A chunk is searched only until then: the ``}}`` after it, up to the
    next ``{{``, are text (no failing ``find`` over the rest of each chunk: 8 ``find`` calls instead of
    14 for the benchmark's block, each ~250 instructions in the mypyc build).  ``::`` needs no look here: at the top level it is text, inside a macro
    the renderer splits its own text.
    """
    if NATIVE_SCAN:  # the mypyc build: the same tokens found in place (no chunk strings)
        return _scan_in_place(text)
    chunks = text.split("{{")
    head = chunks[0]
    spans: list[str | Span] = []
    pos = len(head)  # offset of what comes next in ``text``
    last = 0  # where the text not yet given out starts
    depth = 0
    top = 0  # where the top-level macro being read starts
    flat = True
    opened = False  # the head comes before any "{{"
    for chunk in chunks:
        if not opened:
            opened = True
            continue
        if depth:
            flat = False
        else:
            top = pos
            flat = True
        depth += 1
        pos += 2  # where the chunk starts
        close = chunk.find("}}")  # the chunk's "}}" tokens, cut from each run's start as split cuts them
        while close >= 0:
            depth -= 1
            if not depth:  # the top-level macro ends here; the chunk's later "}}" are stray text: not looked for
                if top > last:
                    spans.append(text[last:top])
                last = pos + close + 2
                spans.append((top, last, flat))
                break
            close = chunk.find("}}", close + 2)
        pos += len(chunk)
    if depth:
        return None
    if last < len(text):
        spans.append(text[last:])
    return spans


def _scan_in_place(text: str) -> list[str | Span] | None:
    """:func:`scan_top_level` with each ``{{`` found by ``str.find`` where ``split`` cuts (leftmost,
    non-overlapping: the next one is looked for from the end of the last), and each chunk's ``}}`` looked
    for in ``text`` up to the next ``{{``, as in the chunk itself.  Compiled, a ``find`` is a C call and
    the chunk strings ``split`` makes are the cost (~1.4k instructions a block of the benchmark's fewer);
    as Python each ``find`` is an interpreted call and ``split`` wins (~6.7k more a block): so
    :func:`scan_top_level` takes this only where it is compiled (:data:`NATIVE_SCAN`)."""
    spans: list[str | Span] = []
    size = len(text)
    last = 0  # where the text not yet given out starts
    depth = 0
    top = 0  # where the top-level macro being read starts
    flat = True
    opening = _find_pair(text, "{", 123, 0, size)
    while opening >= 0:
        if depth:
            flat = False
        else:
            top = opening
            flat = True
        depth += 1
        pos = opening + 2  # where the chunk starts
        opening = _find_pair(text, "{", 123, pos, size)
        stop = size if opening < 0 else opening  # where the chunk ends
        close = _find_pair(text, "}", 125, pos, stop)
        while close >= 0:
            depth -= 1
            if not depth:  # the top-level macro ends here; the chunk's later "}}" are stray text
                if top > last:
                    spans.append(text[last:top])
                last = close + 2
                spans.append((top, last, flat))
                break
            close = _find_pair(text, "}", 125, close + 2, stop)
    if depth:
        return None
    if last < size:
        spans.append(text[last:])
    return spans


def _find_pair(text: str, char: str, code: int, start: int, stop: int) -> int:
    """``text.find(char * 2, start, stop)`` (``code`` is ``ord(char)``) by a one-character ``find`` and a look at
    the next character: leftmost, so the same non-overlapping cuts.  Compiled, a one-character ``find`` is
    CPython's ``memchr`` path and the next character an inline read, where a two-character ``find`` sets up
    its search first (~100-170 instructions more a call, sixteen calls a benchmark block); a lone ``{`` or ``}``
    costs one more ``find``."""
    at = text.find(char, start, stop)
    while at >= 0:
        if at + 1 < stop and ord(text[at + 1]) == code:
            return at
        at = text.find(char, at + 1, stop)
    return -1


#: whether :func:`_scan_in_place` is compiled (the mypyc build: then it is no Python function), and so
#: what :func:`scan_top_level` runs; Final, so the compiled check reads a C static, not the module dict
NATIVE_SCAN: Final = is_compiled(_scan_in_place)


def parse_macro_at(text: str, start: int, end: int) -> Macro:
    """The :class:`Macro` :func:`_parse_fast` makes for the complete top-level macro ``text[start:end]``
    (a :data:`Span` of :func:`scan_top_level`): its slice starts at a ``{{`` token and ends with the ``}}``
    that closes it, so it splits into the same tokens as inside the whole block (the argument the module
    docstring makes for ``expandArg``), and its parse is that one macro, with the block's offsets."""
    doc = _parse_fast(text[start:end], start)
    macro = doc[0]
    if len(doc) != 1 or not isinstance(macro, Macro):  # never: a complete macro parses to itself
        raise AssertionError(f"not one macro at {start}:{end}")
    return macro


#: estimated bytes of one parsed macro: a ``Macro`` with its lists and text pieces (~690 bytes measured
#: with ``tracemalloc`` on a 1,000-block stack) plus what the engine memoises on it, its trimmed
#: expression and a reusable unresolved-macro finding (~350 bytes)
MACRO_BYTES = 1_040
#: the parse cache's budget: ~5,000 typical blocks of 2 KB with a dozen macros, or one 1 MB block
#: with 20,000 macros (~22 MB estimated) within the quarter of the budget a single entry may take
CACHE_BUDGET = 96 * 1024 * 1024



def parse_cost(text: str) -> int:
    """The cache's estimate of a parse: the text plus :data:`MACRO_BYTES` per ``}}`` (an upper bound of
    the macros: each is a ``Macro``, its parts lists and text pieces)."""
    return len(text) + MACRO_BYTES * text.count("}}")


#: Parsed blocks per distinct text, bounded by :func:`parse_cost` rather than by a count of entries: a
#: 1,000-item stack compiled again and again (an editor, a golden-test run) needs 1,000 small entries,
#: and a cyclic walk over 1,000 texts through a 512-entry LRU hits nothing; one 1 MB block with 20,000
#: macros, on the other hand, weighs as much as thousands of small ones.  The same byte-bounded LRU as
#: the stack cache: a text over a quarter of the budget is parsed every time rather than cached.
_CACHE: ByteCache[Document] = ByteCache(CACHE_BUDGET, second_sight=True)


def sweep_cache() -> None:
    """Forget parsed texts, and recorded expansions (:mod:`.replay`), not used since the previous sweep
    (see :meth:`ByteCache.sweep`)."""
    from forgec.compile.macros.replay import REPLAYS

    _CACHE.sweep()
    REPLAYS.sweep()


def parse(text: str, *, use_lark: bool = False) -> Document:
    """The AST of ``text``, cached per distinct text (stacks are compiled many times).

    Every block is parsed by :func:`_parse_fast`, at every size: it returns the AST the lark
    grammar gives (the property tests compare the two parsers on random texts, and the engine's
    results against an independent reference scanner), about 20 times faster, and without importing
    lark.  The grammar accepts every text, so lark has no diagnostics to add; ``use_lark=True``
    parses with it instead (uncached), the executable form of ``grammar/macros.lark`` for tests and
    tools that check the two agree.
    """
    if use_lark:
        return parse_with_lark(text)
    found, keep = _CACHE.get_or_mark(text)
    if found is not None:
        return found
    # without both pair tokens nothing can be a macro
    doc: Document = _parse_fast(text) if "{{" in text and "}}" in text else ((text,) if text else ())
    if keep:  # a first sight is only marked (the cache keeps texts from their second sight on)
        _CACHE.put(text, doc, parse_cost(text))
    return doc


def parse_seen(text: str, seen: bool) -> Document:
    """:func:`parse` for a caller that has just asked another second-sight cache about ``text``: the
    replay cache, which :func:`forgec.compile.macros.expand_block` asks first (a replayed block needs
    no parse).  ``seen`` is its answer, whether the text was seen before, and the parse cache takes its
    word for it: a first sight is parsed without a look-up or a mark of its own (one cache call per new
    block instead of two), a later sight is looked up and, parsed, kept at once.

    ``expand_block`` calls it only for a text it does not expand from the top level (a ``{{`` left unclosed,
    a replay that failed) and for a text whose recording failed (its parse kept for the next sight, which
    finds it with :func:`parsed`).  A text held here but new to the replay cache (the linter parsed it
    twice, the replay cache was cleared alone) is expanded from its top level at its first expansion, to
    the same output."""
    if not seen:
        return _parse_fast(text) if "{{" in text and "}}" in text else ((text,) if text else ())
    found = _CACHE.get(text)
    if found is not None:
        return found
    doc: Document = _parse_fast(text) if "{{" in text and "}}" in text else ((text,) if text else ())
    _CACHE.put(text, doc, parse_cost(text), seen=True)
    return doc


def parsed(text: str) -> Document | None:
    """The parse cache's entry for ``text``, or None: for :func:`forgec.compile.macros.block.expand_block`,
    which expands a text seen but never recorded from its top level unless its parse is kept (see there)."""
    return _CACHE.get(text)


def iter_macros(nodes: Any) -> Any:
    """Every macro in a node list, outer before inner, without recursion (deep nesting is allowed)."""
    todo = [iter(nodes)]
    while todo:
        for node in todo[-1]:
            if isinstance(node, Macro):
                yield node
                todo.append(iter([n for part in node.parts for n in part]))
                break
        else:
            todo.pop()
