"""Roundup (PyPI ``roundup``), the issue tracker, classic template over sqlite, for a small recipe app's team.

Roundup lives in its own virtual environment, made by ``scripts/install-web-apps.sh`` in
``.webapps/roundup``. The tracker is made by ``roundup-admin install`` / ``initialise`` and filled through
the tracker's Python API (:mod:`evals.apps.roundup_seed`, run with Roundup's Python), then served by
``roundup-server``. Between tasks its sqlite database (``db/db``) is restored from the seed with SQLite's
backup API while the server runs (it opens a connection per request and closes it after), and the
message bodies, which Roundup keeps as files beside the database (``db/files``), are put back from a copy.
Sessions live in their own database (``db/db-session``), so the browser's login outlives the resets.
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from evals.apps.base import ProcessApp, copy_database, require_venv_command
from shared.errors import ConfigError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".webapps" / "roundup" / "venv"
TRACKER = "tracker"                      # the tracker's name in its URLs: /tracker/issue3
ADMIN, PASSWORD = "admin", "admin"       # as evals/apps/roundup_seed.py initialises it
_LOGGED_IN_JS = "() => !document.querySelector('input[name=__login_name]') && !!document.querySelector('a[href*=logout]')"


class Roundup(ProcessApp):
    name = "roundup"
    device_name = "Recipe app tracker (Roundup)"
    model = "roundup"
    userinterface = "roundup"
    ready_path = f"/{TRACKER}/"

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.home = self.workdir / "tracker"
        self.live = self.home / "db" / "db"
        self.files = self.home / "db" / "files"
        self.seed_files = self.workdir / "seed-files"

    @classmethod
    def check_installed(cls) -> None:
        require_venv_command(cls.name, VENV, "roundup-server")

    @property
    def start_url(self) -> str:
        return f"{self.base_url}/{TRACKER}/"

    def build_seed(self, path: Path) -> None:
        """Make the tracker in :attr:`home` (its web address holds this instance's port), then keep its seed."""
        if self.home.exists():
            shutil.rmtree(self.home)
        done = subprocess.run([str(VENV / "bin" / "python"), "-I", str(Path(__file__).with_name("roundup_seed.py")),
                               str(self.home), self.start_url],
                              env={"PATH": "/usr/bin:/bin"}, cwd=self.workdir, capture_output=True, text=True,
                              timeout=300, check=False)
        if done.returncode != 0:
            raise ConfigError(f"could not build the Roundup tracker in {self.home}: {done.stderr.strip()[-1500:]}")
        path.unlink(missing_ok=True)
        copy_database(self.live, path)
        if self.seed_files.exists():
            shutil.rmtree(self.seed_files)
        shutil.copytree(self.files, self.seed_files)

    def reset(self) -> None:
        copy_database(self.seed, self.live)
        self._restore_files()

    def _restore_files(self) -> None:
        """Put the message bodies back: drop what a task added, rewrite what the seed has."""
        shutil.rmtree(self.files, ignore_errors=True)
        shutil.copytree(self.seed_files, self.files)

    def command(self) -> tuple[list[str], dict[str, str]]:
        # roundup-server refuses to run as root unless told a user: name the current one (a no-op switch)
        return ([str(VENV / "bin" / "roundup-server"), "-n", "127.0.0.1", "-p", str(self.port), "-u", str(os.getuid()),
                 f"{TRACKER}={self.home}"], {"PYTHONUNBUFFERED": "1"})

    def reset_page(self, page: DevicePage) -> None:
        """Log the browser in as admin through the login box on the left, unless its session already is."""
        page.load(self.start_url)
        if page.evaluate(_LOGGED_IN_JS):
            return
        log.debug("logging %s in to Roundup as %s", self.device_id, ADMIN)
        page.fill("input[name=__login_name]", ADMIN)
        page.fill("input[name=__login_password]", PASSWORD)
        page.click("input[type=submit][value=Login]")
        page.wait("0.5")
        if not page.evaluate(_LOGGED_IN_JS):
            raise ConfigError(f"could not log in to Roundup as {ADMIN!r} (at {page.url()})")
