"""Suite-wide switches.

``FORGEC_BLOCK_ICU=1`` makes ``import icu`` fail for the whole run, as on a platform where PyICU has
no wheel (issue 15, point 9): .ci/run runs the Unicode and regex vector suites that way, so ``\\p{…}``,
case folding and collation are proven to work without it.
"""

from __future__ import annotations

import gc
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

import pytest


class _BlockICU(MetaPathFinder):
    """A finder that refuses ``icu`` (and its submodules) before any other finder sees it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> ModuleSpec | None:
        if fullname == "icu" or fullname.startswith("icu."):
            raise ImportError(f"import of {fullname} blocked (FORGEC_BLOCK_ICU=1)", name=fullname)
        return None


if os.environ.get("FORGEC_BLOCK_ICU") == "1":
    for _name in [n for n in sys.modules if n == "icu" or n.startswith("icu.")]:
        del sys.modules[_name]
    sys.meta_path.insert(0, _BlockICU())


# ``forgec validate`` keeps an on-disk cache (.forgec_cache, forgec/lint/result_cache.py).  Every test
# that runs it gets a cache folder of its own outside the checkout: the suite runs with the cache on
# (each test's second run of a file is answered by it), yet never leaves a .forgec_cache in the
# repository or shares entries between tests.  Tests of the cache itself set the variables they need.
_CACHE_ROOT = os.path.join(tempfile.gettempdir(), f"forgec-test-caches-{os.getpid()}")


@pytest.fixture(autouse=True)
def _own_validate_cache(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if "FORGEC_CACHE_DIR" not in os.environ:
        name = hashlib.blake2b(request.node.nodeid.encode(), digest_size=8).hexdigest()
        monkeypatch.setenv("FORGEC_CACHE_DIR", os.path.join(_CACHE_ROOT, name))


@pytest.fixture
def orjson_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The optional orjson reader in use for the test (whatever ``FORGEC_ORJSON`` says), and
    ``forgec.js.json`` left as it was found (the orjson tests; skip first when orjson is absent)."""
    import forgec.js.json as fj

    saved = fj._ORJSON, fj._ORJSON_LOOKED, fj._BYTES_BEFORE
    monkeypatch.delenv("FORGEC_ORJSON", raising=False)
    assert fj.use_orjson(True)
    yield
    fj._ORJSON, fj._ORJSON_LOOKED, fj._BYTES_BEFORE = saved


@pytest.fixture
def gc_enabled() -> Iterator[None]:
    """The cyclic collector on for the test and put back as it was after (the collector pause tests)."""
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:  # pragma: no cover - pytest runs with the collector on
        gc.disable()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(_CACHE_ROOT, ignore_errors=True)
