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
# an edge that opens one item of a list (a channel, a movie) changes what its screen shows: a plain way in
# is preferred when there is one, so "go to live TV" never zaps to the guide's first channel on the way
PARAM_WEIGHT = 10.0


def _weight(edge: Edge) -> float:
    """Fewer actions first; a parameterised edge only when nothing plainer leads there."""
    return 1 + 0.01 * len(edge.actions) + (PARAM_WEIGHT if edge.param else 0.0)


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
                    graph.add_edge(edge.source, edge.target, edge=edge, weight=_weight(edge))
            _cache[key] = graph
            log.info("navigation graph %s: %d nodes, %d edges", key, graph.number_of_nodes(),
                     graph.number_of_edges())
        return graph


def clear_graph_cache() -> None:
    with _lock:
        _cache.clear()


def _plain_path(graph: nx.DiGraph, source: str, target: str) -> tuple[float, list[Edge]] | None:
    try:
        nodes = nx.shortest_path(graph, source, target, weight="weight")
    except nx.NetworkXNoPath:
        return None
    edges = [graph.edges[a, b]["edge"] for a, b in zip(nodes, nodes[1:])]
    return sum(_weight(e) for e in edges), edges


def shortest_path(tree: NavigationTree, source: str, target: str, open_item: bool = False) -> list[Edge]:
    """The edges of the shortest path from *source* to *target*; [] when already there.

    With *open_item* (a parameterised target shown for one item), the path ends with an edge that
    takes the item, since a plain way in (a menu's "Live TV") shows whatever item the screen had.
    """
    graph = build_graph(tree)
    for end in (source, target):
        if end not in graph:
            raise NavigationFailed(f"unknown navigation node {end!r}", expected=f"node {end!r}")
    item_edges = [e for e in tree.edges if open_item and e.target == target and e.param and e.source in graph]
    best: tuple[float, list[Edge]] | None = None
    for edge in item_edges:
        prefix = (0.0, []) if edge.source == source else _plain_path(graph, source, edge.source)
        if prefix is not None and (best is None or prefix[0] + _weight(edge) < best[0]):
            best = (prefix[0] + _weight(edge), [*prefix[1], edge])
    if best is None:
        best = _plain_path(graph, source, target)
    if best is None:
        raise NavigationFailed(f"no path from {source!r} to {target!r} in the navigation tree",
                               expected=f"a path to {target!r}")
    return best[1]
