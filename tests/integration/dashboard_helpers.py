"""Helpers for the dashboard's browser tests: a real Chromium driven by Playwright."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LAPTOP = {"width": 1366, "height": 768}
WIDE = {"width": 2560, "height": 1440}

# Records, in the page, every step of the live run as it is added to the DOM together with the
# run's status shown at that moment: proof that steps arrive while the run is still running.
STEP_OBSERVER_JS = """
() => {
  window.__stepLog = [];
  const box = document.querySelector('.taskbox');
  new MutationObserver((mutations) => {
    for (const m of mutations) for (const n of m.addedNodes) {
      if (n.nodeType !== 1 || !n.matches('li.step')) continue;
      if (n.dataset.status === 'pending' || n.dataset.status === 'not-run') continue;
      const shown = document.querySelector('.live-run .run-status');
      window.__stepLog.push({step: Number(n.dataset.step), status: n.dataset.status,
                             run: shown ? shown.dataset.runStatus : null, at: performance.now()});
    }
  }).observe(box, {subtree: true, childList: true});
}
"""


def chromium_path() -> str:
    return os.environ.get("DEVICEPILOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def launch_browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class PageWatch:
    """Console errors, page errors and API requests seen by a page."""

    errors: list[str] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)

    def attach(self, page: Page) -> "PageWatch":
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", lambda msg: self._console(msg))
        page.on("request", lambda req: self.requests.append((req.method, req.url)))
        return self

    def _console(self, msg: Any) -> None:
        # a 404 of the plan cache is an expected answer when that feature is absent
        if msg.type == "error" and "404" not in msg.text and "400" not in msg.text:
            self.errors.append(f"console: {msg.text}")

    def count(self, method: str, path_part: str) -> int:
        return sum(1 for m, url in self.requests if m == method and path_part in url)


@dataclass
class Shots:
    """Screenshots of every view, kept under the test run's temporary directory."""

    folder: Path
    taken: list[Path] = field(default_factory=list)

    def take(self, page: Page, name: str, full_page: bool = True) -> Path:
        page.wait_for_selector("#conn.conn--up")  # the live-events indicator settled
        page.evaluate("window.scrollTo(0, 0)")
        path = self.folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        assert path.stat().st_size > 10_000, f"screenshot {name} looks empty"
        self.taken.append(path)
        return path


def log_in(page: Page, stack: Any) -> None:
    """Log the page's browser context in as the stack's admin, through a one-time login link.

    The link is followed by the context's own request API (which shares the browser's cookies), so the
    page has loaded nothing yet: tests that watch its WebSocket see it open.
    """
    resp = stack.http.post(stack.url + "/api/auth/login-links", json={}, timeout=10)
    assert resp.status_code == 201, resp.text
    answer = page.request.get(resp.json()["url"], max_redirects=0)
    assert answer.status == 302 and answer.headers["location"] == "/", (answer.status, answer.text())
    assert any(c["name"] == "devicepilot_session" and c["httpOnly"] for c in page.context.cookies())
