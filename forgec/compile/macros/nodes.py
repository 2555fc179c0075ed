"""The macro AST: :class:`Macro`, :data:`Node`, :data:`Document` and :func:`merge_text`.

Both parsers build it -- the hand-written pass of :mod:`.grammar` and lark's path in :mod:`.lark_parse` --
so it sits below both: :mod:`.grammar` reaches :mod:`.lark_parse` (on first use) for
``parse_with_lark``, and with the AST in :mod:`.grammar` the lark path had to import it back, an import
circle.  Compiled by mypyc with :mod:`.grammar` (``forgec.resources.COMPILED_MODULES``), so ``Macro``
stays a native class in the compiled build; :mod:`.grammar` re-exports the names its users import.
"""

from __future__ import annotations

from typing import Any

from forgec.js.values import js_trim, js_trim_end

__all__ = ["Document", "Macro", "Node", "merge_text"]


class Macro:
    """One complete ``{{…}}``: ``start``/``end`` delimit the full macro in the block text.

    ``parts`` are the expression's pieces between the macro's own ``::`` separators (nesting depth
    0), untrimmed; ``seps`` are the offsets of those separators.  The text-derived values
    (command, trimmed expression, raw arguments) are computed on first use from the block text and
    memoised: a parse is only ever used with the text it was made from.
    """

    __slots__ = ("_args", "_command", "_expression", "_raw_args", "_report", "end", "parts", "seps", "start")

    def __init__(self, start: int, end: int, parts: list[list[Node]], seps: list[int]) -> None:
        self.start = start
        self.end = end
        self.parts = parts
        self.seps = seps
        self._command: str | None = None
        self._args: list[list[Node]] | None = None
        self._raw_args: list[str] | None = None
        self._expression: str | None = None
        #: the engine's last unresolved-macro diagnostic for this macro, with what it was made for
        #: (see :func:`forgec.compile.macros.engine.unresolved_diagnostic`)
        self._report: tuple[Any, ...] | None = None

    def __repr__(self) -> str:
        return f"Macro({self.start}, {self.end}, {self.parts!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Macro)
            and (self.start, self.end, self.seps, self.parts) == (other.start, other.end, other.seps, other.parts)
        )

    __hash__ = None  # type: ignore[assignment]

    # --- values derived from the block text (§3.2) ---------------------------------------------

    def full(self, text: str) -> str:
        """The full macro ``{{…}}`` as written (what an unresolved macro leaves in the output)."""
        return text[self.start : self.end]

    def expression(self, text: str) -> str:
        """The trimmed expression: the key of the unresolved set and of its diagnostic."""
        if self._expression is None:
            self._expression = js_trim(text[self.start + 2 : self.end - 2])
        return self._expression

    def command(self, text: str) -> str:
        """The first part, trimmed; never expanded (``""`` means "keep the macro, no diagnostic")."""
        if self._command is None:
            first_end = self.seps[0] if self.seps else self.end - 2
            self._command = js_trim(text[self.start + 2 : first_end])
        return self._command

    def raw_args(self, text: str) -> list[str]:
        """Raw argument texts; the last one loses the expression's trailing whitespace."""
        if self._raw_args is None:
            bounds = [*self.seps, self.end - 2]
            raw = [text[bounds[i] + 2 : bounds[i + 1]] for i in range(len(self.seps))]
            if raw:
                raw[-1] = js_trim_end(raw[-1])
            self._raw_args = raw
        return self._raw_args

    def args(self) -> list[list[Node]]:
        """Argument node lists (as :meth:`raw_args`), ready for lazy expansion."""
        if self._args is None:
            args = self.parts[1:]
            if args:
                last = list(args[-1])
                if last and isinstance(last[-1], str):
                    trimmed = js_trim_end(last[-1])
                    if trimmed:
                        last[-1] = trimmed
                    else:
                        last.pop()
                args = [*args[:-1], last]
            self._args = args
        return self._args


Node = str | Macro
Document = tuple[Node, ...]


def merge_text(nodes: list[Any]) -> list[Node]:
    """Join adjacent text pieces so a node list alternates text and macros."""
    out: list[Node] = []
    buf: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            buf.append(node)
        else:
            if buf:
                out.append("".join(buf))
                buf = []
            out.append(node)
    if buf:
        out.append("".join(buf))
    return out
