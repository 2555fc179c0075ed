"""Where changing and untrusted text flows in a stack, without compiling (the FG87x/FG88x checks).

A *taint* is a property of text an item emits: ``volatile`` (it differs from turn to turn, which
breaks the provider's prefix cache), ``untrusted`` (the user's own words, which must not gain the
authority of the system prompt or of the model's voice) or ``external`` (text the author does not
write -- project context files, the appended system prompt, imported character fields -- which Pi
itself puts in the system prompt, so only an assistant turn is a wrong place for it).

The walk follows pi-forge's macro semantics (compile-core §3): a setter's value is *consumed* (it
flows into the variable, the setter prints nothing); a getter prints the variable; ``ifvar``/``ifeq``
print one of their branches, chosen by a variable; arguments of unknown macros are never expanded.
Variables carry the taints of every value stored in them, to a fixed point, so a path such as
``{{lastUserMessage}} -> setvar note (item capture) -> {{note}} (item rules)`` is found.  A turn
variable is only seen by items compiled after the one that sets it (system items first, then
message items, in stack order); a session variable is persisted, so every item sees it next turn.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from forgec.compile.macros.grammar import Macro, Node, iter_macros, parse
from forgec.js.values import js_trim
from forgec.model import BUILTIN_MACRO_NAMES, CHAT_HISTORY_SLOT

if TYPE_CHECKING:
    from forgec.plugins import Registry

__all__ = ["DynamicName", "ItemFlow", "StackFlow", "Taint", "Use", "analyse_stack", "first_uses"]

VOLATILE = "volatile"
UNTRUSTED = "untrusted"
EXTERNAL = "external"

_SETTERS = {"setvar", "setturnvar", "setsessionvar"}
_CLEARERS = {"clearvar", "clearturnvar", "clearsessionvar"}
_GETTERS = {"getvar": "any", "var": "any", "getturnvar": "turn", "getsessionvar": "session"}
_TRANSFORMS = {"trim", "upper", "lower", "json", "xml"}
#: plugin macros whose name says they print something new on every call
_RANDOM_NAME = re.compile(r"(random|rand\b|roll|pick|dice|shuffle|uuid|nonce|now|time|clock)", re.IGNORECASE)
#: SillyTavern character-card fields an imported stack reads as variables (import-regex.md C7)
_CHARACTER_FIELDS = ("description", "personality", "scenario", "persona", "charFirstMessage", "mesExamples")


class Taint(NamedTuple):
    """What is wrong with a piece of text and how it got there (``path``: source first).

    This and :class:`Use` are named tuples rather than frozen dataclasses: immutable values all the
    same, and ~2 ms cheaper to define on every cold ``forgec validate``."""

    kinds: frozenset[str]
    source: str
    path: tuple[str, ...] = ()

    def via(self, step: str) -> Taint:
        return Taint(self.kinds, self.source, (*self.path, step))

    def describe(self) -> str:
        """``{{lastUserMessage}} -> setvar note (item "capture") -> {{note}}``."""
        return " -> ".join((self.source, *self.path))


class Use(NamedTuple):
    """A tainted piece of an item's output: where (``offset``/``length`` in the content, or an option
    pointer for a slot) and which taint."""

    taint: Taint
    pointer: tuple[Any, ...]
    offset: int | None = None
    length: int | None = None


class DynamicName(NamedTuple):
    """A macro whose *name* argument is built from tainted text (``{{getvar::{{lastUserMessage}}}}``)."""

    index: int  # type: ignore[assignment]  # a field shadowing tuple.index(), which nothing calls
    item_id: str | None
    macro: str
    taint: Taint
    offset: int
    length: int


class ItemFlow(NamedTuple):
    """One enabled item: where it lands and the taints of what it emits.

    This and :class:`StackFlow` are named tuples too (they were slotted dataclasses until stop 31: with
    :class:`DynamicName`, ~6 M instructions of every cold ``forgec validate`` defined them); made once
    per analysis, read by the lints, never changed."""

    index: int  # type: ignore[assignment]  # (as in DynamicName)
    item: dict[str, Any]
    #: "system" (the system prompt), "before-history", "history" (the chat-history slot), "after-history"
    place: str
    uses: list[Use]

    @property
    def item_id(self) -> str | None:
        raw = self.item.get("id")
        return js_trim(raw) if isinstance(raw, str) else None


class StackFlow(NamedTuple):
    """The whole analysis: items in stack order, the variables' taints, the dynamic names."""

    items: list[ItemFlow]
    variables: dict[str, list[tuple[str, tuple[int, int], Taint]]]
    dynamic_names: list[DynamicName]
    has_history: bool


def _enabled_items(stack: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    items = stack.get("items")
    if not isinstance(items, list):
        return []
    return [(i, it) for i, it in enumerate(items) if isinstance(it, dict) and it.get("enabled") is not False]


def _is_history(item: dict[str, Any]) -> bool:
    return item.get("kind") == "slot" and item.get("slot") == CHAT_HISTORY_SLOT


def _literal(text: str) -> str | None:
    """A raw argument as a name, or None when it is built by a macro (known only at run time)."""
    return None if "{{" in text else js_trim(text)


class _Walker:
    """Walks one block's macros; collects output taints, variable writes and dynamic names."""

    def __init__(self, flow: _Analysis, index: int, item: dict[str, Any], text: str, order: tuple[int, int]) -> None:
        self.flow = flow
        self.index = index
        self.item = item
        self.text = text
        self.order = order
        self.outputs: list[tuple[Macro, Taint]] = []

    # taints of the text a node list prints (None macro: the node list as a whole)
    def emitted(self, nodes: list[Node] | tuple[Node, ...], *, record: bool) -> list[tuple[Macro, Taint]]:
        found: list[tuple[Macro, Taint]] = []
        for node in nodes:
            if isinstance(node, Macro):
                found.extend(self.macro(node, record=record))
        return found

    def name_arg(self, macro: Macro, nodes: list[Node]) -> str | None:
        """A macro's name argument: literal text, or None when built by macros (then checked for taint)."""
        raw = "".join(n if isinstance(n, str) else n.full(self.text) for n in nodes)
        name = _literal(raw)
        if name is None:
            for _, taint in self.emitted(nodes, record=False):
                if taint.kinds & {UNTRUSTED, EXTERNAL}:
                    self.flow.dynamic(self.index, self.item, macro, self.text, taint)
                    break
        return name

    def macro(self, m: Macro, *, record: bool) -> list[tuple[Macro, Taint]]:
        text = self.text
        command = m.command(text)
        args = m.args()
        here = f'item "{self.item.get("id")}"'
        if not command or "{{" in command:
            return []
        registry = self.flow.registry
        if command in _SETTERS:
            scope = {"setturnvar": "turn", "setsessionvar": "session"}.get(command, "turn")
            start = 1
            if command == "setvar" and args:
                first = _literal(m.raw_args(text)[0]) if m.raw_args(text) else ""
                if first in ("turn", "session"):
                    scope, start = first, 2
            name = self.name_arg(m, args[start - 1]) if len(args) >= start else ""
            value_taints = [t for part in args[start:] for _, t in self.emitted(part, record=False)]
            if name and record:
                for taint in value_taints:
                    self.flow.write(name, scope, self.order, taint.via(f"{command} {name} ({here})"))
            return []
        if command in _CLEARERS:
            start = 1
            if command == "clearvar" and m.raw_args(text) and _literal(m.raw_args(text)[0]) in ("turn", "session"):
                start = 2
            if len(args) >= start:
                self.name_arg(m, args[start - 1])
            return []
        if command in _GETTERS:
            name = self.name_arg(m, args[0]) if args else ""
            if not name:
                return []
            return [(m, t.via(f"{{{{{command}::{name}}}}} ({here})")) for t in self.flow.read(name, _GETTERS[command], self.order)]
        if command in ("ifvar", "ifeq"):
            name = self.name_arg(m, args[0]) if args else ""
            branches = args[2:4] if command == "ifeq" else args[1:3]
            out = [pair for part in branches for pair in self.emitted(part, record=record)]
            if name:  # the branch taken changes when the variable does
                for taint in self.flow.read(name, "any", self.order):
                    if VOLATILE in taint.kinds:
                        out.append((m, Taint(frozenset({VOLATILE}), taint.source, (*taint.path, f"{{{{{command}::{name}}}}} ({here})"))))
            if command == "ifeq" and len(args) > 1:
                for _, taint in self.emitted(args[1], record=False):
                    if VOLATILE in taint.kinds:
                        out.append((m, Taint(frozenset({VOLATILE}), taint.source, (*taint.path, f"{{{{ifeq::{name}}}}} ({here})"))))
            return out
        if command in ("iftools", "ifslot"):
            return [pair for part in args[1:3] for pair in self.emitted(part, record=record)]
        if command in _TRANSFORMS:
            return [(m, t) for part in args[:1] for _, t in self.emitted(part, record=record)]
        if command == "time":
            return [(m, Taint(frozenset({VOLATILE}), "{{time}}"))]
        if command == "lastUserMessage":
            return [(m, Taint(frozenset({VOLATILE, UNTRUSTED}), "{{lastUserMessage}}"))]
        if command in BUILTIN_MACRO_NAMES:
            return []
        if registry is not None and command in registry.macros:
            out = [pair for part in args for pair in self.emitted(part, record=record)]
            if _RANDOM_NAME.search(command):
                out.append((m, Taint(frozenset({VOLATILE}), f"{{{{{command}}}}} (plugin macro)")))
            return out
        # a variable (arguments are never expanded) -- or an unknown macro, which prints itself
        return [(m, t.via(f"{{{{{command}}}}} ({here})")) for t in self.flow.read(command, "any", self.order)]


class _Analysis:
    def __init__(self, stack: dict[str, Any], registry: Registry | None) -> None:
        self.stack = stack
        self.registry = registry
        self.variables: dict[str, list[tuple[str, tuple[int, int], Taint]]] = {}
        self.dynamic_names: dict[tuple[int, int], DynamicName] = {}
        self.changed = False
        statics = stack.get("variables")
        self.static = set(statics) if isinstance(statics, dict) else set()
        imported = stack.get("import")
        self.character_fields = (
            {f for f in _CHARACTER_FIELDS if f not in self.static}
            if isinstance(imported, dict) and imported.get("source") == "sillytavern"
            else set()
        )

    def write(self, name: str, scope: str, order: tuple[int, int], taint: Taint) -> None:
        entries = self.variables.setdefault(name, [])
        key = (scope, taint.source, taint.kinds)
        if any((s, t.source, t.kinds) == key for s, _, t in entries):
            return
        entries.append((scope, order, taint))
        self.changed = True

    def read(self, name: str, scope: str, order: tuple[int, int]) -> list[Taint]:
        out = []
        for written_scope, written_at, taint in self.variables.get(name, []):
            if scope not in ("any", written_scope):
                continue
            if written_scope == "turn" and written_at >= order:
                continue  # a turn variable is empty until the item that sets it has been compiled
            out.append(taint)
        if name in self.character_fields and scope in ("any", "session"):
            out.append(Taint(frozenset({EXTERNAL}), f"imported character field {name}"))
        return out

    def dynamic(self, index: int, item: dict[str, Any], macro: Macro, text: str, taint: Taint) -> None:
        key = (index, macro.start)
        if key not in self.dynamic_names:
            raw_id = item.get("id")
            self.dynamic_names[key] = DynamicName(
                index, js_trim(raw_id) if isinstance(raw_id, str) else None, macro.command(text), taint,
                macro.start, macro.end - macro.start,
            )


def _flat_taints(doc: tuple[Node, ...], text: str) -> list[tuple[Macro, Taint]]:
    """The sources anywhere in a block too deeply nested for the walk (pi-forge expands thousands of
    levels): every ``{{time}}`` and ``{{lastUserMessage}}`` counts as printed, without following
    variables -- less precise, never a crash."""
    out: list[tuple[Macro, Taint]] = []
    for macro in iter_macros(doc):  # iterative: any depth
        command = macro.command(text)
        if command == "time":
            out.append((macro, Taint(frozenset({VOLATILE}), "{{time}}")))
        elif command == "lastUserMessage":
            out.append((macro, Taint(frozenset({VOLATILE, UNTRUSTED}), "{{lastUserMessage}}")))
    return out


def _order(index: int, item: dict[str, Any]) -> tuple[int, int]:
    """Compile order: the system prompt's items first, then the message items (compile-core §2)."""
    return (0, index) if item.get("role") == "system" else (1, index)


def _slot_uses(analysis: _Analysis, index: int, item: dict[str, Any]) -> list[Use]:
    slot = item.get("slot")
    options = item.get("options") if isinstance(item.get("options"), dict) else {}
    assert isinstance(options, dict)
    here = f'slot {slot} (item "{item.get("id")}")'
    if slot in ("date", "date-cwd") and options.get("includeTime") is True:
        return [Use(Taint(frozenset({VOLATILE}), f"{slot} slot with includeTime"), ("items", index, "options", "includeTime"))]
    if slot == "project-context":
        return [Use(Taint(frozenset({EXTERNAL}), "project context files (project-context slot)"), ("items", index, "slot"))]
    if slot == "append-system-prompt":
        return [Use(Taint(frozenset({EXTERNAL}), "the appended system prompt (append-system-prompt slot)"), ("items", index, "slot"))]
    if slot == "variables":
        uses = []
        order = _order(index, item)
        for scope in ("session", "turn"):
            option = "includeSession" if scope == "session" else "includeTurn"
            if options.get(option) is False:
                continue
            for name in sorted(analysis.variables):
                for taint in analysis.read(name, scope, order):
                    uses.append(Use(taint.via(f"{scope} variable {name} shown by {here}"), ("items", index, "slot")))
        return uses
    return []


def analyse_stack(stack: Any, registry: Registry | None = None) -> StackFlow:
    """The flow analysis of a stack (the loader's normalised stack, or raw stack data)."""
    if not isinstance(stack, dict):
        return StackFlow([], {}, [], False)
    analysis = _Analysis(stack, registry)
    items = _enabled_items(stack)
    blocks = []
    for index, item in items:
        content = item.get("content")
        if item.get("kind") != "slot" and isinstance(content, str) and "{{" in content:
            blocks.append((index, item, content, parse(content, use_lark=False)))
    # variables first, to a fixed point (a value may read another tainted variable)
    for _ in range(len(blocks) + 2):
        analysis.changed = False
        for index, item, content, doc in blocks:
            try:
                _Walker(analysis, index, item, content, _order(index, item)).emitted(doc, record=True)
            except RecursionError:  # nesting deeper than the walk can follow: see _flat_taints
                continue
        if not analysis.changed:
            break
    history_at = next((index for index, item in items if _is_history(item)), None)
    flows: list[ItemFlow] = []
    parsed = {index: (content, doc) for index, _, content, doc in blocks}
    for index, item in items:
        if _is_history(item):
            place = "history"
        elif item.get("role") == "system":
            place = "system"
        elif history_at is not None and index < history_at:
            place = "before-history"
        else:
            place = "after-history"
        uses: list[Use] = []
        if item.get("kind") == "slot":
            uses = _slot_uses(analysis, index, item)
        elif index in parsed:
            content, doc = parsed[index]
            walker = _Walker(analysis, index, item, content, _order(index, item))
            seen: set[tuple[int, str]] = set()
            try:
                emitted = walker.emitted(doc, record=False)
            except RecursionError:
                emitted = _flat_taints(doc, content)
            for macro, taint in emitted:
                if (macro.start, taint.describe()) in seen:
                    continue
                seen.add((macro.start, taint.describe()))
                uses.append(Use(taint, ("items", index, "content"), macro.start, macro.end - macro.start))
        flows.append(ItemFlow(index, item, place, uses))
    dynamic = sorted(analysis.dynamic_names.values(), key=lambda d: (d.index, d.offset))
    return StackFlow(flows, analysis.variables, dynamic, history_at is not None)


def first_uses(uses: list[Use], *kinds: str) -> list[tuple[Use, int]]:
    """The first use of each source having one of ``kinds``, with how many more uses it has: one
    finding per item and source, however often the item repeats the macro."""
    firsts: dict[str, Use] = {}
    counts: dict[str, int] = {}
    for use in uses:
        if not use.taint.kinds & set(kinds):
            continue
        key = use.taint.describe()
        counts[key] = counts.get(key, 0) + 1
        firsts.setdefault(key, use)
    return [(use, counts[key] - 1) for key, use in firsts.items()]
