"""bukuserver (PyPI ``buku[server]``), the Flask-Admin web UI of the bookmark manager buku, over twelve bookmarks.

buku lives in its own virtual environment, made by ``scripts/install-web-apps.sh`` in ``.webapps/buku``.
The bookmarks are added with buku's own API, fetching nothing from the web (:mod:`evals.apps.buku_seed`,
run with buku's Python), and served by ``bukuserver run`` (through :mod:`evals.apps.buku_serve`, which
stands in for a file buku 5.1's release leaves out) with fetching titles from the web turned off.

The server keeps one sqlite connection open for its life, but commits every change and leaves no read
open, so between tasks the database is restored from the seed with SQLite's backup API while it runs.
Two screens keep what they read in the server's memory: the tags list (refreshed at most once a minute)
and the statistics page (until asked again); the reset asks both to read the database again, with the
requests their own Refresh buttons send.
"""
from __future__ import annotations

import logging
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import requests

from evals.apps.base import ProcessApp, copy_database, require_venv_command
from shared.errors import ConfigError, InfraError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".webapps" / "buku" / "venv"
HERE = Path(__file__).resolve().parent
START_PATH = "/bookmark/"                   # the list of bookmarks, ten a page
#: the server-side caches and the POST that makes each read the database again (their Refresh buttons)
CACHES = ("/tag/refresh", "/statistic/")


class Buku(ProcessApp):
    name = "buku"
    device_name = "Bookmarks (bukuserver)"
    model = "bukuserver"
    userinterface = "bukuserver"
    ready_path = START_PATH

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.seed = self.workdir / "seed.db"
        self.live = self.workdir / "bookmarks.db"

    @classmethod
    def check_installed(cls) -> None:
        require_venv_command(cls.name, VENV, "bukuserver")

    @property
    def start_url(self) -> str:
        return self.base_url + START_PATH

    def build_seed(self, path: Path) -> None:
        """Add the seed bookmarks to a new database at *path* with buku's own API."""
        done = subprocess.run([str(VENV / "bin" / "python"), "-I", str(HERE / "buku_seed.py"), str(path)],
                              env={"PATH": "/usr/bin:/bin", "BUKU_DEFAULT_DBDIR": str(self.workdir)},
                              cwd=self.workdir, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise ConfigError(f"could not build the buku database {path}: {done.stderr.strip()[-1500:]}")

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([str(VENV / "bin" / "python"), "-I", str(HERE / "buku_serve.py"), "run", "--host", "127.0.0.1",
                 "--port", str(self.port), "--no-debug", "--no-reload"],
                {"BUKUSERVER_DB_FILE": str(self.live), "BUKU_DEFAULT_DBDIR": str(self.workdir),
                 "BUKUSERVER_AUTOFETCH": "false",          # a new bookmark's title is not fetched from the web
                 "BUKUSERVER_DISABLE_FAVICON": "true",     # no favicons from google.com in the list
                 "BUKUSERVER_SECRET_KEY": "devicepilot-eval",  # sessions and CSRF tokens outlive a restart
                 "FLASK_DEBUG": "0", "PYTHONUNBUFFERED": "1"})

    def reset(self) -> None:
        copy_database(self.seed, self.live)
        self._refresh_caches()

    def _refresh_caches(self) -> None:
        """Make the tags list and the statistics page read the restored database (their Refresh buttons)."""
        for path in CACHES:
            try:
                resp = requests.post(self.base_url + path, timeout=10, allow_redirects=False)
            except requests.RequestException as exc:
                raise InfraError(f"buku did not refresh {path} after the reset: {exc}") from exc
            if resp.status_code >= 400:
                raise InfraError(f"buku did not refresh {path} after the reset: HTTP {resp.status_code}")

    def reset_page(self, page: DevicePage) -> None:
        """Leave whatever the last task left open (a dialog, a form): load the list of bookmarks."""
        log.debug("%s: back to the bookmarks list", self.device_id)
        page.load(self.start_url)
