"""ruamel's C composer (``ruamel.yaml.clib``, libyaml), used where it reads a text as the pure one does.

forgec reads YAML with ruamel.yaml's pure-Python composer (:mod:`forgec.source.yaml`): its node tree
gives the positions and its messages are forgec's YAML error texts.  It is slow (a 200-item stack
takes ~150 ms), and the language server checks on every pause in typing.  ruamel.yaml.clib ships
libyaml's scanner and parser and a composer in C that build the same ``ruamel.yaml.nodes`` tree with
marks, about ten times faster.  The two parsers do not agree on everything, so the C tree is used
only where they are known to agree, and the pure path runs for everything else:

* any error at all (the C parser's messages differ): the pure path reports it;
* texts the two read differently, found by the differential test
  (``tests/source/test_yaml_fast.py``, ``scripts/diff_yaml.py``): a ``%`` directive line (libyaml
  reads ``%YAML 1.1``, ruamel's C loader ignores the version), a byte-order mark anywhere, tabs (the
  pure scanner refuses a tab after ``:`` or at the end of a line, libyaml does not), and the
  line breaks NEL, LS and PS (libyaml breaks lines there, the pure scanner refuses them), a lone
  CR, an anchor name or a tag the two split differently (``&a:b``, ``!!!int``), a block-scalar
  header with a comment not set off by a space, a document that is one block scalar, a document-end
  marker line (``...``: after a second one libyaml reads nothing more, the pure parser a second
  document, "expected a single document in the stream"), and an empty scalar anywhere but as a
  left-out value of a block mapping (repaired, below);
* nesting deeper than :data:`C_MAX_DEPTH` (the C composer recurses on the C stack, which a thread
  can run out of; the pure composer's Python recursion is bounded by the recursion limit);
* ``ruamel.yaml.clib`` missing (PyPy, a platform without its wheel): silently the pure path.

Three differences are repaired rather than avoided: libyaml marks the end of a collection that
ends at the end of a text without a final line break on the line after it (the pure composer: at
the text's end); it puts a left-out value (``role:`` while it is being typed) right after the
``:``, the pure parser at the next key or the mapping's end; and a plain scalar's ``style`` is ``''`` where the pure composer gives ``None``
(forgec reads the style only to tell quoted and block scalars apart, so it is left as it is).
Scalars are resolved (``int``, ``bool``, ``null``…) with ruamel's own YAML 1.2 table, taken from
:class:`ruamel.yaml.resolver.VersionedResolver`, by a resolver without its per-call version lookup
(which was most of the C path's time).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["C_MAX_DEPTH", "compose_fast", "fast_composer_available"]

#: Deepest collection nesting composed in C (each level is ~300 bytes of C stack; a thread may have
#: only 256 KiB).  Real documents nest a few levels; deeper ones go to the pure composer.
C_MAX_DEPTH = 200

#: What the C parser reads differently from the pure one (see the module docstring): characters
#: checked with ``in`` (fast), then the patterns below where their first character occurs.
_NOT_FOR_C_CHARS = ("\t", "\ufeff", "\x85", "\u2028", "\u2029", "\n%")
#: a line break that is a lone carriage return
_LONE_CR = re.compile("\r(?!\n)")
#: an anchor or alias name that goes on with a character only ruamel allows in names
_ANCHOR = re.compile(r"(?<![^\s\[\]{},])[&*][0-9A-Za-z_-]+[?:%@`]")
#: a tag (libyaml and ruamel split handles and suffixes differently: ``!!!int``)
_TAG = re.compile(r"(?<![^\s\[\]{},])!\S")
#: a block scalar header with a comment not set off by a space (libyaml reads it, ruamel does not)
_HEADER_COMMENT = re.compile(r"(?<!\S)[|>][-+0-9]*#")
#: a document-end marker line: ``...`` at the start of a line, then a blank, a line break or the end
_DOCUMENT_END = re.compile(r"^\.\.\.(?:[ \r\n]|$)", re.MULTILINE)


def _c_reads_alike(text: str) -> bool:
    """Whether ``text`` has none of what the two parsers read differently."""
    if text.startswith("%") or any(char in text for char in _NOT_FOR_C_CHARS):
        return False
    if "\r" in text and _LONE_CR.search(text):
        return False
    if ("&" in text or "*" in text) and _ANCHOR.search(text):
        return False
    if "!" in text and _TAG.search(text):
        return False
    if "..." in text and _DOCUMENT_END.search(text):
        return False
    return "#" not in text or _HEADER_COMMENT.search(text) is None


class _TooDeep(Exception):
    """Raised from the resolver hook to stop the C composer before its recursion gets deep."""


_parser: Any = None  # the CParser subclass, built on first use; False when the clib is missing


def _build_parser() -> Any:
    """The C parser with forgec's resolver, or ``False`` if ruamel.yaml.clib cannot be imported."""
    try:
        from _ruamel_yaml import CParser  # type: ignore[import-not-found]
    except ImportError:
        return False
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
    from ruamel.yaml.resolver import VersionedResolver

    resolver = VersionedResolver(version=(1, 2))
    table: dict[Any, list[tuple[Any, Any]]] = resolver.versioned_resolver
    if None in table or VersionedResolver.yaml_path_resolvers:
        # the pure resolver would consult these too; forgec's never does
        return False
    from ruamel.yaml.tag import Tag

    #: one Tag per implicit tag, shared by every node it resolves (a Tag caches its text)
    tags = {tag: Tag(suffix=tag) for pairs in table.values() for tag, _ in pairs}
    scalar_tag = resolver.DEFAULT_SCALAR_TAG
    sequence_tag = resolver.DEFAULT_SEQUENCE_TAG
    mapping_tag = resolver.DEFAULT_MAPPING_TAG

    class FastParser(CParser):  # type: ignore[misc]
        """libyaml's parser and C composer, with :meth:`VersionedResolver.resolve`'s YAML 1.2
        answers and a depth guard on the hooks the composer calls around every child node."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            self.depth = 0

        def descend_resolver(self, parent: Any, index: Any) -> None:
            self.depth += 1
            if self.depth > C_MAX_DEPTH:
                raise _TooDeep

        def ascend_resolver(self) -> None:
            self.depth -= 1

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode:
                if implicit[0]:
                    for tag, regexp in table.get(value[:1], ()):
                        if regexp.match(value):
                            return tags[tag]
                return scalar_tag
            return sequence_tag if kind is SequenceNode else mapping_tag

    assert MappingNode is not None
    return FastParser


def fast_composer_available() -> bool:
    """Whether ruamel.yaml.clib is importable (the C path can run at all)."""
    global _parser
    if _parser is None:
        _parser = _build_parser()
    return _parser is not False


def compose_fast(text: str) -> tuple[bool, Any]:
    """``(True, root)`` -- the node tree the pure composer would build, ``None`` for an empty
    document -- when the C composer may read ``text``; ``(False, None)`` for the pure path."""
    if not fast_composer_available() or not _c_reads_alike(text):
        return False, None
    from ruamel.yaml.error import YAMLError

    try:
        root = _parser(text).get_single_node()
    except (YAMLError, _TooDeep, ValueError, TypeError):
        return False, None
    if root is None:
        return True, None
    if getattr(root, "style", None) in ("|", ">"):
        # a document that is one block scalar may hold lines at column 0, which libyaml reads
        # as comments and the pure scanner as content
        return False, None
    if not text.endswith("\n"):
        _end_at_text_end(root, text)
    if not _settle_left_out_values(root, text):
        return False, None
    return True, root


#: what may stand between a ``:`` and the next token: blanks, line breaks, comments
_BETWEEN_TOKENS = re.compile(r"(?:[ \r\n]|#[^\n]*)*")


def _settle_left_out_values(root: Any, text: str) -> bool:
    """Put each left-out value of a block mapping (``key:`` and nothing) where the pure composer
    puts it; False if the tree has an empty scalar anywhere else (the pure path reads it then).

    libyaml puts the empty scalar right after the ``:``; ruamel's pure parser at the end of the
    next token, which is the next simple key (its node's start) or the mapping's end (the block-end
    token, whose mark is the mapping node's end mark).  Only that case is repaired, and only when
    nothing but blanks and comments lies between the two places.
    """
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        value = node.value
        if isinstance(value, str):
            if not value and not node.style:
                return False  # an empty key, list entry or document, or a value not handled below
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        if type(node).__name__ != "MappingNode":
            todo.extend(value)
            continue
        last = len(value) - 1
        for index, (key, item) in enumerate(value):
            todo.append(key)
            if not (isinstance(item.value, str) and not item.value and not item.style) or node.flow_style:
                todo.append(item)
                continue
            mark = value[index + 1][0].start_mark if index < last else node.end_mark
            after = item.start_mark.index
            if (
                item.end_mark.index != after
                or not 0 < after <= mark.index
                or text[after - 1] != ":"
                or (index < last and _explicit_key(text, mark.index))
                or _BETWEEN_TOKENS.fullmatch(text, after, mark.index) is None
            ):
                return False
            item.start_mark = item.end_mark = mark
    return True


def _explicit_key(text: str, at: int) -> bool:
    """Whether the key starting at ``at`` follows a ``?`` on its line (its token ends there)."""
    line_start = text.rfind("\n", 0, at) + 1
    return text[line_start:at].rstrip(" ").endswith("?")


def _end_at_text_end(root: Any, text: str) -> None:
    """Move marks libyaml puts after a final line break the text lacks back to the text's end.

    Only the last node at each level (the right edge of the tree) can end at the end of the text.
    """
    end = len(text)
    line = text.count("\n")
    column = end - (text.rfind("\n") + 1)
    node = root
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        _end_at(node, end, line, column)
        children = node.value
        if isinstance(children, str) or not children:
            break
        last = children[-1]
        if isinstance(last, tuple):  # a mapping's last (key, value): the key may end there too
            _end_at(last[0], end, line, column)
            last = last[1]
        node = last


def _end_at(node: Any, end: int, line: int, column: int) -> None:
    for name in ("start_mark", "end_mark"):
        mark = getattr(node, name)
        if mark.index == end and (mark.line, mark.column) != (line, column):
            setattr(node, name, _moved(mark, line, column))


def _moved(mark: Any, line: int, column: int) -> Any:
    """A copy of a mark at another line and column (the same index)."""
    from ruamel.yaml.error import StreamMark

    return StreamMark(mark.name, mark.index, line, column)
