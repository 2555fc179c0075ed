"""A real installed plugin distribution, built in a temporary folder and put on ``sys.path``.

``importlib.metadata`` finds it exactly as it finds a pip-installed package: a ``*.dist-info``
folder with ``METADATA`` and an ``entry_points.txt`` declaring the ``forgec.plugins`` group.  The
plugin is the Python port of pi-forge's example extension ``system-status.ts`` (the corpus case
``example-custom-system-status`` uses its macro ``cpuLoad`` and slot ``machine-status``).
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from forgec.cli import cli

CASE = Path(__file__).parents[1] / "conformance" / "cases" / "example-custom-system-status"

STATUS_PLUGIN = '''
"""Python port of pi-forge's examples/custom-system-status-extension (deterministic values)."""


def cpu_load(ctx):
    return "0.42"


def machine_status(ctx):
    options = ctx.options
    lines = [f"platform: test-os", "cpus: 8"]
    if options.get("includeMemory") is True:
        lines.append("memory: 16 GiB")
    if options.get("includeUptime") is True:
        lines.append("uptime: 3 days")
    heading = options.get("heading") or "Machine status"
    if ctx.format() == "plain":
        return heading + "\\n" + "\\n".join(lines)
    return "<machine_status>\\n" + "\\n".join(lines) + "\\n</machine_status>"


def register(registry):
    registry.register_macro("cpuLoad", cpu_load, description="Rough CPU load")
    registry.register_slot("machine-status", machine_status, description="Machine snapshot")
'''

OTHER_PLUGIN = '''
def register(registry):
    registry.register_macro("acme.weather", lambda ctx: "sunny")
'''

BROKEN_PLUGIN = '''
raise RuntimeError("cannot read /proc/loadavg")
'''

BAD_NAME_PLUGIN = '''
def register(registry):
    registry.register_macro("getvar", lambda ctx: "shadowed")
'''

#: entry-point name -> (module name, module source)
PLUGINS = {
    "system-status": ("forgec_test_status", STATUS_PLUGIN),
    "weather": ("forgec_test_weather", OTHER_PLUGIN),
    "broken": ("forgec_test_broken", BROKEN_PLUGIN),
    "shadow": ("forgec_test_shadow", BAD_NAME_PLUGIN),
}

#: the plugin sets most tests install
DEFAULT_SET = ("system-status", "weather")


def build_site(site: Path, names: tuple[str, ...]) -> Path:
    """Write one distribution per plugin into ``site`` (a folder that can go on ``sys.path``)."""
    site.mkdir(parents=True, exist_ok=True)
    for name in names:
        module, source = PLUGINS[name]
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        info = site / f"{module}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(
            f"[forgec.plugins]\n{name} = {module}:register\n", encoding="utf-8"
        )
    return site


@pytest.fixture
def install_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Path]]:
    """``install_plugins(*names)``: make those plugins installed for this test only."""

    def install(*names: str) -> Path:
        site = build_site(tmp_path / "site-packages", names or DEFAULT_SET)
        monkeypatch.syspath_prepend(str(site))
        return site

    yield install
    for module, _ in PLUGINS.values():
        sys.modules.pop(module, None)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with the corpus stack as ``custom-system-status.json`` and its context."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(CASE / "stack.json", root / "custom-system-status.json")
    shutil.copy(CASE / "context.json", root / "context.json")
    return root


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, project: Path) -> Callable[..., Result]:
    """``run(*args)``: invoke ``forgec`` in-process from the project folder (stderr kept apart)."""

    def invoke(*args: str, cwd: Path | None = None) -> Result:
        monkeypatch.chdir(cwd or project)
        monkeypatch.setenv("NO_COLOR", "1")
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke
