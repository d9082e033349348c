"""goto over a simulated app: detours, failure actions and bounded re-planning."""
from __future__ import annotations

from typing import Any

import pytest

from backend_core.executors.navigation import NavigationExecutor
from backend_core.navigation.tree import NavigationTree
from shared.errors import NavigationFailed, VerificationFailed


class App:
    """A screen stack: clicks on '#to-X' open X (where the app allows), BACK returns, '/' goes home."""

    def __init__(self, links: dict[str, dict[str, str]]) -> None:
        self.links = links          # screen -> {selector: screen it really opens}
        self.stack = ["home"]
        self.log: list[str] = []

    @property
    def screen(self) -> str:
        return self.stack[-1]


class Actions:
    def __init__(self, app: App) -> None:
        self.app = app

    def provides(self, command: str) -> bool:
        return command in ("click_element", "press_key", "navigate_to_url")

    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        app = self.app
        app.log.append(f"{command}:{params}")
        if command == "click_element":
            dest = app.links.get(app.screen, {}).get(params["selector"])
            if dest:
                app.stack.append(dest)
        elif command == "press_key" and params["key"] == "BACK" and len(app.stack) > 1:
            app.stack.pop()
        elif command == "navigate_to_url":
            app.stack = ["home"]
        return "remote", "ok"


class Verifications:
    def __init__(self, app: App) -> None:
        self.app = app

    def provides(self, command: str) -> bool:
        return command == "wait_for_element"

    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        wanted = params["selector"].removeprefix("#screen-")
        if self.app.screen != wanted:
            raise VerificationFailed(f"on {self.app.screen}, not {wanted}", expected=wanted)
        return "verification", "ok"


def tree() -> NavigationTree:
    def node(n: str) -> dict:
        return {"id": n, "verifications": [{"command": "wait_for_element", "params": {"selector": f"#screen-{n}"}}]}

    def edge(a: str, b: str, **extra: Any) -> dict:
        return {"from": a, "to": b, "actions": [{"command": "click_element", "params": {"selector": f"#to-{b}"}}],
                "reverse_actions": [{"command": "press_key", "params": {"key": "BACK"}}], **extra}

    home_again = [{"command": "navigate_to_url", "params": {"url": "/"}}]
    return NavigationTree.from_dict({
        "userinterface": "sim", "entry": "home", "entry_url": "/",
        "nodes": [node(n) for n in ("home", "a", "b", "player", "c", "d")],
        "edges": [edge("home", "a"), edge("home", "b"), edge("a", "player"), edge("b", "player"),
                  edge("home", "c"), edge("c", "d", failure_actions=home_again)],
    })


def executor(links: dict[str, dict[str, str]]) -> tuple[NavigationExecutor, App]:
    app = App(links)
    nav = NavigationExecutor(tree(), Actions(app), Verifications(app), arrival_timeout_s=0.3)  # type: ignore[arg-type]
    return nav, app


LINKS = {"home": {"#to-a": "a", "#to-b": "b", "#to-c": "c"}, "a": {"#to-player": "player"},
         "b": {"#to-player": "player"}, "c": {"#to-d": "d"}}


def test_goto_follows_the_shortest_path_and_verifies_arrival() -> None:
    nav, app = executor(LINKS)
    assert nav.goto("player").startswith("on player via home > a > player")
    assert app.screen == "player" and nav.current_node == "player"


def test_back_to_another_parent_is_recognised_and_the_path_replanned() -> None:
    nav, app = executor(LINKS)
    app.stack = ["home", "b", "player"]       # the player was opened from b ...
    nav.current_node = "player"
    message = nav.goto("a")                   # ... but the shortest path back to a is "BACK"
    assert app.screen == "a" and nav.current_node == "a"
    assert "expected a, found b" in message
    # no retry, no failure action: BACK led to a known sibling
    assert not any(entry.startswith("navigate_to_url") for entry in app.log)


def test_an_edge_that_leads_nowhere_runs_its_failure_actions_and_replans() -> None:
    links = {**LINKS, "c": {}}               # the app's c -> d link is broken ...
    nav, app = executor(links)
    nav.current_node = "home"
    app.stack = ["home", "c"]
    nav.current_node = "c"
    with pytest.raises(NavigationFailed) as err:
        nav.goto("d")                         # ... every attempt ends back home via the failure action
    assert "could not reach 'd'" in str(err.value) and "expected d" in str(err.value)
    assert app.log.count("navigate_to_url:{'url': '/'}") >= 1
    assert nav.current_node is None


def test_unknown_location_is_found_by_verifications_before_moving() -> None:
    nav, app = executor(LINKS)
    app.stack = ["home", "b"]
    assert nav.current_node is None
    nav.goto("player")
    assert app.log == ["click_element:{'selector': '#to-player'}"]


def test_a_moved_device_is_relocated_before_planning_the_path() -> None:
    nav, app = executor(LINKS)
    nav.goto("a")
    app.stack = ["home", "b"]                 # something else (a manual key press) moved the device
    nav.goto("player")
    assert app.screen == "player"
    assert app.log[-1] == "click_element:{'selector': '#to-player'}"
