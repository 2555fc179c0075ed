"""Plugins through the library and the pytest fixture: the registry reaches loader, lint and compiler."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from forgec.environment import Environment
from forgec.plugins import Registry, setup_plugins
from forgec.report import compile_report

from .conftest import CASE, build_site

STACK = "custom-system-status.json"


def test_setup_plugins_finds_the_installed_distribution(install_plugins) -> None:
    install_plugins("system-status", "weather")
    setup = setup_plugins(trusted=["system-status"])
    assert setup.registry.loaded == ["system-status"]
    assert list(setup.registry.macros) == ["cpuLoad"]
    assert list(setup.registry.slots) == ["machine-status"]
    assert [(d.code, d.level) for d in setup.diagnostics] == [("FG951", "info")]
    assert setup.errors == []
    everything = setup_plugins(trust_all=True)
    assert sorted(everything.registry.loaded) == ["system-status", "weather"]
    assert everything.diagnostics == []


def test_two_registries_do_not_share_plugins(install_plugins) -> None:
    """The registry is an object, not module state: a compile without trust sees no plugin."""
    install_plugins()
    trusted = setup_plugins(trust_all=True).registry
    assert trusted.macros and not Registry().macros
    stack = CASE / "stack.json"
    with_plugin = compile_report(stack, CASE / "context.json", env=Environment.create(registry=trusted)).to_report()
    without = compile_report(stack, CASE / "context.json").to_report()
    assert "0.42" in with_plugin["system"]["prompt"]
    assert without["system"] == json.loads((CASE / "expected.json").read_text())["system"]


def test_compile_report_registry_reaches_the_loader(install_plugins) -> None:
    install_plugins()
    registry = setup_plugins(trust_all=True).registry
    data = json.loads((CASE / "stack.json").read_text())
    report = compile_report(data, CASE / "context.json", env=Environment.create(registry=registry)).to_report()
    assert report["validation"]["diagnostics"] == []
    assert report["validation"]["usable"] is True


def test_forgec_compile_fixture_trusts_plugins(forgec_compile, install_plugins) -> None:
    install_plugins()
    stack = CASE / "stack.json"  # absolute: the fixture joins it to this file's folder unchanged
    assert "{{cpuLoad}}" in forgec_compile(stack)["system"]["prompt"]
    assert "0.42" in forgec_compile(stack, trust_plugins=True)["system"]["prompt"]
    only_weather = forgec_compile(stack, trust_plugins=["weather"])
    assert "{{cpuLoad}}" in only_weather["system"]["prompt"]
    registry = Registry()
    registry.register_macro("cpuLoad", lambda ctx: "9.99")
    assert "Current rough CPU load: 9.99" in forgec_compile(stack, registry=registry)["system"]["prompt"]


def test_forgec_compile_fixture_fails_on_a_broken_trusted_plugin(forgec_compile, install_plugins) -> None:
    install_plugins("broken")
    with pytest.raises(pytest.fail.Exception, match="Plugin broken failed to load: cannot read /proc/loadavg"):
        forgec_compile(CASE / "stack.json", trust_plugins=True)


def test_python_m_forgec_with_an_installed_plugin(tmp_path: Path) -> None:
    """The real thing: a separate interpreter discovers the plugin through its sys.path."""
    site = build_site(tmp_path / "site", ("system-status", "broken"))
    project = tmp_path / "project"
    project.mkdir()
    (project / STACK).write_text((CASE / "stack.json").read_text())
    (project / "pyproject.toml").write_text('[tool.forgec]\nplugins = ["system-status", "broken"]\n')
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "forgec", "preview", "--format", "json", STACK],
        cwd=project, capture_output=True, text=True, timeout=60, env=env,
    )
    assert done.returncode == 1  # the broken trusted plugin
    assert "Traceback" not in done.stderr
    assert "Plugin broken failed to load: cannot read /proc/loadavg [FG950]" in done.stderr
    assert "Current rough CPU load: 0.42" in json.loads(done.stdout)["system"]["prompt"]
