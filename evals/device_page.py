"""The judges' and the set-up's view of a device's page: the same browser page the device drives.

The harness runs the host in its own process (local mode), so it reaches the
Playwright page of each device's web controller and reads the URL, the DOM and
the app's own state from it — after the run, never through the run's own
verification. All calls go through the controller's browser thread.

This is the one place that knows how a web controller holds its page
(``controller.session.call(fn)``); if that changes, only this module follows.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, TypeVar
from urllib.parse import urldefrag, urljoin

from shared.errors import ConfigError

log = logging.getLogger(__name__)
T = TypeVar("T")

_TEXT_JS = "() => document.body ? document.body.innerText : ''"
#: a set-up page load may take longer than a device's own action timeout: a shared CI machine runs a dozen
#: browsers and six apps at once, and the set-up is the harness's part, not the planner's
LOAD_TIMEOUT_MS = 30_000


def _find_session(runtime: Any) -> Any:
    for controller in getattr(runtime.device, "controllers", []):
        for attr in ("session", "_session", "browser"):
            candidate = getattr(controller, attr, None)
            if candidate is not None and callable(getattr(candidate, "call", None)):
                return candidate
    raise ConfigError(f"device {runtime.device.id!r} has no browser page the evaluation can read "
                      "(no web controller with a session)")


class DevicePage:
    """A device's browser page: read it for judging, drive it for set-up."""

    def __init__(self, runtime: Any, base_url: str = "") -> None:
        self.runtime = runtime
        self.session = _find_session(runtime)
        self.base_url = base_url or urldefrag(str(getattr(getattr(self.session, "options", None), "url", "")))[0]
        # the address of the document load() opened, while nothing has acted on the page since (see load)
        self._fresh: str | None = None

    def call(self, fn: Callable[[Any], T], timeout: float = 30.0) -> T:
        """Run *fn* with the page in its browser thread; it may act on the page."""
        self._fresh = None
        return self.session.call(fn, timeout)

    def forget(self) -> None:
        """Something outside this object acted on the page (a run): no document of ours is untouched."""
        self._fresh = None

    # -- reading -------------------------------------------------------------------
    def url(self) -> str:
        return self.session.call(lambda page: page.url, 30.0)

    def text(self) -> str:
        return str(self.session.call(lambda page: page.evaluate(_TEXT_JS), 30.0))

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self.call(lambda page: page.evaluate(script, arg))

    # -- driving (set-up only) ---------------------------------------------------------
    def resolve(self, url: str) -> str:
        return urljoin(self.base_url, url) if self.base_url else url

    def load(self, url: str, reuse: bool = False) -> None:
        """A fresh document at *url*: in-page state is dropped even when only the fragment differs.

        With *reuse*, a document this object loaded from *url* and nothing acted on since is kept (a set-up
        that opens the page its app's reset just opened: one load instead of two).
        """
        target = self.resolve(url)
        if reuse and self._fresh == target:
            return

        def go(page: Any) -> None:
            page.goto("about:blank", timeout=LOAD_TIMEOUT_MS)
            page.goto(target, wait_until="load", timeout=LOAD_TIMEOUT_MS)

        self.call(go, timeout=LOAD_TIMEOUT_MS * 2 / 1000 + 5)
        self._fresh = target

    def blank(self) -> None:
        """Leave the page empty: a page left open between tasks keeps running (timers, polling, animations),
        and twenty such pages cost the machine a tenth of its time while their devices wait for a turn."""
        self.call(lambda page: page.goto("about:blank", timeout=LOAD_TIMEOUT_MS), timeout=LOAD_TIMEOUT_MS / 1000 + 5)

    def goto(self, url: str) -> None:
        target = self.resolve(url)
        self.call(lambda page: page.goto(target, wait_until="load", timeout=LOAD_TIMEOUT_MS),
                  timeout=LOAD_TIMEOUT_MS / 1000 + 5)

    def click(self, selector: str) -> None:
        self.call(lambda page: page.locator(selector).first.click(timeout=5000))

    def press(self, key: str) -> None:
        self.call(lambda page: page.keyboard.press(key))

    def fill(self, selector: str, text: str) -> None:
        self.call(lambda page: page.locator(selector).first.fill(text, timeout=5000))

    def wait(self, seconds: str) -> None:
        ms = float(seconds) * 1000
        self.call(lambda page: page.wait_for_timeout(ms))

    def relocate(self) -> str | None:
        """Have the device's navigation locate the page (best effort); the node it is on, or None."""
        navigation = getattr(self.runtime, "navigation", None)
        refresh = getattr(navigation, "refresh", None)
        if refresh is None:
            return None
        try:
            return refresh()
        except Exception as exc:  # locating is best effort, as it is for the runtime itself
            log.debug("could not relocate %s after set-up: %s", self.runtime.device.id, exc)
            if navigation is not None and hasattr(navigation, "current_node"):
                navigation.current_node = None
            return None
