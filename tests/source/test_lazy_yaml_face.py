"""``forgec.source`` loads its YAML reader on first use (stop 31): a JSON-only ``forgec validate`` never
imports it, and the two YAML limits the package face names are still there for whoever asks."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_the_yaml_limits_are_read_through_the_face() -> None:
    import forgec.source
    from forgec.source import yaml

    assert (forgec.source.YAML_MAX_FLOW_DEPTH, forgec.source.YAML_NODE_BUDGET) == (
        yaml.YAML_MAX_FLOW_DEPTH,
        yaml.YAML_NODE_BUDGET,
    )
    assert {"YAML_MAX_FLOW_DEPTH", "YAML_NODE_BUDGET"} <= set(forgec.source.__all__)
    with pytest.raises(AttributeError):
        forgec.source.NOT_A_NAME  # noqa: B018


def test_importing_the_package_does_not_load_the_yaml_reader() -> None:
    script = "import sys, forgec.source; print('forgec.source.yaml' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
