"""Navigation trees, the cached networkx graph and shortest paths."""
from __future__ import annotations

import pytest

from backend_core.navigation.graph import build_graph, clear_graph_cache, shortest_path
from backend_core.navigation.tree import NavigationTree
from shared.errors import ConfigError, NavigationFailed


def small_tree(**overrides: object) -> NavigationTree:
    raw = {
        "userinterface": "tiny", "version": 1, "entry": "home",
        "nodes": [{"id": "home"}, {"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "island"}],
        "edges": [
            {"from": "home", "to": "a", "actions": [{"command": "press_key", "params": {"key": "OK"}}],
             "reverse_actions": [{"command": "press_key", "params": {"key": "BACK"}}]},
            {"from": "a", "to": "b", "actions": [{"command": "press_key", "params": {"key": "DOWN"}}]},
            {"from": "b", "to": "c", "actions": [{"command": "press_key", "params": {"key": "DOWN"}}]},
            {"from": "home", "to": "c", "actions": [{"command": "press_key", "params": {"key": "DIGIT_3"}}]},
        ],
        **overrides,
    }
    return NavigationTree.from_dict(raw)


def test_shortest_path_prefers_fewer_edges() -> None:
    tree = small_tree()
    assert [(e.source, e.target) for e in shortest_path(tree, "home", "c")] == [("home", "c")]
    assert [(e.source, e.target) for e in shortest_path(tree, "a", "c")] == [("a", "b"), ("b", "c")]
    assert shortest_path(tree, "b", "b") == []


def test_reverse_actions_give_the_edge_back() -> None:
    path = shortest_path(small_tree(), "a", "home")
    assert [(e.source, e.target) for e in path] == [("a", "home")]
    assert path[0].actions[0].params == {"key": "BACK"}


def test_unreachable_and_unknown_nodes_are_navigation_failures() -> None:
    tree = small_tree()
    with pytest.raises(NavigationFailed, match="no path"):
        shortest_path(tree, "home", "island")
    with pytest.raises(NavigationFailed, match="unknown navigation node"):
        shortest_path(tree, "home", "weather")


def test_graph_is_built_once_per_tree_version() -> None:
    clear_graph_cache()
    tree = small_tree()
    assert build_graph(tree) is build_graph(small_tree())
    changed = small_tree(version=2)
    assert build_graph(changed) is not build_graph(tree)


def test_demo_tree_reaches_every_screen_from_home_and_back(tree: NavigationTree) -> None:
    for node in tree.nodes:
        shortest_path(tree, tree.entry, node)
        shortest_path(tree, node, tree.entry)


@pytest.mark.parametrize("raw, message", [
    ({"nodes": []}, "at least one node"),
    ({"nodes": [{"id": "a"}, {"id": "a"}]}, "defined twice"),
    ({"nodes": [{"id": "a"}], "edges": [{"from": "a", "to": "b", "actions": [{"command": "x"}]}]}, "unknown node 'b'"),
    ({"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"from": "a", "to": "b"}]}, "at least one action"),
    ({"nodes": [{"id": "a"}], "entry": "z"}, "entry node"),
    ({"nodes": [{"id": "a", "verifications": [{"params": {}}]}]}, "needs a 'command'"),
])
def test_invalid_trees_are_config_errors_that_say_where(raw: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        NavigationTree.from_dict(raw, where="t.yaml")
