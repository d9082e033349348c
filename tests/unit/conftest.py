from __future__ import annotations

from pathlib import Path

import pytest

from backend_core.controllers.web import WebRemote
from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from backend_core.verifications.element import DomVerifier
from backend_core.verifications.image import ImageVerifier
from backend_core.verifications.text import OcrVerifier
from shared.commands import CommandKind
from shared.models import ExecutorContext, PlanningContext
from tests.fakes import FakeAdb
from tests.stack import ROOT

DEMO_TREE = ROOT / "host" / "demo" / "streamtv.tree.yaml"


def demo_context(current_node: str | None = None) -> PlanningContext:
    """The demo device's context exactly as its executors declare it, without a browser."""
    tree = NavigationTree.load(DEMO_TREE)
    actions = ExecutorContext(CommandKind.ACTION, tuple(WebRemote._commands.values()))
    verifications = ExecutorContext(CommandKind.VERIFICATION, tuple(
        [*DomVerifier._commands.values(), *OcrVerifier._commands.values(), *ImageVerifier._commands.values()]))
    navigation = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()))
    return PlanningContext("streamtv-web", "streamtv", actions, verifications, navigation, current_node)


@pytest.fixture
def ctx() -> PlanningContext:
    return demo_context()


@pytest.fixture
def tree() -> NavigationTree:
    return NavigationTree.load(DEMO_TREE)


@pytest.fixture
def fake_adb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeAdb:
    """The adb shim first on PATH, with its scripted devices and call log in *tmp_path*."""
    fake = FakeAdb(tmp_path)
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    return fake
