"""The cyclic collector is paused for large inputs only, and restored as it was."""

from __future__ import annotations

import gc

from forgec.source.collector import LARGE_INPUT_CHARS, gc_paused


def test_small_inputs_leave_the_collector_alone() -> None:
    assert gc.isenabled()
    with gc_paused(LARGE_INPUT_CHARS - 1):
        assert gc.isenabled()
    assert gc.isenabled()


def test_large_inputs_pause_it_and_nested_pauses_restore_once() -> None:
    with gc_paused(LARGE_INPUT_CHARS):
        assert not gc.isenabled()
        with gc_paused(LARGE_INPUT_CHARS * 2):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause did not switch it back on
    assert gc.isenabled()


def test_a_host_that_runs_without_the_collector_keeps_it_off() -> None:
    gc.disable()
    try:
        with gc_paused(LARGE_INPUT_CHARS * 4):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_it_is_restored_when_the_block_raises() -> None:
    try:
        with gc_paused(10, threshold=5):
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
