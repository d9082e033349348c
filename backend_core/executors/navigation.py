"""NavigationExecutor: ``goto(node)`` over the networkx graph of the device's tree.

The executor keeps the node the device is on. ``goto`` follows the shortest
path edge by edge, runs each edge's actions, proves each arrival with the
node's verifications, tries the edge's retry actions once, then its failure
actions, and re-plans from the node the device is really on (found by checking
node verifications) — at most :data:`MAX_REPLANS` times.
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from backend_core.executors.action import ActionExecutor
from backend_core.executors.verification import VerificationExecutor
from backend_core.navigation.graph import shortest_path
from backend_core.navigation.tree import ActionSpec, NavigationTree
from shared.commands import CommandKind, CommandSpec, ControllerType, P
from shared.errors import ConfigError, DeviceFailure, NavigationFailed
from shared.models import ExecutorContext

log = logging.getLogger(__name__)

MAX_REPLANS = 2
ARRIVAL_TIMEOUT_S = 4.0
LOCATE_TIMEOUT_S = 0.0

GOTO_SPEC = CommandSpec(
    name="goto",
    description="Navigate to a screen (navigation node) by the shortest path, verifying each screen on the way",
    params=(P("node", required=True, description="navigation node id or label"),),
    controller_type=ControllerType.NAVIGATION,
    kind=CommandKind.NAVIGATION,
)


class NavigationExecutor:
    kind = CommandKind.NAVIGATION

    def __init__(self, tree: NavigationTree | None, actions: ActionExecutor,
                 verifications: VerificationExecutor) -> None:
        self.tree = tree
        self.actions = actions
        self.verifications = verifications
        self.current_node: str | None = None
        self._lock = threading.RLock()

    # -- context --------------------------------------------------------------------
    def get_available_context(self, device_model: str | None = None,
                              userinterface_name: str | None = None) -> ExecutorContext:
        if self.tree is None:
            return ExecutorContext(self.kind)
        if userinterface_name and userinterface_name != self.tree.userinterface:
            raise ConfigError(f"device has navigation tree {self.tree.userinterface!r}, not {userinterface_name!r}")
        return ExecutorContext(self.kind, (GOTO_SPEC,), tuple(self.tree.node_infos()),
                               self.current_node, self.tree.entry)

    def provides(self, command: str) -> bool:
        return self.tree is not None and command == GOTO_SPEC.name

    def set_tree(self, tree: NavigationTree) -> None:
        with self._lock:
            self.tree = tree
            if self.current_node not in tree.nodes:
                self.current_node = None

    # -- running --------------------------------------------------------------------
    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        return ControllerType.NAVIGATION.value, self.goto(str(params["node"]))

    def _run_actions(self, actions: tuple[ActionSpec, ...]) -> None:
        for action in actions:
            if self.verifications.provides(action.command):
                self.verifications.execute(action.command, action.params)
            else:
                self.actions.execute(action.command, action.params)

    def is_on(self, node_id: str, timeout: float = ARRIVAL_TIMEOUT_S) -> bool:
        """True when every verification of *node_id* passes (a node without any: assumed)."""
        assert self.tree is not None
        for v in self.tree.nodes[node_id].verifications:
            params = {**v.params, "timeout": min(float(v.params.get("timeout", timeout)), timeout)}
            try:
                self.verifications.execute(v.command, params)
            except DeviceFailure:
                return False
        return True

    def locate(self) -> str | None:
        """Find which node the device is on by checking node verifications; None if no node matches."""
        assert self.tree is not None
        order = [n for n in [self.current_node, self.tree.entry] if n] + list(self.tree.nodes)
        for node_id in dict.fromkeys(order):
            if self.tree.nodes[node_id].verifications and self.is_on(node_id, LOCATE_TIMEOUT_S):
                log.info("located device on node %s", node_id)
                return node_id
        return None

    def refresh(self) -> str | None:
        """Re-locate the device after actions that may have moved it; None when no node matches."""
        if self.tree is None:
            return None
        with self._lock:
            if self.current_node is None or not self.is_on(self.current_node, LOCATE_TIMEOUT_S):
                self.current_node = self.locate()
            return self.current_node

    def _enter(self) -> str:
        """Bring the app to its entry node (open its URL where the device can)."""
        assert self.tree is not None
        if self.tree.entry_url and self.actions.provides("navigate_to_url"):
            self.actions.execute("navigate_to_url", {"url": self.tree.entry_url})
        if not self.is_on(self.tree.entry):
            raise NavigationFailed(f"cannot find where the device is, nor reach the entry node "
                                   f"{self.tree.entry!r}", expected=f"node {self.tree.entry!r}")
        return self.tree.entry

    def goto(self, target: str, on_edge: Callable[[str, str], None] | None = None) -> str:
        """Bring the device to *target*; return a message with the path taken."""
        if self.tree is None:
            raise ConfigError("this device has no navigation tree")
        if target not in self.tree.nodes:
            raise NavigationFailed(f"unknown navigation node {target!r}", expected=f"node {target!r}")
        with self._lock:
            visited: list[str] = []
            replans = 0
            if self.current_node is None or not self.is_on(self.current_node, LOCATE_TIMEOUT_S):
                # unknown, or an action since the last goto moved the device: find where it really is
                self.current_node = self.locate() or self._enter()
            while True:
                if self.current_node == target:
                    if self.is_on(target):
                        break
                    self.current_node = self.locate() or self._enter()
                    if self.current_node == target:
                        break
                path = shortest_path(self.tree, self.current_node, target)
                visited.append(self.current_node)
                derailed = False
                for edge in path:
                    log.info("goto %s: %s -> %s", target, edge.source, edge.target)
                    if on_edge:
                        on_edge(edge.source, edge.target)
                    self._run_actions(edge.actions)
                    if not self.is_on(edge.target) and not (edge.retry_actions and self._retry(edge.retry_actions, edge.target)):
                        derailed = True
                        self._run_actions(edge.failure_actions)
                        self.current_node = self.locate()
                        log.warning("goto %s: expected %s, found %s", target, edge.target, self.current_node)
                        break
                    self.current_node = edge.target
                    visited.append(edge.target)
                if not derailed:
                    break
                replans += 1
                if replans > MAX_REPLANS or self.current_node is None:
                    self.current_node = None
                    raise NavigationFailed(
                        f"could not reach {target!r} after {replans} re-plan(s); path so far: {' > '.join(visited)}",
                        expected=f"node {target!r}")
            route = " > ".join(dict.fromkeys(visited)) or target
            return f"on {target}" + (f" via {route}" if len(visited) > 1 else "")

    def _retry(self, actions: tuple[ActionSpec, ...], node_id: str) -> bool:
        self._run_actions(actions)
        return self.is_on(node_id)
