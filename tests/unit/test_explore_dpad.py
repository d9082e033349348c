"""The D-pad strategy: walk the focus with the arrows, OK opens, BACK returns; edges are key sequences."""
from __future__ import annotations

from typing import Any

import pytest

from backend_core.navigation.tree import NavigationTree
from explore import draft, explorer as explorer_mod
from explore.explorer import Explorer, Limits
from shared.commands import CommandKind, CommandSpec, ControllerType, P
from shared.screen import ScreenObservation, UIElement

GRID = [["Live", "Guide"], ["Movies", "Settings"]]


class TvApp:
    """A 2x2 menu; OK opens the focused tile's screen (a heading and one button), BACK returns home."""

    def __init__(self, remember: bool = False) -> None:
        self.remember = remember               # the menu keeps its focus when one comes back to it
        self.screen = "home"
        self.row = self.col = 0
        self.keys: list[str] = []

    def observe(self) -> ScreenObservation:
        if self.screen == "home":
            els = [UIElement("heading", "Home", selector="#home h1")] + [
                UIElement("button", name, selector=f"#tile-{name.lower()}", focused=(r, c) == (self.row, self.col),
                          clickable=True)
                for r, row in enumerate(GRID) for c, name in enumerate(row)]
        else:
            els = [UIElement("heading", self.screen, selector=f"#{self.screen.lower()} h1"),
                   UIElement("button", "Back", selector="#back", focused=True, clickable=True)]
        return ScreenObservation("web", f"http://tv.test/#/{self.screen.lower()}", "TV", tuple(els))

    def key(self, key: str) -> None:
        self.keys.append(key)
        if self.screen != "home":
            if key in ("BACK", "OK"):
                self.screen = "home"
            return
        if key == "OK":
            self.screen = GRID[self.row][self.col]
            if not self.remember:
                self.row = self.col = 0            # focus starts on the first tile when the menu comes back
        elif key == "RIGHT":
            self.col = min(self.col + 1, 1)
        elif key == "LEFT":
            self.col = max(self.col - 1, 0)
        elif key == "DOWN":
            self.row = min(self.row + 1, 1)
        elif key == "UP":
            self.row = max(self.row - 1, 0)


class TvLink:
    device_id = "tv-1"

    def __init__(self, app: TvApp) -> None:
        self.app = app

    def commands(self) -> dict[str, CommandSpec]:
        keys = CommandSpec("press_key", "key", (P("key", choices=("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")),),
                           ControllerType.REMOTE)
        check = CommandSpec("waitForElementToAppear", "element", (P("selector"), P("text")),
                            ControllerType.VERIFICATION, CommandKind.VERIFICATION)
        return {"press_key": keys, "waitForElementToAppear": check}

    def observe(self) -> ScreenObservation:
        return self.app.observe()

    def execute(self, command: str, params: dict[str, Any]) -> dict[str, Any]:
        assert command == "press_key", command
        self.app.key(params["key"])
        return {}

    def screenshot(self) -> bytes | None:
        return None


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_mod, "SETTLE_INTERVAL_S", 0.0)


@pytest.mark.parametrize("remember", [False, True])
def test_dpad_strategy_finds_every_tile_by_its_key_path(remember: bool) -> None:
    app = TvApp(remember)
    link = TvLink(app)
    ex = Explorer(link, Limits(max_depth=2)).explore()  # type: ignore[arg-type]
    assert ex.strategy == "dpad"
    tree = draft.build(ex, link.commands(), "tv")
    loaded = NavigationTree.from_dict(tree)
    assert set(loaded.nodes) == {"home", "live", "guide", "movies", "settings"}
    keys = {e["to"]: [a["params"]["key"] for a in e["actions"]] for e in tree["edges"] if e["from"] == "home"}
    assert keys["live"] == ["OK"]
    assert keys["guide"] == ["RIGHT", "OK"]
    assert keys["movies"] == ["DOWN", "OK"]
    assert keys["settings"][-1] == "OK" and sorted(keys["settings"][:-1]) == ["DOWN", "RIGHT"]
    back = next(e for e in tree["edges"] if e["from"] == "home" and e["to"] == "guide")
    assert back["reverse_actions"] == [{"command": "press_key", "params": {"key": "BACK"}}]
    # each edge's key path, replayed from the menu as entered, reaches its screen
    for target, path in keys.items():
        fresh = TvApp()
        for k in path:
            fresh.key(k)
        assert fresh.screen.lower() == target
