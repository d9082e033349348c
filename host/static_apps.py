"""Serve a device's web app (such as the StreamTV demo) from a folder on loopback."""
from __future__ import annotations

import functools
import logging
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

log = logging.getLogger(__name__)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        log.debug("static: " + format, *args)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class StaticApp:
    """A folder served over HTTP on 127.0.0.1 on a free port, in a daemon thread."""

    def __init__(self, folder: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        handler = functools.partial(_QuietHandler, directory=str(folder))
        self.server = ThreadingHTTPServer((host, port), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name=f"static-{folder.name}", daemon=True)
        self.thread.start()
        log.info("serving %s at %s", folder, self.url)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
