"""Datasette (PyPI ``datasette``), the read-only explorer of SQLite data, over a small plant nursery."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from evals.apps.base import ProcessApp
from evals.apps.garden_seed import build


class Datasette(ProcessApp):
    name = "datasette"
    device_name = "Nursery data (Datasette)"
    model = "datasette"
    userinterface = "datasette"
    requires = ("datasette",)

    @property
    def start_url(self) -> str:
        return self.base_url + "/"

    def build_seed(self, path: Path) -> None:
        build(path)

    def command(self) -> tuple[list[str], dict[str, str]]:
        exe = shutil.which("datasette", path=str(Path(sys.executable).parent)) or "datasette"
        # the database shows as "nursery": the live copy is linked under that name
        nursery = self.workdir / "nursery.db"
        if not nursery.exists():
            nursery.symlink_to(self.live)
        return ([exe, "serve", str(nursery), "--host", "127.0.0.1", "--port", str(self.port),
                 "--setting", "default_page_size", "50"], {"PYTHONUNBUFFERED": "1"})
