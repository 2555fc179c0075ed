"""A positioned :class:`~forgec.diagnostics.core.Diagnostic` made without the dataclass's ``__init__``.

A pure-Python frozen slots dataclass sets each of its 13 fields with an ``object.__setattr__`` call in
its generated ``__init__``, behind a keyword call: ~1.4 µs a finding.  A compile of a stack of 1,000
blocks no call saw before makes ~2,000 unresolved-macro findings, ~10 % of the call.  Setting the slots
through their member descriptors makes the same object in ~0.6 µs.

That is done only where it is exactly what the constructor does: ``Diagnostic`` is the pure-Python
dataclass with the fields of :data:`_FIELDS` (names, order, defaults), each a plain slot, without
``__post_init__``.  Otherwise -- the mypyc build, where ``Diagnostic`` is a native class whose
constructor is already fast, or a class changed since -- :data:`POSITIONED` is None and callers use the
constructor.  ``tests/diagnostics/test_quick_finding.py`` holds the two equal, and holds the fast path
switched on in the pure build (so a changed field list is noticed, not silently slower).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any

from forgec.diagnostics import Level, Pointer
from forgec.diagnostics.core import Diagnostic

__all__ = ["POSITIONED", "positioned_factory"]

#: the fields, in order, with the defaults of those after ``length`` that the factory fills in
_FIELDS: tuple[tuple[str, Any], ...] = (
    ("level", dataclasses.MISSING),
    ("message", dataclasses.MISSING),
    ("code", dataclasses.MISSING),
    ("item_id", None),
    ("pointer", None),
    ("offset", None),
    ("length", None),
    ("span", None),
    ("extra", False),
    ("field", None),
    ("at_key", False),
    ("fix", None),
    ("caused_by", None),
)

Positioned = Callable[[Level, str, str, Any, "Pointer | None", "int | None", "int | None"], Diagnostic]


def positioned_factory(cls: Any) -> Positioned | None:
    """``make(level, message, code, item_id, pointer, offset, length)`` equal to ``cls(level, message,
    code, item_id=…, pointer=…, offset=…, length=…)``, or None when ``cls`` is not the dataclass the
    factory knows how to fill."""
    made_class: Any = cls  # what ``make`` instantiates (``is_dataclass`` narrows ``cls`` below)
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if len(fields) != len(_FIELDS):
        return None
    setters = []
    for found, (name, default) in zip(fields, _FIELDS, strict=True):
        if found.name != name or found.default_factory is not dataclasses.MISSING:
            return None
        if found.default is not default and found.default != default:
            return None
        slot = cls.__dict__.get(name)
        if type(slot) is not types.MemberDescriptorType:
            return None
        setters.append(slot.__set__)
    (set_level, set_message, set_code, set_item_id, set_pointer, set_offset, set_length, set_span, set_extra,
     set_field, set_at_key, set_fix, set_caused_by) = setters
    new = object.__new__

    def make(level: Level, message: str, code: str, item_id: Any, pointer: Pointer | None,
             offset: int | None, length: int | None) -> Diagnostic:
        made: Diagnostic = new(made_class)
        set_level(made, level)
        set_message(made, message)
        set_code(made, code)
        set_item_id(made, item_id)
        set_pointer(made, pointer)
        set_offset(made, offset)
        set_length(made, length)
        set_span(made, None)
        set_extra(made, False)
        set_field(made, None)
        set_at_key(made, False)
        set_fix(made, None)
        set_caused_by(made, None)
        return made

    return make


#: the factory for :class:`~forgec.diagnostics.core.Diagnostic`, or None (use the constructor)
POSITIONED: Positioned | None = positioned_factory(Diagnostic)
