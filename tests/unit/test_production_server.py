"""The production server's WSGI wrapping: forwarded headers are trusted only when configured."""
from __future__ import annotations

from typing import Any

import pytest
from werkzeug.test import Client
from werkzeug.wrappers import Request, Response

from server.production import with_proxy


@Request.application
def echo(request: Request) -> Response:
    return Response(f"{request.remote_addr} {request.scheme} {request.host}")


def seen(monkeypatch: pytest.MonkeyPatch, hops: str) -> str:
    monkeypatch.setenv("DEVICEPILOT_PROXY_HOPS", hops)
    app: Any = with_proxy(echo)
    headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "lab.example"}
    return Client(app).get("/", headers=headers, environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)


def test_forwarded_headers_are_ignored_unless_a_proxy_is_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    assert seen(monkeypatch, "") == "127.0.0.1 http localhost"       # a client cannot forge its address


def test_behind_one_proxy_the_client_scheme_and_host_come_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert seen(monkeypatch, "1") == "203.0.113.9 https lab.example"


def _crash_in_thread(exc: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from server.production import log_thread_exception

    def boom() -> None:
        raise exc

    monkeypatch.setattr(threading, "excepthook", log_thread_exception)
    worker = threading.Thread(target=boom, name="ws-writer")
    worker.start()
    worker.join()


def test_a_socket_its_client_already_closed_is_not_logged_as_an_error(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import errno

    caplog.set_level("DEBUG", logger="server.production")
    _crash_in_thread(OSError(errno.EBADF, "Bad file descriptor"), monkeypatch)
    assert [r.levelname for r in caplog.records] == ["DEBUG"]
    assert "already closed by its peer" in caplog.text and "Traceback" not in caplog.text


def test_any_other_uncaught_thread_exception_is_logged_as_an_error_with_its_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    _crash_in_thread(ValueError("a real bug"), monkeypatch)
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    assert "ws-writer" in caplog.text and "a real bug" in caplog.text and "Traceback" in caplog.text
