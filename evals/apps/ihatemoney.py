"""I Hate Money (PyPI ``ihatemoney``), the shared-budget manager, over a flat share of four people.

Its pinned dependencies (SQLAlchemy < 2.1 among them) do not fit devicepilot's own, so it lives in its
own virtual environment, made by ``scripts/install-web-apps.sh`` in ``.webapps/ihatemoney``. The project
is filled through the app's REST API (:mod:`evals.apps.ihatemoney_seed`, run with the app's Python); its
SQLite database is reset from that seed between tasks while the app keeps running. The browser logs in
to the project once; the session survives the resets.
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from evals.apps.base import ProcessApp, require_venv_command
from shared.errors import ConfigError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".webapps" / "ihatemoney" / "venv"
PROJECT, CODE = "flatshare", "letmein"  # as evals/apps/ihatemoney_seed.py creates it

_SETTINGS = """\
SQLALCHEMY_DATABASE_URI = "sqlite:///{database}"
SQLALCHEMY_TRACK_MODIFICATIONS = False
SECRET_KEY = "devicepilot-eval-only"
SESSION_COOKIE_SECURE = False
ACTIVATE_DEMO_PROJECT = False
ENABLE_CAPTCHA = False
ALLOW_PUBLIC_PROJECT_CREATION = True
"""


class IHateMoney(ProcessApp):
    name = "ihatemoney"
    device_name = "Flat share budget (I Hate Money)"
    model = "ihatemoney"
    userinterface = "ihatemoney"

    @classmethod
    def check_installed(cls) -> None:
        require_venv_command(cls.name, VENV, "ihatemoney")

    @property
    def start_url(self) -> str:
        return f"{self.base_url}/{PROJECT}/"

    def _settings(self, database: Path) -> Path:
        path = self.workdir / f"{database.stem}.cfg"
        path.write_text(_SETTINGS.format(database=database.resolve()))
        return path

    def build_seed(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        done = subprocess.run([str(VENV / "bin" / "python"), "-I", str(Path(__file__).with_name("ihatemoney_seed.py"))],
                              env={"IHATEMONEY_SETTINGS_FILE_PATH": str(self._settings(path)), "PATH": "/usr/bin:/bin"},
                              cwd=self.workdir, capture_output=True, text=True, timeout=180)
        if done.returncode != 0:
            raise ConfigError(f"could not build the I Hate Money project in {path}: {done.stderr.strip()[-1500:]}")

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([str(VENV / "bin" / "ihatemoney"), "run", "--host", "127.0.0.1", "--port", str(self.port)],
                {"IHATEMONEY_SETTINGS_FILE_PATH": str(self._settings(self.live)), "PYTHONUNBUFFERED": "1"})

    def reset_page(self, page: "DevicePage") -> None:
        """Log the browser in to the project unless its session already is (it outlives database resets)."""
        page.load(self.start_url)
        if page.url().rstrip("/").endswith(f"/{PROJECT}"):
            return
        page.load(f"{self.base_url}/authenticate")
        page.fill("#id", PROJECT)
        page.fill("#password", CODE)
        page.click("form [type=submit]")
        page.wait("0.5")
        if not page.url().rstrip("/").endswith(f"/{PROJECT}"):
            raise ConfigError(f"could not log in to the I Hate Money project {PROJECT!r} (at {page.url()})")
