"""NavigationExecutor: ``goto(node)`` over the networkx graph of the device's tree.

The executor keeps the node the device is on. ``goto`` follows the shortest
path edge by edge, runs each edge's actions, proves each arrival with the
node's verifications, tries the edge's retry actions once, then its failure
actions, and re-plans from the node the device is really on (found by checking
node verifications) — at most :data:`MAX_REPLANS` times. Where the same actions
lead from one node to several (BACK from a screen with several parents), landing
on any of them is recognised at once and the path is re-planned from there.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from backend_core.executors.action import ActionExecutor
from backend_core.executors.verification import VerificationExecutor
from backend_core.navigation.graph import shortest_path
from backend_core.navigation.tree import ActionSpec, Edge, NavigationTree
from backend_core.wait import Timeout, WaitTimeout, wait_until
from shared.commands import CommandKind, CommandSpec, ControllerType, P
from shared.errors import ConfigError, DeviceFailure, NavigationFailed
from shared.models import ExecutorContext

log = logging.getLogger(__name__)

MAX_REPLANS = 2
ARRIVAL_TIMEOUT_S = 4.0
ARRIVAL_INTERVAL_S = 0.15
ARRIVAL_GRACE_S = 1.0   # after this, landing on another known screen counts as arrived elsewhere
LOCATE_TIMEOUT_S = 0.0

GOTO_SPEC = CommandSpec(
    name="goto",
    description="Navigate to a screen (navigation node) by the shortest path, verifying each screen on the way",
    params=(P("node", required=True, description="navigation node id or label"),
            P("param", description="for a parameterised node (one screen per item): the item to open, "
                                   "e.g. a movie's title; its page is verified to show it")),
    controller_type=ControllerType.NAVIGATION,
    kind=CommandKind.NAVIGATION,
)


class NavigationExecutor:
    kind = CommandKind.NAVIGATION

    def __init__(self, tree: NavigationTree | None, actions: ActionExecutor,
                 verifications: VerificationExecutor, arrival_timeout_s: float = ARRIVAL_TIMEOUT_S) -> None:
        self.tree = tree
        self.arrival_timeout_s = arrival_timeout_s
        self.actions = actions
        self.verifications = verifications
        self.current_node: str | None = None
        self.moved = False   # an action ran since the device was last located: current_node is only a hint
        self._binding: tuple[str, str] | None = None   # (node, item) while a goto opens one item
        self._lock = threading.RLock()

    # -- context --------------------------------------------------------------------
    def get_available_context(self, device_model: str | None = None,
                              userinterface_name: str | None = None) -> ExecutorContext:
        if self.tree is None:
            return ExecutorContext(self.kind)
        if userinterface_name and userinterface_name != self.tree.userinterface:
            raise ConfigError(f"device has navigation tree {self.tree.userinterface!r}, not {userinterface_name!r}")
        return ExecutorContext(self.kind, (GOTO_SPEC,), tuple(self.tree.node_infos()),
                               self.known_node, self.tree.entry, self.tree.complete)

    @property
    def known_node(self) -> str | None:
        """The node the device is on, if located since the last action that may have moved it; else None."""
        return None if self.moved else self.current_node

    def mark_moved(self) -> None:
        """An action ran and nobody needs to know where it led yet: locate lazily, at the next need."""
        if self.tree is not None:
            self.moved = True

    def forget(self) -> None:
        """Where the device is is unknown (a step hung or the device crashed): locate it only at a goto."""
        self.current_node = None
        self.moved = False

    def provides(self, command: str) -> bool:
        return self.tree is not None and command == GOTO_SPEC.name

    def set_tree(self, tree: NavigationTree) -> None:
        with self._lock:
            self.tree = tree
            if self.current_node not in tree.nodes:
                self.current_node = None

    # -- running --------------------------------------------------------------------
    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        param = params.get("param")
        return ControllerType.NAVIGATION.value, self.goto(str(params["node"]), param=None if param in (None, "")
                                                          else str(param))

    def _run_actions(self, actions: tuple[ActionSpec, ...]) -> None:
        for action in actions:
            if self.verifications.provides(action.command):
                self.verifications.execute(action.command, action.params)
            else:
                self.actions.execute(action.command, action.params)

    def is_on(self, node_id: str, timeout: float | None = None) -> bool:
        """True when every verification of *node_id* passes (a node without any: assumed)."""
        assert self.tree is not None
        timeout = self.arrival_timeout_s if timeout is None else timeout
        for v in self.tree.nodes[node_id].verifications:
            params = {**v.params, "timeout": min(float(v.params.get("timeout", timeout)), timeout)}
            try:
                self.verifications.execute(v.command, params)
            except DeviceFailure:
                return False
        if self._binding and self._binding[0] == node_id:
            node = self.tree.nodes[node_id]
            for v in node.param_verifications:
                bound = v.bind(node.param, self._binding[1])
                params = {**bound.params, "timeout": min(float(bound.params.get("timeout", timeout)), timeout)}
                try:
                    self.verifications.execute(bound.command, params)
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
            self.moved = False
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

    def goto(self, target: str, on_edge: Callable[[str, str], None] | None = None, param: str | None = None) -> str:
        """Bring the device to *target* (showing item *param* of a parameterised node); say how."""
        if self.tree is None:
            raise ConfigError("this device has no navigation tree")
        if target not in self.tree.nodes:
            raise NavigationFailed(f"unknown navigation node {target!r}", expected=f"node {target!r}")
        node = self.tree.nodes[target]
        if param is not None and not node.param:
            raise ConfigError(f"navigation node {target!r} is not parameterised; it takes no param "
                              f"(given {param!r})")
        with self._lock:
            self._binding = (target, param) if param is not None else None
            try:
                message = self._goto(target, on_edge)
            finally:
                self._binding = None
            return message + (f" ({node.param} {param!r} shown)" if param is not None else "")

    def _item(self, edge: Edge) -> str:
        """The item a parameterised edge opens: the one asked for, else the target's first known item."""
        assert self.tree is not None
        if self._binding and self._binding[0] == edge.target:
            return self._binding[1]
        items = self.tree.nodes[edge.target].items
        if not items:
            raise NavigationFailed(f"edge {edge.source}->{edge.target} needs a {edge.param!r} and none is known",
                                   expected=f"a {edge.param} for {edge.target!r}")
        return items[0]

    def _goto(self, target: str, on_edge: Callable[[str, str], None] | None) -> str:
        assert self.tree is not None
        visited: list[str] = []
        notes: list[str] = []
        replans = detours = 0
        if self.current_node is None or not self.is_on(self.current_node, LOCATE_TIMEOUT_S):
            # unknown, or an action since the last goto moved the device: find where it really is
            self.current_node = self.locate() or self._enter()
        self.moved = False
        while True:
            if self.current_node == target:
                if self.is_on(target):
                    break
                self.current_node = self.locate() or self._enter()
                if self.current_node == target:
                    break
            path = shortest_path(self.tree, self.current_node, target, open_item=bool(self._binding))
            visited.append(self.current_node)
            derailed = False
            for edge in path:
                log.info("goto %s: %s -> %s", target, edge.source, edge.target)
                if on_edge:
                    on_edge(edge.source, edge.target)
                reached = self._traverse(edge)
                self.current_node = reached
                if reached != edge.target:
                    derailed = True
                    detours += 1
                    if reached in self._siblings(edge):
                        # the same keys lead to several screens (BACK after different parents):
                        # a known screen, not a failure; take the path from there
                        log.info("goto %s: %s led to %s, not %s; re-planning", target, edge.source,
                                 reached, edge.target)
                    else:
                        replans += 1
                        log.info("goto %s: expected %s, found %s; re-planning", target, edge.target, reached)
                    notes.append(f"expected {edge.target}, found {reached or 'an unknown screen'}")
                    break
                visited.append(edge.target)
            if not derailed:
                break
            if replans > MAX_REPLANS or self.current_node is None or detours > len(self.tree.nodes):
                self.current_node = None
                raise NavigationFailed(
                    f"could not reach {target!r} after {replans} re-plan(s) ({'; '.join(notes)}); "
                    f"path so far: {' > '.join(visited)}",
                    expected=f"node {target!r}")
        route = " > ".join(dict.fromkeys(visited)) or target
        detour = f" (re-planned: {'; '.join(notes)})" if notes else ""
        return f"on {target}" + (f" via {route}" if len(visited) > 1 else "") + detour

    def _siblings(self, edge: Edge) -> list[str]:
        """Other nodes the same actions lead to from the same node (BACK after different parents)."""
        assert self.tree is not None
        return [e.target for e in self.tree.edges
                if e.source == edge.source and e.actions == edge.actions and e.target != edge.target]

    def _arrival(self, edge: Edge) -> str | None:
        """Wait until the edge's target — or a sibling the same actions may lead to — is verified.

        After a grace period, a device that has settled on any other known
        screen (not the one it left) ends the wait early: it went elsewhere.
        """
        candidates = [edge.target, *self._siblings(edge)]
        started = time.monotonic()

        def probe() -> tuple[bool, str | None]:
            for node in candidates:
                if self.is_on(node, LOCATE_TIMEOUT_S):
                    return True, node
            if time.monotonic() - started >= ARRIVAL_GRACE_S:
                elsewhere = self.locate()
                if elsewhere not in (None, edge.source):
                    return True, elsewhere
            return False, None

        try:
            return wait_until(probe, Timeout(self.arrival_timeout_s, ARRIVAL_INTERVAL_S), what=f"arrival on {edge.target}")
        except WaitTimeout:
            return None

    def _traverse(self, edge: Edge) -> str | None:
        """Run an edge; return where the device ended up (its target when all went well)."""
        item = self._item(edge) if edge.param else ""
        self._run_actions(edge.bound(edge.actions, item))
        reached = self._arrival(edge)
        if reached is None and edge.retry_actions:
            self._run_actions(edge.bound(edge.retry_actions, item))
            reached = self._arrival(edge)
        if reached is None:
            self._run_actions(edge.failure_actions)
            reached = self.locate()
        return reached
