"""Suites on a cron schedule, kept in the server's database with APScheduler's SQLAlchemy job store."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from server.app import Server, create_app
from server.db import DeviceRow, HostRow
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from tests.auth_helpers import authorize

SUITE = """
name: nightly
setup: [go home]
tasks:
  - go to the guide
  - task: open settings
    retries: 1
"""


def make(data_dir: Path) -> Server:
    server = create_app(Settings(data_dir=data_dir), planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    with server.db.session() as s:
        if s.get(HostRow, "h1") is None:
            s.add(HostRow(id="h1", name="h1"))
            s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="streamtv-web", userinterface="streamtv"))
    return server


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    server = make(tmp_path)
    yield server
    server.extras["schedules"].stop()
    server.db.engine.dispose()


def test_a_schedule_is_kept_listed_fired_and_deleted(srv: Server, tmp_path: Path) -> None:
    http = srv.app.test_client()
    made = http.post("/api/schedules", json={"name": "nightly", "cron": "0 2 * * *", "suite": SUITE,
                                             "device": "tv-1"})
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["next_run"].endswith("02:00:00+00:00")
    assert [s["name"] for s in http.get("/api/schedules").get_json()] == ["nightly"]
    # firing it queues setup then tasks, in order, as ordinary runs
    fired = http.post("/api/schedules/nightly/run").get_json()["runs"]
    tasks = [http.get(f"/api/runs/{r}").get_json()["task"] for r in fired]
    assert tasks == ["go home", "go to the guide", "open settings"]
    # the job store is the database: another server process on it sees the schedule
    srv.extras["schedules"].stop()
    again = make(tmp_path)
    try:
        assert [s["name"] for s in again.app.test_client().get("/api/schedules").get_json()] == ["nightly"]
    finally:
        again.extras["schedules"].stop()
        again.db.engine.dispose()
    assert http.delete("/api/schedules/nightly").status_code == 200
    assert http.get("/api/schedules/nightly").status_code == 404


@pytest.mark.parametrize("body,expected", [
    ({"name": "x", "cron": "every night", "suite": SUITE, "device": "tv-1"}, "not a crontab expression"),
    ({"name": "x", "cron": "0 2 * * *", "suite": "name: [", "device": "tv-1"}, "not valid YAML"),
    ({"name": "x", "cron": "0 2 * * *", "suite": {"name": "x", "tasks": []}, "device": "tv-1"}, "at least one task"),
    ({"name": "x", "cron": "0 2 * * *", "suite": SUITE}, "say which device"),
])
def test_a_bad_schedule_is_a_clear_400(srv: Server, body: dict, expected: str) -> None:
    r = srv.app.test_client().post("/api/schedules", json=body)
    assert r.status_code == 400 and expected in r.get_json()["error"], r.get_json()
