"""Web apps through Playwright: remote (click, keys, text), screen and DOM element verification.

Registered as ``playwright``; params: ``url`` (required), ``headless`` (true),
``width``/``height`` (1280x720), ``executable_path`` (system Chromium by default),
``warm_up`` (true: start the browser when the host starts, not at the first command).
"""
from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import urljoin

from backend_core.controllers.geometry import TAP_HELP, TAP_PARAMS
from backend_core.controllers.base import Controller, RemoteController, ScreenController, ScreenReader, to_jpeg
from backend_core.controllers.browser import BrowserOptions, BrowserSession
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.controllers.web_actions import WebActions
from backend_core.controllers.web_observe import observe_page
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, DeviceFailure, RequestError
from shared.keys import Key
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)

# canonical key -> Playwright key name
WEB_KEYS: dict[Key, str] = {
    Key.UP: "ArrowUp", Key.DOWN: "ArrowDown", Key.LEFT: "ArrowLeft", Key.RIGHT: "ArrowRight",
    Key.OK: "Enter", Key.BACK: "Escape", Key.HOME: "Home",
    Key.CHANNEL_UP: "PageUp", Key.CHANNEL_DOWN: "PageDown",
    Key.PLAY_PAUSE: "MediaPlayPause",
    **{Key[f"DIGIT_{d}"]: str(d) for d in range(10)},
}

def element_locator(page: Any, text: str = "", selector: str = "", element_id: str = "") -> Any:
    """A Playwright locator for an element named by id, selector and/or visible text."""
    if element_id:
        loc = page.locator(f"[id={json.dumps(element_id)}]")
    elif selector:
        loc = page.locator(selector)
    elif text:
        return page.get_by_text(text, exact=False)
    else:
        raise RequestError("name the element: give text, selector or id")
    if text:
        loc = loc.filter(has_text=text)
    return loc


class WebRemote(WebActions, RemoteController, ScreenReader):
    """Input to a web page: the element actions of :class:`WebActions`, keys, scrolling, taps, URL changes."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session

    @command("Open a URL (relative to the app's base URL) in the browser",
             P("url", required=True, description="absolute URL or path such as /#/home"))
    def navigate_to_url(self, url: str) -> str:
        target = urljoin(self.session.options.url, url)
        self.session.call(lambda page: page.goto(target, wait_until="load"))
        return f"opened {target}"

    @command("Select an element repeatedly until it shows the expected word (toggles, cycling settings)",
             P("expect", required=True, description="word the element must show, e.g. On, French"),
             P("text", description="visible text of the element"),
             P("selector", description="CSS selector"),
             P("max_clicks", ParamType.INT, default=5, minimum=1, maximum=20),
             P("shows", description="CSS selector of the element that shows the word, when it is another one "
                                    "(a player's state beside its play/pause button)"))
    def click_until(self, expect: str, text: str = "", selector: str = "", max_clicks: int = 5,
                    shows: str = "") -> str:
        what = text or selector
        pattern = re.compile(rf"(?<!\w){re.escape(expect)}(?!\w)", re.I)

        def cycle(page: Any) -> str:
            loc = element_locator(page, text, selector)
            if loc.count() == 0:
                raise DeviceFailure(f"no element {what!r}", expected=f"element {what!r} visible")
            target = loc.first
            shown_by = page.locator(shows).first if shows else target
            if shows and (page.locator(shows).count() == 0 or not shown_by.is_visible()):
                # a hidden element keeps what it last said (a player's state on another screen): never read it
                raise DeviceFailure(f"no visible element {shows!r}", expected=f"element {shows!r} visible")
            for clicks in range(max_clicks + 1):
                shown = (shown_by.inner_text(timeout=2000) or "").strip()
                if pattern.search(shown):
                    return f"{(shows or what)!r} shows {shown!r} after {clicks} click(s)"
                if clicks < max_clicks:
                    target.click(timeout=3000)
                    self.session.settle(page)
            raise DeviceFailure(f"{(shows or what)!r} still shows {shown!r} after {max_clicks} clicks of {what!r}",
                                expected=f"{(shows or what)!r} showing {expect!r}")

        return self.session.call(cycle)

    @command("Press a remote-control key (OK, BACK, UP, DOWN, LEFT, RIGHT, CHANNEL_UP/DOWN, DIGIT_0-9)",
             P("key", ParamType.KEY, required=True, choices=tuple(k.value for k in WEB_KEYS)),
             P("repeat", ParamType.INT, default=1, minimum=1, maximum=50))
    def press_key(self, key: str, repeat: int = 1) -> str:
        name = WEB_KEYS[Key(key)]

        def press(page: Any) -> None:
            for _ in range(repeat):
                page.keyboard.press(name)
                self.session.settle(page)

        self.session.call(press)
        return f"pressed {key}" + (f" x{repeat}" if repeat > 1 else "")

    @command("Scroll the page up or down",
             P("direction", default="down", choices=("up", "down")),
             P("amount", ParamType.INT, default=400, minimum=1, maximum=10000, description="pixels"))
    def scroll(self, direction: str = "down", amount: int = 400) -> str:
        dy = amount if direction == "down" else -amount
        self.session.call(lambda page: page.mouse.wheel(0, dy))
        return f"scrolled {direction} {amount}px"

    @command(TAP_HELP, *TAP_PARAMS)
    def tap(self, x: float, y: float) -> str:
        o = self.session.options
        self.session.call(lambda page: page.mouse.click(x * o.width, y * o.height))
        return f"tapped ({x:.2f}, {y:.2f})"

    def observe(self) -> ScreenObservation:
        def read(page: Any) -> ScreenObservation:
            self.session.wait_idle(page)   # the screen an input leads to, not a frame of its loading or transition
            self.session.wait_still(page)   # nor a page its app is still filling in (after "load")
            return observe_page(page)

        return self.session.call(read, reads=True)

    @command("List what the page shows now: URL, title and the visible elements with role, name, text, "
             "field values and state, and the row each sits in (JSON)")
    def dump_elements(self) -> str:
        return json.dumps(self.observe().to_dict())


class WebScreen(ScreenController):
    """Screenshots of the page."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session

    def screenshot(self) -> bytes:
        return self.session.call(lambda page: page.screenshot(type="png"))

    def preview(self, max_width: int = 960, quality: int = 70) -> bytes:
        jpeg = self.session.call(lambda page: page.screenshot(type="jpeg", quality=quality))
        return jpeg if self.session.options.width <= max_width else to_jpeg(jpeg, max_width, quality)

    def close(self) -> None:
        self.session.close()


@register_controller("playwright")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    from backend_core.verifications.element import DomVerifier

    url = params.get("url")
    if not url:
        raise ConfigError(f"device {ctx.device_id!r}: controller 'playwright' needs params.url")
    url = str(url).format(**ctx.variables)
    options = BrowserOptions(
        url=url,
        headless=bool(params.get("headless", True)),
        width=int(params.get("width", 1280)),
        height=int(params.get("height", 720)),
        executable_path=str(params.get("executable_path", "")),
        settle_ms=float(params.get("settle_ms", 0)),
        dialogs=str(params.get("dialogs", "accept")),
        pause_endless_animations=bool(params.get("pause_endless_animations", False)),
    )
    if options.dialogs not in ("accept", "dismiss"):
        raise ConfigError(f"device {ctx.device_id!r}: params.dialogs is 'accept' or 'dismiss', not {options.dialogs!r}")
    session = BrowserSession(options)
    if params.get("warm_up", True):
        session.warm_up()
    return [WebRemote(session), WebScreen(session), DomVerifier(session)]
