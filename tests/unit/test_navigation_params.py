"""Parameterised nodes and edges: the tree format, and goto(node, param) verifying the item shown."""
from __future__ import annotations

from typing import Any

import pytest

from backend_core.executors.navigation import GOTO_SPEC, NavigationExecutor
from backend_core.navigation.tree import NavigationTree
from shared.errors import ConfigError, NavigationFailed, VerificationFailed
from shared.models import NodeInfo

MOVIES = ["The Last Orbit", "River of Glass"]


class App:
    def __init__(self) -> None:
        self.stack: list[tuple[str, str]] = [("home", "")]
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.broken = False        # clicking a movie opens the first movie, whatever was asked


class Actions:
    def __init__(self, app: App) -> None:
        self.app = app

    def provides(self, command: str) -> bool:
        return command in ("click_element", "press_key", "navigate_to_url")

    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        app = self.app
        app.log.append((command, params))
        screen = app.stack[-1][0]
        if command == "click_element" and params.get("selector") == "#menu-movies" and screen == "home":
            app.stack.append(("movies", ""))
        elif command == "click_element" and params.get("selector") == "#resume" and screen == "home":
            app.stack.append(("movie", MOVIES[1]))   # "continue watching": the last movie seen
        elif command == "click_element" and screen == "movies":
            title = next(m for m in MOVIES if params["text"].lower() in m.lower())
            app.stack.append(("movie", MOVIES[0] if app.broken else title))
        elif command == "press_key" and len(app.stack) > 1:
            app.stack.pop()
        elif command == "navigate_to_url":
            app.stack = [("home", "")]
        return "remote", "ok"


class Verifications:
    def __init__(self, app: App) -> None:
        self.app = app

    def provides(self, command: str) -> bool:
        return command == "waitForElementToAppear"

    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        screen, item = self.app.stack[-1]
        if params["selector"] == "#title":
            if screen != "movie" or params.get("text", item) != item:
                raise VerificationFailed(f"shows {item!r}", expected=params.get("text", ""))
        elif params["selector"] != f"#screen-{screen}":
            raise VerificationFailed(f"on {screen}", expected=params["selector"])
        return "verification", "ok"


def raw_tree() -> dict[str, Any]:
    def node(n: str, **extra: Any) -> dict[str, Any]:
        return {"id": n, "verifications": [{"command": "waitForElementToAppear", "params": {"selector": f"#screen-{n}"}}],
                **extra}

    back = [{"command": "press_key", "params": {"key": "BACK"}}]
    return {
        "userinterface": "sim", "entry": "home", "entry_url": "/",
        "nodes": [node("home"), node("movies"),
                  node("movie", label="Movie for {title}", param="title", items=MOVIES,
                       param_verifications=[{"command": "waitForElementToAppear",
                                             "params": {"selector": "#title", "text": "{title}"}}])],
        "edges": [{"from": "home", "to": "movies", "reverse_actions": back,
                   "actions": [{"command": "click_element", "params": {"selector": "#menu-movies"}}]},
                  {"from": "movies", "to": "movie", "param": "title", "reverse_actions": back,
                   "actions": [{"command": "click_element", "params": {"text": "{title}"}}]}],
    }


def executor() -> tuple[NavigationExecutor, App]:
    app = App()
    tree = NavigationTree.from_dict(raw_tree())
    return NavigationExecutor(tree, Actions(app), Verifications(app), arrival_timeout_s=0.2), app  # type: ignore[arg-type]


def test_parameterised_node_loads_and_shows_in_the_context() -> None:
    tree = NavigationTree.from_dict(raw_tree())
    movie = tree.nodes["movie"]
    assert movie.param == "title" and movie.items == tuple(MOVIES)
    info = movie.info()
    assert info.param == "title" and NodeInfo.from_dict(info.to_dict()) == info
    assert next(e for e in tree.edges if e.target == "movie").param == "title"
    assert GOTO_SPEC.param("param") is not None


def test_a_tree_without_params_loads_unchanged() -> None:
    raw = raw_tree()
    raw["nodes"][2] = {"id": "movie"}
    raw["edges"][1].pop("param")
    tree = NavigationTree.from_dict(raw)
    assert tree.nodes["movie"].param == "" and "param" not in tree.nodes["movie"].info().to_dict()


def test_an_edge_parameter_the_node_does_not_take_is_refused() -> None:
    raw = raw_tree()
    raw["nodes"][2].pop("param")
    raw["nodes"][2].pop("param_verifications")
    with pytest.raises(ConfigError, match="takes parameter 'title'"):
        NavigationTree.from_dict(raw)


def test_goto_opens_the_item_asked_for_and_verifies_it() -> None:
    nav, app = executor()
    message = nav.execute("goto", {"node": "movie", "param": "River of Glass"})[1]
    assert app.stack[-1] == ("movie", "River of Glass")
    assert "River of Glass" in message
    assert ("click_element", {"text": "River of Glass"}) in app.log


def test_goto_to_another_item_of_the_node_it_is_on_moves() -> None:
    nav, app = executor()
    nav.goto("movie", param="The Last Orbit")
    nav.goto("movie", param="River of Glass")
    assert app.stack[-1] == ("movie", "River of Glass")


def test_goto_without_a_param_opens_the_first_known_item() -> None:
    nav, app = executor()
    nav.goto("movie")
    assert app.stack[-1] == ("movie", "The Last Orbit")


def test_the_wrong_item_shown_is_a_navigation_failure() -> None:
    nav, app = executor()
    app.broken = True
    with pytest.raises(NavigationFailed):
        nav.goto("movie", param="River of Glass")


def with_resume_edge() -> tuple[NavigationExecutor, App]:
    """The movie screen has a plain way in too: home's "continue watching" shows whichever movie it shows."""
    raw = raw_tree()
    raw["edges"].append({"from": "home", "to": "movie", "reverse_actions": [{"command": "press_key",
                                                                             "params": {"key": "BACK"}}],
                         "actions": [{"command": "click_element", "params": {"selector": "#resume"}}]})
    app = App()
    tree = NavigationTree.from_dict(raw)
    return NavigationExecutor(tree, Actions(app), Verifications(app), arrival_timeout_s=0.2), app  # type: ignore[arg-type]


def test_an_item_asked_for_is_opened_by_the_edge_that_takes_it_not_a_plain_way_in() -> None:
    nav, app = with_resume_edge()
    nav.goto("movie", param="The Last Orbit")
    assert app.stack[-1] == ("movie", "The Last Orbit")
    assert ("click_element", {"selector": "#resume"}) not in app.log


def test_without_an_item_a_plain_way_in_is_preferred_to_opening_an_item() -> None:
    nav, app = with_resume_edge()
    nav.goto("movies")
    nav.goto("movie")
    assert app.log[-1] == ("click_element", {"selector": "#resume"})
    assert not any(c == "click_element" and "text" in p for c, p in app.log)


def test_a_param_for_a_plain_node_is_refused() -> None:
    nav, _ = executor()
    with pytest.raises(ConfigError, match="not parameterised"):
        nav.goto("movies", param="x")
