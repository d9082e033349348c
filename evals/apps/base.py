"""What an app under evaluation is: something that starts on loopback, resets fast, and becomes a device.

An :class:`AppInstance` is one running copy of an app. The harness gives each
instance one device of the host (one browser page), resets its server-side
state before every task (:meth:`AppInstance.reset`), and points the device's
page at :attr:`AppInstance.start_url`.
"""
from __future__ import annotations

import logging
import os
import socket
import sqlite3
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any

import requests

from shared.errors import ConfigError, InfraError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

log = logging.getLogger(__name__)


_HANDED_OUT: set[int] = set()
_PORTS = threading.Lock()


def free_port() -> int:
    """A free loopback port, never one this process handed out before: two apps of one harness, each given
    a port before either binds it, must not be given the same one (the second would fail to start, and its
    device would show the first app)."""
    with _PORTS:
        while True:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = int(s.getsockname()[1])
            if port not in _HANDED_OUT:
                _HANDED_OUT.add(port)
                return port


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None, log_path: Path | None = None) -> None:
    """Wait until *url* answers any HTTP status below 500; raise :class:`InfraError` with the app's log if not."""
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            break
        try:
            if requests.get(url, timeout=2).status_code < 500:
                return
        except requests.RequestException as exc:
            last = str(exc)
        time.sleep(0.1)
    tail = log_path.read_text(errors="replace")[-2000:] if log_path and log_path.exists() else ""
    raise InfraError(f"app at {url} not ready within {timeout:g}s ({last}); its log ends:\n{tail}")


def copy_database(seed: Path, live: Path) -> None:
    """Make *live* an exact copy of *seed* with SQLite's backup API (safe while the app has it open)."""
    src = sqlite3.connect(seed)
    dst = sqlite3.connect(live, timeout=10)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


class AppInstance(ABC):
    """One running copy of an app under evaluation."""

    #: the app's name in the corpus (``app:`` of a task)
    name: str = ""
    #: Python modules the app needs (installed by the ``test`` extra)
    requires: tuple[str, ...] = ()

    @classmethod
    def check_installed(cls) -> None:
        """Raise a :class:`ConfigError` naming the install command when a required module is missing."""
        import importlib.util

        missing = [m for m in cls.requires if importlib.util.find_spec(m) is None]
        if missing:
            raise ConfigError(f"app {cls.name!r} needs {', '.join(missing)}: install the test extra "
                              f"(pip install -e '.[test]', or ./dp test once)")

    def __init__(self, workdir: Path, index: int = 1) -> None:
        self.workdir = workdir
        self.index = index
        self.workdir.mkdir(parents=True, exist_ok=True)

    @property
    def device_id(self) -> str:
        return f"{self.name}-{self.index}"

    @property
    @abstractmethod
    def start_url(self) -> str:
        """Where the device's page starts each task (a URL, or a path under the app's URL)."""

    @property
    def database(self) -> Path | None:
        """The app's SQLite database, for judges that read the app's data (None: the app keeps none)."""
        return None

    @property
    def base_url(self) -> str:
        return ""

    @abstractmethod
    def device_config(self) -> dict[str, Any]:
        """This instance's device entry of the host config (``id`` is added by the harness)."""

    def start(self) -> None:
        """Start the app's process (if any) and wait until it answers."""

    def reset(self) -> None:
        """Put the app's server-side state back to its seed."""

    def reset_page(self, page: "DevicePage") -> None:
        """Put the app's state kept in the browser (localStorage, cookies) back to its seed."""

    def stop(self) -> None:
        """Stop the app's process (if any)."""


class ServedApp(AppInstance):
    """An app served by a subprocess on a free loopback port, driven as a tree-less web device."""

    ready_path = "/"
    ready_timeout_s = 60.0
    #: the device's name, model and user interface in the host config
    device_name: str = ""
    model: str = ""
    userinterface: str = ""

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = self.workdir / "app.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @abstractmethod
    def command(self) -> tuple[list[str], dict[str, str]]:
        """The app's command line and extra environment."""

    def device_config(self) -> dict[str, Any]:
        """Only a browser on the app's start page: no navigation tree. An endless animation (changedetection.io's
        pulsing status dot) would keep a core of the lab busy repainting pages nobody watches: paused."""
        return {"name": self.device_name, "model": self.model, "userinterface": self.userinterface,
                "controllers": [{"type": "playwright", "params": {"url": self.start_url, "width": 1280, "height": 720,
                                                                    "pause_endless_animations": True}}]}

    def start(self) -> None:
        argv, env = self.command()
        log.info("starting %s on %s", self.name, self.base_url)
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen(argv, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
                                         cwd=Path(__file__).resolve().parents[2], start_new_session=True)
        try:
            wait_http(self.base_url + self.ready_path, self.ready_timeout_s, self.proc, self.log_path)
            time.sleep(0.3)
            if self.proc.poll() is not None:   # what answered was another program on its port
                tail = self.log_path.read_text(errors="replace")[-1500:] if self.log_path.exists() else ""
                raise InfraError(f"{self.name} exited after starting on {self.base_url} (its port taken?); its log "
                                 f"ends:\n{tail}")
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


def require_venv_command(app: str, venv: Path, command: str) -> None:
    """An app that ``scripts/install-web-apps.sh`` installs into a virtual environment of its own: its
    *command* must be there, else a :class:`ConfigError` naming the install script."""
    if not (venv / "bin" / command).exists():
        raise ConfigError(f"app {app!r} is not installed in {venv}: run "
                          "scripts/install-web-apps.sh (./dp test does once)")


class ProcessApp(ServedApp):
    """A served app whose state is a SQLite database, reset from a seed."""

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.seed = self.workdir / "seed.sqlite3"
        self.live = self.workdir / "live.sqlite3"

    @property
    def database(self) -> Path:
        return self.live

    @abstractmethod
    def build_seed(self, path: Path) -> None:
        """Write the seed database to *path*."""

    def start(self) -> None:
        self.build_seed(self.seed)
        copy_database(self.seed, self.live)
        super().start()

    def reset(self) -> None:
        copy_database(self.seed, self.live)
