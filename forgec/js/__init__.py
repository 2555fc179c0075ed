"""Everything that imitates V8 and Node: the ground floor of the house.

pi-forge is JavaScript, and its output shows JavaScript's semantics everywhere: how a value is
printed (``String()``, ``JSON.stringify``), measured (UTF-16 units), trimmed, compared and parsed
(``JSON.parse`` and its error texts), how dates are rendered in a time zone, and how a ``RegExp``
matches.  Each of those lives here once, and no other module re-implements them:

* :mod:`forgec.js.values` — truthiness, ``String()``, number printing, ``JSON.stringify``, UTF-16
  lengths and slices, the trim set, ``undefined``;
* :mod:`forgec.js.json` — ``JSON.parse`` with V8's acceptance and error messages;
* :mod:`forgec.js.tz` — IANA zones from the pinned ``tzdata`` (the reference's tz 2025c);
* :mod:`forgec.js.regex` — V8-exact regular expressions on top of the ``regex`` module.

Nothing here imports any other part of forgec.
"""
