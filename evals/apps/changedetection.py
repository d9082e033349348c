"""changedetection.io (PyPI ``changedetection.io``), the website change monitor, over a bike shop's twelve watches.

changedetection.io lives in its own virtual environment, made by ``scripts/install-web-apps.sh`` in
``.webapps/changedetection``. Its datastore is a directory of JSON files (``changedetection.json`` for the
settings, ``UUID/watch.json`` per watch, ``UUID/tag.json`` per group, snapshots beside them), built with the
app's own datastore API by :mod:`evals.apps.changedetection_seed` (run with the app's Python) and served by
its own command line through :mod:`evals.apps.changedetection_serve`, which adds two requests for the
harness: a reset and a read of the store.

The app keeps its datastore in memory. Between tasks a ``POST`` to the running server puts the seed's files
back and has the store load them again (``reload_state``, its own loader), in milliseconds and without a
restart. Nothing is fetched from the web while tasks run: every seed
watch was "checked" a minute before the server started and rechecks once a day; a watch a task adds is
checked at once and fails at once (no DNS here), which is what the app shows for an unreachable page.

The judges' ``sql`` checks read :attr:`ChangeDetection.database`: a SQLite copy of the store's watches,
groups and settings as the running app holds them (it writes a watch imported from a list only when it first
checks it, so its files can lag behind its screens), made again each time it is asked for: tables ``watch``,
``tag``, ``watch_tag`` and ``settings``, each with the stored JSON in a ``json`` column besides the columns
:func:`snapshot` names. It is a copy, so a task's ``setup.sql`` does not apply to this app.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import requests

from evals.apps.base import ServedApp, require_venv_command
from shared.errors import ConfigError, InfraError

if TYPE_CHECKING:
    from evals.device_page import DevicePage

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".webapps" / "changedetection" / "venv"
HERE = Path(__file__).resolve().parent
RESET_PATH = "/__devicepilot__/reset"       # the two requests evals/apps/changedetection_serve.py adds
STATE_PATH = "/__devicepilot__/state"
TOKEN = "devicepilot-eval"

_SCHEMA = """
CREATE TABLE watch (uuid TEXT PRIMARY KEY, url TEXT, title TEXT, label TEXT, paused INTEGER, muted INTEGER,
                    processor TEXT, tags TEXT, history INTEGER, last_changed INTEGER, json TEXT);
CREATE TABLE tag (uuid TEXT PRIMARY KEY, title TEXT, json TEXT);
CREATE TABLE watch_tag (watch_uuid TEXT, tag_uuid TEXT, tag_title TEXT);
CREATE TABLE settings (json TEXT);
"""


def snapshot(state: dict[str, Any], target: Path) -> None:
    """Write *target*: a SQLite copy of the watches, groups and settings in *state* (the app's, in memory).

    ``watch.label`` is what the watch list shows (the title, else the URL); ``watch.tags`` the titles of its
    groups as ``,a,b,`` (sorted, as stored case); ``watch.history`` the number of snapshots it holds and
    ``watch.last_changed`` the time of the newest (0: none).
    """
    tags: dict[str, dict[str, Any]] = state.get("tags") or {}
    tmp = target.with_name(target.name + ".tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.executescript(_SCHEMA)
        for uuid, tag in tags.items():
            db.execute("INSERT INTO tag VALUES (?, ?, ?)", (uuid, tag.get("title"), json.dumps(tag)))
        for uuid, watch in (state.get("watches") or {}).items():
            stamps = [int(t) for t in watch.pop("__history", [])]
            titles = sorted(str(tags[t].get("title")) for t in watch.get("tags") or [] if t in tags)
            for t in watch.get("tags") or []:
                db.execute("INSERT INTO watch_tag VALUES (?, ?, ?)", (uuid, t, tags.get(t, {}).get("title")))
            db.execute("INSERT INTO watch VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (uuid, watch.get("url"), watch.get("title"), watch.get("title") or watch.get("url"),
                        int(bool(watch.get("paused"))), int(bool(watch.get("notification_muted"))),
                        watch.get("processor"), "," + ",".join(titles) + "," if titles else "", len(stamps),
                        max(stamps, default=0), json.dumps(watch)))
        db.execute("INSERT INTO settings VALUES (?)", (json.dumps(state.get("settings") or {}),))
        db.commit()
    finally:
        db.close()
    os.replace(tmp, target)


class ChangeDetection(ServedApp):
    name = "changedetection"
    device_name = "Web page watches (changedetection.io)"
    model = "changedetection.io"
    userinterface = "changedetection"
    ready_path = "/"

    def __init__(self, workdir: Path, index: int = 1) -> None:
        super().__init__(workdir, index)
        self.seed = self.workdir / "seed"
        self.live = self.workdir / "datastore"
        self.judge_db = self.workdir / "judge.sqlite3"

    @classmethod
    def check_installed(cls) -> None:
        require_venv_command(cls.name, VENV, "changedetection.io")

    @property
    def start_url(self) -> str:
        return self.base_url + "/"

    @property
    def database(self) -> Path:
        """A SQLite copy of the app's watches, groups and settings as they are now (made again on every read)."""
        snapshot(self._ask("GET", STATE_PATH).json(), self.judge_db)
        return self.judge_db

    def _ask(self, method: str, path: str) -> requests.Response:
        """One of the two requests :mod:`evals.apps.changedetection_serve` adds, with its token."""
        try:
            resp = requests.request(method, self.base_url + path, headers={"X-Devicepilot-Token": TOKEN}, timeout=30)
        except requests.RequestException as exc:
            raise InfraError(f"changedetection.io did not answer {method} {path}: {exc}") from exc
        if resp.status_code >= 300:
            raise InfraError(f"changedetection.io answered {method} {path} with HTTP {resp.status_code}: "
                             f"{resp.text[:300]}")
        return resp

    def build_seed(self, path: Path) -> None:
        """Make the seed datastore in *path* with the app's own datastore API."""
        if path.exists():
            shutil.rmtree(path)
        done = subprocess.run([str(VENV / "bin" / "python"), "-I", str(HERE / "changedetection_seed.py"), str(path)],
                              env={"PATH": "/usr/bin:/bin", "LOGGER_LEVEL": "WARNING"}, cwd=self.workdir,
                              capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0:
            raise ConfigError(f"could not build the changedetection.io datastore {path}: "
                              f"{done.stderr.strip()[-1500:]}")

    def start(self) -> None:
        self.build_seed(self.seed)
        if self.live.exists():
            shutil.rmtree(self.live)
        shutil.copytree(self.seed, self.live)
        super().start()

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([str(VENV / "bin" / "python"), "-I", str(HERE / "changedetection_serve.py"), "-d", str(self.live),
                 "-h", "127.0.0.1", "-p", str(self.port), "-l", "WARNING"],
                {"DEVICEPILOT_SEED_DIR": str(self.seed), "DEVICEPILOT_TOKEN": TOKEN,
                 "LITELLM_LOCAL_MODEL_COST_MAP": "True",    # litellm (an AI option of the app) fetches nothing
                 "REQUESTS_RETRY_MAX_COUNT": "0",           # a check of an unreachable page fails at once, not
                                                            # after six retries (a worker busy for 30 s)
                 "PYTHONUNBUFFERED": "1"})

    def reset(self) -> None:
        """Put the seed's files back and have the running store load them (no restart; milliseconds)."""
        self._ask("POST", RESET_PATH)

    def reset_page(self, page: DevicePage) -> None:
        """Forget the browser's session (a language picked, a flash message), then load the watch list."""
        log.debug("%s: back to the watch list", self.device_id)
        page.call(lambda p: p.context.clear_cookies())
        page.load(self.start_url)
