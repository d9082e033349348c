"""The navigation graph: a networkx DiGraph built once per tree version and cached."""
from __future__ import annotations

import logging
import threading

import networkx as nx

from backend_core.navigation.tree import Edge, NavigationTree
from shared.errors import NavigationFailed

log = logging.getLogger(__name__)

_cache: dict[str, nx.DiGraph] = {}
_lock = threading.Lock()


def build_graph(tree: NavigationTree) -> nx.DiGraph:
    """The graph of *tree*, built once per (userinterface, content fingerprint)."""
    key = f"{tree.userinterface}:{tree.version}:{tree.fingerprint}"
    with _lock:
        graph = _cache.get(key)
        if graph is None:
            graph = nx.DiGraph()
            for node in tree.nodes.values():
                graph.add_node(node.id, node=node)
            for edge in tree.edges:
                # the first edge declared between two nodes wins; weight prefers fewer actions
                if not graph.has_edge(edge.source, edge.target):
                    graph.add_edge(edge.source, edge.target, edge=edge, weight=1 + 0.01 * len(edge.actions))
            _cache[key] = graph
            log.info("navigation graph %s: %d nodes, %d edges", key, graph.number_of_nodes(),
                     graph.number_of_edges())
        return graph


def clear_graph_cache() -> None:
    with _lock:
        _cache.clear()


def shortest_path(tree: NavigationTree, source: str, target: str) -> list[Edge]:
    """The edges of the shortest path from *source* to *target*; [] when already there."""
    graph = build_graph(tree)
    for end in (source, target):
        if end not in graph:
            raise NavigationFailed(f"unknown navigation node {end!r}", expected=f"node {end!r}")
    try:
        nodes = nx.shortest_path(graph, source, target, weight="weight")
    except nx.NetworkXNoPath:
        raise NavigationFailed(f"no path from {source!r} to {target!r} in the navigation tree",
                               expected=f"a path to {target!r}") from None
    return [graph.edges[a, b]["edge"] for a, b in zip(nodes, nodes[1:])]
