"""A Playwright browser session owned by one thread.

Playwright's sync API must be used from the thread that started it, while a
host calls controllers from Socket.IO handler threads; so every page operation
is submitted to the session's own worker thread. Playwright exceptions are
translated here into :class:`ControllerError` (the browser broke) — callers
never see Playwright's types.
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from shared.errors import ControllerError, DevicePilotError

log = logging.getLogger(__name__)
T = TypeVar("T")

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def find_chromium() -> str:
    """The system Chromium: ``DEVICEPILOT_CHROMIUM`` or the first of the usual names on PATH."""
    env = os.environ.get("DEVICEPILOT_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise ControllerError(
        "no Chromium found: install Debian's 'chromium' package or set DEVICEPILOT_CHROMIUM to its path"
    )


@dataclass(frozen=True)
class BrowserOptions:
    url: str
    headless: bool = True
    width: int = 1280
    height: int = 720
    executable_path: str = ""
    default_timeout_ms: int = 5000
    settle_ms: float = 0.0   # 0: settle on the page's own events; > 0: a fixed wait, for apps that animate
    # the page's own alert / confirm / prompt: "accept" (a delete the task asked for is confirmed) or "dismiss"
    dialogs: str = "accept"
    # pause each endless CSS animation (a pulsing dot, a looping shimmer) when it starts: headless Chromium
    # repaints it every frame, close to half a core per page, and it changes no element a task reads
    pause_endless_animations: bool = False


# what Playwright says when the page an evaluation ran in was replaced by a navigation
_NAVIGATED = re.compile(r"Execution context was destroyed|navigat", re.I)


def _load_after(page: Any, exc: Exception) -> None:
    """Wait for the page a navigation is loading, when *exc* says one cut the work short; else re-raise it."""
    if not _NAVIGATED.search(str(exc)):
        raise exc
    page.wait_for_load_state("load")


# Wait (at most *cap* ms) until no finite CSS transition or animation runs: a modal that fades in after
# its backdrop, a drawer that slides. Endless ones (spinners, marquees) are not waited for.
QUIET_JS = """
async (cap) => {
  const frame = () => new Promise(done => requestAnimationFrame(() => done()));
  const until = performance.now() + cap;
  await frame();
  while (performance.now() < until) {
    const running = document.getAnimations().filter(a => a.playState === 'running'
        && Number.isFinite((a.effect && a.effect.getComputedTiming().endTime) ?? Infinity));
    if (!running.length) return true;
    const left = Math.max(0, until - performance.now());
    await Promise.race([Promise.all(running.map(a => a.finished.catch(() => null))),
                        new Promise(done => setTimeout(done, left))]);
    await frame();
    await frame();
  }
  return false;
}
"""
QUIET_CAP_MS = 1500

# The watch on a document's changes: the time it last changed (a node added, removed or rewritten, an attribute
# set) and when it loaded. Installed in every document at its start (WATCH_CHANGES_JS); the readings below install
# it where that did not run, and then the call that installs it counts as a change.
_WATCH = """
  if (!window.__devicepilotStill) {
    const still = window.__devicepilotStill = {last: performance.now(), loaded: 0};
    new MutationObserver(() => { still.last = performance.now(); })
      .observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
    window.addEventListener('load', () => { still.loaded = performance.now(); });
  }
"""
WATCH_CHANGES_JS = "(() => {" + _WATCH + "})();"
# Milliseconds since the page last changed by itself; 0 while an animation runs, even an endless one (a spinner
# says "wait").
STILL_JS = """
() => {
  const now = performance.now();""" + _WATCH + """
  if (document.getAnimations().some(a => a.playState === 'running')) return 0;
  return now - window.__devicepilotStill.last;
}
"""
# Milliseconds the document has been quiet, animations aside (an endless spinner does not hold a reading back),
# since the later of its last change and its load: a page drawn by its script after load (from what its server
# streams) starts changing only then; one its server rendered is read soon after it loaded.
DOM_STILL_JS = """
() => {
  const now = performance.now();""" + _WATCH + """
  const still = window.__devicepilotStill;
  return now - Math.max(still.last, still.loaded || 0);
}
"""
# A page is read for planning once its document has not changed for this long (an app that renders what its
# server streams, a Streamlit or a Dash app, fills the page after "load"), waiting at most READ_STILL_CAP_MS
READ_STILL_MS = 200
READ_STILL_CAP_MS = 2500
# A check that does not hold on a page this long unchanged, with no request under way, will not come to hold
# by itself: it fails then rather than at its timeout (see BrowserSession.still_for)
STILL_AFTER_S = 1.5

# Installed in every document with ``pause_endless_animations``: a CSS animation that repeats forever is paused
# as it starts (at its first frame); finite ones, which a page's dialogs and drawers wait for, run as they are.
PAUSE_ENDLESS_JS = """
document.addEventListener('animationstart', (event) => {
  for (const a of event.target.getAnimations ? event.target.getAnimations() : []) {
    if (a.animationName === event.animationName && a.effect && a.effect.getTiming().iterations === Infinity) a.pause();
  }
}, true);
"""


def wait_quiet(page: Any, cap_ms: float = QUIET_CAP_MS) -> bool:
    """Let the page's finite transitions end before it is read (see ``QUIET_JS``); a navigation waits for load.

    False when the page still animated at *cap_ms*: it is then read as it is.
    """
    from playwright.sync_api import Error as PlaywrightError

    try:
        quiet = bool(page.evaluate(QUIET_JS, cap_ms))
    except PlaywrightError as exc:
        _load_after(page, exc)
        return True
    if not quiet:
        log.debug("page still animating after %d ms; read as it is", cap_ms)
    return quiet


class BrowserSession:
    """One Chromium page, driven from a dedicated thread. Started lazily."""

    def __init__(self, options: BrowserOptions) -> None:
        self.options = options
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="browser")
        self._lock = threading.Lock()
        self._pw: Any = None
        self._browser: Any = None
        self._page: Any = None
        self.last_dialog = ""   # the page's last alert / confirm / prompt, as "confirm: Are you sure …"
        self._inflight: set[Any] = set()   # the page's requests under way (a dialog's content loading)
        self._navigation: Any = None       # the main frame's next document, while it is fetched
        self.browser_pid: int | None = None

    # -- runs on the browser thread -------------------------------------------------
    def _ensure_page(self) -> Any:
        if self._page is not None and not self._page.is_closed() and self._browser.is_connected():
            return self._page
        if self._page is not None:
            # The browser went away under a step (it crashed, or was killed). That step ends in error:
            # a browser started afresh in its middle would show another page. The next command starts one.
            try:
                self._browser.close()
            except Exception as exc:  # closing a dead browser can raise anything; nothing to recover
                log.debug("closing the lost browser: %s", exc)
            self._page = self._browser = None
            raise ControllerError("browser closed or crashed during the step; a fresh one starts with the next "
                                  "command")
        from playwright.sync_api import sync_playwright

        if self._pw is None:
            self._pw = sync_playwright().start()
        exe = self.options.executable_path or find_chromium()
        log.info("starting Chromium %s (headless=%s) at %s", exe, self.options.headless, self.options.url)
        self._browser = self._pw.chromium.launch(
            executable_path=exe, headless=self.options.headless, args=CHROMIUM_ARGS
        )
        self._page = self._browser.new_page(
            viewport={"width": self.options.width, "height": self.options.height}
        )
        self._page.set_default_timeout(self.options.default_timeout_ms)
        if self.options.pause_endless_animations:
            self._page.add_init_script(PAUSE_ENDLESS_JS)
        self._page.add_init_script(WATCH_CHANGES_JS)   # when the page last changed, from its first node on
        self._page.on("dialog", self._answer_dialog)
        self._page.on("request", self._request_started)
        self._page.on("requestfinished", self._request_ended)
        self._page.on("requestfailed", self._request_ended)
        self._page.on("domcontentloaded", lambda _page: setattr(self, "_navigation", None))   # it has come
        self._page.goto(self.options.url, wait_until="load")
        return self._page

    def wait_idle(self, page: Any, cap_ms: float = QUIET_CAP_MS) -> bool:
        """Let the page's requests under way end (at most *cap_ms*): a dialog whose form loads after the click
        that opened it. Then its transitions (:func:`wait_quiet`). False when something still ran at the cap."""
        until = time.monotonic() + cap_ms / 1000
        while self._inflight and time.monotonic() < until:
            page.wait_for_timeout(30)   # lets Playwright deliver the requests' events
        idle = not self._inflight
        if not idle:
            log.debug("%d request(s) still under way after %d ms; read as it is", len(self._inflight), cap_ms)
            self._inflight.clear()   # a long poll never ends: the next read does not wait for it again
        return wait_quiet(page, max(0.0, (until - time.monotonic()) * 1000) or 200) and idle

    def wait_still(self, page: Any, still_ms: float = READ_STILL_MS, cap_ms: float = READ_STILL_CAP_MS) -> bool:
        """Wait until the document has not changed for *still_ms* (at most *cap_ms*): the page as its app finished
        rendering it, not a frame of it. False when it still changed at the cap (it is then read as it is)."""
        until = time.monotonic() + cap_ms / 1000
        while True:
            quiet = float(page.evaluate(DOM_STILL_JS))
            if quiet >= still_ms:
                return True
            if time.monotonic() >= until:
                log.debug("page still changing after %d ms; read as it is", cap_ms)
                return False
            page.wait_for_timeout(max(20.0, min(100.0, still_ms - quiet)))

    def _request_started(self, request: Any) -> None:
        self._inflight.add(request)
        try:
            if request.is_navigation_request() and self._page is not None and request.frame == self._page.main_frame:
                self._navigation = request
        except Exception as exc:   # a request of a frame that went away
            log.debug("reading a request: %s", exc)

    def _request_ended(self, request: Any) -> None:
        self._inflight.discard(request)
        if request is self._navigation:
            self._navigation = None

    def loading(self, page: Any) -> bool:
        """A document for the page's main frame is being fetched: what the page will show has not come yet. Kept
        apart from the requests :meth:`wait_idle` gives up on (a long poll), which a navigation never is."""
        return self._navigation is not None

    def still_for(self, page: Any) -> float:
        """Seconds the page has not changed by itself (see ``STILL_JS``); 0 while a request is under way."""
        if self._inflight:
            return 0.0
        return float(page.evaluate(STILL_JS)) / 1000

    def _answer_dialog(self, dialog: Any) -> None:
        """A JavaScript alert / confirm / prompt the page opened ("Are you sure you want to delete this record?"):
        answered as the device's ``dialogs`` option says (accept by default: the task asked for the action)."""
        self.last_dialog = f"{dialog.type}: {dialog.message}"
        log.info("page dialog %s, %s: %r", self.options.dialogs, dialog.type, dialog.message)
        try:
            if self.options.dialogs == "dismiss":
                dialog.dismiss()
            else:
                dialog.accept(dialog.default_value) if dialog.type == "prompt" else dialog.accept()
        except Exception as exc:   # the page closed it first, or went away
            log.debug("dialog already answered: %s", exc)

    def _shutdown(self) -> None:
        for closer in (lambda: self._browser and self._browser.close(), lambda: self._pw and self._pw.stop()):
            try:
                closer()
            except Exception as exc:  # closing a dead browser can raise anything; nothing to recover
                log.debug("browser shutdown: %s", exc)
        self._page = self._browser = self._pw = None

    # -- public --------------------------------------------------------------------
    def warm_up(self) -> None:
        """Start the browser in the background now, so the first command does not wait for it."""
        def start() -> None:
            try:
                self._ensure_page()
            except Exception as exc:  # the first real command reports it, translated
                log.warning("browser warm-up failed: %s", exc)

        self._pool.submit(start)

    def settle(self, page: Any) -> None:
        """Let the page react to an input: its handlers run and it renders (two animation frames).

        Event-driven, not a fixed sleep; ``settle_ms`` in the device's config adds a fixed wait for
        apps whose transitions outlast a frame.
        """
        if self.options.settle_ms > 0:
            page.wait_for_timeout(self.options.settle_ms)
            return
        from playwright.sync_api import Error as PlaywrightError

        try:
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        except PlaywrightError as exc:   # the input started a navigation (Enter submitted a form)
            _load_after(page, exc)

    def call(self, fn: Callable[[Any], T], timeout: float = 60.0, *, reads: bool = False) -> T:
        """Run ``fn(page)`` on the browser thread and return its result.

        Project exceptions raised by *fn* pass through; Playwright's become
        :class:`ControllerError`. With *reads* (*fn* only reads the page), a read
        that a navigation cut short (the step before submitted a form) is done
        again on the page that loaded.
        """
        def run() -> T:
            page = self._ensure_page()
            if not reads:
                return fn(page)
            from playwright.sync_api import Error as PlaywrightError

            try:
                return fn(page)
            except PlaywrightError as exc:
                _load_after(page, exc)
                return fn(page)

        future: Future[T] = self._pool.submit(self._translate, run)
        return future.result(timeout=timeout)

    @staticmethod
    def _translate(run: Callable[[], T]) -> T:
        from playwright.sync_api import Error as PlaywrightError

        try:
            return run()
        except DevicePilotError:
            raise
        except PlaywrightError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ControllerError(f"browser error: {first}") from exc

    def close(self) -> None:
        with self._lock:
            try:
                self._pool.submit(self._shutdown).result(timeout=30)
            except Exception as exc:
                log.warning("browser did not close cleanly: %s", exc)
            self._pool.shutdown(wait=False)
