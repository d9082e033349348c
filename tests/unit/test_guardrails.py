"""Guardrails: Origin allowlist, trusted hosts, rate limits, input limits, and no 500 for bad input."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest
import requests
import socketio

from devicepilot.local import ServerThread
from server.app import Server, create_app
from server.auth_users import Role
from server.db import DeviceRow, HostRow
from server.planners.builtin import BuiltinPlanner
from server.sockets import MAX_WATCHED_DEVICES
from shared.config import Settings
from shared.protocol import DASHBOARD_NS
from tests.auth_helpers import authorize, token_for


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("DEVICEPILOT_RATE_LIMIT_RUNS", "3 per minute")
    monkeypatch.setenv("DEVICEPILOT_ALLOWED_ORIGINS", "https://dashboard.example")
    server = create_app(Settings(data_dir=tmp_path), planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        for i in range(MAX_WATCHED_DEVICES + 2):
            s.add(DeviceRow(id=f"tv-{i}", host_id="h1", name=f"tv {i}", model="m", userinterface="ui"))
    yield server
    server.db.engine.dispose()


@pytest.fixture
def live(srv: Server) -> Iterator[str]:
    http = ServerThread(srv).start()
    yield http.url
    http.stop()


def runs_stored(srv: Server) -> int:
    return len(srv.app.test_client().get("/api/runs").get_json())


# -- malformed input: 400 with a message a person can act on, and nothing created ------------------

@pytest.mark.parametrize("method,url,body,expected", [
    ("POST", "/api/runs", {"device": "tv-0", "task": "go home \ud800"}, "not valid Unicode"),
    ("POST", "/api/runs?wait=abc", {"device": "tv-0", "task": "go home"}, "wait must be a number"),
    ("POST", "/api/runs?wait=-5", {"device": "tv-0", "task": "go home"}, "between 0 and 600"),
    ("POST", "/api/runs", {"device": "tv-0", "task": "go home", "plan": {"plan": "press OK"}}, "must be a list"),
    ("POST", "/api/runs", {"device": "tv-0", "task": "go home", "plan": [1, 2]}, "must be an object"),
    ("POST", "/api/runs", {"device": "tv-0", "task": "go", "plan": {"plan": [{"command": "x"}] * 101}}, "limit is 100"),
    ("POST", "/api/runs", {"device": "tv-0", "task": "go", "plan": {"plan": [{"command": 5}]}}, "needs a 'command'"),
    ("POST", "/api/runs", {"device": "tv-0", "task": "x" * 2001}, "limit is 2000"),
    ("POST", "/api/devices/tv-0/execute", {"command": "press_key", "params": ["OK"]}, "'params' must be an object"),
    ("POST", "/api/devices/tv-0/execute", {"params": {}}, "'command' is required"),
    ("PUT", "/api/userinterfaces/ui/tree", {"tree": {"userinterface": "ui", "nodes": "home"}}, "must be a list"),
    ("PUT", "/api/userinterfaces/ui/tree", {"tree": "home"}, "must be an object"),
    ("PUT", "/api/userinterfaces/ui/tree", {"tree": {"userinterface": "ui", "nodes": [{"id": "a"}], "edges": {}}},
     "must be a list"),
])
def test_malformed_input_is_a_clear_400_and_creates_nothing(srv: Server, method: str, url: str, body: dict,
                                                            expected: str) -> None:
    r = srv.app.test_client().open(url, method=method, json=body)
    assert r.status_code == 400, (r.status_code, r.get_data(as_text=True)[:300])
    assert expected in r.get_json()["error"]
    assert runs_stored(srv) == 0


@pytest.mark.parametrize("url", ["/api/plan-cache/100000000000000000000000", "/api/files/runs/%00",
                                 "/api/files/runs/..%2f..%2fhost-token", "/api/files/devicepilot.db"])
def test_odd_ids_and_paths_are_404(srv: Server, url: str) -> None:
    assert srv.app.test_client().get(url).status_code == 404


def test_a_get_with_a_bad_wait_is_400(srv: Server) -> None:
    r = srv.app.test_client().get("/api/runs/0123456789ab?wait=soon")
    assert r.status_code == 400 and "wait must be a number" in r.get_json()["error"]


# -- rate limits --------------------------------------------------------------------------------------

def test_runs_are_rate_limited_per_user_with_retry_after(srv: Server) -> None:
    http = srv.app.test_client()
    answers = [http.post("/api/runs", json={"device": "tv-0", "task": "go home", "mode": "plan"}) for _ in range(5)]
    assert all(a.status_code in (201, 202) for a in answers[:3]), [a.status_code for a in answers]
    assert [a.status_code for a in answers[3:]] == [429, 429]
    assert int(answers[3].headers["Retry-After"]) > 0
    assert "too many requests" in answers[3].get_json()["error"]
    assert runs_stored(srv) == 3
    # another user has a budget of their own
    other = token_for(srv.users, "colleague", Role.TESTER)
    r = srv.app.test_client().post("/api/runs", json={"device": "tv-0", "task": "go home", "mode": "plan"},
                                   headers={"Authorization": f"Bearer {other}"})
    assert r.status_code in (201, 202)


# -- origins and hosts ---------------------------------------------------------------------------------

def test_a_foreign_origin_is_refused_on_http(srv: Server) -> None:
    http = srv.app.test_client()
    r = http.post("/api/runs", json={"device": "tv-0", "task": "go"}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "not allowed" in r.get_json()["error"]
    assert http.get("/api/devices", headers={"Origin": "http://localhost"}).status_code == 200     # same origin
    assert http.get("/api/devices", headers={"Origin": "https://dashboard.example"}).status_code == 200  # listed
    assert runs_stored(srv) == 0


def test_a_foreign_origin_is_refused_on_socketio(srv: Server, live: str) -> None:
    handshake = f"{live}/socket.io/?EIO=4&transport=polling"
    assert requests.get(handshake, headers={"Origin": "https://evil.example"}, timeout=5).status_code == 403
    assert requests.get(handshake, headers={"Origin": live}, timeout=5).status_code == 200
    token = token_for(srv.users, "watcher", Role.VIEWER)
    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(live, namespaces=[DASHBOARD_NS], headers={"Origin": "https://evil.example"},
                       auth={"token": token}, transports=["websocket"], wait_timeout=5)


def test_a_loopback_server_answers_loopback_names_only_and_hides_its_version(srv: Server, live: str) -> None:
    ok = requests.get(f"{live}/api/health", timeout=5)
    assert ok.status_code == 200 and ok.headers["Server"] == "devicepilot"
    rebound = requests.get(f"{live}/api/health", headers={"Host": "attacker.example"}, timeout=5)
    assert rebound.status_code == 400 and "DEVICEPILOT_TRUSTED_HOSTS" in rebound.json()["error"]


# -- Socket.IO limits ------------------------------------------------------------------------------------

def test_watching_is_capped_and_unknown_devices_are_refused(srv: Server) -> None:
    token = token_for(srv.users, "watcher", Role.VIEWER)
    client = srv.socketio.test_client(srv.app, namespace=DASHBOARD_NS, auth={"token": token})
    try:
        for i in range(50):
            reply = client.emit("watch_device", {"device_id": f"ghost-{i}"}, namespace=DASHBOARD_NS, callback=True)
            assert reply == {"ok": False, "error": f"unknown device 'ghost-{i}'"}
        assert srv.live.watching("ghost-0") == 0
        for i in range(MAX_WATCHED_DEVICES):
            assert client.emit("watch_device", {"device_id": f"tv-{i}"}, namespace=DASHBOARD_NS,
                               callback=True) == {"ok": True}
        refused = client.emit("watch_device", {"device_id": f"tv-{MAX_WATCHED_DEVICES}"}, namespace=DASHBOARD_NS,
                              callback=True)
        assert refused["ok"] is False and "at most" in refused["error"]
        assert client.emit("watch_device", [1, 2], namespace=DASHBOARD_NS, callback=True)["ok"] is False
    finally:
        client.disconnect(namespace=DASHBOARD_NS)


def test_an_oversized_socketio_message_drops_the_connection(srv: Server, live: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    token = token_for(srv.users, "watcher", Role.VIEWER)
    client = socketio.Client(reconnection=False)
    client.connect(live, namespaces=[DASHBOARD_NS], auth={"token": token}, transports=["websocket"], wait_timeout=5)
    client.emit("watch_device", {"device_id": "x" * (9 * 1024 * 1024)}, namespace=DASHBOARD_NS)
    deadline = time.monotonic() + 30   # 9 MB over a loopback socket on a loaded machine: seconds, not milliseconds
    while client.connected and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not client.connected


def test_an_oversized_body_is_413_and_creates_nothing(srv: Server) -> None:
    r = srv.app.test_client().post("/api/runs", data=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "request too large" in r.get_json()["error"]
    assert runs_stored(srv) == 0


def test_no_plan_over_the_step_limit_reaches_a_host(srv: Server) -> None:
    from server.guard import MAX_PLAN_STEPS
    from shared.errors import HostUnavailable, RequestError
    from shared.protocol import ServerEvent

    steps = [{"step": i, "command": "press_key", "params": {"key": "OK"}} for i in range(MAX_PLAN_STEPS + 1)]
    with pytest.raises(RequestError, match=f"limit is {MAX_PLAN_STEPS}"):
        srv.lab.call("tv-0", ServerEvent.RUN_PLAN, {"run_id": "0123456789ab", "plan": {"plan": steps}})
    with pytest.raises(HostUnavailable):   # at the limit it goes on (to a host that is not connected here)
        srv.lab.call("tv-0", ServerEvent.RUN_PLAN, {"run_id": "0123456789ab", "plan": {"plan": steps[:-1]}})


def test_login_attempts_are_limited_but_the_login_page_is_not(srv: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    http = srv.app.test_client()
    pages = [http.get("/login").status_code for _ in range(15)]
    assert 429 not in pages, pages                          # many testers behind one address open the page
    tries = [http.post("/api/auth/login", json={"name": "nobody", "password": "wrong"}).status_code
             for _ in range(12)]
    assert tries[:10] == [401] * 10 and tries[10:] == [429, 429], tries
    links = [http.get("/login?token=forged").status_code for _ in range(11)]
    assert links[-1] == 429, links                          # one-time links count as attempts
