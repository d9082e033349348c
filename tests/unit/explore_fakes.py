"""A scripted single-page app behind a fake DeviceLink, for explorer tests."""
from __future__ import annotations

from typing import Any

from shared.commands import CommandKind, CommandSpec, ControllerType, P
from shared.screen import ScreenObservation, UIElement

MOVIES = ["The Last Orbit", "River of Glass", "Silent Harbor", "Neon Tides"]


def _slug(t: str) -> str:
    return t.lower().replace(" ", "-")


def commands(element_check: str = "waitForElementToAppear", go_back: bool = False) -> dict[str, CommandSpec]:
    act = ControllerType.REMOTE
    specs = [
        CommandSpec("click_element", "click", (P("selector"), P("text")), act),
        CommandSpec("press_key", "key", (P("key", choices=("BACK", "OK", "UP", "DOWN", "LEFT", "RIGHT")),), act),
        CommandSpec("navigate_to_url", "url", (P("url"),), act),
        CommandSpec(element_check, "element", (P("selector"), P("text")), ControllerType.VERIFICATION,
                    CommandKind.VERIFICATION),
        CommandSpec(element_check.replace("Appear", "Disappear"), "gone", (P("selector"), P("text")),
                    ControllerType.VERIFICATION, CommandKind.VERIFICATION),
        CommandSpec("waitForTextToAppear", "ocr", (P("text"),), ControllerType.VERIFICATION, CommandKind.VERIFICATION),
    ]
    if go_back:
        specs.append(CommandSpec("go_back", "back", (), act))
    return {s.name: s for s in specs}


class FakeApp:
    """Routes: home, movies, movie/<slug>, player, settings (+ a PIN dialog drawn over it)."""

    def __init__(self, clock_text: bool = True, tile_meta: bool = False) -> None:
        self.tile_meta = tile_meta    # tiles read "The Last Orbit · 2021"; the movie's page shows only its title
        self.audio = "English"
        self.stack = ["home"]
        self.dialog = False
        self.ticks = 0
        self.clock_text = clock_text
        self.log: list[tuple[str, dict[str, Any]]] = []

    @property
    def route(self) -> str:
        return self.stack[-1]

    def elements(self) -> list[UIElement]:
        r = self.route
        self.ticks += 1
        els: list[UIElement] = []
        if r == "home":
            els = [UIElement("heading", "Home", selector="#home h1"),
                   UIElement("button", "Movies", selector="#menu-movies", clickable=True),
                   UIElement("button", "Settings", selector="#menu-settings", clickable=True),
                   UIElement("button", "Log out", selector="#logout", clickable=True),
                   UIElement("link", "Help", selector="#help", href="https://elsewhere.example/help", clickable=True)]
            if self.clock_text:
                els.append(UIElement("text", text=f"12:{self.ticks % 60:02d}", hint="clock", selector="#clock"))
        elif r == "movies":
            els = [UIElement("heading", "Movies", selector="#movies h1")] + [
                UIElement("button", f"{m} · {2019 + i}" if self.tile_meta else m,
                          selector=f"#grid > button:nth-of-type({i + 1})", clickable=True, hint="movie tile")
                for i, m in enumerate(MOVIES)]
        elif r.startswith("movie/"):
            title = next(m for m in MOVIES if _slug(m) == r.split("/", 1)[1])
            els = [UIElement("heading", title, selector="#movie-title"),
                   UIElement("button", "Play", selector="#btn-play", clickable=True)]
        elif r == "player":
            els = [UIElement("heading", "Now playing", selector="#player h1")]
        elif r == "settings":
            els = [UIElement("heading", "Settings", selector="#settings h1"),
                   UIElement("button", "Parental lock", selector="#parental", clickable=True),
                   UIElement("button", f"Audio: {self.audio}", selector="#audio", clickable=True)]
            if self.dialog:
                els += [UIElement("heading", "Enter PIN", selector="#pin-title"),
                        UIElement("button", "Cancel", selector="#pin-cancel", clickable=True)]
        return els

    def observe(self) -> ScreenObservation:
        return ScreenObservation("web", f"http://app.test/#/{self.route}", "App", tuple(self.elements()))

    def execute(self, command: str, params: dict[str, Any]) -> None:
        self.log.append((command, dict(params)))
        if command == "press_key" and params["key"] == "BACK" or command == "go_back":
            if self.dialog:
                self.dialog = False
            elif len(self.stack) > 1:
                self.stack.pop()
            return
        if command == "navigate_to_url":
            self.stack, self.dialog = ["home"], False
            return
        if command != "click_element":
            return
        hit = None
        for e in self.elements():
            if (params.get("selector") and e.selector == params["selector"]) or \
                    (params.get("text") and params["text"].lower() in e.name.lower()):
                hit = e
                break
        if hit is None:
            from shared.errors import DeviceFailure
            raise DeviceFailure(f"no element {params}")
        r = self.route
        if hit.selector == "#menu-movies":
            self.stack.append("movies")
        elif hit.selector == "#menu-settings":
            self.stack.append("settings")
        elif hit.selector == "#logout":
            self.stack = ["loggedout"]
        elif r == "movies":
            self.stack.append("movie/" + _slug(hit.name.split(" · ")[0]))
        elif hit.selector == "#btn-play":
            self.stack.append("player")
        elif hit.selector == "#audio":       # cycles English -> French -> Spanish -> English
            langs = ["English", "French", "Spanish"]
            self.audio = langs[(langs.index(self.audio) + 1) % len(langs)]
        elif hit.selector == "#parental":
            self.dialog = True
        elif hit.selector == "#pin-cancel":
            self.dialog = False


class FakeLink:
    device_id = "fake-1"

    def __init__(self, app: FakeApp, cmds: dict[str, CommandSpec] | None = None) -> None:
        self.app = app
        self.cmds = cmds or commands()

    def commands(self) -> dict[str, CommandSpec]:
        return self.cmds

    def observe(self) -> ScreenObservation:
        return self.app.observe()

    def execute(self, command: str, params: dict[str, Any]) -> dict[str, Any]:
        self.app.execute(command, params)
        return {"success": True}

    def screenshot(self) -> bytes | None:
        return b"\x89PNG fake"
