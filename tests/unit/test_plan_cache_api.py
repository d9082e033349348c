"""The plan-cache and test-case endpoints, on the real Flask app (no host needed)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from server.app import Server, create_app
from server.db import DeviceRow, HostRow, RunRow, StepRow
from server.plan_cache import PlanCache
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from shared.models import Plan, PlanStep
from tests.auth_helpers import authorize
from tests.fakes.device_context import streamtv_context


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    settings = Settings(data_dir=tmp_path)
    server = create_app(settings, planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    yield server
    server.db.engine.dispose()


def seed_cache(srv: Server) -> list[int]:
    cache: PlanCache = srv.extras["plan_cache"]
    ctx = streamtv_context()
    ids = []
    for task in ("go to the guide", "open settings"):
        node = "guide" if "guide" in task else "settings"
        entry = cache.store(task, ctx.device_model, ctx.userinterface, ctx.fingerprint(), "home",
                            Plan("x", True, [PlanStep(1, "goto", {"node": node}, "", "navigation")]),
                            source_run="run1", source_planner="llm")
        ids.append(entry.id)
    return ids


def test_list_pin_invalidate_and_clear(srv: Server) -> None:
    a, b = seed_cache(srv)
    http = srv.app.test_client()
    entries = http.get("/api/plan-cache").get_json()
    assert [e["id"] for e in entries] == [a, b]
    assert set(entries[0]) >= {"id", "task", "device_model", "userinterface", "fingerprint", "start_node", "plan",
                               "pinned", "hits", "created_at", "last_used_at"}
    assert entries[0]["start_node"] == "*" and entries[0]["plan"]["plan"][0]["command"] == "goto"
    assert http.get("/api/plan-cache?task=settings").get_json()[0]["id"] == b

    r = http.post(f"/api/plan-cache/{a}/pin", json={"pinned": True})
    assert r.status_code == 200 and r.get_json()["pinned"] is True
    assert http.post(f"/api/plan-cache/{a}/pin", json={"pinned": "yes"}).status_code == 400
    assert http.post("/api/plan-cache/999/pin", json={"pinned": True}).status_code == 404

    assert http.delete("/api/plan-cache").status_code == 428                # destructive: needs ?confirm=true
    assert http.delete("/api/plan-cache?confirm=true").get_json() == {"cleared": 1}      # the pinned one stays
    assert [e["id"] for e in http.get("/api/plan-cache").get_json()] == [a]
    assert http.delete(f"/api/plan-cache/{a}").status_code == 428
    assert http.delete(f"/api/plan-cache/{a}?confirm=true").get_json() == {"deleted": a}
    assert http.get("/api/plan-cache").get_json() == []
    assert http.delete(f"/api/plan-cache/{a}?confirm=true").status_code == 404


def add_run(srv: Server, status: str = "passed", steps: list[tuple[str, dict[str, Any], str]] | None = None) -> str:
    steps = steps if steps is not None else [("press_key", {"key": "DIGIT_5"}, "passed"),
                                             ("waitForElementToAppear", {"selector": "#x", "text": "CH 5"}, "passed")]
    with srv.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="dev1", host_id="h1", name="dev", model="streamtv-web", userinterface="streamtv"))
        s.add(RunRow(id="run1", device_id="dev1", task="Check live shows channel 5!", mode="run", status=status,
                     planner="llm", start_node="live", finished_at=dt.datetime(2026, 1, 1),
                     plan={"analysis": "a", "feasible": True, "plan": [],
                           "context": {"device_model": "streamtv-web", "userinterface": "streamtv",
                                       "fingerprint": "abc123"}}))
        for i, (command, params, st) in enumerate(steps, 1):
            s.add(StepRow(run_id="run1", step=i, command=command, params=params, status=st, description=f"s{i}"))
    return "run1"


def test_save_a_passed_run_as_a_yaml_test_case(srv: Server) -> None:
    run_id = add_run(srv, steps=[("press_key", {"key": "DIGIT_3"}, "passed"),
                                 ("waitForElementToAppear", {"selector": "#x", "text": "CH 5"}, "failed"),
                                 ("press_key", {"key": "DIGIT_5"}, "passed")])
    http = srv.app.test_client()
    r = http.post(f"/api/runs/{run_id}/save-test")
    assert r.status_code == 201 and r.mimetype == "application/yaml"
    name = r.headers["X-Testcase-Name"]
    assert name == "check-live-shows-channel-5"
    case = yaml.safe_load(r.get_data(as_text=True))
    assert case["task"] == "Check live shows channel 5!" and case["fingerprint"] == "abc123"
    assert case["recorded_on"] == "dev1" and case["source_run"] == run_id and case["start_node"] == "live"
    # only what passed, and a goto to where the run started (the device is offline: kept as it ran)
    assert [(s["command"], s["params"]) for s in case["steps"]] == [("press_key", {"key": "DIGIT_3"}),
                                                                    ("press_key", {"key": "DIGIT_5"})]
    assert (srv.settings.data_dir / "testcases" / f"{name}.yaml").read_text() == r.get_data(as_text=True)

    again = http.post(f"/api/runs/{run_id}/save-test", headers={"Accept": "application/json"})
    assert again.get_json()["name"] == f"{name}-2" and again.get_json()["path"].endswith(f"{name}-2.yaml")
    assert http.post(f"/api/runs/{run_id}/save-test", json={"name": name}).status_code == 400  # exists
    assert http.post(f"/api/runs/{run_id}/save-test", json={"name": "../etc/passwd"}).status_code == 400

    listed = http.get("/api/testcases").get_json()
    assert [c["name"] for c in listed] == [name, f"{name}-2"] and listed[0]["steps"] == 2
    got = http.get(f"/api/testcases/{name}", headers={"Accept": "application/json"}).get_json()
    assert got["testcase"]["steps"][0]["command"] == "press_key"
    assert http.delete(f"/api/testcases/{name}").status_code == 428
    assert http.delete(f"/api/testcases/{name}?confirm=yes").get_json() == {"deleted": name}
    assert http.get(f"/api/testcases/{name}").status_code == 404


def test_only_a_passed_run_can_be_saved(srv: Server) -> None:
    run_id = add_run(srv, status="failed")
    r = srv.app.test_client().post(f"/api/runs/{run_id}/save-test")
    assert r.status_code == 400 and "only a passed run" in r.get_json()["error"]


def test_running_a_test_case_for_another_user_interface_is_refused(srv: Server) -> None:
    run_id = add_run(srv)
    http = srv.app.test_client()
    name = http.post(f"/api/runs/{run_id}/save-test").headers["X-Testcase-Name"]
    with srv.db.session() as s:
        s.add(DeviceRow(id="other", host_id="h1", name="o", model="m", userinterface="another-ui"))
    r = http.post(f"/api/testcases/{name}/run", json={"device": "other"})
    assert r.status_code == 400 and "another-ui" in r.get_json()["error"]
    assert http.post("/api/testcases/nope/run", json={}).status_code == 404
