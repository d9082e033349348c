"""The audit log records who did what, where and with which plan source; only admins read it; nobody rewrites it."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
import sqlalchemy
from sqlalchemy import text

from server.app import Server, create_app
from server.audit import AppendOnly, AuditRow
from server.auth_users import Role
from server.db import DeviceRow, HostRow
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from tests.auth_helpers import token_for
from tests.stack import wait_for


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path), planners=[BuiltinPlanner()])
    server.lab.is_online = lambda device_id: True   # type: ignore[method-assign]  # runs start; the absent host errors them
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="m", userinterface="ui"))
    yield server
    server.db.engine.dispose()


def test_actions_are_recorded_with_user_device_run_and_plan_source(srv: Server) -> None:
    tester = {"Authorization": f"Bearer {token_for(srv.users, 'tess', Role.TESTER)}"}
    admin = {"Authorization": f"Bearer {token_for(srv.users, 'ada', Role.ADMIN)}"}
    http = srv.app.test_client()
    resp = http.post("/api/runs", json={"device": "tv-1", "task": "go home", "mode": "plan"}, headers=tester)
    run = resp.get_json()
    http.post("/api/devices/tv-1/execute", json={"command": "press_key", "params": {"key": "OK"}}, headers=tester)
    http.get("/api/devices", headers=tester)                      # reads are not audited
    assert http.get("/api/audit", headers=tester).status_code == 403

    def entries() -> list[dict]:
        return http.get("/api/audit", headers=admin).get_json()

    wait_for(lambda: any(e["action"] == "run.finished" for e in entries()), 10, "the run's end in the audit")
    log = entries()
    created = next(e for e in log if e["action"] == "api.create_run")
    assert (created["user"], created["device"], created["run"], created["status"]) == ("tess", "tv-1", run["id"], resp.status_code)
    assert resp.status_code in (201, 202)     # 201: the plan was ready before the answer
    assert created["detail"]["task"] == "go home"
    executed = next(e for e in log if e["action"] == "api.device_execute")
    assert executed["user"] == "tess" and executed["detail"]["command"] == "press_key"
    ended = next(e for e in log if e["action"] == "run.finished")
    assert ended["run"] == run["id"] and {"outcome", "planner", "usage"} <= set(ended["detail"])
    assert all(e["action"] != "api.devices" for e in log)
    only_tess = http.get("/api/audit?user=tess&action=api.create_run", headers=admin).get_json()
    assert [e["run"] for e in only_tess] == [run["id"]]


def test_the_audit_log_is_append_only(srv: Server) -> None:
    srv.extras["audit"].append("test.action", user="someone")
    with pytest.raises(AppendOnly):
        with srv.db.session() as s:
            row = s.scalars(sqlalchemy.select(AuditRow)).first()
            row.user = "someone else"
    with pytest.raises(AppendOnly):
        with srv.db.session() as s:
            s.delete(s.scalars(sqlalchemy.select(AuditRow)).first())
    with pytest.raises(sqlalchemy.exc.DatabaseError, match="append-only"):
        with srv.db.engine.begin() as conn:
            conn.execute(text("DELETE FROM audit_log"))
    assert srv.extras["audit"].query()[0]["user"] == "someone"
