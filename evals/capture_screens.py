"""Capture what the planner sees on real pages of the third-party apps, as test fixtures.

    .venv/bin/python -m evals.capture_screens [APP ...]  # (re)writes those apps' screens in
                                                         # tests/fixtures/screens/third_party.json

The unit tests of tester phrasings (tests/unit/test_tester_phrasings.py) plan against these
observations of Django's admin, sqlite-web, Datasette, TodoMVC and Python's own documentation browser (``pydoc -p``),
so they run in milliseconds without the apps.
"""
from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from backend_core.controllers.browser import find_chromium
from backend_core.controllers.web_observe import observe_page
from evals.apps import APPS
from evals.apps.base import free_port, wait_http

log = logging.getLogger(__name__)
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "screens" / "third_party.json"
PYDOC_PAGES = ["/", "/topics.html", "/json.html", "/heapq.html", "/keywords.html", "/search?key=os.path"]
PAGES = {"django_admin": ["/admin/", "/admin/store/product/", "/admin/store/customer/", "/admin/store/customer/1/change/"],
         "sqlite_web": ["/", "/books/", "/books/content/", "/query/", "/books/insert/", "/members/content/",
                        "/members/update/WzNd/"],
         "datasette": ["/", "/nursery", "/nursery/plants", "/nursery/suppliers", "/nursery/plants/9"],
         "todomvc": ["/index.html#/", "/index.html#/completed"],
         "trac": ["/", "/report", "/report/1", "/ticket/1", "/ticket/5", "/newticket", "/roadmap", "/wiki/TestPlan",
                  "/ticket/1 >Modify"],
         "ihatemoney": ["/flatshare/", "/flatshare/settle_bills", "/flatshare/statistics", "/flatshare/edit/4",
                        "/flatshare/add", "/flatshare/edit"],
         "roundup": ["/tracker/", "/tracker/issue3", "/tracker/issue?@template=item", "/tracker/user"],
         "buku": ["/bookmark/", "/bookmark/new/", "/bookmark/edit/?id=2", "/tag/", "/"],
         "changedetection": ["/"]}   # " >Name": then click the link Name (a form folded away)


class _Page:
    """The little of a device's page an app's :meth:`reset_page` uses, over a bare Playwright page."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def call(self, fn: Any, timeout: float = 30.0) -> Any:
        return fn(self.page)

    def load(self, url: str) -> None:
        self.page.goto("about:blank")
        self.page.goto(url, wait_until="load")

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def url(self) -> str:
        return self.page.url

    def fill(self, selector: str, text: str) -> None:
        self.page.locator(selector).first.fill(text)

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()

    def wait(self, seconds: str) -> None:
        self.page.wait_for_timeout(float(seconds) * 1000)


def capture(apps: list[str]) -> dict[str, dict]:
    """The screens of *apps* (names of PAGES, or "pydoc")."""
    out: dict[str, dict] = {}
    work = Path(tempfile.mkdtemp(prefix="devicepilot-screens-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        for name, paths in PAGES.items():
            if name not in apps:
                continue
            app = APPS[name](work / name)
            app.start()
            try:
                app.reset_page(_Page(page))  # type: ignore[arg-type]
                for path in paths:
                    url, _, click = path.partition(" >")
                    page.goto("about:blank")
                    page.goto(app.base_url + url)
                    page.wait_for_load_state("networkidle")   # an app that fetches its content after the load
                    if click:
                        page.get_by_role("link", name=click).first.click()
                        page.wait_for_timeout(300)
                        page.wait_for_load_state("networkidle")
                    obs = observe_page(page, 400)
                    out[f"{name}{path}"] = obs.to_dict()
            finally:
                app.stop()
        if "pydoc" in apps:
            _capture_pydoc(page, out)
        browser.close()
    return out


def _capture_pydoc(page: Any, out: dict[str, dict]) -> None:
    port = free_port()   # pydoc's browser: it serves until its stdin closes
    pydoc = subprocess.Popen([sys.executable, "-m", "pydoc", "-n", "127.0.0.1", "-p", str(port)],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/", 30, pydoc)
        for path in PYDOC_PAGES:
            page.goto(f"http://127.0.0.1:{port}{path}")
            out[f"pydoc{path}"] = observe_page(page).to_dict()
    finally:
        pydoc.terminate()
        pydoc.wait(timeout=10)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    apps = sys.argv[1:] or [*PAGES, "pydoc"]
    screens = json.loads(OUT.read_text()) if OUT.exists() else {}
    screens = {k: v for k, v in screens.items() if k.split("/", 1)[0] not in apps}
    screens.update(capture(apps))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(screens, separators=(",", ":"), sort_keys=True))
    log.info("%d screens written to %s", len(screens), OUT)


if __name__ == "__main__":
    main()
