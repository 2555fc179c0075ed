"""The ``variables`` slot (compile-core.md §6.13) and the collation it sorts names with.

pi-forge sorts each scope's names with ``String.prototype.localeCompare`` — the ICU root collator
(tertiary strength, normalisation on) under the reference's ``en-US`` locale — stably over
JavaScript object order.  forgec follows the measured recipe of compile-core §16.12: a PyICU root
collator with normalisation switched on, and Python's stable ``sorted`` keyed on its sort keys.
When PyICU is not installed, :func:`_approximate_key` gives a documented approximation that agrees
for ASCII identifier-like names (docs/compatibility.md, *Slots*).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from forgec.compile.slots.base import SlotContext
from forgec.compile.slots.helpers import escape_xml, plain_bullet
from forgec.js.values import js_items
from forgec.model.variables import to_prompt_text

SCOPES = (("static", "includeStatic"), ("session", "includeSession"), ("turn", "includeTurn"))

# ICU root order of the ASCII characters that are not letters or digits (whitespace, punctuation,
# symbols), used only by the fallback key.
_ASCII_SYMBOL_ORDER = "\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


@cache
def _collator_key() -> Callable[[str], Any]:
    """The sort-key function: PyICU's root collator, or the approximation without PyICU."""
    try:
        import icu
    except ImportError:  # pragma: no cover - PyICU is a dependency on Linux
        return _approximate_key
    collator = icu.Collator.createInstance(icu.Locale.getRoot())
    collator.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)

    def key(name: str) -> Any:
        try:
            return collator.getSortKey(name)
        except (UnicodeError, icu.ICUError):  # lone surrogates: compare the UTF-16 units as text
            return collator.getSortKey(
                name.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
            )

    return key


def _approximate_key(name: str) -> tuple[Any, ...]:
    """A three-level UCA-like key: symbols < digits < letters; accents, then case (lower first)."""
    primary: list[tuple[int, int | str]] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for ch in unicodedata.normalize("NFD", name):
        if unicodedata.combining(ch):
            secondary.append(ord(ch))
            continue
        if ch in _ASCII_SYMBOL_ORDER:
            primary.append((0, _ASCII_SYMBOL_ORDER.index(ch)))
        elif ch.isdigit():
            primary.append((1, unicodedata.digit(ch, 0)))
        elif ch.isalpha():
            primary.append((2, ch.casefold()))
        elif unicodedata.category(ch)[0] in "PSZ":
            primary.append((0, 100 + ord(ch)))
        else:
            primary.append((3, ord(ch)))
        secondary.append(0)
        tertiary.append(1 if ch.isupper() else 0)
    return (primary, secondary, tertiary)


def sort_names(scope: dict[str, Any]) -> list[tuple[str, Any]]:
    """Entries of one scope: JavaScript object order, then a stable collation sort by name."""
    key = _collator_key()
    return sorted(js_items(scope), key=lambda entry: key(entry[0]))


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
