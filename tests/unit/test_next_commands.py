"""Next-run commands: validated when scheduled and when they run, run in order at the start of the next run."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from server.app import Server, create_app
from server.db import DeviceRow, HostRow
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from shared.errors import HostUnavailable
from shared.protocol import ServerEvent
from tests.auth_helpers import authorize
from tests.fakes.device_context import streamtv_context


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path), planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    with server.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="tv-1", host_id="h1", name="tv", model="streamtv-web", userinterface="streamtv"))
    known = {"on": True}

    def context(device_id: str) -> Any:
        if not known["on"]:
            raise HostUnavailable("the host is offline")
        return streamtv_context("home")

    sent: list[tuple[str, dict[str, Any]]] = []

    def call(device_id: str, event: str, data: dict[str, Any], timeout: float | None = None) -> Any:
        sent.append((event, data))
        if event == ServerEvent.EXECUTE:
            return {"status": "passed", "message": f"{data['command']} done"}
        return {"accepted": True}

    monkeypatch.setattr(server.ai, "context", context)
    monkeypatch.setattr(server.ai, "with_screen", lambda ctx, device_id: ctx)
    monkeypatch.setattr(server.lab, "call", call)
    monkeypatch.setattr(server.lab, "is_online", lambda device_id: True)
    server.runs.next_commands.context_of = context
    server.runs.next_commands.call = call
    server.extras.update(sent=sent, known=known)
    yield server
    server.db.engine.dispose()


def test_a_user_schedules_and_a_bad_command_is_refused_at_once(srv: Server) -> None:
    http = srv.app.test_client()
    ok = http.post("/api/devices/tv-1/next-commands", json={"command": "goto", "params": {"node": "home"}})
    assert ok.status_code == 201 and ok.get_json()["status"] == "pending" and ok.get_json()["source"].startswith("user:")
    bad = http.post("/api/devices/tv-1/next-commands", json={"command": "launch_rockets"})
    assert bad.status_code == 400 and "cannot run 'launch_rockets'" in bad.get_json()["error"]
    assert http.post("/api/devices/tv-1/next-commands", json={"command": "goto", "timeout": 0}).status_code == 400
    listing = http.get("/api/devices/tv-1/next-commands").get_json()
    assert [c["command"] for c in listing["pending"]] == ["goto"] and listing["archived"] == []


def test_they_run_in_order_at_the_start_of_the_next_run_and_an_unknown_one_never_reaches_the_host(
        srv: Server) -> None:
    http = srv.app.test_client()
    sent, known = srv.extras["sent"], srv.extras["known"]
    http.post("/api/devices/tv-1/next-commands", json={"command": "goto", "params": {"node": "guide"}})
    known["on"] = False   # scheduled while the host is away: it cannot be checked now
    assert http.post("/api/devices/tv-1/next-commands", json={"command": "launch_rockets"}).status_code == 201
    known["on"] = True
    http.post("/api/devices/tv-1/next-commands", json={"command": "refresh_context"})
    first = http.post("/api/runs?wait=5", json={"device": "tv-1", "task": "go to the guide",
                                                "next_run": [{"command": "goto", "params": {"node": "home"}}]})
    run = first.get_json()
    # the scheduled ones ran first, in order; the unknown one was skipped and never sent
    assert [(c["command"], c["status"]) for c in run["next_commands"]] == [
        ("goto", "completed"), ("launch_rockets", "skipped"), ("refresh_context", "completed")]
    executed = [d["command"] for event, d in sent if event == ServerEvent.EXECUTE]
    assert executed == ["goto"] and "launch_rockets" not in str(sent)
    assert sent.index((ServerEvent.EXECUTE, {"device_id": "tv-1", "command": "goto", "params": {"node": "guide"}})) \
        < next(i for i, (event, _) in enumerate(sent) if event == ServerEvent.RUN_PLAN)
    # the run's own next_run option was scheduled when it ended (the absent host never reports, so cancel it)
    http.post(f"/api/runs/{run['id']}/cancel")
    listing = http.get("/api/devices/tv-1/next-commands").get_json()
    assert [(c["command"], c["params"], c["source"]) for c in listing["pending"]] == [
        ("goto", {"node": "home"}, f"run:{run['id']}")]
    assert {c["status"] for c in listing["archived"]} == {"completed", "skipped"}
    assert all(c["run_id"] == run["id"] for c in listing["archived"])
    pending_id = listing["pending"][0]["id"]
    assert http.delete(f"/api/devices/tv-1/next-commands/{pending_id}").get_json()["status"] == "skipped"
