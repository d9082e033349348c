"""sqlite-web (PyPI ``sqlite-web``), the Flask SQLite browser, over a small library database."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from evals.apps.base import ProcessApp
from evals.apps.library_seed import build


class SqliteWeb(ProcessApp):
    name = "sqlite_web"
    device_name = "Library database (sqlite-web)"
    model = "sqlite-web"
    userinterface = "sqlite-web"
    requires = ("sqlite_web",)

    @property
    def start_url(self) -> str:
        return self.base_url + "/"

    def build_seed(self, path: Path) -> None:
        build(path)

    def command(self) -> tuple[list[str], dict[str, str]]:
        exe = shutil.which("sqlite_web", path=str(Path(sys.executable).parent)) or "sqlite_web"
        return ([exe, "--host", "127.0.0.1", "--port", str(self.port), "--no-browser", "--quiet", str(self.live)],
                {"PYTHONUNBUFFERED": "1"})
