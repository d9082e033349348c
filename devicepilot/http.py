"""HTTP sessions that never send a request on a connection the server may be closing.

The server keeps an idle connection open for a few seconds (gunicorn's ``keepalive``, 5 s; a proxy
in front may use another figure) and then closes it. A client that reuses the connection at that
very moment sees "Connection aborted" and cannot tell whether its POST was processed, so it must
not retry. Instead, connections idle longer than :data:`IDLE_S` — well under any server's
keep-alive — are dropped before the next request, and a fresh one is opened.
"""
from __future__ import annotations

import threading
import time
from typing import Any

import requests
from requests.adapters import HTTPAdapter

IDLE_S = 2.0


class FreshConnectionAdapter(HTTPAdapter):
    """An adapter that closes its pooled connections once they have been idle for *idle_s*."""

    def __init__(self, idle_s: float = IDLE_S, **kwargs: Any) -> None:
        self.idle_s = idle_s
        self._lock = threading.Lock()
        self._in_flight = 0
        self._last_used = time.monotonic()
        super().__init__(**kwargs)

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        with self._lock:
            if self._in_flight == 0 and time.monotonic() - self._last_used > self.idle_s:
                self.poolmanager.clear()      # closes idle connections only: none is in use
            self._in_flight += 1
        try:
            return super().send(request, *args, **kwargs)
        finally:
            with self._lock:
                self._in_flight -= 1
                self._last_used = time.monotonic()


def session(idle_s: float = IDLE_S) -> requests.Session:
    """A :class:`requests.Session` whose connections are dropped after *idle_s* idle seconds."""
    http = requests.Session()
    adapter = FreshConnectionAdapter(idle_s)
    http.mount("http://", adapter)
    http.mount("https://", adapter)
    return http
