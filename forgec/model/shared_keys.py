"""Records that share one key table: many dicts of the same keys, at half the memory.

Why: a compile of a long conversation makes a source record per message (50,000 in the scale
benchmark), each a dict of the same seven keys, and its report frees them all.  An ordinary dict
owns its key table (208 bytes for seven keys, each key and value counted once more), so making and
freeing the records was most of the first compile of a long history (stop 33: freeing the key
tables alone was a sixth of the call).  CPython has a second layout, the *split* table, that it uses
for instances' ``__dict__``: the keys live in one table shared with the class, each dict holds only
its values, and ``dict.copy`` of such a dict makes another one that shares the table (CPython 3.11
to 3.13).  :func:`key_shared` gives a record that layout; copies of it are what the loops in
:mod:`forgec.compile.assemble` append.

Only the layout differs: a split dict is a ``dict`` (``type(d) is dict``), equal, ordered and printed
as the plain one, and it turns into an ordinary dict by itself when a caller adds keys the table has
no room for.  An interpreter that lays instances' dicts out otherwise gets an ordinary copy, so
nothing depends on the layout but the speed.
"""

from __future__ import annotations

from typing import Any

__all__ = ["key_shared"]

#: the class that owns each key tuple's shared table, by key tuple (at most :data:`_MOST_TABLES`)
_owners: dict[tuple[str, ...], type] = {}
_MOST_TABLES = 64
#: instances made when a table is new: CPython sizes each instance's value array for the table's
#: room and shrinks that room by one per instance made, down to one free slot, so after these a
#: copy's values take the keys plus one slot (64 bytes for seven keys) instead of thirty
_SHRINK = 32


def key_shared(record: dict[str, Any]) -> dict[str, Any]:
    """A dict equal to ``record`` (same keys, same order, the same value objects) whose key table is
    shared with every other dict :func:`key_shared` made of the same keys, and with their copies;
    ``record`` itself when its keys are not all strings (a split table holds string keys only) or
    when :data:`_MOST_TABLES` other key tuples have a table already."""
    keys = tuple(record)
    owner = _owners.get(keys)
    if owner is None:
        if len(_owners) >= _MOST_TABLES or not all(type(key) is str for key in keys):
            return record
        owner = _owners[keys] = _new_owner(keys)
    shared: dict[str, Any] = owner().__dict__  # the instance goes; its dict stays, on the table
    for key, value in record.items():  # not update(): into an empty dict it copies record's own table
        shared[key] = value
    return shared


def _new_owner(keys: tuple[str, ...]) -> type:
    """A class whose instances' dicts share a table of ``keys`` (in that order), with the room per
    instance shrunk (:data:`_SHRINK`)."""
    owner = type("SharedKeys", (), {})
    for _ in range(_SHRINK):
        table = owner().__dict__
        for key in keys:
            table[key] = None
    return owner
