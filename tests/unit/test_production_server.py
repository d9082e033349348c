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
