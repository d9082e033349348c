"""Concurrent misses of one context ask the host once; a cached graph does not re-hash its tree."""
from __future__ import annotations

import threading
import time
from typing import Any

from backend_core.navigation.graph import shortest_path
from backend_core.navigation.tree import NavigationTree
from server.ai_central import AICentral
from shared.commands import CommandKind
from shared.models import ExecutorContext
from shared.protocol import ServerEvent


class SlowLab:
    current_node: dict[str, str] = {}

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def device(self, device_id: str) -> Any:
        from server.lab import DeviceRef

        return DeviceRef(device_id, "h1", "tv", "model-a", "ui-a")

    def call(self, device_id: str, event: str, data: dict[str, Any], timeout: float | None = None) -> Any:
        assert event == ServerEvent.GET_CONTEXT
        with self.lock:
            self.calls += 1
        time.sleep(0.2)   # a host on a slow link
        return ExecutorContext(CommandKind(data["kind"]), ()).to_dict()


def test_many_callers_missing_one_context_ask_the_host_once_per_kind() -> None:
    lab = SlowLab()
    ai = AICentral(lab, [])  # type: ignore[arg-type]
    threads = [threading.Thread(target=ai.context, args=("tv-1",)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert lab.calls == 3 and ai.context_fetches == 3     # action, verification, navigation: once each


def test_the_tree_fingerprint_is_computed_once_per_tree() -> None:
    nodes = [{"id": f"n{i}", "label": f"N{i}"} for i in range(2000)]
    edges = [{"from": f"n{i}", "to": f"n{i + 1}", "actions": [{"command": "press_key", "params": {"key": "RIGHT"}}]}
             for i in range(1999)]
    tree = NavigationTree.from_dict({"userinterface": "big", "version": 1, "entry": "n0", "nodes": nodes,
                                     "edges": edges})
    first = shortest_path(tree, "n0", "n1999")
    assert "fingerprint" in tree.__dict__                  # hashed once, kept on the tree (./dp bench times it)
    tree.raw["nodes"] = []                                 # were it hashed again, the key (and graph) would change
    assert shortest_path(tree, "n0", "n1999") == first
