"""Suite-wide switches.

``FORGEC_BLOCK_ICU=1`` makes ``import icu`` fail for the whole run, as on a platform where PyICU has
no wheel (issue 15, point 9): .ci/run runs the Unicode and regex vector suites that way, so ``\\p{…}``,
case folding and collation are proven to work without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType


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
