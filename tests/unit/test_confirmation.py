"""Destructive commands and deletions need an explicit confirmation (428 until they have it)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterator

import pytest

from server.app import Server, create_app
from server.db import DeviceRow, HostRow
from server.planners.builtin import BuiltinPlanner
from shared.commands import CommandSpec
from shared.config import Settings
from shared.models import Plan, PlanningContext, PlanStep
from tests.auth_helpers import authorize
from tests.fakes.device_context import streamtv_context


def with_power_off(ctx: PlanningContext) -> PlanningContext:
    off = CommandSpec("power_off", "Switch the device off", destructive=True)
    return dataclasses.replace(ctx, action=dataclasses.replace(ctx.action, commands=(*ctx.action.commands, off)))


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path), planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="streamtv-web", userinterface="streamtv"))
    # the device's context as its host would give it, plus a destructive command
    monkeypatch.setattr(server.ai, "context", lambda device_id: with_power_off(streamtv_context("home")))
    yield server
    server.db.engine.dispose()


def test_a_destructive_command_needs_confirm(srv: Server) -> None:
    http = srv.app.test_client()
    r = http.post("/api/devices/tv-1/execute", json={"command": "power_off"})
    assert r.status_code == 428 and "power_off is destructive" in r.get_json()["error"]
    assert "confirm" in r.get_json()["error"]
    # confirmed, it goes on to the host (which is not connected here: 503, not a refusal)
    assert http.post("/api/devices/tv-1/execute", json={"command": "power_off", "confirm": True}).status_code == 503
    # an ordinary command needs no confirmation
    assert http.post("/api/devices/tv-1/execute",
                     json={"command": "press_key", "params": {"key": "OK"}}).status_code == 503


def test_a_given_plan_with_a_destructive_step_needs_confirm(srv: Server) -> None:
    http = srv.app.test_client()
    plan = {"analysis": "off", "feasible": True, "plan": [{"step": 1, "command": "power_off", "params": {}}]}
    r = http.post("/api/runs", json={"device": "tv-1", "task": "switch it off", "plan": plan})
    assert r.status_code == 428 and "power_off" in r.get_json()["error"]
    assert http.get("/api/runs").get_json() == []
    ok = http.post("/api/runs", json={"device": "tv-1", "task": "switch it off", "plan": plan, "confirm": True})
    assert ok.status_code in (201, 202)


class PowerOffPlanner:
    """A planner that answers every task with the destructive command (as an LLM might for "reset the box")."""

    name = "llm"

    def plan(self, request: object) -> Plan:
        return Plan("switch it off", True, [PlanStep(1, "power_off", {}, "switch the device off")], planner="llm")


@pytest.fixture
def planned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path), planners=[PowerOffPlanner()])
    authorize(server.app, server.users)
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="streamtv-web", userinterface="streamtv"))
    monkeypatch.setattr(server.ai, "context", lambda device_id: with_power_off(streamtv_context("home")))
    monkeypatch.setattr(server.ai, "with_screen", lambda ctx, device_id: ctx)
    monkeypatch.setattr(server.lab, "is_online", lambda device_id: True)
    sent: list[object] = []
    monkeypatch.setattr(server.lab, "call", lambda *a, **k: sent.append(a) or {"accepted": True})
    server.extras["sent"] = sent
    yield server
    server.db.engine.dispose()


def test_a_planned_destructive_step_is_not_run_without_confirm(planned: Server) -> None:
    http = planned.app.test_client()
    run = http.post("/api/runs?wait=10", json={"device": "tv-1", "task": "reset the box"}).get_json()
    assert run["status"] == "error", run
    assert "destructive command(s) power_off" in run["message"] and "confirm" in run["message"]
    assert [st["command"] for st in run["plan"]["plan"]] == ["power_off"]   # the plan is kept to look at
    assert planned.extras["sent"] == []                                       # nothing reached the host
    confirmed_run = http.post("/api/runs?wait=2", json={"device": "tv-1", "task": "reset the box", "confirm": True})
    assert confirmed_run.get_json()["status"] == "running"                    # sent; the (absent) host never reports
    assert len(planned.extras["sent"]) == 1
