"""Nobody takes the lab over: /api/files serves run artefacts only, and hosts are fenced.

A second "host" here is a real Socket.IO client speaking the host protocol to the
real server process, as an attacker holding the shared host token would.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from server.storage import is_run_id
from shared.protocol import HOST_NS, PROTOCOL_VERSION
from tests.stack import ROOT, Stack, wait_for

pytestmark = pytest.mark.integration

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa75\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
SLOW_PLAN = {"analysis": "wait for something that never shows", "feasible": True, "plan": [
    {"step": 1, "command": "goto", "params": {"node": "home"}},
    {"step": 2, "command": "waitForTextToAppear", "params": {"text": "Never Shown Anywhere", "timeout": 30}},
]}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = Stack.start(tmp_path_factory.mktemp("fencing") / "data")
    try:
        yield s
    finally:
        s.stop()


class FakeHost:
    """A host that is only a Socket.IO client: it registers what it is told and sends what it is told."""

    def __init__(self, url: str, token: str, host_id: str) -> None:
        self.host_id = host_id
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("run_plan", lambda data: {"accepted": True}, namespace=HOST_NS)
        self.sio.connect(url, namespaces=[HOST_NS], transports=["websocket"],
                         auth={"token": token, "host_id": host_id}, wait_timeout=10)

    def register(self, *device_ids: str) -> dict[str, Any]:
        devices = [{"id": d, "name": d, "model": "fake", "userinterface": "fake-ui", "controllers": []}
                   for d in device_ids]
        return self.sio.call("register", {"protocol": PROTOCOL_VERSION, "host": {"id": self.host_id, "name": "fake"},
                                         "devices": devices},
                             namespace=HOST_NS, timeout=10)

    def send(self, event: str, data: dict[str, Any]) -> None:
        self.sio.emit(event, data, namespace=HOST_NS)

    def close(self) -> None:
        self.sio.disconnect()


def server_log(stack: Stack) -> str:
    return "\n".join(p.read_text(errors="replace") for p in stack.logs if "server" in p.name)


def device(stack: Stack, device_id: str) -> dict[str, Any]:
    return next(d for d in stack.get("/api/devices") if d["id"] == device_id)


# -- /api/files ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "host-token", "devicepilot.db", "devicepilot.db-wal", "devicepilot.db-shm", "server.log",
    "runs/../host-token", "runs/%2e%2e/devicepilot.db", "runs/%00", "runs/x%00.png", "%2Fetc%2Fpasswd",
    "/etc/passwd", "runs/../../../../etc/passwd", "testcases", "reports/..%2Fhost-token", "runs",
])
def test_files_never_serve_secrets_the_database_or_anything_outside_the_artefacts(stack: Stack, path: str) -> None:
    r = stack.http.get(f"{stack.url}/api/files/{path}", timeout=10)
    assert r.status_code in (400, 404), (path, r.status_code, r.text[:200])
    assert stack.token not in r.text
    assert b"SQLite format" not in r.content


def test_files_serve_a_run_screenshot(stack: Stack) -> None:
    run = stack.run("go to the guide")
    url = next(s["screenshot_url"] for s in run["steps"] if s.get("screenshot_url"))
    r = stack.http.get(stack.url + url, timeout=10)
    assert r.status_code == 200 and r.content.startswith(b"\xff\xd8\xff") and r.headers["content-type"] == "image/jpeg"


# -- hosts -----------------------------------------------------------------------------------

def test_a_second_host_cannot_take_over_a_held_device(stack: Stack) -> None:
    intruder = FakeHost(stack.url, stack.token, "intruder")
    try:
        reply = intruder.register("demo-web", "intruder-tv")
        assert reply["ok"] is True
        assert [r["device"] for r in reply["refused"]] == ["demo-web"]
        assert device(stack, "demo-web")["host_id"] == "demo-host"
        assert device(stack, "intruder-tv")["host_id"] == "intruder"
        assert "tried to register device demo-web" in server_log(stack)
        # the next run still goes to the real host
        run = stack.run("go home", plan={"analysis": "home", "feasible": True,
                                         "plan": [{"step": 1, "command": "goto", "params": {"node": "home"}}]})
        assert run["status"] == "passed", run
    finally:
        intruder.close()
    # the intruder's own device is released when it leaves: another host may now register it
    stack.wait_device("intruder-tv", "offline", timeout=20)
    heir = FakeHost(stack.url, stack.token, "heir")
    try:
        assert heir.register("intruder-tv")["refused"] == []
        assert device(stack, "intruder-tv")["host_id"] == "heir"
    finally:
        heir.close()


def test_forged_step_results_and_run_ends_are_refused(stack: Stack) -> None:
    run_id = stack.post("/api/runs", {"device": "demo-web", "task": "wait for nothing", "plan": SLOW_PLAN},
                        expect=202).json()["id"]
    wait_for(lambda: len(stack.get(f"/api/runs/{run_id}")["steps"]) >= 1, 60, "first step")
    intruder = FakeHost(stack.url, stack.token, "forger")
    try:
        intruder.register("forger-tv")
        step = {"step": 7, "command": "press_key", "params": {"key": "OK"}, "status": "passed",
                "message": "forged", "screenshot": PNG}
        intruder.send("step_result", {"run_id": run_id, "step": step})
        intruder.send("run_finished", {"run_id": run_id, "status": "passed", "message": "forged end"})
        wait_for(lambda: server_log(stack).count(f"for run {run_id} from host forger refused") >= 2, 10,
                 "both refusals logged")
        run = stack.get(f"/api/runs/{run_id}")
        assert run["status"] == "running", run
        assert all(s["message"] != "forged" for s in run["steps"])
        assert not (stack.data_dir / "runs" / run_id / "step-007.png").exists()
    finally:
        intruder.close()
        stack.post(f"/api/runs/{run_id}/cancel", {})
        stack.get(f"/api/runs/{run_id}?wait=30")


def test_a_traversal_run_id_writes_nothing(stack: Stack) -> None:
    before = set(stack.data_dir.parent.rglob("*"))
    intruder = FakeHost(stack.url, stack.token, "walker")
    try:
        intruder.register("walker-tv")
        for run_id in ("../../x", "../x", "/tmp/x", "abc\x00def", "0123456789ab/../../x"):
            step = {"step": 1, "command": "press_key", "params": {}, "status": "passed", "screenshot": PNG}
            intruder.send("step_result", {"run_id": run_id, "step": step})
        wait_for(lambda: server_log(stack).count("is not a run id") >= 5, 10, "five refusals")
    finally:
        intruder.close()
    created = {p for p in set(stack.data_dir.parent.rglob("*")) - before if p.suffix == ".png"}
    # a real run of an earlier test may still be storing its last screenshot, in its own run folder
    real = {p for p in created if p.parent.parent == stack.data_dir / "runs" and is_run_id(p.parent.name)}
    assert created - real == set()
    assert not Path("/tmp/x").exists() or not any(Path("/tmp/x").glob("step-*.png"))


def test_per_host_tokens_are_bound_to_their_host_and_revocable(stack: Stack) -> None:
    def cli(*args: str) -> str:
        out = subprocess.run([sys.executable, "-m", "devicepilot", "host-token", *args], env=stack.env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout

    created = cli("create", "lab-7")
    token = created.strip().splitlines()[1]
    assert token.startswith("dph_")
    listed = cli("list", "--json")
    assert token not in listed and "lab-7" in listed
    token_id = next(line.split()[2] for line in created.splitlines() if line.startswith("host token"))

    own = FakeHost(stack.url, token, "lab-7")
    try:
        assert own.register("lab-7-tv")["ok"] is True
        # its token speaks for lab-7 only
        other = FakeHost(stack.url, token, "not-lab-7")
        try:
            reply = other.sio.call("register", {"host": {"id": "not-lab-7"}, "devices": []}, namespace=HOST_NS,
                                   timeout=10)
            assert reply["ok"] is False and "belongs to host 'lab-7'" in reply["error"]
        finally:
            other.close()
        # and the shared token can no longer speak for lab-7
        shared = FakeHost(stack.url, stack.token, "lab-7")
        try:
            reply = shared.register("lab-7-tv")
            assert reply["ok"] is False and "token of its own" in reply["error"]
        finally:
            shared.close()
    finally:
        own.close()
    refused = subprocess.run([sys.executable, "-m", "devicepilot", "host-token", "revoke", token_id], env=stack.env,
                             cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2 and "--yes" in refused.stderr
    cli("revoke", token_id, "--yes")
    with pytest.raises(socketio.exceptions.ConnectionError):
        FakeHost(stack.url, token, "lab-7")
    assert token not in server_log(stack)
    assert requests.get(f"{stack.url}/api/health", timeout=5).ok


def test_an_assigned_device_registers_only_on_its_host(stack: Stack) -> None:
    def cli(*args: str) -> str:
        out = subprocess.run([sys.executable, "-m", "devicepilot", "device", *args], env=stack.env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout

    cli("assign", "shelf-tv", "shelf-host")
    assert "shelf-tv" in cli("assignments")
    squatter = FakeHost(stack.url, stack.token, "squatter")
    try:   # nobody holds shelf-tv, but it is assigned elsewhere
        reply = squatter.register("shelf-tv")
        assert reply["refused"] == [{"device": "shelf-tv", "reason": "assigned to host 'shelf-host'"}]
    finally:
        squatter.close()
    owner = FakeHost(stack.url, stack.token, "shelf-host")
    try:
        assert owner.register("shelf-tv")["refused"] == []
        assert device(stack, "shelf-tv")["host_id"] == "shelf-host"
    finally:
        owner.close()
    cli("unassign", "shelf-tv")
    assert "which an admin assigned to host shelf-host: refused" in server_log(stack)


def test_a_host_speaking_another_protocol_version_is_refused_with_a_reason(stack: Stack) -> None:
    host = FakeHost(stack.url, stack.token, "old-host")
    try:
        reply = host.sio.call("register", {"host": {"id": "old-host"}, "devices": []}, namespace=HOST_NS, timeout=10)
        assert reply["ok"] is False and "speaks protocol v1 (unversioned)" in reply["error"]
        reply = host.sio.call("register", {"protocol": PROTOCOL_VERSION + 1, "host": {"id": "old-host"},
                                           "devices": []}, namespace=HOST_NS, timeout=10)
        assert reply["ok"] is False and "run the same devicepilot version" in reply["error"]
    finally:
        host.close()
    assert "old-host" not in [h["id"] for h in stack.get("/api/hosts")]
