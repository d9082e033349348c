"""Benchmarks of the stack itself, each against a baseline measured in the same run.

- navigation: ``shortest_path`` on generated trees of 100, 1,000 and 10,000 nodes, cached
  (the graph built once per tree version) vs rebuilt; baseline: networkx's pathfinding alone;
- context: AI Central's context, cached vs cold (the host's answer parsed again); baseline:
  a dict lookup;
- dispatch: server → host → no-op controller over loopback (the real Socket.IO stack) vs the
  same step run in-process;
- load (bench/load.py): a server and a host with 10, 100 and 1,000 no-op devices, as processes.
"""
from __future__ import annotations

import logging
import tempfile
import time
from pathlib import Path
from typing import Any

import networkx as nx

from bench.planning import Section
from bench.timing import measure

log = logging.getLogger(__name__)


def _tree(n: int) -> Any:
    """A tree of *n* screens: a home with menus, each menu a chain of screens (like a TV's rails)."""
    from backend_core.navigation.tree import NavigationTree

    menus = max(1, int(n ** 0.5))
    nodes = [{"id": "home", "label": "Home"}]
    edges = []
    for i in range(1, n):
        depth = (i - 1) // menus   # screen i sits on rail (i - 1) % menus, at this depth
        nodes.append({"id": f"s{i}", "label": f"Screen {i}"})
        parent = "home" if depth == 0 else f"s{i - menus}"
        edges.append({"from": parent, "to": f"s{i}", "actions": [{"command": "press_key", "params": {"key": "OK"}}],
                      "reverse_actions": [{"command": "press_key", "params": {"key": "BACK"}}]})
    return NavigationTree.from_dict({"userinterface": f"gen{n}", "version": 1, "entry": "home", "nodes": nodes,
                                     "edges": edges})


def navigation(runs: int) -> Section:
    from backend_core.navigation.graph import build_graph, clear_graph_cache, shortest_path

    section = Section("Navigation: shortest_path, cached graph vs rebuilt (generated trees)")
    for n in (100, 1000, 10000):
        tree = _tree(n)
        target = f"s{n - 1}"
        graph = build_graph(tree)
        raw = measure(f"{n:,} nodes: networkx pathfinding alone", lambda: nx.shortest_path(graph, "home", target),
                      runs)
        cached = measure(f"{n:,} nodes: shortest_path, cached", lambda: shortest_path(tree, "home", target), runs)

        def rebuilt() -> None:
            clear_graph_cache()
            fresh = _tree(n) if n <= 1000 else tree
            fresh.__dict__.pop("fingerprint", None)
            shortest_path(fresh, "home", target)

        cold = measure(f"{n:,} nodes: shortest_path, rebuilt", rebuilt, max(5, runs // 40), warmup=1)
        section.rows += [cached, cold, raw]
        section.ratios.append((f"{n:,} nodes cached / pathfinding alone", cached.ratio_to(raw)))
        section.ratios.append((f"{n:,} nodes rebuilt / cached", cold.ratio_to(cached)))
    section.facts.append("target: cached shortest_path on 10,000 nodes under 1 ms p50")
    return section


class _InstantLab:
    """The host's side of a context fetch, answered in-process (no wire): what is left is AI Central's."""

    current_node: dict[str, str] = {}

    def __init__(self) -> None:
        from tests.fakes.device_context import streamtv_context

        ctx = streamtv_context("home")
        self.answers = {"action": ctx.action.to_dict(), "verification": ctx.verification.to_dict(),
                        "navigation": ctx.navigation.to_dict()}

    def device(self, device_id: str) -> Any:
        from server.lab import DeviceRef

        return DeviceRef(device_id, "h1", "tv", "streamtv-web", "streamtv")

    def call(self, device_id: str, event: str, data: dict[str, Any], timeout: float | None = None) -> Any:
        return self.answers[data["kind"]]


def context(runs: int) -> Section:
    from server.ai_central import AICentral

    ai = AICentral(_InstantLab(), [])  # type: ignore[arg-type]
    section = Section("Context: AI Central's device context, cached vs cold")
    cached = measure("cached (5-minute TTL cache hit)", lambda: ai.context("tv-1"), runs * 5)

    def cold() -> None:
        ai.clear_cache()
        ai.context("tv-1")

    section.rows = [cached, measure("cold (cache cleared: parse the host's three answers)", cold, runs)]
    table = {"action:streamtv-web:streamtv": 1}
    section.baseline = measure("baseline: a dict lookup", lambda: table.get("action:streamtv-web:streamtv"), runs * 5)
    section.ratios = [("cold / cached", section.rows[1].ratio_to(cached))]
    section.facts.append(f"target: cached context under 50 µs in-process; measured {cached.median_ms * 1000:.1f} µs")
    return section


def noop_config(root: Path, devices: int, delay_ms: float = 0) -> Path:
    import yaml

    config = {"host": {"id": f"bench-{devices}", "name": "bench"},
              "devices": [{"id": f"noop-{i}", "name": f"noop {i}", "model": "noop", "userinterface": "noop",
                           "controllers": [{"type": "noop", "params": {"delay_ms": delay_ms}}]}
                          for i in range(devices)]}
    path = root / f"noop-{devices}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


class _Stack:
    """A real server (Werkzeug in this process) and a real host agent over loopback, with no-op devices."""

    def __init__(self, devices: int, data: Path) -> None:
        from devicepilot.local import ServerThread
        from host.agent import HostAgent
        from host.config import HostConfig
        from host.lab import Lab
        from server.app import create_app
        from server.auth_users import Role
        from shared.config import Secret, Settings

        settings = Settings(data_dir=data)
        self.srv = create_app(settings)
        self.http = ServerThread(self.srv).start()
        self.srv.users.add("bench", Role.ADMIN)
        self.token = self.srv.users.create_token("bench", "bench")[1]
        self.lab = Lab.build(HostConfig.load(noop_config(data, devices)))
        self.agent = HostAgent(self.lab, self.http.url, Secret(settings.ensure_host_token().reveal()))
        self.agent.start()
        if not self.agent.wait_registered(60):
            raise RuntimeError("the benchmark host did not register")
        deadline = time.monotonic() + 30
        while not all(self.srv.lab.is_online(f"noop-{i}") for i in (0, devices - 1)):
            if time.monotonic() > deadline:
                raise RuntimeError("the benchmark devices did not come online")
            time.sleep(0.05)
        import requests

        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {self.token}"

    def stop(self) -> None:
        self.agent.stop()
        time.sleep(0.5)   # the server handles the host's goodbye before its database goes away
        self.http.stop()
        self.lab.close()
        self.srv.db.engine.dispose()


def dispatch(runs: int) -> Section:
    from shared.models import PlanStep
    from shared.protocol import ServerEvent

    section = Section("Dispatch: server → host → no-op controller over loopback vs the same step in-process")
    with tempfile.TemporaryDirectory() as tmp:
        stack = _Stack(1, Path(tmp))
        try:
            payload = {"device_id": "noop-0", "command": "noop", "params": {}}
            wire = measure("server → host → no-op (Socket.IO call and ack)",
                           lambda: stack.srv.lab.call("noop-0", ServerEvent.EXECUTE, payload), runs)
            rt = stack.lab.runtime("noop-0")
            direct = measure("baseline: the step run in-process (host executors, no wire)",
                             lambda: rt.execute_step(PlanStep(0, "noop"), with_screenshot=False), runs)
        finally:
            stack.stop()
    section.rows, section.baseline = [wire], direct
    section.ratios = [("wire / in-process", wire.ratio_to(direct))]
    overhead = wire.median_ms - direct.median_ms
    section.facts.append(f"dispatch overhead p50: {overhead:.2f} ms (target under 5 ms)")
    return section
