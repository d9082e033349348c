"""Small local HTML pages (tests/fixtures/web) served on loopback, and a real headless Chromium on them."""
from __future__ import annotations

import functools
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from backend_core.controllers import BuildContext, build_controllers
from backend_core.controllers.web import WebRemote
from backend_core.verifications.element import DomVerifier

PAGES = Path(__file__).resolve().parent.parent / "fixtures" / "web"
SLOWER_S = 4.0


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/slow/"):   # a server that takes its time: content a page loads after a click
            time.sleep(0.4)
            self.path = self.path[len("/slow"):]
        elif self.path.startswith("/slower/"):   # one that answers when its work is done, past a click's timeout
            time.sleep(SLOWER_S)
            self.path = self.path[len("/slower"):]
        super().do_GET()


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    """Base URL of the fixture pages, served by a real HTTP server on loopback."""
    handler = functools.partial(_QuietHandler, directory=str(PAGES))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class Browser:
    """The playwright controllers of one device, built through the registry like a host does."""

    def __init__(self, base: str, tmp: Path, **params: Any) -> None:
        self.base = base
        made = build_controllers([{"type": "playwright", "params": {"url": base + "form.html", "warm_up": False,
                                                                    **params}}],
                                 BuildContext("web-test", tmp))
        self.controllers = made
        self.remote: WebRemote = next(c for c in made if isinstance(c, WebRemote))
        self.dom: DomVerifier = next(c for c in made if isinstance(c, DomVerifier))
        self.session = self.remote.session

    def open(self, page: str) -> None:
        self.remote.execute("navigate_to_url", {"url": self.base + page})

    def js(self, expression: str) -> Any:
        """Evaluate *expression* in the page: the page's real state, not the command's own message."""
        return self.session.call(lambda page: page.evaluate(expression))

    def close(self) -> None:
        for c in self.controllers:
            c.close()


@pytest.fixture(scope="module")
def browser(pages_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(pages_url, tmp_path_factory.mktemp("web"))
    try:
        yield b
    finally:
        b.close()
