"""The API's access contract, walked over ``app.url_map`` so that a new route cannot slip through.

Every endpoint has a rule; without credentials every non-public route answers 401; a role
below the rule answers 403; a cookie session must send its CSRF token; the dashboard's
Socket.IO namespace refuses anonymous connections.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from server.app import Server, create_app
from server.auth_policy import PUBLIC, POLICY
from server.auth_users import Role
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from shared.protocol import DASHBOARD_NS
from tests.auth_helpers import token_for

SAMPLE = {"device_id": "demo-web", "run_id": "0123456789ab", "entry_id": "1", "relative": "runs/x.png",
          "name": "smoke", "ui": "streamtv", "ref": "tune-to", "conversation_id": "0123456789ab", "command_id": "1",
          "job_id": "0123456789ab"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path_factory.mktemp("contract")), planners=[BuiltinPlanner()])
    yield server
    server.db.engine.dispose()


@pytest.fixture(scope="module")
def tokens(srv: Server) -> dict[Role, str]:
    return {role: token_for(srv.users, f"user-{role.label}", role) for role in Role}


def routes(srv: Server) -> list[tuple[str, str, str]]:
    """(endpoint, method, url) for every route of the app, its arguments filled with sample values."""
    out = []
    for rule in srv.app.url_map.iter_rules():
        url = re.sub(r"<(?:[^:>]+:)?([a-z_]+)>", lambda m: SAMPLE[m.group(1)], rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((rule.endpoint, method, url))
    return out


def call(http: FlaskClient, method: str, url: str, token: str | None = None, **kw: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.open(url, method=method, headers=headers, json=kw.pop("json", {}), **kw)


def test_every_endpoint_has_an_access_rule(srv: Server) -> None:
    endpoints = {e for e, _, _ in routes(srv)}
    assert endpoints - set(POLICY) == set(), "add these endpoints to server/auth_policy.py"
    assert set(POLICY) - endpoints == set(), "rules for endpoints that no longer exist"


def test_every_non_public_route_needs_credentials(srv: Server) -> None:
    http = srv.app.test_client()
    checked = 0
    for endpoint, method, url in routes(srv):
        if POLICY[endpoint] == PUBLIC:
            continue
        r = call(http, method, url)
        assert r.status_code == 401, (endpoint, method, url, r.status_code)
        assert "log in" in r.get_json()["error"]
        r = call(http, method, url, "dpu_not-a-token")
        assert r.status_code == 401, (endpoint, "bad token")
        checked += 1
    assert checked >= 35


def test_public_routes_answer_without_credentials(srv: Server) -> None:
    http = srv.app.test_client()
    assert http.get("/api/health").status_code == 200
    assert http.get("/").status_code == 200
    assert http.get("/login").status_code == 200


@pytest.mark.parametrize("caller", [Role.VIEWER, Role.TESTER])
def test_a_role_below_the_rule_is_refused(srv: Server, tokens: dict[Role, str], caller: Role) -> None:
    http = srv.app.test_client()
    refused = 0
    for endpoint, method, url in routes(srv):
        rule = POLICY[endpoint]
        if rule == PUBLIC or not isinstance(rule, Role) or rule <= caller:
            continue
        r = call(http, method, url, tokens[caller])
        assert r.status_code == 403, (endpoint, method, r.status_code, r.get_data(as_text=True)[:200])
        assert f"needs the {rule.label} role" in r.get_json()["error"]
        refused += 1
    assert refused >= (4 if caller is Role.TESTER else 10)


def test_a_role_at_the_rule_gets_past_the_gate(srv: Server, tokens: dict[Role, str]) -> None:
    http = srv.app.test_client()
    for endpoint, method, url in routes(srv):
        rule = POLICY[endpoint]
        if not isinstance(rule, Role) or endpoint == "auth.logout":
            continue
        r = call(http, method, url, tokens[rule])
        assert r.status_code not in (401, 403), (endpoint, method, r.status_code, r.get_data(as_text=True)[:200])


def test_revoked_tokens_and_users_are_refused(srv: Server) -> None:
    token = token_for(srv.users, "short-lived", Role.TESTER)
    http = srv.app.test_client()
    assert call(http, "GET", "/api/devices", token).status_code == 200
    srv.users.revoke("short-lived")
    assert call(http, "GET", "/api/devices", token).status_code == 401


def test_tokens_are_stored_as_digests_only(srv: Server, tokens: dict[Role, str]) -> None:
    db = Path(srv.settings.data_dir / "devicepilot.db")
    raw = db.read_bytes() + (db.with_name("devicepilot.db-wal").read_bytes()
                             if db.with_name("devicepilot.db-wal").exists() else b"")
    for token in tokens.values():
        assert token.encode() not in raw


def test_a_cookie_session_needs_its_csrf_token(srv: Server, tokens: dict[Role, str]) -> None:
    http = srv.app.test_client()
    login = http.post("/api/auth/login", json={"token": tokens[Role.TESTER]})
    assert login.status_code == 200
    cookie = login.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert http.get("/api/devices").status_code == 200          # reading needs no CSRF token
    forged = http.post("/api/runs/0123456789ab/cancel")           # a cross-site form would look like this
    assert forged.status_code == 403 and "CSRF" in forged.get_json()["error"]
    csrf = http.get("/api/auth/me").get_json()["csrf_token"]
    honest = http.post("/api/runs/0123456789ab/cancel", headers={"X-CSRFToken": csrf})
    assert honest.status_code == 404                             # past the gate: the run does not exist
    assert http.post("/api/auth/logout", headers={"X-CSRFToken": csrf}).status_code == 200
    assert http.get("/api/devices").status_code == 401


def test_secure_cookie_over_https(srv: Server, tokens: dict[Role, str]) -> None:
    http = srv.app.test_client()
    login = http.post("/api/auth/login", json={"token": tokens[Role.VIEWER]}, base_url="https://lab.example")
    assert "Secure" in login.headers["Set-Cookie"]


def test_passwords_and_one_time_links(srv: Server, tokens: dict[Role, str]) -> None:
    srv.users.add("pat", Role.VIEWER, "correct horse battery")
    http = srv.app.test_client()
    assert http.post("/api/auth/login", json={"name": "pat", "password": "wrong password"}).status_code == 401
    assert http.post("/api/auth/login", json={"name": "pat", "password": "correct horse battery"}).status_code == 200
    link = call(srv.app.test_client(), "POST", "/api/auth/login-links", tokens[Role.ADMIN]).get_json()["url"]
    path = link.split("localhost", 1)[1]
    fresh = srv.app.test_client()
    assert fresh.get(path).status_code == 302
    assert fresh.get("/api/devices").status_code == 200
    assert srv.app.test_client().get(path).status_code == 401    # spent


def test_dashboard_socket_refuses_anonymous_connections(srv: Server, tokens: dict[Role, str]) -> None:
    anonymous = srv.socketio.test_client(srv.app, namespace=DASHBOARD_NS)
    assert not anonymous.is_connected(DASHBOARD_NS)
    viewer = srv.socketio.test_client(srv.app, namespace=DASHBOARD_NS, auth={"token": tokens[Role.VIEWER]})
    assert viewer.is_connected(DASHBOARD_NS)
    viewer.disconnect(namespace=DASHBOARD_NS)
