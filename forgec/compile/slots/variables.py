"""The ``variables`` slot (compile-core.md §6.13) and the collation it sorts names with.

pi-forge sorts each scope's names with ``String.prototype.localeCompare`` — the ICU root collator
(tertiary strength, normalisation on) under the reference's ``en-US`` locale — stably over
JavaScript object order.  forgec follows the measured recipe of compile-core §16.12: a PyICU root
collator with normalisation switched on, and Python's stable ``sorted`` keyed on its sort keys.
Without PyICU (macOS, or whenever ``import icu`` fails) :mod:`forgec.js.collation` falls back to a
pure-Python key that gives ICU's order for the corpus (docs/compatibility.md, *Slots*).
"""

from __future__ import annotations

from typing import Any

from forgec.compile.slots.base import SlotContext
from forgec.compile.slots.helpers import escape_xml, plain_bullet
from forgec.js.collation import locale_key
from forgec.js.values import js_items
from forgec.model.variables import to_prompt_text

SCOPES = (("static", "includeStatic"), ("session", "includeSession"), ("turn", "includeTurn"))


def sort_names(scope: dict[str, Any]) -> list[tuple[str, Any]]:
    """Entries of one scope: JavaScript object order, then a stable collation sort by name.

    The collation keys are remembered by the name's text (:data:`_SORT_KEYS`): a host's variable
    names repeat from turn to turn, and an ICU sort key costs ~0.5-1 µs to make, a look-up ~0.05 µs.
    The keys are immutable (``bytes`` from ICU, tuples of the fallback); only short names are kept,
    at most :data:`_SORT_KEYS_HELD` of them (the memo starts over when full, and when
    :func:`~forgec.js.collation.locale_key` answers another key function)."""
    global _SORT_KEY_OF
    key = locale_key()
    if key is not _SORT_KEY_OF:
        _SORT_KEYS.clear()
        _SORT_KEY_OF = key
    return sorted(js_items(scope), key=_entry_key)


def _entry_key(entry: tuple[str, Any]) -> Any:
    name = entry[0]
    found = _SORT_KEYS.get(name)
    if found is None:
        found = _SORT_KEY_OF(name)
        if len(name) <= 256:
            if len(_SORT_KEYS) >= _SORT_KEYS_HELD:
                _SORT_KEYS.clear()
            _SORT_KEYS[name] = found
    return found


_SORT_KEYS: dict[str, Any] = {}
_SORT_KEYS_HELD = 4096
#: the key function the remembered keys were made by
_SORT_KEY_OF: Any = None


def _scope_dicts(ctx: SlotContext) -> list[tuple[str, dict[str, Any]]]:
    store = ctx.store
    sources = {
        "static": ctx.stack.get("variables"),
        "session": store.session if store is not None else None,
        "turn": store.turn if store is not None else None,
    }
    out = []
    for scope, option in SCOPES:
        if ctx.options.get(option) is False:
            continue
        values = sources[scope]
        out.append((scope, values if isinstance(values, dict) else {}))
    return out


def render_variables(ctx: SlotContext) -> str:
    """``<variables>`` grouped by scope (plain: ``Variables:`` with scope headings); ``""`` if empty."""
    scopes = _scope_dicts(ctx)
    if all(not values for _, values in scopes):
        return ""
    plain = ctx.format() == "plain"
    lines = ["Variables:"] if plain else ["<variables>"]
    for scope, values in scopes:
        if not values:
            continue
        entries = sort_names(values)
        if plain:
            lines.append(f"{scope}:")
            lines.extend(plain_bullet(name, to_prompt_text(value)) for name, value in entries)
        else:
            lines.append(f"  <{scope}>")
            lines.extend(
                f'    <var name="{escape_xml(name)}">{escape_xml(to_prompt_text(value))}</var>'
                for name, value in entries
            )
            lines.append(f"  </{scope}>")
    if not plain:
        lines.append("</variables>")
    return "\n".join(lines)
