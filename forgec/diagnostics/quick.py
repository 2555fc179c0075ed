"""The maker of positioned :class:`~forgec.diagnostics.core.Diagnostic` findings, without ``__init__``.

A compile of a stack of 1,000 blocks no call saw before makes ~2,000 unresolved-macro findings, each
through the frozen dataclass's generated ``__init__`` (~1.2 µs pure, ~2.7 µs in the mypyc build).
:data:`POSITIONED` is :func:`forgec.diagnostics.records.record_maker`'s maker for ``Diagnostic`` given
its seven positioned fields, the other six at their defaults: in the mypyc build :func:`native_make`
(this module's compiled stores, ~0.1 µs), in the pure build the plain-slots twin (~0.25 µs), and the
constructor for a ``Diagnostic`` changed since :data:`_GIVEN` and :data:`_FILLED` were written.
``tests/diagnostics/test_quick_finding.py`` holds the fast maker switched on in both builds (so a changed
field list is noticed, not silently slower) and equal to the constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from forgec.diagnostics import Level, Pointer
from forgec.diagnostics.core import Diagnostic
from forgec.diagnostics.records import ConstructorMaker, record_maker

__all__ = ["NATIVE_POSITIONED", "POSITIONED", "ConstructorMaker", "native_make", "positioned_factory"]

#: the fields a positioned finding is made from, in ``Diagnostic``'s order
_GIVEN: tuple[str, ...] = ("level", "message", "code", "item_id", "pointer", "offset", "length")
#: the fields after them, with the defaults the maker fills in
_FILLED: tuple[tuple[str, Any], ...] = (
    ("span", None),
    ("extra", False),
    ("field", None),
    ("at_key", False),
    ("fix", None),
    ("caused_by", None),
)
#: the values a maker is held against the constructor with (each field a value of its own)
_PROBE = ("warning", "m", "FG000", "id", ("items", 0, "content"), 1, 2)

Positioned = Callable[[Level, str, str, Any, "Pointer | None", "int | None", "int | None"], Diagnostic]


def positioned_factory(cls: Any, *, twin: bool = True, native: bool = True) -> Positioned:
    """``make(level, message, code, item_id, pointer, offset, length)`` equal to ``cls(level, message,
    code, item_id=…, pointer=…, offset=…, length=…)``: a fast maker when ``cls`` is the dataclass
    :data:`_GIVEN` and :data:`_FILLED` describe, else a :class:`ConstructorMaker`.  ``twin=False`` and
    ``native=False`` leave those makers out (the tests reach the descriptor maker so)."""
    return record_maker(cls, _GIVEN, _FILLED, probe=_PROBE, native=native_make if native else None, twin=twin)


#: ``Diagnostic.__new__``, bound once (Final: a C static in the mypyc build): written out in
#: :func:`native_make`, every finding looked the method up on the class (~140 instructions compiled)
_new_diagnostic: Final = Diagnostic.__new__


# typed Any, not Diagnostic: compiled by mypyc, a Diagnostic annotation would check every result
def native_make(level: Level, message: str, code: str, item_id: Any, pointer: Pointer | None,
                 offset: int | None, length: int | None) -> Any:
    """A ``Diagnostic`` made by storing its fields one by one: in the mypyc build (this module and
    ``diagnostics/core.py`` compiled) each store is a C store into the native object, bypassing the
    frozen dataclass's ``__setattr__``; as Python the first store raises ``FrozenInstanceError`` and
    :func:`~forgec.diagnostics.records.record_maker` passes it over.  Every field is set: a native
    attribute left unset is undefined, not its default."""
    made: Diagnostic = _new_diagnostic(Diagnostic)
    made.level = level  # type: ignore[misc]
    made.message = message  # type: ignore[misc]
    made.code = code  # type: ignore[misc]
    made.item_id = item_id  # type: ignore[misc]
    made.pointer = pointer  # type: ignore[misc]
    made.offset = offset  # type: ignore[misc]
    made.length = length  # type: ignore[misc]
    made.span = None  # type: ignore[misc]
    made.extra = False  # type: ignore[misc]
    made.field = None  # type: ignore[misc]
    made.at_key = False  # type: ignore[misc]
    made.fix = None  # type: ignore[misc]
    made.caused_by = None  # type: ignore[misc]
    return made


#: the maker of positioned :class:`~forgec.diagnostics.core.Diagnostic` findings (a fast one, or the fallback
#: :class:`ConstructorMaker`: never None, so callers have one call, not two arms)
POSITIONED: Positioned = positioned_factory(Diagnostic)
#: whether :data:`POSITIONED` is :func:`native_make` (the mypyc build).  Through the variable, a compiled
#: caller makes a generic Python call (boxed arguments, the function's Python wrapper); a compiled module
#: that asks this flag and calls the function by its own name (an alias is a variable too) makes a C call.
NATIVE_POSITIONED: bool = POSITIONED is native_make
