"""A positioned :class:`~forgec.diagnostics.core.Diagnostic` made without the dataclass's ``__init__``.

A frozen dataclass sets each of its 13 fields with an ``object.__setattr__`` call in its generated
``__init__``, behind a keyword call: ~1.4 µs a finding in the pure build, and ~2.7 µs in the mypyc build
(the generated ``__init__`` stays Python, and each set goes through the native class's attribute
machinery).  A compile of a stack of 1,000 blocks no call saw before makes ~2,000 unresolved-macro
findings.  Setting the attributes through their descriptors makes the same object in ~0.6 µs (pure) or
~1.4 µs (mypyc).

That is done only where it is exactly what the constructor does: ``Diagnostic`` is a dataclass with the
fields of :data:`_FIELDS` (names, order, defaults), each a plain slot (a member descriptor) or a native
attribute (mypyc's getset descriptor), without ``__post_init__``, and a finding made both ways compares
equal field for field when the factory is built.  Otherwise (a class changed since) :data:`POSITIONED`
is a :class:`ConstructorMaker`, which calls the constructor: callers always have one maker to call.  ``tests/diagnostics/test_quick_finding.py`` holds the two
equal, and holds the fast path switched on (so a changed field list is noticed, not silently slower).

In the pure build a faster maker still is used when it gives the same object: :mod:`.twin` stores the
values in a plain object of the same slots and then assigns it ``Diagnostic`` as its class (~0.25 µs a
finding); the mypyc build's native class refuses that.  There, :func:`native_make` is used instead: this
module compiled, its attribute stores on a ``Diagnostic`` are C stores into the native object, which do
not go through the ``__setattr__`` by which the dataclass enforces ``frozen`` (~0.1 µs a finding against
~0.9 µs through the descriptors).  Run as Python, its first store raises ``FrozenInstanceError``, and the
factory takes the next maker.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any

from forgec.diagnostics import Level, Pointer
from forgec.diagnostics.core import Diagnostic

__all__ = ["NATIVE_POSITIONED", "POSITIONED", "ConstructorMaker", "native_make", "positioned_factory"]

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


class ConstructorMaker:
    """The fallback maker: ``cls(level, message, code, item_id=…, pointer=…, offset=…, length=…)``, for a
    class the fast makers do not know field for field (a ``Diagnostic`` changed since :data:`_FIELDS`).
    A class rather than a closure so the tests can tell the fallback from the fast makers in both builds."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls

    def __call__(self, level: Level, message: str, code: str, item_id: Any, pointer: Pointer | None,
                 offset: int | None, length: int | None) -> Any:
        return self.cls(level, message, code, item_id=item_id, pointer=pointer, offset=offset, length=length)


def positioned_factory(cls: Any, *, twin: bool = True) -> Positioned:
    """``make(level, message, code, item_id, pointer, offset, length)`` equal to ``cls(level, message,
    code, item_id=…, pointer=…, offset=…, length=…)``: a fast maker when ``cls`` is the dataclass the
    factory knows how to fill, else a :class:`ConstructorMaker`.  ``twin``: hand out :mod:`.twin`'s maker
    where it makes the same object (a pure class), else the descriptor maker below (``twin=False``: always
    that one, for the tests)."""
    made = _fast_factory(cls, twin)
    return made if made is not None else ConstructorMaker(cls)


def _fast_factory(cls: Any, twin: bool) -> Positioned | None:
    """:func:`positioned_factory`'s fast maker, or None when ``cls`` is not the dataclass it knows."""
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
        if type(slot) is not types.MemberDescriptorType and type(slot) is not types.GetSetDescriptorType:
            return None
        setters.append(slot.__set__)
    (set_level, set_message, set_code, set_item_id, set_pointer, set_offset, set_length, set_span, set_extra,
     set_field, set_at_key, set_fix, set_caused_by) = setters
    new = made_class.__new__  # object.__new__ for the pure class; a native class has its own

    # typed Any, not Diagnostic: compiled by mypyc, a Diagnostic annotation would check every result,
    # and the factory is also built for other classes (the tests', which it must refuse or fill alike)
    def make(level: Level, message: str, code: str, item_id: Any, pointer: Pointer | None,
             offset: int | None, length: int | None) -> Any:
        made: Any = new(made_class)
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

    # used only if it makes what the constructor makes: every field, of the same type
    built = made_class("warning", "m", "FG000", item_id="id", pointer=("items", 0, "content"), offset=1, length=2)
    if not _same(make, built):
        return None
    if twin and made_class is Diagnostic and _native_stores_work(built):
        return native_make
    if twin:  # a plain slotted object given the class (pure build only: .twin), when it makes the same
        from forgec.diagnostics.twin import twin_factory

        made_twin: Any = twin_factory(made_class, tuple(name for name, _default in _FIELDS))
        if made_twin is not None and _same(made_twin, built):
            return made_twin  # type: ignore[no-any-return]
    return make


def native_make(level: Level, message: str, code: str, item_id: Any, pointer: Pointer | None,
                offset: int | None, length: int | None) -> Diagnostic:
    """A ``Diagnostic`` made by storing its fields one by one: in the mypyc build (this module and
    ``diagnostics/core.py`` compiled) each store is a C store into the native object, bypassing the
    frozen dataclass's ``__setattr__``; as Python the first store raises ``FrozenInstanceError``
    (:func:`_native_stores_work` asks before it is handed out).  Every field is set: a native attribute
    left unset is undefined, not its default."""
    made: Diagnostic = Diagnostic.__new__(Diagnostic)
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


def _native_stores_work(built: Any) -> bool:
    """Whether :func:`native_make` runs here (compiled) and makes what the constructor made (``built``)."""
    try:
        return _same(native_make, built)
    except (dataclasses.FrozenInstanceError, AttributeError, TypeError):
        return False


def _same(make: Any, built: Any) -> bool:
    """Whether ``make`` gives an object of ``built``'s very class, equal to it field for field and type for type."""
    quick = make("warning", "m", "FG000", "id", ("items", 0, "content"), 1, 2)
    return type(quick) is type(built) and quick == built and _typed_fields(quick) == _typed_fields(built)


def _typed_fields(diagnostic: Any) -> list[tuple[Any, type]]:
    values = [getattr(diagnostic, name) for name, _default in _FIELDS]
    return [(value, type(value)) for value in values]


#: the maker of positioned :class:`~forgec.diagnostics.core.Diagnostic` findings (a fast one, or the fallback
#: :class:`ConstructorMaker`: never None, so callers have one call, not two arms)
POSITIONED: Positioned = positioned_factory(Diagnostic)
#: whether :data:`POSITIONED` is :func:`native_make` (the mypyc build).  Through the variable, a compiled
#: caller makes a generic Python call (boxed arguments, the function's Python wrapper); a compiled module
#: that asks this flag and calls the function by its own name (an alias is a variable too) makes a C call.
NATIVE_POSITIONED: bool = POSITIONED is native_make

