"""Real server and host processes on loopback, for integration tests.

``Stack.start(config)`` runs ``devicepilot server`` and ``devicepilot host``
as subprocesses with their own data dir and host token, waits until the
host's devices are online, and gives a small API client.
"""
from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import requests

from devicepilot.http import session as http_session

ROOT = Path(__file__).resolve().parent.parent
DEMO_CONFIG = ROOT / "host" / "demo" / "demo-host.yaml"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate: Any, timeout: float, what: str, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except requests.RequestException as exc:
            last = exc
        time.sleep(interval)
    raise TimeoutError(f"{what} not within {timeout}s (last: {last!r})")


@dataclass
class Stack:
    url: str
    data_dir: Path
    token: str
    server: subprocess.Popen
    hosts: list[subprocess.Popen] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    logs: list[Path] = field(default_factory=list)
    http: requests.Session = field(default_factory=http_session)
    api_token: str = ""

    # -- processes ----------------------------------------------------------------
    @classmethod
    def start(cls, data_dir: Path, configs: list[Path] | None = None, extra_env: dict[str, str] | None = None,
              wait_devices: list[str] | None = None) -> "Stack":
        data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        token = secrets.token_urlsafe(16)
        env = {**os.environ, "DEVICEPILOT_DATA_DIR": str(data_dir), "DEVICEPILOT_HOST_TOKEN": token,
               "PYTHONUNBUFFERED": "1",
               # a whole test session runs more than a person would in a minute; tests/unit/test_guardrails.py
               # checks the limit itself
               "DEVICEPILOT_RATE_LIMIT_RUNS": "2000 per minute",
               # dashboard tests log a browser in through one-time links many times a minute from one address
               "DEVICEPILOT_RATE_LIMIT_LOGIN": "600 per minute", **(extra_env or {})}
        log = data_dir / "server.log"
        server = subprocess.Popen([sys.executable, "-m", "devicepilot", "server", "--port", str(port)],
                                  env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, cwd=ROOT,
                                  start_new_session=True)
        stack = cls(f"http://127.0.0.1:{port}", data_dir, token, server, env=env, logs=[log])
        try:
            wait_for(lambda: requests.get(stack.url + "/api/health", timeout=2).ok, 30, "server health")
            stack.authenticate()
            for config in configs if configs is not None else [DEMO_CONFIG]:
                stack.start_host(config)
            for device in wait_devices if wait_devices is not None else (["demo-web"] if configs is None else []):
                stack.wait_device(device, "online")
        except Exception:
            stack.stop()
            raise
        return stack

    def authenticate(self) -> None:
        """Use the first admin's token, which the server wrote to its data dir at its first start."""
        token = wait_for(lambda: (self.data_dir / "client-token").exists()
                         and (self.data_dir / "client-token").read_text().strip(), 10, "the first admin's token")
        self.api_token = token
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.env["DEVICEPILOT_TOKEN"] = token

    def add_user(self, name: str, role: str) -> str:
        """A new user with *role*, made with the CLI as an admin would; returns its API token."""
        out = subprocess.run([sys.executable, "-m", "devicepilot", "user", "add", name, "--role", role],
                             env=self.env, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()[-1]

    def restart_server(self, kill: bool = False, while_down: Callable[[], None] | None = None) -> None:
        """Stop the server process (``kill``: SIGKILL, as a crash) and start a new one on the same port and data dir;
        *while_down* runs between the two (what happens in the lab while no server is there to see it)."""
        if kill:   # the server's process and its worker, at once
            os.killpg(self.server.pid, signal.SIGKILL)
        else:
            self.server.terminate()
        self.server.wait(timeout=15)
        if while_down is not None:
            while_down()
        port = self.url.rsplit(":", 1)[1]
        log = self.data_dir / "server-restarted.log"
        self.server = subprocess.Popen([sys.executable, "-m", "devicepilot", "server", "--port", port],
                                       env=self.env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, cwd=ROOT,
                                       start_new_session=True)
        self.logs.append(log)
        wait_for(lambda: requests.get(self.url + "/api/health", timeout=2).ok, 30, "restarted server health")

    def start_host(self, config: Path) -> subprocess.Popen:
        log = self.data_dir / f"host-{len(self.hosts)}.log"
        proc = subprocess.Popen([sys.executable, "-m", "devicepilot", "-v", "host", "--server", self.url,
                                 "--config", str(config)], env=self.env, stdout=open(log, "wb"),
                                stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        self.hosts.append(proc)
        self.logs.append(log)
        return proc

    def wait_device(self, device_id: str, status: str, timeout: float = 60) -> dict[str, Any]:
        def check() -> Any:
            for d in self.get("/api/devices"):
                if d["id"] == device_id and d["status"] == status:
                    return d
            return None

        return wait_for(check, timeout, f"device {device_id} {status}", interval=0.2)

    def stop(self) -> None:
        for proc in [*self.hosts, self.server]:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM) if proc in self.hosts else proc.terminate()
                except ProcessLookupError:
                    pass
        for proc in [*self.hosts, self.server]:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()

    def tail_logs(self, lines: int = 40) -> str:
        out = []
        for log in self.logs:
            if log.exists():
                out.append(f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:]))
        return "\n".join(out)

    # -- API --------------------------------------------------------------------------
    def get(self, path: str, **kwargs: Any) -> Any:
        resp = self.http.get(self.url + path, timeout=30, **kwargs)
        resp.raise_for_status()
        return resp.json()

    def post(self, path: str, body: Any, expect: int | None = None, **kwargs: Any) -> requests.Response:
        resp = self.http.post(self.url + path, json=body, timeout=180, **kwargs)
        if expect is not None:
            assert resp.status_code == expect, f"{resp.status_code}: {resp.text}"
        return resp

    def run(self, task: str, device: str = "demo-web", mode: str = "run", wait: float = 120, **extra: Any) -> dict[str, Any]:
        """Create a run and wait for it to finish; returns the run with its steps."""
        resp = self.post(f"/api/runs?wait={wait}", {"device": device, "task": task, "mode": mode, **extra})
        assert resp.status_code in (201, 202), resp.text
        run = resp.json()
        assert run["status"] not in ("queued", "planning", "running"), f"run did not finish: {run}\n{self.tail_logs()}"
        return run
