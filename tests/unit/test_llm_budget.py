"""Each user has a daily LLM token budget; past it, tasks to plan are refused with a clear 429."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from server.app import Server, create_app
from server.auth_users import Role
from server.db import DeviceRow, HostRow, RunRow
from server.planners.builtin import BuiltinPlanner
from shared.config import LLMSettings, Settings
from tests.auth_helpers import token_for
from tests.stack import wait_for


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("DEVICEPILOT_LLM_DAILY_TOKENS", "1000")
    settings = Settings(data_dir=tmp_path, llm=LLMSettings(base_url="http://127.0.0.1:9/v1"))
    server = create_app(settings, planners=[BuiltinPlanner()])
    monkeypatch.setattr(server.lab, "is_online", lambda device_id: True)   # runs start; the absent host errors them
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="m", userinterface="ui"))
    yield server
    server.db.engine.dispose()


def spend(srv: Server, run_id: str, tokens: int, headers: dict[str, str]) -> None:
    """Record on the run what the LLM planner's usage record would say."""
    wait_for(lambda: srv.app.test_client().get(f"/api/runs/{run_id}", headers=headers).get_json()["status"]
             not in ("queued", "planning"), 10, "the run to leave planning")
    with srv.db.session() as s:
        s.get(RunRow, run_id).usage = {"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens}


def test_a_spent_budget_refuses_planning_but_not_given_plans_or_other_users(srv: Server) -> None:
    tess = {"Authorization": f"Bearer {token_for(srv.users, 'tess', Role.TESTER)}"}
    admin = {"Authorization": f"Bearer {token_for(srv.users, 'ada', Role.ADMIN)}"}
    http = srv.app.test_client()
    task = {"device": "tv-1", "task": "go home", "mode": "plan"}
    first = http.post("/api/runs", json=task, headers=tess)
    assert first.status_code in (201, 202)
    spend(srv, first.get_json()["id"], 1200, tess)
    refused = http.post("/api/runs", json=task, headers=tess)
    assert refused.status_code == 429
    message = refused.get_json()["error"]
    assert "tess has used 1200 of the 1000 LLM tokens" in message and "midnight UTC" in message
    given = {**task, "plan": {"analysis": "home", "feasible": True, "plan": [{"step": 1, "command": "goto",
                                                                             "params": {"node": "home"}}]}}
    assert http.post("/api/runs", json=given, headers=tess).status_code in (201, 202)
    assert http.post("/api/runs", json=task, headers=admin).status_code in (201, 202)
