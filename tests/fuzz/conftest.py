"""The fuzz suite's settings: a short run in CI, a long one on demand.

``FORGEC_FUZZ_EXAMPLES`` sets the examples per property (default 40, what CI runs);
``FORGEC_FUZZ_MEMORY_MB`` the memory any one in-process input may add (default 1024);
``FORGEC_FUZZ_EXAMPLES=20000 pytest tests/fuzz -p no:cacheprovider`` is the long campaign
(docs/limits.md).  Every library call is bounded in time by :func:`bounded` and in memory by :func:`memory_bound`
(the address space the process may add while the library properties run); the CLI runs are bounded
in time and memory by the operating system (``tests/fuzz/test_cli.py``).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("FORGEC_FUZZ_EXAMPLES", "40"))
#: seconds any one input may take (docs/limits.md: proportional to its size; these inputs are small)
CALL_SECONDS = int(os.environ.get("FORGEC_FUZZ_SECONDS", "10"))

settings.register_profile(
    "forgec-fuzz",
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=os.environ.get("FORGEC_FUZZ_SEED") is None and EXAMPLES <= 100,
)
FUZZ = settings.get_profile("forgec-fuzz")

#: address space one in-process input may add (docs/limits.md: no input under 1 MB needs over 1 GiB)
MEMORY_BYTES = int(os.environ.get("FORGEC_FUZZ_MEMORY_MB", "1024")) * 1024 * 1024

T = TypeVar("T")


def _address_space() -> int | None:
    """This process's virtual size in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def memory_bound(extra: int = MEMORY_BYTES) -> Iterator[None]:
    """Lower the soft address-space limit to the current size plus ``extra`` for the block: an input
    that needs more gets a ``MemoryError`` (a failure of the property) instead of swapping the machine.
    The previous limit comes back afterwards; nothing is bounded where the size cannot be read."""
    import resource

    current = _address_space()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if current is None:
        yield
        return
    wanted = current + extra
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY:
        wanted = min(wanted, soft)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


class TooSlow(Exception):
    """An input took longer than :data:`CALL_SECONDS`: a hang or runaway work, a failure of the suite."""


#: a call that waits rather than computes (a pipe, a lock) is caught by wall time, at this many bounds
WALL_FACTOR = 6


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Fail the block after ``seconds`` of CPU time (``ITIMER_PROF``: what the input costs, whatever the
    machine's load) or ``WALL_FACTOR`` times that in wall time (a wait that costs no CPU)."""
    if not hasattr(signal, "SIGALRM") or not hasattr(signal, "setitimer"):
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        clock = "CPU" if signum == signal.SIGPROF else "wall-clock"
        limit = seconds if signum == signal.SIGPROF else seconds * WALL_FACTOR
        raise TooSlow(f"took more than {limit:g} s of {clock} time")

    previous_prof = signal.signal(signal.SIGPROF, fire)
    previous_alarm = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous_prof)
        signal.signal(signal.SIGALRM, previous_alarm)


def bounded(call: Callable[[], T], seconds: float = CALL_SECONDS) -> T:
    """``call()``, failed with :class:`TooSlow` when it computes past ``seconds`` of CPU time (or
    waits past ``WALL_FACTOR`` times that)."""
    with _alarm(seconds):
        return call()
