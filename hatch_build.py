"""Opt-in build of forgec's hot modules with mypyc (issue 14, point 5).

The pure-Python package is the reference behaviour and the default: ``pip install .`` and the sdist
never run this hook's compile step and need no C compiler.  With ``FORGEC_MYPYC=1`` in the
environment the wheel build compiles the modules listed in ``forgec/resources.py``
(``COMPILED_MODULES``, the one list) into C extensions and ships them beside their ``.py`` sources,
as a platform wheel; Python's importer prefers the extension, and ``forgec --version`` says how many
were loaded.  Editable installs are never compiled (the checkout's sources must stay what runs).

The build runs mypy's compiler in a temporary folder, so neither setuptools nor mypy writes into
the checkout and setuptools never reads this project's ``pyproject.toml`` (a hatchling project);
mypy reads the project's ``[tool.mypy]`` settings through ``--config-file``.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the environment variable that turns the compiled build on ("1"); anything else builds pure Python
SWITCH = "FORGEC_MYPYC"

#: what the compile step needs besides the runtime dependencies (mypy follows every import, so the
#: libraries forgec imports and their type stubs must be installed for it to type-check)
BUILD_REQUIRES = ["mypy>=1.10", "setuptools>=61", "types-regex", "types-jsonschema"]

_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

config, *files = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--build-lib", "lib", "--build-temp", "tmp"]
setup(
    name="forgec-compiled",
    packages=[],
    py_modules=[],
    ext_modules=mypycify(["--config-file", config, *files], opt_level="3", debug_level="0"),
)
"""


def compiled_build_requested() -> bool:
    """True when ``FORGEC_MYPYC=1``: the only way a wheel gets compiled modules."""
    return os.environ.get(SWITCH, "") == "1"


def compiled_module_files(root: Path) -> list[Path]:
    """The source files of ``COMPILED_MODULES``, read from ``forgec/resources.py`` without importing it
    (the build environment need not be able to import forgec)."""
    tree = ast.parse((root / "forgec" / "resources.py").read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "COMPILED_MODULES" and node.value is not None:
            names: tuple[str, ...] = ast.literal_eval(node.value)
            break
    else:
        raise RuntimeError("forgec/resources.py has no COMPILED_MODULES list")
    files = [root / "forgec" / path for path in names]
    missing = [str(file) for file in files if not file.is_file()]
    if missing:
        raise RuntimeError(f"COMPILED_MODULES names files that do not exist: {', '.join(missing)}")
    return files


class CompiledModulesHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles ``COMPILED_MODULES`` with mypyc when ``FORGEC_MYPYC=1``; otherwise does nothing."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not compiled_build_requested():
            return []
        return [*BUILD_REQUIRES, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not compiled_build_requested() or self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        files = compiled_module_files(root)
        # the extensions must outlive initialize(): hatchling packs them after it; finalize() removes them
        self._work = tempfile.TemporaryDirectory(prefix="forgec-mypyc-")
        work = Path(self._work.name)
        (work / "setup.py").write_text(_SETUP, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "setup.py", str(root / "pyproject.toml"), *map(str, files)],
            cwd=work,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"mypyc could not compile forgec's hot modules:\n{done.stdout.decode()}")
        lib = work / "lib"
        built = sorted(path for path in lib.rglob("*") if path.suffix in (".so", ".pyd"))
        if len(built) <= len(files):  # one extension per module plus mypyc's shared runtime library
            raise RuntimeError(f"mypyc built {len(built)} extensions for {len(files)} modules")
        for extension in built:
            build_data["force_include"][str(extension)] = extension.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            work.cleanup()
