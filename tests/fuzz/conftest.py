"""The fuzz suite's settings: a short run in CI, a long one on demand.

``FORGEC_FUZZ_EXAMPLES`` sets the examples per property (default 40, what CI runs);
``FORGEC_FUZZ_EXAMPLES=20000 pytest tests/fuzz -p no:cacheprovider`` is the long campaign
(docs/limits.md).  Every library call is bounded in time by :func:`bounded`; the CLI runs are
bounded in time and memory by the operating system (``tests/fuzz/test_cli.py``).
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

T = TypeVar("T")


class TooSlow(Exception):
    """An input took longer than :data:`CALL_SECONDS`: a hang or runaway work, a failure of the suite."""


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        raise TooSlow(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def bounded(call: Callable[[], T], seconds: int = CALL_SECONDS) -> T:
    """``call()``, failed with :class:`TooSlow` when it runs past ``seconds``."""
    with _alarm(seconds):
        return call()
