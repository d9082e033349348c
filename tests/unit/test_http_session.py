"""Client sessions drop connections idle long enough that the server might be closing them."""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from devicepilot.http import session


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"          # keep-alive

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _CountingServer(ThreadingHTTPServer):
    daemon_threads = True
    connections = 0

    def process_request(self, request, client_address):  # type: ignore[no-untyped-def]
        self.connections += 1
        super().process_request(request, client_address)


@pytest.fixture()
def server() -> Iterator[_CountingServer]:
    srv = _CountingServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_a_busy_session_reuses_its_connection_and_an_idle_one_opens_a_fresh_one(server: _CountingServer) -> None:
    http = session(idle_s=0.3)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    for n in range(3):
        assert http.post(url, data=str(n)).text == str(n)
    assert server.connections == 1                 # kept alive while in use
    time.sleep(0.5)
    assert http.post(url, data="after a pause").text == "after a pause"
    assert server.connections == 2                 # the idle connection was dropped, not reused
