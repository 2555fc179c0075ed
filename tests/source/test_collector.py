"""The cyclic collector pause (forgec.source.collector): off inside a large input's block, left alone
for small ones, and always put back as it was -- after an exception, when nested, across threads,
when the host had disabled it."""

from __future__ import annotations

import gc
import threading

import pytest

from forgec.source.collector import (
    LARGE_INPUT_CHARS,
    SPARE_DEPTH,
    SPARE_LISTS,
    _spares,
    gc_paused,
    make_spares,
    spare_list,
)

pytestmark = pytest.mark.usefixtures("gc_enabled")


def test_small_inputs_leave_the_collector_alone() -> None:
    with gc_paused(LARGE_INPUT_CHARS - 1, LARGE_INPUT_CHARS):
        assert gc.isenabled()
    assert gc.isenabled()


def test_large_inputs_pause_it_and_nested_pauses_restore_once() -> None:
    with gc_paused(LARGE_INPUT_CHARS, LARGE_INPUT_CHARS):
        assert not gc.isenabled()
        with gc_paused(LARGE_INPUT_CHARS * 2, LARGE_INPUT_CHARS):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause did not switch it back on
    assert gc.isenabled()


def test_a_host_that_runs_without_the_collector_keeps_it_off() -> None:
    gc.disable()
    with gc_paused(LARGE_INPUT_CHARS * 4, LARGE_INPUT_CHARS):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_it_is_restored_when_the_block_raises() -> None:
    with pytest.raises(ZeroDivisionError), gc_paused(10, 5):
        assert not gc.isenabled()
        _ = 1 / 0
    assert gc.isenabled()


def test_overlapping_pauses_on_threads_restore_once_the_last_one_leaves() -> None:
    entered = threading.Event()
    leave = threading.Event()

    def hold() -> None:
        with gc_paused(10, 5):
            entered.set()
            leave.wait(5)

    worker = threading.Thread(target=hold)
    worker.start()
    assert entered.wait(5)
    with gc_paused(10, 5):
        assert not gc.isenabled()
    assert not gc.isenabled()  # the worker's pause is still running
    leave.set()
    worker.join(5)
    assert gc.isenabled()


def test_spare_lists_are_empty_and_handed_out_once() -> None:
    """Each spare goes to one caller; with none left a new empty list is made (the plain way)."""
    make_spares()
    taken = [spare_list() for _ in range(SPARE_LISTS * SPARE_DEPTH + 3)]  # the spares, then new lists
    assert taken == [[]] * len(taken)
    assert len({id(lst) for lst in taken}) == len(taken)
    make_spares()
    again = [spare_list() for _ in range(SPARE_LISTS)]
    assert all(all(lst is not old for old in taken) for lst in again)


def test_spares_made_inside_a_pause_leave_the_youngest_generation_at_its_collection() -> None:
    """What the large compiles rely on (CPython's generations): a spare made inside a pause is out of
    the youngest generation once the collection after the pause ran, so that collection's successors
    do not visit what it will hold."""
    _spares.clear()
    with gc_paused(LARGE_INPUT_CHARS, LARGE_INPUT_CHARS):
        make_spares()
        held = list(_spares)
    gc.collect(0)  # the young collection the first allocation after a large pause runs
    young = {id(o) for o in gc.get_objects(0)}
    assert all(id(lst) not in young for lst in held)
    assert spare_list() in held
