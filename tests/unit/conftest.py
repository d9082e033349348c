from __future__ import annotations

import pytest

from backend_core.controllers.web import WebRemote
from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from backend_core.verifications.element import DomVerifier
from backend_core.verifications.image import ImageVerifier
from backend_core.verifications.text import OcrVerifier
from shared.commands import CommandKind
from shared.models import ExecutorContext, PlanningContext
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
