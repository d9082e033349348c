"""Runs survive the faults a lab sees every night: a crashed server, a crashed host, a hung host.

Real processes throughout: a ``devicepilot server``, a ``devicepilot host`` with StreamTV in
Chromium, killed with SIGKILL or frozen with SIGSTOP. Leases and grace periods are shortened
by environment variables so the tests take seconds.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.stack import DEMO_CONFIG, Stack, wait_for

pytestmark = pytest.mark.integration

FAST = {"DEVICEPILOT_HEARTBEAT_S": "0.5", "DEVICEPILOT_LEASE_S": "3", "DEVICEPILOT_RECONCILE_GRACE_S": "8",
        "DEVICEPILOT_ABORT_WAIT_S": "60"}
FINAL = {"passed", "failed", "error", "cancelled", "infeasible", "planned"}


def tour(steps: int) -> dict[str, Any]:
    """A passing plan of *steps* screen changes (about half a second each)."""
    nodes = ["guide", "home"]
    return {"analysis": "a tour", "feasible": True,
            "plan": [{"step": i, "command": "goto", "params": {"node": nodes[(i - 1) % 2]}} for i in range(1, steps + 1)]}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    s = Stack.start(tmp_path, extra_env=FAST)
    try:
        yield s
    finally:
        s.stop()


def submit(stack: Stack, plan: dict[str, Any], task: str = "tour") -> str:
    resp = stack.post("/api/runs", {"device": "demo-web", "task": task, "plan": plan})
    assert resp.status_code in (201, 202), resp.text
    return resp.json()["id"]


def final(stack: Stack, run_id: str, timeout: float = 60) -> dict[str, Any]:
    return wait_for(lambda: (r := stack.get(f"/api/runs/{run_id}")) and r["status"] in FINAL and r, timeout,
                    f"run {run_id} to end", interval=0.2)


def steps_of(stack: Stack, run_id: str) -> list[int]:
    return [st["step"] for st in stack.get(f"/api/runs/{run_id}")["steps"]]


def test_a_killed_server_loses_no_run_and_runs_none_twice(stack: Stack) -> None:
    running = submit(stack, tour(10))
    wait_for(lambda: len(steps_of(stack, running)) >= 1, 60, "the first step")
    queued = [submit(stack, tour(1), f"queued {i}") for i in range(3)]
    assert all(stack.get(f"/api/runs/{r}")["status"] == "queued" for r in queued)
    killed = time.monotonic()
    stack.restart_server(kill=True)
    ends = {r: final(stack, r, 90) for r in [running, *queued]}
    resumed = time.monotonic() - killed
    # the running run completes as its host reports it (its steps buffered while the server was down)
    assert ends[running]["status"] in ("passed", "error"), ends[running]
    numbers = steps_of(stack, running)
    assert len(numbers) == len(set(numbers)), f"a step was stored twice: {numbers}"
    if ends[running]["status"] == "passed":
        assert numbers == list(range(1, 11))
    # the queued runs run once each, in the order they were submitted
    for r in queued:
        assert ends[r]["status"] == "passed", ends[r]
        assert steps_of(stack, r) == [1]
    starts = [ends[r]["started_at"] for r in queued]
    assert starts == sorted(starts) and ends[queued[0]]["started_at"] >= ends[running]["finished_at"]
    print(f"server kill -9 to the queued runs' end: {resumed:.1f} s")


def test_server_and_host_both_killed_mid_run_end_within_the_grace_period(stack: Stack) -> None:
    run_id = submit(stack, tour(30))
    wait_for(lambda: len(steps_of(stack, run_id)) >= 1, 60, "the first step")
    os.killpg(stack.hosts[0].pid, signal.SIGKILL)
    stack.restart_server(kill=True)
    restarted = time.monotonic()
    stack.start_host(DEMO_CONFIG)                    # a new host process, which knows nothing of the run
    run = final(stack, run_id, 30)
    took = time.monotonic() - restarted
    assert run["status"] == "error" and "server restarted; host did not report the run" in run["message"], run
    assert took < float(FAST["DEVICEPILOT_RECONCILE_GRACE_S"]) + 5
    assert run["steps"] and run["steps"][0]["status"] == "passed"    # what was acknowledged is kept
    # the device is handed on: the next run passes
    assert stack.run("go to the guide")["status"] == "passed"


def test_a_server_restart_with_no_host_ends_the_run_after_the_grace_period(stack: Stack) -> None:
    run_id = submit(stack, tour(30))
    wait_for(lambda: len(steps_of(stack, run_id)) >= 1, 60, "the first step")
    # the host dies while the server is down: no server sees it disconnect (one that did would end the run
    # "disconnected mid-run" at once); the restarted one must end the run when no host reports it
    stack.restart_server(kill=True, while_down=lambda: os.killpg(stack.hosts[0].pid, signal.SIGKILL))
    restarted = time.monotonic()
    run = final(stack, run_id, 30)
    took = time.monotonic() - restarted
    assert run["status"] == "error" and "did not report the run within" in run["message"], run
    assert took < float(FAST["DEVICEPILOT_RECONCILE_GRACE_S"]) + 5, took


def test_a_hung_host_loses_its_run_and_the_device_waits_for_its_abort(stack: Stack) -> None:
    run_id = submit(stack, tour(40))
    wait_for(lambda: len(steps_of(stack, run_id)) >= 2, 60, "two steps")
    host = stack.hosts[0]
    os.killpg(host.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        run = final(stack, run_id, 30)
        lost_after = time.monotonic() - stopped
        assert run["status"] == "error" and "host lost" in run["message"], run
        kept = steps_of(stack, run_id)
        assert kept and kept == sorted(set(kept))
        following = submit(stack, tour(1), "after the hang")
        time.sleep(2)
        assert stack.get(f"/api/runs/{following}")["status"] == "queued"   # the device waits for the host
    finally:
        os.killpg(host.pid, signal.SIGCONT)
    resumed = time.monotonic()
    after = final(stack, following, 60)
    assert after["status"] == "passed", after
    # the host confirmed the abort before the device was handed on, and nothing late was stored
    assert steps_of(stack, run_id) == kept
    events = " ".join(e["message"] for e in stack.get(f"/api/runs/{run_id}")["events"])
    assert stack.get(f"/api/runs/{run_id}")["status"] == "error", events
    log = (stack.data_dir / "server.log").read_text(errors="replace")
    assert f"run {run_id}: host demo-host confirmed the abort" in log
    assert time.monotonic() - resumed < 60
    print(f"host SIGSTOP to its run's error: {lost_after:.1f} s")


def test_fifty_runs_submitted_at_once_run_in_submission_order(stack: Stack) -> None:
    ids = [submit(stack, tour(1), f"order {i}") for i in range(50)]
    ends = [final(stack, r, 120) for r in ids]
    assert all(e["status"] == "passed" for e in ends), [e["status"] for e in ends]
    starts = [e["started_at"] for e in ends]
    assert starts == sorted(starts)
    for earlier, later in zip(ends, ends[1:]):
        assert earlier["finished_at"] <= later["started_at"]    # one run per device at a time


def test_cancel_works_while_queued_and_while_running(stack: Stack) -> None:
    running = submit(stack, tour(30))
    queued = submit(stack, tour(1), "queued")
    wait_for(lambda: len(steps_of(stack, running)) >= 1, 60, "the first step")
    assert stack.post(f"/api/runs/{queued}/cancel", {}).json()["status"] == "cancelled"
    assert stack.post(f"/api/runs/{running}/cancel", {}).json()["status"] == "cancelled"
    # the host stops at the next step and confirms; then the device takes the next run
    assert stack.run("go to the guide")["status"] == "passed"
    assert len(steps_of(stack, running)) < 30


def test_a_run_past_its_run_timeout_ends_error_and_its_host_stops(stack: Stack) -> None:
    # 40 steps of 50 key presses each: far longer than 2 s on any machine (a tour of 40 screens took under 2 s on a
    # fast one, and passed)
    presses = {"analysis": "a long walk", "feasible": True,
               "plan": [{"step": i, "command": "press_key", "params": {"key": "DOWN", "repeat": 50}} for i in range(1, 41)]}
    resp = stack.post("/api/runs", {"device": "demo-web", "task": "a long walk", "plan": presses, "run_timeout": 2})
    run = final(stack, resp.json()["id"], 30)
    assert run["status"] == "error" and "run_timeout of 2 s" in run["message"], run
    assert stack.run("go to the guide")["status"] == "passed"      # the host stopped; the device is free
    bad = stack.post("/api/runs", {"device": "demo-web", "task": "x", "limits": {"step_timeout": "soon"}})
    assert bad.status_code == 400 and "step_timeout must be seconds" in bad.json()["error"]


def test_a_command_scheduled_by_one_run_runs_on_the_host_at_the_start_of_the_next(stack: Stack) -> None:
    first = stack.run("go to the home screen", next_run=[{"command": "goto", "params": {"node": "guide"}}])
    assert first["status"] == "passed"
    pending = stack.get("/api/devices/demo-web/next-commands")["pending"]
    assert [(c["command"], c["source"]) for c in pending] == [("goto", f"run:{first['id']}")]
    # the next run's own plan only checks: it passes only if the host really went to the guide first
    check = {"analysis": "check", "feasible": True,
             "plan": [{"step": 1, "command": "wait_for_text", "params": {"text": "Guide tonight", "timeout": 5}}]}
    second = stack.run("check the guide is shown", plan=check)
    assert second["status"] == "passed", second
    assert [(c["command"], c["status"]) for c in second["next_commands"]] == [("goto", "completed")]
    listing = stack.get("/api/devices/demo-web/next-commands")
    assert listing["pending"] == [] and listing["archived"][0]["run_id"] == second["id"]
