"""The lark path of the macro grammar: ``grammar/macros.lark`` run by lark, the executable grammar.

:func:`forgec.compile.macros.grammar.parse` parses every block with its hand-written pass; this module is
what the tests and tools compare that pass against (:func:`parse_with_lark`, also reached as
``grammar.parse_with_lark``).  It is apart from :mod:`.grammar` because its AST builder subclasses lark's
``Transformer`` inside a function (lark is imported only when the lark path runs), which mypyc cannot
compile, and :mod:`.grammar` is compiled in the mypyc build.  Both build the AST of :mod:`.nodes`, which
sits below them (so this module needs nothing from :mod:`.grammar`, which imports it).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.macros.nodes import Document, Macro, merge_text

__all__ = ["parse_with_lark"]


class _PostLex:
    """Matches ``{{``/``}}`` tokens like the reference's depth walk; leftovers become literal text."""

    always_accept: tuple[str, ...] = ()

    def process(self, stream: Any) -> Any:
        from lark import Token

        tokens = list(stream)
        open_stack: list[int] = []
        for index, token in enumerate(tokens):
            kind = token.type
            if kind == "OPEN":
                open_stack.append(index)
            elif kind == "CLOSE":
                if open_stack:
                    open_stack.pop()
                else:
                    tokens[index] = Token.new_borrow_pos("LITERAL_CLOSE", token, token)
        for index in open_stack:
            tokens[index] = Token.new_borrow_pos("LITERAL_OPEN", tokens[index], tokens[index])
        return iter(tokens)


def _build_transformer() -> Any:
    from lark import Transformer

    class _Builder(Transformer[Any, Any]):
        """Builds the AST during the LALR parse (no intermediate lark ``Tree``)."""

        def macro(self, children: list[Any]) -> Macro:
            parts: list[list[Any]] = [[]]
            seps: list[int] = []
            for child in children[1:-1]:
                if isinstance(child, Macro):
                    parts[-1].append(child)
                elif child.type == "SEP":
                    seps.append(child.start_pos)
                    parts.append([])
                else:
                    parts[-1].append(str(child))
            return Macro(children[0].start_pos, children[-1].end_pos, [merge_text(p) for p in parts], seps)

        def start(self, children: list[Any]) -> Document:
            return tuple(merge_text([c if isinstance(c, Macro) else str(c) for c in children]))

    return _Builder()


_LARK: Any = None


def _lark_parser() -> Any:
    """The LALR parser, built once per process from the bundled grammar."""
    global _LARK
    if _LARK is None:
        from lark import Lark

        from forgec.resources import grammar_path

        grammar = grammar_path("macros").read_text(encoding="utf-8")
        _LARK = Lark(
            grammar,
            parser="lalr",
            lexer="basic",
            postlex=_PostLex(),
            transformer=_build_transformer(),
            maybe_placeholders=False,
        )
    return _LARK


def parse_with_lark(text: str) -> Document:
    """Parse with the lark grammar (uncached; :func:`parse` is the entry point)."""
    if not text:
        return ()
    return _lark_parser().parse(text)  # type: ignore[no-any-return]
