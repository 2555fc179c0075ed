"""The optional compiled build (issue 14, point 5; docs/performance.md, "Compiled modules").

``FORGEC_MYPYC=1 pip install .`` compiles ``forgec.resources.COMPILED_MODULES`` with mypyc
(``hatch_build.py``); the default install is pure Python.  CI runs the whole suite twice: against the
pure install, and against the compiled wheel with ``FORGEC_EXPECT_COMPILED=1``.  These tests make
sure each run really exercised the build it claims to, and that the build hook can read the list.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import os
from pathlib import Path

from click.testing import CliRunner

import forgec
from forgec.cli import cli
from forgec.resources import COMPILED_MODULES, VERSION, compiled_modules

REPO = Path(__file__).resolve().parents[2]
#: the forgec package the suite imports: the checkout's sources, or an installed (compiled) wheel
#: whose ``.py`` files ship beside the extensions -- the compiled suite runs outside the checkout, as
#: from the checkout's root ``import forgec`` would find the pure sources first
PACKAGE = Path(forgec.__file__).resolve().parent
EXPECT_COMPILED = os.environ.get("FORGEC_EXPECT_COMPILED") == "1"


def test_the_build_hook_reads_the_same_list_as_the_runtime() -> None:
    """``hatch_build.py`` parses COMPILED_MODULES from the source without importing forgec: it must be
    one annotated literal, naming modules that exist in the checkout, each once."""
    tree = ast.parse((PACKAGE / "resources.py").read_text(encoding="utf-8"))
    literals = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and node.target.id == "COMPILED_MODULES"
        and node.value is not None
    ]
    assert literals == [COMPILED_MODULES]
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)
    for path in COMPILED_MODULES:
        assert path.endswith(".py") and (PACKAGE / path).is_file(), path
    assert 'path = "hatch_build.py"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_the_suite_runs_against_the_build_it_claims() -> None:
    """Pure by default; with FORGEC_EXPECT_COMPILED=1 every listed module must be a loaded extension
    (so a compiled CI run that silently imported the checkout's sources fails here)."""
    if not EXPECT_COMPILED:
        assert compiled_modules() == ()
        return
    assert compiled_modules() == COMPILED_MODULES
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for path in COMPILED_MODULES:
        name = "forgec." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        module = importlib.import_module(name)
        assert str(module.__file__).endswith(suffixes), (name, module.__file__)


def test_version_says_whether_compiled_modules_are_loaded() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    if EXPECT_COMPILED:
        n = len(COMPILED_MODULES)
        assert result.output == f"forgec, version {VERSION} (compiled with mypyc: {n} of {n} hot modules)\n"
    else:
        assert result.output == f"forgec, version {VERSION}\n"
