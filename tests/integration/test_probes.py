"""The probes of issue 9, replayed by an anonymous client against a real ``devicepilot server``: all fail."""
from __future__ import annotations

import time

import pytest
import requests
import socketio

from shared.protocol import DASHBOARD_NS
from tests.stack import Stack

pytestmark = pytest.mark.integration


def test_an_anonymous_client_gets_nothing(demo_stack: Stack) -> None:
    url = demo_stack.url
    for path in ("/api/files/host-token", "/api/files/devicepilot.db", "/api/files/devicepilot.db-wal",
                 "/api/devices", "/api/devices/demo-web/context", "/api/devices/demo-web/screenshot",
                 "/api/runs", "/api/plan-cache", "/api/testcases", "/api/audit", "/api/openapi.json"):
        r = requests.get(url + path, timeout=10)
        assert r.status_code == 401, (path, r.status_code)
        assert demo_stack.token not in r.text
    for method, path in (("POST", "/api/devices/demo-web/execute"), ("POST", "/api/runs"),
                         ("PUT", "/api/userinterfaces/streamtv/tree"), ("DELETE", "/api/plan-cache"),
                         ("DELETE", "/api/testcases/smoke"), ("POST", "/api/runs/0123456789ab/cancel")):
        assert requests.request(method, url + path, json={}, timeout=10).status_code == 401, path
    assert requests.get(url + "/api/health", timeout=10).status_code == 200


def test_even_an_admin_cannot_download_the_token_or_the_database(demo_stack: Stack) -> None:
    for path in ("host-token", "devicepilot.db", "devicepilot.db-wal", "secret-key", "client-token",
                 "runs/%00", "runs/../host-token"):
        r = demo_stack.http.get(f"{demo_stack.url}/api/files/{path}", timeout=10)
        assert r.status_code in (400, 404), (path, r.status_code)


def test_a_page_on_another_site_can_neither_post_nor_listen(demo_stack: Stack) -> None:
    # a cross-site form POST riding a logged-in browser's cookie
    browser = requests.Session()
    assert browser.post(demo_stack.url + "/api/auth/login", json={"token": demo_stack.api_token},
                        timeout=10).status_code == 200
    forged = browser.post(demo_stack.url + "/api/runs/0123456789ab/save-test", data={"name": "x"},
                          headers={"Origin": "https://evil.example"}, timeout=10)
    assert forged.status_code == 403
    same_site_no_token = browser.post(demo_stack.url + "/api/runs/0123456789ab/save-test", data={"name": "x"},
                                      timeout=10)
    assert same_site_no_token.status_code == 403 and "CSRF" in same_site_no_token.json()["error"]
    # the live screens over Socket.IO
    spy = socketio.Client(reconnection=False)
    frames: list[float] = []
    spy.on("frame", lambda data: frames.append(time.monotonic()), namespace=DASHBOARD_NS)
    with pytest.raises(socketio.exceptions.ConnectionError):
        spy.connect(demo_stack.url, namespaces=[DASHBOARD_NS], headers={"Origin": "https://evil.example"},
                    transports=["websocket"], wait_timeout=5)
    with pytest.raises(socketio.exceptions.ConnectionError):   # same origin, but not logged in
        spy.connect(demo_stack.url, namespaces=[DASHBOARD_NS], transports=["websocket"], wait_timeout=5)
    assert frames == []


def test_the_server_hides_its_version_and_refuses_strange_hosts(demo_stack: Stack) -> None:
    r = requests.get(demo_stack.url + "/api/health", timeout=10)
    assert "Werkzeug" not in r.headers.get("Server", "") and "Python" not in r.headers.get("Server", "")
    assert requests.get(demo_stack.url + "/api/health", headers={"Host": "rebound.example"},
                        timeout=10).status_code == 400
