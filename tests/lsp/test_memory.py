"""The server keeps nothing per notification (pygls 2.1 does: see ``forgec.lsp.server._Protocol``).

Not a timing or RSS test (benchmarks/bench_lsp.py measures those): it counts what is left behind.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from forgec.lsp.server import build_server


def _left_behind(server: LanguageServer) -> int:
    for _ in range(25):  # a built-in notification handler of pygls (a generator, like didChange's)
        server.protocol._handle_notification(types.INITIALIZED, types.InitializedParams())
    return len(server.protocol._request_futures)


def test_handled_notifications_leave_nothing_pending() -> None:
    assert _left_behind(LanguageServer("plain-pygls", "0")) == 25  # the leak this guards against
    assert _left_behind(build_server()) == 0
