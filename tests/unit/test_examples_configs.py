"""The example device configs in examples/ load and build their controllers (no hardware is touched:
every controller connects lazily)."""
from __future__ import annotations

from pathlib import Path

import pytest

from backend_core.navigation.graph import shortest_path
from host.config import HostConfig
from host.lab import Lab
from tests.stack import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
HOSTS = [p for p in EXAMPLES if "devices:" in p.read_text()]


@pytest.mark.parametrize("path", HOSTS, ids=[p.stem for p in HOSTS])
def test_example_host_builds(path: Path) -> None:
    lab = Lab.build(HostConfig.load(path))
    try:
        for rt in lab.runtimes.values():
            kinds = {c.controller_type.value for c in rt.device.controllers}
            assert {"remote", "screen", "verification"} <= kinds, (path.name, kinds)
            tree = rt.device.tree
            assert tree is not None
            for node in tree.nodes:  # every screen is reachable from the entry
                if node != tree.entry:
                    shortest_path(tree, tree.entry, node)
    finally:
        lab.close()


def test_examples_cover_every_kind_of_device() -> None:
    types = {c["type"] for p in HOSTS for d in HostConfig.load(p).devices for c in d.controllers}
    assert {"adb", "android_tv", "appium", "ir", "hdmi", "playwright", "video", "power"} <= types
