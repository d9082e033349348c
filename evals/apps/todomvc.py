"""TodoMVC (npm ``todomvc``), its VanillaJS example: a to-do list whose state lives in the page's localStorage.

The package is fetched by ``scripts/install-web-apps.sh`` into ``.webapps/todomvc``
and served as static files; each task starts from the same four todos, written
into the app's own storage before the page loads.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evals.apps.base import ServedApp
from shared.errors import ConfigError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

ROOT = Path(__file__).resolve().parents[2]
APP_DIR = ROOT / ".webapps" / "todomvc" / "vanillajs"
STORE_KEY = "todos-vanillajs"  # the name js/app.js gives its store
SEED = (("Buy milk", False), ("Walk the dog", True), ("Call the plumber", False), ("Pay rent", False))

_WRITE_STORE = "([key, data]) => { localStorage.clear(); localStorage.setItem(key, data); }"
_READ_STORE = "key => localStorage.getItem(key)"


class TodoMVC(ServedApp):
    name = "todomvc"
    device_name = "To-do list (TodoMVC)"
    model = "todomvc"
    userinterface = "todomvc"
    ready_path = "/index.html"

    @classmethod
    def check_installed(cls) -> None:
        if not (APP_DIR / "index.html").exists():
            raise ConfigError(f"app {cls.name!r} is not installed in {APP_DIR.parent}: run "
                              "scripts/install-web-apps.sh (./dp test does once)")

    @property
    def start_url(self) -> str:
        return self.base_url + "/index.html#/"

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
                 "--directory", str(APP_DIR)], {"PYTHONUNBUFFERED": "1"})

    def reset_page(self, page: "DevicePage") -> None:
        todos = [{"title": title, "completed": done, "id": i + 1} for i, (title, done) in enumerate(SEED)]
        page.load(self.base_url + "/index.html")
        page.evaluate(_WRITE_STORE, [STORE_KEY, json.dumps({"todos": todos})])

    def todos(self, page: "DevicePage") -> list[tuple[str, bool]]:
        """The todos as the app stored them: (title, completed)."""
        raw = page.evaluate(_READ_STORE, STORE_KEY)
        if raw is None:
            raise ConfigError("the page holds no TodoMVC store")
        return [(str(t.get("title", "")), bool(t.get("completed"))) for t in json.loads(raw).get("todos", [])]
