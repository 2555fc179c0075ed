"""The nouns of forgec: the vocabulary every layer shares, and the values a compile consumes.

* :mod:`forgec.model.runtime` — the host snapshot (``Runtime``);
* :mod:`forgec.model.variables` — the variable store;
* :mod:`forgec.model.messages` — how an agent message's role and text are read;
* :mod:`forgec.model.slot_names` — the built-in slot names.
"""
