"""Frozen records made without their dataclass ``__init__``: one maker for every hot record.

Why: a frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__(self, "name",
value)`` behind a call: ~1.2 µs for ``Diagnostic``'s 13 fields in the pure build, ~2.7 µs in the mypyc
build (the generated ``__init__`` stays Python, and each set goes through the native class's attribute
machinery).  Some records are made very often -- the report's ``ReportInputs`` and ``CompileResult`` on
every compile, the macro engine's positioned findings two per new block -- so :func:`record_maker` hands
out a maker that sets the fields directly.  The dataclasses stay as they are (frozen, compared and hashed
by their fields).

A fast maker is handed out only for a class the caller's field list describes exactly
(:func:`knows_fields`): a dataclass whose fields are, in order, the ``given`` names then the ``filled``
ones, each filled one with the plain default given here, every field set by ``__init__`` and stored in a
slot (a member descriptor) or a native attribute (mypyc's getset descriptor), without ``__post_init__``;
and only when the record it makes from the caller's ``probe`` values is the constructor's, field for field
and type for type.  Otherwise :func:`record_maker` hands out a :class:`ConstructorMaker`, which calls the
constructor: callers always have one maker to call, never two arms.

The candidates, fastest first (the first that passes is handed out):

* ``native``: the caller's own function that stores each field (``made.level = level``).  Compiled by
  mypyc with the record's native class, those are C stores into the object, which do not go through the
  frozen dataclass's ``__setattr__`` (~0.1 µs a record).  Run as Python, its first store raises
  ``FrozenInstanceError`` and it is passed over.  It has to be written per class, in a compiled module:
  only code mypyc compiles knowing the class makes those stores.
* the twin (the pure build): a plain slotted class with the same slots in the same order, made by
  ``dataclasses.make_dataclass`` without ``frozen`` (so its ``__init__`` makes plain stores), builds the
  record, and its ``__class__`` is then set to the record's class.  CPython allows that only between
  classes of the same layout (same base, same slots in the same order), so every value sits where the
  class's own descriptors read it; the result is a genuine instance of it (~0.25 µs for 13 fields).  A
  mypyc native class refuses the assignment.
* the descriptors: each field's ``__set__``, which is what ``object.__setattr__`` ends in (~0.6 µs for 13
  fields in the pure build); a loop, as it is handed out only where neither of the others runs.

This module is not compiled (it is not in ``forgec.resources.COMPILED_MODULES``): it runs once per record
class, at import, and what it hands out is either the caller's compiled function or a small closure.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["ConstructorMaker", "Maker", "knows_fields", "record_maker"]

#: ``make(*values)``: a record from the values of its ``given`` fields, in order
Maker = Callable[..., Any]

_SLOT_DESCRIPTORS = (types.MemberDescriptorType, types.GetSetDescriptorType)


class ConstructorMaker:
    """The fallback maker: ``cls(**dict(zip(names, values)))``, for a class :func:`record_maker` does not
    know field for field.  A class rather than a closure, so tests can tell it from the fast makers in
    both builds."""

    def __init__(self, cls: Any, names: tuple[str, ...]) -> None:
        self.cls = cls
        self.names = names

    def __call__(self, *values: Any) -> Any:
        if len(values) != len(self.names):
            raise TypeError(f"a {self.names} record takes {len(self.names)} values ({len(values)} given)")
        return self.cls(**dict(zip(self.names, values, strict=True)))


def record_maker(
    cls: Any,
    given: tuple[str, ...],
    filled: tuple[tuple[str, Any], ...] = (),
    *,
    probe: tuple[Any, ...],
    native: Maker | None = None,
    twin: bool = True,
) -> Maker:
    """``make(*values)`` equal to ``cls(**dict(zip(given, values)))``, the ``filled`` fields at their defaults.

    A fast maker (the module docstring) when ``cls`` is the dataclass ``given`` + ``filled`` describe and
    the maker's record from ``probe`` (values of the ``given`` fields, of the types the caller passes) is
    the constructor's; else a :class:`ConstructorMaker`.  ``native``: the caller's compiled storing
    function, tried first; ``twin=False`` leaves the twin out (the tests use it to reach the descriptors).
    """
    if knows_fields(cls, given, filled):
        try:
            built = cls(**dict(zip(given, probe, strict=True)))
        except (TypeError, ValueError):  # a probe the constructor refuses: nothing to hold a maker against
            return ConstructorMaker(cls, given)
        names = (*given, *(name for name, _default in filled))
        for make in _fast_makers(cls, given, filled, native, twin):
            if _makes(make, probe, built, names):
                return make
    return ConstructorMaker(cls, given)


def knows_fields(cls: Any, given: tuple[str, ...], filled: tuple[tuple[str, Any], ...]) -> bool:
    """Whether ``cls`` is exactly the dataclass ``given`` + ``filled`` describe (see the module docstring):
    what a fast maker sets is then what ``__init__`` sets."""
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return False
    fields = dataclasses.fields(cls)
    if [found.name for found in fields] != [*given, *(name for name, _default in filled)]:
        return False
    for found, (_name, default) in zip(fields[len(given) :], filled, strict=True):
        if found.default is dataclasses.MISSING or found.default_factory is not dataclasses.MISSING:
            return False
        if not _alike(found.default, default):
            return False
    slots = vars(cls)
    return all(found.init and type(slots.get(found.name)) in _SLOT_DESCRIPTORS for found in fields)


def _fast_makers(
    cls: Any, given: tuple[str, ...], filled: tuple[tuple[str, Any], ...], native: Maker | None, twin: bool
) -> Iterator[Maker]:
    """The candidates, fastest first; each is built only if the ones before it were refused."""
    if native is not None:
        yield native
    if twin:
        by_twin = _twin_maker(cls, given, filled)
        if by_twin is not None:
            yield by_twin
    yield _descriptor_maker(cls, given, filled)


def _twin_maker(cls: Any, given: tuple[str, ...], filled: tuple[tuple[str, Any], ...]) -> Maker | None:
    """The twin's maker, or None when ``cls`` has no plain layout to copy (a base class, other slots)."""
    names = (*given, *(name for name, _default in filled))
    if type(cls) is not type or cls.__bases__ != (object,) or tuple(getattr(cls, "__slots__", ())) != names:
        return None
    twin_fields: list[Any] = [(name, Any) for name in given]
    twin_fields += [(name, Any, dataclasses.field(default=default, init=False)) for name, default in filled]
    # only ``__init__`` is generated; a docstring of its own spares make_dataclass the ``inspect.signature``
    # it would otherwise write one from (half its time: this runs at import, on ``forgec validate``'s path)
    namespace = {"__doc__": f"A plain-slots twin of {cls.__qualname__} (forgec.diagnostics.records)."}
    try:
        twin_class = dataclasses.make_dataclass(
            f"{cls.__name__}Twin", twin_fields, namespace=namespace, slots=True, repr=False, eq=False, match_args=False
        )
    except (TypeError, ValueError):  # a default make_dataclass refuses (a mutable one)
        return None

    def make_by_twin(*values: Any) -> Any:
        made = twin_class(*values)
        made.__class__ = cls  # refused with TypeError unless the layouts are the same
        return made

    return make_by_twin


def _descriptor_maker(cls: Any, given: tuple[str, ...], filled: tuple[tuple[str, Any], ...]) -> Maker:
    """The maker that calls each field's descriptor (:func:`knows_fields` found one for every field)."""
    new = cls.__new__  # object.__new__ for a pure class; a native class has its own
    slots = vars(cls)
    given_setters = tuple(slots[name].__set__ for name in given)
    filled_setters = tuple((slots[name].__set__, default) for name, default in filled)
    count = len(given)

    def make_by_descriptors(*values: Any) -> Any:
        if len(values) != count:
            raise TypeError(f"a {given} record takes {count} values ({len(values)} given)")
        made = new(cls)
        for set_field, value in zip(given_setters, values, strict=True):
            set_field(made, value)
        for set_field, default in filled_setters:
            set_field(made, default)
        return made

    return make_by_descriptors


def _makes(make: Maker, probe: tuple[Any, ...], built: Any, names: tuple[str, ...]) -> bool:
    """Whether ``make(*probe)`` runs and gives an object of ``built``'s very class whose every field is
    ``built``'s (the same object, or an equal one of the same type)."""
    try:
        made = make(*probe)
        return type(made) is type(built) and all(_alike(getattr(made, name), getattr(built, name)) for name in names)
    except (AttributeError, TypeError):  # FrozenInstanceError (a native maker run as Python), a field left unset
        return False


def _alike(value: Any, other: Any) -> bool:
    return value is other or (type(value) is type(other) and value == other)
