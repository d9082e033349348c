"""Trac (PyPI ``Trac``), the wiki and issue tracker, over a small set-top-box firmware project.

The environment is made by Trac's own ``initenv`` and filled through its API
(:mod:`evals.apps.trac_seed`); its SQLite database is reset from that seed
between tasks, while ``tracd`` keeps running.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import requests

from evals.apps.base import ProcessApp
from shared.errors import ConfigError


class Trac(ProcessApp):
    name = "trac"
    device_name = "Firmware tracker (Trac)"
    model = "trac"
    userinterface = "trac"
    requires = ("trac",)

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.env_dir = self.workdir / "env"
        self.live = self.env_dir / "db" / "trac.db"

    @property
    def start_url(self) -> str:
        return self.base_url + "/"

    def build_seed(self, path: Path) -> None:
        if self.env_dir.exists():
            shutil.rmtree(self.env_dir)
        done = subprocess.run([sys.executable, "-m", "evals.apps.trac_seed", str(self.env_dir)],
                              cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            raise ConfigError(f"could not build the Trac environment in {self.env_dir}: "
                              f"{done.stderr.strip()[-1500:]}")
        shutil.copyfile(self.live, path)

    def start(self) -> None:
        super().start()
        # Trac compiles each kind of page's templates on its first request (seconds on a busy machine):
        # ask for each kind once, so no task's first page load pays for it
        for path in self.WARM_PATHS:
            requests.get(self.base_url + path, timeout=120)

    WARM_PATHS = ("/", "/wiki/TestPlan", "/report", "/report/1", "/ticket/1", "/newticket", "/roadmap",
                  "/milestone/beta", "/timeline", "/search?q=guide", "/about", "/wiki/TestPlan?action=edit")

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([sys.executable, "-m", "evals.apps.trac_serve", "--single-env", "--hostname", "127.0.0.1",
                 "--port", str(self.port), str(self.env_dir)], {"PYTHONUNBUFFERED": "1"})
