"""Scale-out: two `devicepilot server` processes share PostgreSQL and a Redis message queue.

PostgreSQL and Redis are Debian's own servers (``./dp test`` installs them), started here
in a temporary directory. The host dials server A; a dashboard watches server B; a run
submitted on B to the host's device is taken by A (the queue is in the database) and its
events reach the dashboard on B through Redis.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from shared.protocol import DASHBOARD_NS
from tests.stack import ROOT, Stack, free_port, wait_for

pytestmark = pytest.mark.integration


def pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def as_postgres(cmd: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as Debian's postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="module")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    initdb, server = pg_bin("initdb"), pg_bin("postgres")
    if not initdb or not server:
        pytest.skip("PostgreSQL is not installed (./dp test installs Debian's postgresql)")
    root = Path(tempfile.mkdtemp(prefix="devicepilot-pg-"))   # not under pytest's root-only tmp: postgres reads it
    data, sockets = root / "data", root / "run"
    data.mkdir()
    sockets.mkdir()
    if os.geteuid() == 0:
        uid = pwd.getpwnam("postgres").pw_uid
        for p in (root, data, sockets):
            os.chown(p, uid, -1)
    subprocess.run(as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "dp", "--no-sync"]), check=True,
                   capture_output=True, timeout=120)
    port = free_port()
    proc = subprocess.Popen(as_postgres([server, "-D", str(data), "-p", str(port), "-k", str(sockets),
                                         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]),
                            stdout=open(root / "pg.log", "wb"), stderr=subprocess.STDOUT)
    import psycopg

    def ready() -> bool:
        try:
            psycopg.connect(f"host=127.0.0.1 port={port} user=dp dbname=postgres").close()
            return True
        except psycopg.OperationalError:
            return False

    try:
        wait_for(ready, 60, "PostgreSQL")
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("Redis is not installed (./dp test installs Debian's redis-server)")
    port = free_port()
    root = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(root)], stdout=open(root / "redis.log", "wb"), stderr=subprocess.STDOUT)
    import redis

    try:
        wait_for(lambda: redis.Redis(port=port).ping(), 30, "Redis")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def database(postgres: str) -> str:
    """A fresh database of this test's own on the shared PostgreSQL server."""
    import psycopg

    name = f"devicepilot_{os.urandom(4).hex()}"
    host, port = postgres.split(":")
    with psycopg.connect(f"host={host} port={port} user=dp dbname=postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://dp@{postgres}/{name}"


@pytest.fixture
def two_servers(tmp_path: Path, database: str, redis_url: str) -> Iterator[tuple[Stack, str, subprocess.Popen]]:
    env = {"DEVICEPILOT_DATABASE_URL": database, "DEVICEPILOT_MESSAGE_QUEUE": redis_url}
    a = Stack.start(tmp_path, extra_env=env)                      # server A, with the demo host
    port = free_port()
    b = subprocess.Popen([sys.executable, "-m", "devicepilot", "server", "--port", str(port)], env=a.env,
                         stdout=open(tmp_path / "server-b.log", "wb"), stderr=subprocess.STDOUT, cwd=ROOT,
                         start_new_session=True)
    url_b = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: requests.get(url_b + "/api/health", timeout=2).ok, 60, "server B")
        yield a, url_b, b
    finally:
        b.terminate()
        b.wait(timeout=30)
        a.stop()


def test_a_run_submitted_on_b_runs_on_as_host_and_b_dashboards_see_it(
        two_servers: tuple[Stack, str, subprocess.Popen]) -> None:
    a, url_b, _ = two_servers
    headers = {"Authorization": f"Bearer {a.api_token}"}
    # B knows the lab from the shared database
    devices = requests.get(f"{url_b}/api/devices", headers=headers, timeout=10).json()
    assert [d["id"] for d in devices] == ["demo-web"]
    events: list[tuple[str, dict[str, Any]]] = []
    seen = threading.Event()
    dashboard = socketio.Client()

    def record(name: str) -> Any:
        def handler(data: dict[str, Any]) -> None:
            events.append((name, data))
            if name == "run_update" and data.get("status") == "passed":
                seen.set()
        return handler

    dashboard.on("run_update", record("run_update"), namespace=DASHBOARD_NS)
    dashboard.on("step", record("step"), namespace=DASHBOARD_NS)
    dashboard.connect(url_b, namespaces=[DASHBOARD_NS], auth={"token": a.api_token}, transports=["websocket"],
                      wait_timeout=10)
    try:
        answer = requests.post(f"{url_b}/api/runs?wait=90", json={"device": "demo-web", "task": "go to the guide"},
                               headers=headers, timeout=120)
        assert answer.status_code in (201, 202), answer.text
        run = answer.json()
        assert run["status"] == "passed", run
        assert seen.wait(15), f"server B's dashboard saw no end of the run: {events}"
    finally:
        dashboard.disconnect()
    run_id = run["id"]
    steps = [d for name, d in events if name == "step" and d["run_id"] == run_id]
    assert steps and steps[-1]["step"]["status"] == "passed"
    # server A did the work: it holds the host's connection
    log_a = (a.data_dir / "server.log").read_text(errors="replace")
    log_b = (a.data_dir / "server-b.log").read_text(errors="replace")
    assert "Traceback" not in log_a + log_b
    # both servers answer for the run, from the shared database
    on_a = a.get(f"/api/runs/{run_id}")
    assert on_a["status"] == "passed" and len(on_a["steps"]) == len(run["steps"])


def test_the_queue_stays_one_run_per_device_with_both_servers_taking_work(
        two_servers: tuple[Stack, str, subprocess.Popen]) -> None:
    a, url_b, _ = two_servers
    headers = {"Authorization": f"Bearer {a.api_token}"}
    plan = {"analysis": "x", "feasible": True, "plan": [{"step": 1, "command": "goto", "params": {"node": "guide"}}]}
    ids = []
    for i in range(10):   # alternate servers, as a load balancer would
        base = a.url if i % 2 == 0 else url_b
        r = requests.post(f"{base}/api/runs", json={"device": "demo-web", "task": f"r{i}", "plan": plan},
                          headers=headers, timeout=30)
        assert r.status_code in (201, 202), r.text
        ids.append(r.json()["id"])
    deadline = time.monotonic() + 120
    ends = []
    for run_id in ids:
        run = wait_for(lambda: (r := a.get(f"/api/runs/{run_id}")) and r["status"] in ("passed", "failed", "error")
                       and r, max(1, deadline - time.monotonic()), f"run {run_id}")
        ends.append(run)
    assert all(r["status"] == "passed" for r in ends), [(r["status"], r["message"]) for r in ends]
    spans = sorted((r["started_at"], r["finished_at"]) for r in ends)
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start, "two runs overlapped on one device"
    assert [r["id"] for r in sorted(ends, key=lambda r: r["started_at"])] == ids   # submission order
