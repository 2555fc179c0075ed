"""``VariableStore.fresh`` builds its store by position: the fields it sets must be the ones named."""

from __future__ import annotations

from forgec.model.variables import VariableStore


def test_a_fresh_store_copies_the_session_and_starts_an_empty_clean_turn() -> None:
    session = {"a": "1", "n": [1]}
    store = VariableStore.fresh(session)
    assert store == VariableStore(session={"a": "1", "n": [1]}, turn={}, session_dirty=False)
    assert store.session is not session and store.session["n"] is session["n"]  # a shallow copy
    assert store.snapshot() == {"session": session, "turn": {}, "sessionDirty": False}
    assert VariableStore.fresh(None) == VariableStore(session={}, turn={}, session_dirty=False)
    assert VariableStore.fresh(None).turn is not VariableStore.fresh(None).turn
