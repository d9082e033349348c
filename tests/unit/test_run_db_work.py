"""The database work of a run is a small constant: transactions per 2-step run, whatever the size of the lab.

A real server and a real host agent with no-op devices in this process (local mode, over loopback
Socket.IO); every transaction the server begins while runs go through is counted with SQLAlchemy's
``begin`` event on its engine.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import yaml
from sqlalchemy import event, func, select

from devicepilot.local import LocalStack
from server.audit import AuditRow
from shared.config import Settings

RUN_DB_BUDGET = 20
"""Transactions the server may begin for one 2-step run submitted over the API with its plan: the request
(its token, the run and its queue entry, the reservation, the audit entry), planning and dispatch, each step,
the run's end, the device handed on and the audit of the end. It was 47 before step records and state
changes shared their transactions."""

PLAN = {"analysis": "two no-op steps", "feasible": True,
        "plan": [{"step": 1, "command": "noop"}, {"step": 2, "command": "press_key", "params": {"key": "OK"}}]}


def noop_lab(path: Path, devices: int) -> Path:
    config = {"host": {"id": "noop-host", "name": "no-op host"},
              "devices": [{"id": f"noop-{i}", "name": f"noop {i}", "model": "noop", "userinterface": "noop",
                           "controllers": [{"type": "noop", "params": {}}]} for i in range(devices)]}
    path.write_text(yaml.safe_dump(config))
    return path


class Transactions:
    """Counts the transactions begun on an engine by any thread but the test's own."""

    def __init__(self, engine: Any) -> None:
        self.count = 0
        self.on = False
        self._test = threading.get_ident()
        self._lock = threading.Lock()
        event.listen(engine, "begin", self._begun)

    def settle(self, quiet_s: float = 0.5, timeout: float = 60) -> None:
        """Wait until the server begins no transaction for *quiet_s* (a host's registration is reconciled
        device by device in the background)."""
        self.on, deadline = True, time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = self.count
            time.sleep(quiet_s)
            if self.count == before:
                break
        self.on = False

    def _begun(self, _: Any) -> None:
        if self.on and threading.get_ident() != self._test:
            with self._lock:
                self.count += 1


@pytest.fixture(params=[4, 200], ids=["4 devices", "200 devices"])
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalStack]:
    local = LocalStack.start(noop_lab(tmp_path / "lab.yaml", request.param), settings=Settings(data_dir=tmp_path),
                             register_timeout=60)
    local.server.runs.stop()                       # the lease monitor's ticks are not the runs' work
    local.server.extras["schedules"].stop()
    yield local
    local.stop()
    local.server.db.engine.dispose()


def ended_runs(stack: LocalStack) -> int:
    """Runs whose end was audited: the last database work of a run's end."""
    with stack.server.db.session() as s:
        return s.scalar(select(func.count(AuditRow.id)).where(AuditRow.action == "run.finished")) or 0


def submit_and_wait(stack: LocalStack, http: requests.Session, device: str, done_before: int) -> str:
    """Submit a 2-step run on *device* and wait until its end is audited; its id."""
    r = http.post(f"{stack.url}/api/runs", json={"device": device, "task": "two no-op steps", "plan": PLAN},
                  timeout=30)
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 30
    while ended_runs(stack) <= done_before:
        assert time.monotonic() < deadline, "the run did not end within 30 s"
        time.sleep(0.02)
    return r.json()["id"]


def test_a_two_step_run_costs_a_small_constant_number_of_transactions(stack: LocalStack) -> None:
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {stack.token}"
    counter = Transactions(stack.server.db.engine)
    counter.settle()
    submit_and_wait(stack, http, "noop-0", 0)      # warm-up: the devices' context is fetched once
    runs, counts = 8, []
    for i in range(runs):
        counter.on = True
        before = counter.count
        run_id = submit_and_wait(stack, http, f"noop-{i % 4}", i + 1)
        counter.on = False
        counts.append(counter.count - before)
        run = http.get(f"{stack.url}/api/runs/{run_id}", timeout=30).json()
        assert run["status"] == "passed" and [st["step"] for st in run["steps"]] == [1, 2], run
    # a heartbeat of the host (three transactions) may fall within one run
    assert max(counts) <= RUN_DB_BUDGET + 3, counts
    assert sum(counts) / runs <= RUN_DB_BUDGET, f"{sum(counts) / runs:.1f} transactions per 2-step run: {counts}"
