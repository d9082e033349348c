"""Load: one server, one host with N no-op devices, 2-step runs, as a lab deploys them.

The server is ``devicepilot server`` (gunicorn, as in production) and the host is ``devicepilot
host``, each its own process; the load generator is this process. So each has its own
interpreter, and the figures are the server's, not those of three programs sharing one lock.
Server CPU per run is read from the server's processes (``/proc``), not from this one.
"""
from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import requests

from bench.planning import Section
from bench.stack import noop_config
from bench.timing import Timing

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
SUBMITTERS = 8                     # concurrent API clients submitting the wave
PLAN = {"analysis": "load", "feasible": True,
        "plan": [{"step": 1, "command": "noop"}, {"step": 2, "command": "press_key", "params": {"key": "OK"}}]}
ENDED = ("passed", "failed", "error", "cancelled")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (requests.RequestException, OSError):
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise RuntimeError(f"the benchmark's {what} did not come up in {timeout:.0f} s")


def _tree(pid: int) -> list[int]:
    """*pid* and its descendants (gunicorn's worker under its master), from ``/proc``."""
    found, pending = [], [pid]
    while pending:
        p = pending.pop()
        found.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of *pid* and its descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
    return total


def _rss_mb(pid: int) -> float:
    """Resident memory of *pid* and its descendants, in MB."""
    total = 0.0
    for p in _tree(pid):
        try:
            total += sum(int(line.split()[1]) / 1024 for line in Path(f"/proc/{p}/status").read_text().splitlines()
                         if line.startswith("VmRSS:"))
        except (OSError, IndexError, ValueError):
            continue
    return total


@dataclass
class Wave:
    runs: int
    runs_per_s: float
    p50_s: float
    p99_s: float
    server_cpu_ms_per_run: float
    rss_mb: float
    not_passed: int
    missing_steps: int


class LabProcesses:
    """``devicepilot server`` and ``devicepilot host`` with *devices* no-op devices, over loopback."""

    def __init__(self, devices: int, root: Path) -> None:
        from server.db import Database

        self.devices = devices
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        config = noop_config(root, devices)
        env = {**os.environ, "DEVICEPILOT_DATA_DIR": str(root / "data"),
               "DEVICEPILOT_HOST_TOKEN": secrets.token_urlsafe(16),
               "DEVICEPILOT_RATE_LIMIT_RUNS": "1000000 per minute", "PYTHONUNBUFFERED": "1"}
        self.logs = [open(root / "server.log", "wb"), open(root / "host.log", "wb")]
        self.server = subprocess.Popen([sys.executable, "-m", "devicepilot", "server", "--port", str(port)], env=env,
                                       stdout=self.logs[0], stderr=subprocess.STDOUT, cwd=ROOT,
                                       start_new_session=True)
        self.host: subprocess.Popen | None = None
        try:
            _wait(lambda: requests.get(f"{self.url}/api/health", timeout=2).ok, 60, "server")
            token = _wait(lambda: (root / "data" / "client-token").read_text().strip(), 10, "admin token")
            self.http = requests.Session()
            self.http.headers["Authorization"] = f"Bearer {token}"
            self.host = subprocess.Popen([sys.executable, "-m", "devicepilot", "host", "--server", self.url,
                                          "--config", str(config)], env=env, stdout=self.logs[1],
                                         stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
            for i in (0, devices - 1):
                _wait(lambda i=i: self.http.get(f"{self.url}/api/devices/noop-{i}", timeout=5).json()
                      .get("status") == "online", 60, f"device noop-{i}")
        except Exception:
            self.stop()
            raise
        self.token = token
        self.db = Database(f"sqlite:///{root / 'data' / 'devicepilot.db'}")   # WAL: reading beside the server

    def stop(self) -> None:
        for proc in (self.host, self.server):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
        for f in self.logs:
            f.close()

    def wave(self, runs_per_device: int) -> Wave:
        """Submit *runs_per_device* runs to every device at once; time each from submit to end."""
        from server.db import RunRow, StepRow

        total = self.devices * runs_per_device
        ids: list[str] = []
        lock = threading.Lock()
        failures: list[str] = []

        def submit(chunk: list[int]) -> None:
            s = requests.Session()
            s.headers["Authorization"] = f"Bearer {self.token}"
            for i in chunk:
                r = s.post(f"{self.url}/api/runs", json={"device": f"noop-{i % self.devices}", "task": "load",
                                                          "plan": PLAN}, timeout=60)
                if not r.ok:
                    failures.append(f"{r.status_code} {r.text[:200]}")
                    return
                with lock:
                    ids.append(r.json()["id"])

        cpu0 = _cpu_seconds(self.server.pid)
        began = time.perf_counter()
        workers = [threading.Thread(target=submit, args=(list(range(k, total, SUBMITTERS)),))
                   for k in range(SUBMITTERS)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        if failures:
            raise RuntimeError(f"the server refused a benchmark run: {failures[0]}")
        ends: list[float] = []
        not_passed = 0
        pending = set(ids)
        deadline = time.monotonic() + 300
        while pending and time.monotonic() < deadline:
            with self.db.session() as s:
                rows = s.query(RunRow.id, RunRow.status, RunRow.created_at, RunRow.finished_at).filter(
                    RunRow.id.in_(list(pending)), RunRow.status.in_(ENDED)).all()
            for run_id, status, created, finished in rows:
                ends.append((finished - created).total_seconds())
                pending.discard(run_id)
                not_passed += status != "passed"
            if pending:
                time.sleep(0.1)
        wall = time.perf_counter() - began
        cpu = _cpu_seconds(self.server.pid) - cpu0
        with self.db.session() as s:
            counts: dict[str, int] = {}
            for (run_id,) in s.query(StepRow.run_id).filter(StepRow.run_id.in_(ids)).all():
                counts[run_id] = counts.get(run_id, 0) + 1
        ordered = sorted(ends)
        return Wave(runs=total, runs_per_s=total / wall,
                    p50_s=statistics.median(ordered) if ordered else 0.0,
                    p99_s=ordered[min(len(ordered) - 1, int(0.99 * (len(ordered) - 1)))] if ordered else float("inf"),
                    server_cpu_ms_per_run=cpu * 1000 / total, rss_mb=_rss_mb(self.server.pid),
                    not_passed=not_passed + len(pending), missing_steps=sum(1 for i in ids if counts.get(i, 0) < 2))


def load(quick: bool = False) -> Section:
    section = Section("Load: `devicepilot server` (gunicorn) and `devicepilot host` with N no-op devices, each its "
                      "own process, 2-step runs submitted by 8 API clients at once")
    levels = (10, 100) if quick else (10, 100, 1000)
    results: dict[int, Wave] = {}
    for devices in levels:
        with tempfile.TemporaryDirectory(prefix="devicepilot-load-") as tmp:
            lab = LabProcesses(devices, Path(tmp))
            try:
                lab.wave(1)                                                    # warm up
                results[devices] = lab.wave(max(1, 200 // devices) if devices < 1000 else 1)
            finally:
                lab.stop()
    base = results[10]
    for devices, r in results.items():
        label = f"{devices:,} devices"
        section.rows.append(Timing(f"{label}: submit-to-end p50 / p99 {r.p50_s * 1000:.0f} / {r.p99_s * 1000:.0f} "
                                   f"ms; {r.runs_per_s:.1f} runs/s; server CPU {r.server_cpu_ms_per_run:.1f} ms/run; "
                                   f"server RSS {r.rss_mb:.0f} MB; {r.not_passed} not passed, "
                                   f"{r.missing_steps} short of steps", (r.p50_s * 1000,)))
        if devices != 10:
            section.ratios += [(f"{label} throughput / 10 devices", r.runs_per_s / base.runs_per_s),
                               (f"{label} p99 / 10 devices", r.p99_s / base.p99_s if base.p99_s else 0),
                               (f"{label} server CPU per run / 10 devices",
                                r.server_cpu_ms_per_run / base.server_cpu_ms_per_run)]
    section.facts.append("targets at 1,000 devices: throughput at least 0.8x the 10-device level, p99 under 1 s, "
                         "no run ending before its steps are stored")
    top = max(results)
    if top != 10:
        r, label = results[top], f"{top:,} devices"
        ratio, p99_ms = r.runs_per_s / base.runs_per_s, r.p99_s * 1000
        section.facts.append(
            f"{label}: throughput {ratio:.2f}x ({'met' if ratio >= 0.8 else f'missed by {0.8 - ratio:.2f}x'}), p99 "
            f"{p99_ms:.0f} ms ({'met' if p99_ms < 1000 else f'missed by {p99_ms - 1000:.0f} ms'}), "
            f"{r.missing_steps} run(s) short of steps; {r.server_cpu_ms_per_run:.0f} ms of server CPU per run")
    return section
