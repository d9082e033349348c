"""When the infrastructure breaks mid-run, the run ends ``error`` (not ``failed``) and says why."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.stack import Stack, wait_for

pytestmark = pytest.mark.integration

SLOW_PLAN = {"analysis": "wait for something that never shows", "feasible": True, "plan": [
    {"step": 1, "command": "goto", "params": {"node": "home"}},
    {"step": 2, "command": "wait_for_text", "params": {"text": "Never Shown Anywhere", "timeout": 30}},
]}


def descendant_pids(root: int, names: tuple[str, ...]) -> list[int]:
    """Descendants of *root* whose command name starts with one of *names* (read from /proc)."""
    parent: dict[int, int] = {}
    comm: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        pid = int(entry.name)
        comm[pid] = stat[stat.index("(") + 1:stat.rindex(")")]
        parent[pid] = int(stat[stat.rindex(")") + 2:].split()[1])

    def under(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == root:
                return True
        return False

    return [pid for pid, name in comm.items() if name.startswith(names) and under(pid)]


def start_slow_run(stack: Stack) -> str:
    resp = stack.post("/api/runs", {"device": "demo-web", "task": "wait for nothing", "plan": SLOW_PLAN})
    run_id = resp.json()["id"]
    # step 1 done means the second (30 s) step is under way
    wait_for(lambda: len(stack.get(f"/api/runs/{run_id}")["steps"]) >= 1, 60, "first step")
    return run_id


def test_browser_killed_mid_run_ends_error(fresh_stack: Stack) -> None:
    run_id = start_slow_run(fresh_stack)
    host = fresh_stack.hosts[0]
    browsers = descendant_pids(host.pid, ("chrom",))
    assert browsers, "no Chromium process found under the host"
    for pid in browsers:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    run = fresh_stack.get(f"/api/runs/{run_id}?wait=60")
    assert run["status"] == "error", run
    assert run["steps"][-1]["status"] == "error"
    assert "browser" in run["message"].lower() or "target" in run["message"].lower()
    # the host survives, and the next run starts a fresh browser
    again = fresh_stack.run("go to the guide")
    assert again["status"] == "passed", again


def test_host_vanishing_mid_run_ends_error_and_device_goes_offline(fresh_stack: Stack) -> None:
    run_id = start_slow_run(fresh_stack)
    host = fresh_stack.hosts[0]
    os.killpg(host.pid, signal.SIGKILL)
    run = fresh_stack.get(f"/api/runs/{run_id}?wait=60")
    assert run["status"] == "error", run
    assert "disconnected" in run["message"]
    fresh_stack.wait_device("demo-web", "offline", timeout=30)
    # nothing was lost: the step that finished before the host vanished is still recorded
    assert run["steps"][0]["command"] == "goto" and run["steps"][0]["status"] == "passed"
    # a run that waits for its end on the offline device is refused with 503 and an actionable message
    late = fresh_stack.post("/api/runs?wait=30", {"device": "demo-web", "task": "go to the guide"})
    assert late.status_code == 503 and "host is not connected" in late.json()["error"], late.text
    assert len(fresh_stack.get("/api/runs")) == 1                     # nothing was queued


def test_host_reconnects_by_itself_when_the_server_comes_back(fresh_stack: Stack) -> None:
    fresh_stack.restart_server()
    # the restarted server knows the device from its database, offline until the host dials in again
    device = fresh_stack.wait_device("demo-web", "online", timeout=60)
    assert device["host_id"] == "demo-host"
    assert fresh_stack.hosts[0].poll() is None
    run = fresh_stack.run("switch to channel 3 and check the banner shows Cinema Nova")
    assert run["status"] == "passed", run


def test_a_host_with_the_wrong_token_is_refused(fresh_stack: Stack, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.stack import DEMO_CONFIG, ROOT

    env = {**fresh_stack.env, "DEVICEPILOT_HOST_TOKEN": "not-the-token"}
    log = tmp_path / "intruder.log"
    proc = subprocess.Popen([sys.executable, "-m", "devicepilot", "-v", "host", "--server", fresh_stack.url,
                             "--config", str(DEMO_CONFIG)], env=env, stdout=open(log, "wb"),
                            stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
    try:
        wait_for(lambda: "refused" in log.read_text() or "cannot reach" in log.read_text(), 60, "refusal")
        server_log = fresh_stack.logs[0].read_text()
        assert "bad or missing host token" in server_log
        assert "not-the-token" not in server_log
        assert [h["id"] for h in fresh_stack.get("/api/hosts")] == ["demo-host"]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
