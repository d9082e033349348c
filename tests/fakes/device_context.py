"""Planning contexts for planner tests and benchmarks, without starting a browser.

:func:`streamtv_context` is the demo device's real context: the command
declarations of the real controller classes (read from the classes, nothing
is instantiated) and the real StreamTV navigation tree. :func:`synthetic_context`
builds a large context of any size, for ranking and benchmarks.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from backend_core.controllers.web import WebRemote
from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from backend_core.verifications.element import DomVerifier
from backend_core.verifications.image import ImageVerifier
from backend_core.verifications.text import OcrVerifier
from shared.commands import CommandKind, CommandSpec, ControllerType, P, ParamType
from shared.models import ElementInfo, ExecutorContext, NodeInfo, PlanningContext

ROOT = Path(__file__).resolve().parents[2]
STREAMTV_TREE = ROOT / "host" / "demo" / "streamtv.tree.yaml"


@lru_cache(maxsize=1)
def _streamtv_tree() -> NavigationTree:
    return NavigationTree.load(STREAMTV_TREE)


def streamtv_context(current_node: str | None = None) -> PlanningContext:
    """The context AI Central gets for the ``demo-web`` device (model streamtv-web, UI streamtv)."""
    tree = _streamtv_tree()
    actions = tuple(WebRemote._commands.values())
    checks = tuple([*DomVerifier._commands.values(), *OcrVerifier._commands.values(),
                    *ImageVerifier._commands.values()])
    return PlanningContext(
        "streamtv-web", "streamtv",
        ExecutorContext(CommandKind.ACTION, actions),
        ExecutorContext(CommandKind.VERIFICATION, checks),
        ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()), current_node, tree.entry),
        current_node,
    )


VERBS = ["press", "swipe", "launch", "close", "install", "reboot", "record", "rewind", "zoom", "rotate",
         "toggle", "select", "scroll", "type", "clear", "mute", "pair", "cast", "dim", "lock"]
OBJECTS = ["key", "app", "wifi", "bluetooth", "screen", "volume", "recording", "subtitle", "profile", "cache",
           "channel", "pin"]


def synthetic_context(n_nodes: int = 100, n_commands: int = 60, elements_per_node: int = 6,
                      current_node: str | None = None) -> PlanningContext:
    """A large, deterministic context: *n_nodes* screens and *n_commands* commands (goto included)."""
    nodes = []
    for i in range(n_nodes):
        elements = tuple(ElementInfo(f"item {j} of screen {i}", f"Item {j}", f"#s{i}-e{j}")
                         for j in range(elements_per_node))
        nodes.append(NodeInfo(f"screen_{i}", f"Screen {i}", f"Screen number {i} of the app",
                              (f"screen{i}", f"area {i % 7}"), elements))
    commands: list[CommandSpec] = []
    for i in range(n_commands - 1 - 4):
        verb, obj = VERBS[i % len(VERBS)], OBJECTS[(i // len(VERBS) + i) % len(OBJECTS)]
        commands.append(CommandSpec(f"{verb}_{obj}_{i}", f"{verb.capitalize()} the {obj} (variant {i})",
                                    (P("target", description=f"which {obj}"),
                                     P("count", ParamType.INT, default=1, minimum=1, maximum=20)),
                                    ControllerType.REMOTE, CommandKind.ACTION))
    commands.append(CommandSpec("press_key", "Press a remote-control key",
                                (P("key", ParamType.KEY, required=True), P("repeat", ParamType.INT, default=1,
                                                                           minimum=1, maximum=50)),
                                ControllerType.REMOTE, CommandKind.ACTION))
    checks = [
        CommandSpec("waitForElementToAppear", "Wait until an element is visible",
                    (P("selector"), P("text"), P("timeout", ParamType.FLOAT, default=5.0, minimum=0, maximum=120)),
                    ControllerType.VERIFICATION, CommandKind.VERIFICATION),
        CommandSpec("waitForTextToAppear", "Wait until OCR reads the text on screen",
                    (P("text", required=True), P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=120)),
                    ControllerType.VERIFICATION, CommandKind.VERIFICATION),
        CommandSpec("waitForTextToDisappear", "Wait until OCR no longer reads the text",
                    (P("text", required=True), P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=120)),
                    ControllerType.VERIFICATION, CommandKind.VERIFICATION),
    ]
    return PlanningContext(
        "synthetic-box", "synthetic-ui",
        ExecutorContext(CommandKind.ACTION, tuple(commands)),
        ExecutorContext(CommandKind.VERIFICATION, tuple(checks)),
        ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(nodes), current_node, "screen_0"),
        current_node,
    )
