"""The house: the floors of docs/architecture.md hold, in the code as it is.

Every import of a forgec module -- at module level, inside a function, under ``TYPE_CHECKING``, or
as a ``"forgec.x"`` string handed to an import machinery -- must go to the same floor or a lower
one, rooms must not import each other in a circle, and the table must name every room.  The table
is read from docs/architecture.md, so the documentation and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "forgec"
DOC = ROOT / "docs" / "architecture.md"

#: where ``except Exception`` is allowed, and why: pi-forge turns any failure of foreign code into a
#: diagnostic (compile-core §3.2 step 4, §6.1, §12), and the CLI guard turns a bug into "internal error"
BROAD_EXCEPT_ALLOWED = {
    "forgec/plugins.py": "a plugin's register() failing is FG950, never a traceback",
    "forgec/compile/macros/engine.py": "a macro renderer's failure is `Macro … failed` (§3.2)",
    "forgec/compile/slots/__init__.py": "a slot renderer's failure is `Slot … failed` (§6.1)",
    "forgec/cli/_common.py": "the guard: a bug is reported as an internal error, exit 2",
    "forgec/lsp/server.py": "the server's guard: a bug in a handler is logged to the editor, the server keeps answering",
}


def _floors() -> dict[str, int]:
    """room -> floor, from the table under "## The floors" in docs/architecture.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The floors", 1)[1].split("\n## ", 1)[0]
    floors: dict[str, int] = {}
    for line in section.splitlines():
        row = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", line)
        if row:
            for room in re.findall(r"`([\w.]+)`", row.group(2)):
                floors[room] = int(row.group(1))
    return floors


def _modules() -> dict[str, Path]:
    """dotted module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _room(module: str) -> str:
    """``forgec.codecs.stack`` -> ``codecs``; the package itself is ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _resolve(name: str, module: str, level: int, is_package: bool) -> str:
    if not level:
        return name
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """The forgec modules ``module`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("forgec"):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node.module or "", module, node.level, is_package)
            if not target.startswith("forgec"):
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                yield (full if full in MODULES else target), node.lineno
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            candidate = node.value.split(":", 1)[0]
            if candidate.startswith("forgec.") and candidate in MODULES:
                yield candidate, node.lineno


def _edges() -> list[tuple[str, str, str, int]]:
    """(importing module, imported module, importing file, line) across rooms."""
    out = []
    for module, path in MODULES.items():
        for target, line in _imports(module, path):
            if target == "forgec" and module != "forgec":
                continue  # every submodule import runs the package face anyway; checked below
            if _room(module) != _room(target):
                out.append((module, target, str(path.relative_to(ROOT)), line))
    return out


def test_every_room_has_a_floor() -> None:
    floors = _floors()
    rooms = {_room(m) for m in MODULES}
    assert rooms <= set(floors), f"rooms missing from docs/architecture.md: {sorted(rooms - set(floors))}"
    assert set(floors) <= rooms, f"the table names rooms that do not exist: {sorted(set(floors) - rooms)}"
    assert max(floors.values()) <= 9


def test_imports_go_down_or_stay_on_their_floor() -> None:
    floors = _floors()
    upward = [
        f"{where}:{line}: {_room(src)} (floor {floors[_room(src)]}) imports {dst} (floor {floors[_room(dst)]})"
        for src, dst, where, line in _edges()
        if floors[_room(dst)] > floors[_room(src)]
    ]
    assert upward == []


def test_no_room_imports_the_package_face() -> None:
    """``forgec/__init__.py`` is the top floor: nothing below may import it (not even ``__version__``)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for module, path in MODULES.items()
        if module not in ("forgec", "forgec.__main__")
        for target, line in _imports(module, path)
        if target == "forgec"
    ]
    assert found == []


def test_rooms_import_each_other_in_no_circle() -> None:
    graph: dict[str, set[str]] = {}
    for src, dst, _, _ in _edges():
        graph.setdefault(_room(src), set()).add(_room(dst))
    state: dict[str, int] = {}  # 1 visiting, 2 done
    path: list[str] = []

    def visit(room: str) -> None:
        state[room] = 1
        path.append(room)
        for nxt in sorted(graph.get(room, ())):
            if state.get(nxt) == 1:
                pytest.fail("circle: " + " -> ".join([*path[path.index(nxt) :], nxt]))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[room] = 2

    for room in sorted(graph):
        if room not in state:
            visit(room)


def test_the_package_root_holds_at_most_ten_one_job_modules() -> None:
    root_modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(root_modules) <= 10, root_modules


def test_command_line_modules_stay_thin() -> None:
    """A ``cli/`` module parses options, calls the library and prints: no workflow hides there."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (PACKAGE / "cli").glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 220} == {}


def test_broad_excepts_are_only_at_foreign_code_boundaries() -> None:
    """``except Exception`` turns any bug into something else; only these places may do that
    (``except BaseException: …; raise``, a clean-up that re-raises, is not counted)."""
    found = {
        str(path.relative_to(ROOT))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"except Exception\b", path.read_text(encoding="utf-8"))
    }
    assert found <= set(BROAD_EXCEPT_ALLOWED), sorted(found - set(BROAD_EXCEPT_ALLOWED))


def test_every_public_exception_is_a_forgec_error() -> None:
    """Exceptions a caller can meet derive from ForgecError, so one ``except`` and one exit-code
    contract cover the whole family (private control-flow exceptions, ``_Name``, are exempt)."""
    import importlib
    import inspect

    from forgec.errors import ForgecError

    outside = []
    for module_name in MODULES:
        if any(part.startswith("_") and part not in ("__init__", "__main__") for part in module_name.split(".")):
            continue  # a private module's exceptions stay inside its room
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module_name
                and not name.startswith("_")
                and not issubclass(value, ForgecError)
            ):
                outside.append(f"{module_name}.{name}")
    # internal control flow of the macro engine, never raised out of a compile
    assert sorted(outside) == ["forgec.compile.macros.engine.ExpansionTooLong", "forgec.compile.macros.engine.JsRangeError"]


def test_rule_catalogs_are_all_loaded() -> None:
    """``rules._load_all`` imports its catalogs by name; a new catalog module must be added there (every
    module of the package but the registry the catalogs register into)."""
    import forgec.rules

    source = (PACKAGE / "rules" / "__init__.py").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s+(\w+),$", source.split("def _load_all", 1)[1].split("_loaded_all = True")[0], re.M))
    present = {p.stem for p in (PACKAGE / "rules").glob("*.py") if p.stem not in ("__init__", "registry")}
    assert listed == present
    assert forgec.rules.all_rules()


def test_vocabulary_matches_the_tables_that_implement_it() -> None:
    from forgec.compile.macros.builtins import BUILTIN_MACROS
    from forgec.compile.slots import SLOT_RENDERERS
    from forgec.model import BUILTIN_MACRO_ARGS, BUILTIN_MACRO_NAMES, BUILTIN_SLOT_NAMES

    assert tuple(BUILTIN_MACROS) == BUILTIN_MACRO_NAMES == tuple(BUILTIN_MACRO_ARGS)
    assert {m.name: (m.min_args, m.max_args) for m in BUILTIN_MACROS.values()} == BUILTIN_MACRO_ARGS
    assert tuple(SLOT_RENDERERS) == BUILTIN_SLOT_NAMES


def test_public_api_is_exported_lazily_and_completely() -> None:
    import subprocess
    import sys

    import forgec

    assert set(forgec.__all__) - {"__version__"} == set(forgec._EXPORTS)
    for name in forgec.__all__:
        assert getattr(forgec, name) is not None
    # importing the package alone loads none of the layers it re-exports
    code = "import sys, forgec; print(sorted(m for m in sys.modules if m.startswith('forgec')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['forgec', 'forgec.resources']"


def test_version_is_the_project_version() -> None:
    import tomllib

    import forgec

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert forgec.__version__ == project["version"]


#: module circles that are a package's lazy face, and why each is allowed: the package's ``__init__``
#: loads the submodule on first use (PEP 562 ``__getattr__``, or an import inside the one function that
#: needs it) so a cold ``forgec validate`` does not, and the submodule reads a small table from the face
LAZY_FACES = {
    frozenset({"forgec.cli", "forgec.cli._group", "forgec.cli.completion"}): (
        "the click group is loaded only when a command needs click; the face's command table names each command "
        "module, and `completion` asks the group for the script it prints"
    ),
    frozenset({"forgec.diagnostics", "forgec.diagnostics.core"}): "Diagnostic is loaded on the first finding",
    frozenset({"forgec.cli._validate_options", "forgec.cli._validate_run"}): (
        "the options module starts the run lazily; the run names the options' type under TYPE_CHECKING only"
    ),
}


def _module_circles() -> list[set[str]]:
    """The strongly connected groups of two or more modules in the module import graph (Tarjan)."""
    graph = {
        module: {target for target, _ in _imports(module, path) if target in MODULES} for module, path in MODULES.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_modules_import_each_other_in_no_circle_but_the_lazy_faces() -> None:
    """Inside a room too, imports form no circle (a package's catalogs import the registry module, not
    the package that loads them); the only circles are the lazy faces of :data:`LAZY_FACES`."""
    found = [sorted(group) for group in _module_circles() if frozenset(group) not in LAZY_FACES]
    assert found == []
