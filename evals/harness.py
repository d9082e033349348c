"""Run corpus tasks through the real stack and judge each end state from the app itself.

One :class:`Harness` starts the apps (one or more instances each), writes a
host config with one device per instance (StreamTV with its navigation tree;
the third-party apps with only a ``playwright`` controller and no tree), and
starts devicepilot in local mode (server and host over loopback Socket.IO).
Each task: reset the app's state, apply the task's set-up, ``POST /api/runs``
and wait, then judge. Instances run their tasks in parallel, one task at a
time each (a device runs one run at a time).
"""
from __future__ import annotations

import logging
import os
import queue
import shutil
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import requests
import yaml

from evals.apps import APPS, AppInstance
from evals.apps.streamtv import StreamTV
from evals.corpus import Task
from evals.device_page import DevicePage
from evals.judges import JudgeContext, judge
from evals.scoring import TaskResult
from shared.errors import ConfigError, InfraError

log = logging.getLogger(__name__)

FINISHED = {"planned", "passed", "failed", "error", "infeasible"}


@dataclass
class Slot:
    """One app instance and its device's page; one worker thread runs its tasks one at a time."""

    app: AppInstance
    page: DevicePage | None = None


class Harness:
    def __init__(self, apps: list[str], jobs: int = 1, run_timeout_s: float = 120.0,
                 workdir: Path | None = None, parallel: int = 0, trees: dict[str, Path] | None = None) -> None:
        unknown = [a for a in apps if a not in APPS]
        if unknown:
            raise ConfigError(f"unknown app(s) {unknown}; known: {sorted(APPS)}")
        # a navigation tree to use instead of the app's own (or none): an explored draft, measured on the corpus
        self.trees = {name: Path(path).resolve() for name, path in (trees or {}).items()}
        for name, path in self.trees.items():
            if name not in APPS:
                raise ConfigError(f"--tree names unknown app {name!r}; known: {sorted(APPS)}")
            if not path.is_file():
                raise ConfigError(f"--tree {name}={path}: no such file")
        for name in apps:
            APPS[name].check_installed()
        self.run_timeout_s = run_timeout_s
        # tasks under way at once, over all apps: a dozen browsers acting together on two cores stretch each
        # step many times over, and a check of something shown for a few seconds (a channel banner) misses it
        self.parallel = parallel or max(2, 2 * (os.cpu_count() or 1))
        self._own_workdir = workdir is None
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="devicepilot-eval-"))
        self.slots: dict[str, list[Slot]] = {
            name: [Slot(APPS[name](self.workdir / f"{name}-{i}", i)) for i in range(1, max(1, jobs) + 1)]
            for name in apps}
        self.stack: Any = None
        self.http = requests.Session()

    # -- life cycle -----------------------------------------------------------------
    def __enter__(self) -> "Harness":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def host_config(self) -> dict[str, Any]:
        devices = []
        static_apps: dict[str, str] = {}
        for slots in self.slots.values():
            for slot in slots:
                device = {"id": slot.app.device_id, **slot.app.device_config()}
                if slot.app.name in self.trees:
                    device["navigation_tree"] = str(self.trees[slot.app.name])
                devices.append(device)
                if isinstance(slot.app, StreamTV):
                    static_apps.update(StreamTV.static_apps())
        return {"host": {"id": "eval-host", "name": "Evaluation host"}, "static_apps": static_apps,
                "devices": devices}

    def start(self) -> None:
        from devicepilot.local import LocalStack
        from shared.config import Settings

        for slots in self.slots.values():
            for slot in slots:
                slot.app.start()
        config = self.workdir / "eval-host.yaml"
        config.write_text(yaml.safe_dump(self.host_config(), sort_keys=False))
        # a corpus runs more tasks a minute than a person would: lift the per-user rate limits for it
        for name in ("DEVICEPILOT_RATE_LIMIT_RUNS", "DEVICEPILOT_RATE_LIMIT_EXECUTE"):
            os.environ.setdefault(name, "100000 per minute")
        settings = Settings.from_env()
        settings.data_dir = self.workdir / "data"
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        settings.database_url = ""
        # hundreds of runs a minute: the server's access log would bury the lines that explain a miss
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        self.stack = LocalStack.start(config, settings=settings)
        self.http.headers["Authorization"] = f"Bearer {self.stack.token}"   # local mode's own admin
        for slots in self.slots.values():
            for slot in slots:
                slot.page = DevicePage(self.stack.lab.runtime(slot.app.device_id))

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.stop()
            self.stack = None
        for slots in self.slots.values():
            for slot in slots:
                slot.app.stop()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # -- one task ---------------------------------------------------------------------
    def prepare(self, slot: Slot, task: Task) -> None:
        """Reset the app, then put it in the task's starting state (database rows, page, page actions)."""
        assert slot.page is not None
        slot.page.forget()   # the last run drove the page
        slot.app.reset()
        slot.app.reset_page(slot.page)
        if task.setup.sql:
            slot.page.forget()   # the page shows the rows from before the statements
            if slot.app.database is None:
                raise InfraError(f"task {task.id}: setup.sql on app {slot.app.name!r}, which has no database")
            db = sqlite3.connect(slot.app.database, timeout=10)
            try:
                for statement in task.setup.sql:
                    db.execute(statement)
                db.commit()
            finally:
                db.close()
        slot.page.load(task.setup.url or slot.app.start_url, reuse=True)
        for step in task.setup.steps:
            if step.kind == "fill":
                slot.page.fill(step.target, step.value)
            else:
                getattr(slot.page, step.kind)(step.target)
        self.sync_location(slot)

    def _prepare_with_retry(self, slot: Slot, task: Task) -> None:
        """The set-up, tried once more if it fails: a page load on a loaded machine is the harness's hiccup."""
        try:
            self.prepare(slot, task)
        except Exception as exc:
            log.warning("task %s: set-up failed (%s); trying it once more", task.id, exc)
            self.prepare(slot, task)

    def sync_location(self, slot: Slot) -> None:
        """Tell devicepilot where the device now is: the set-up moved the page behind its back.

        The server plans from the screen the device last reported; a read-only manual command
        (``dump_elements``, as the dashboard's remote pad would send) makes the host locate the
        page and report it. Without that command, locate in-process and record it on the server.
        """
        resp = self.http.post(f"{self.stack.url}/api/devices/{slot.app.device_id}/execute",
                              json={"command": "dump_elements", "params": {}}, timeout=60)
        if resp.ok:
            return
        log.debug("dump_elements not available on %s (%s); locating in-process", slot.app.device_id, resp.text)
        assert slot.page is not None
        node = slot.page.relocate()
        current = getattr(getattr(self.stack.server, "lab", None), "current_node", None)
        if isinstance(current, dict):
            current[slot.app.device_id] = node

    def _run(self, device: str, text: str) -> dict[str, Any]:
        url = self.stack.url
        resp = self.http.post(f"{url}/api/runs", params={"wait": self.run_timeout_s},
                              json={"device": device, "task": text, "mode": "run", "no_cache": True},
                              timeout=self.run_timeout_s + 30)
        if resp.status_code >= 400:
            return {"id": "", "status": "rejected", "message": f"HTTP {resp.status_code}: {resp.text[:300]}",
                    "steps": [], "plan": None}
        run = resp.json()
        deadline = time.monotonic() + self.run_timeout_s
        while run.get("status") not in FINISHED and time.monotonic() < deadline:
            time.sleep(0.2)
            run = self.http.get(f"{url}/api/runs/{run['id']}", timeout=30).json()
        if run.get("status") not in FINISHED:
            self.http.post(f"{url}/api/runs/{run['id']}/cancel", timeout=30)
            run = {**run, "status": "timeout", "message": f"did not finish within {self.run_timeout_s:g}s"}
        return run

    def run_task(self, slot: Slot, task: Task) -> TaskResult:
        assert slot.page is not None
        started = time.monotonic()
        try:
            self._prepare_with_retry(slot, task)
        except Exception as exc:
            return TaskResult(task.id, task.app, task.split.value, task.text, task.expect.value, "setup-error", 0,
                              False, (f"set-up failed: {exc}",), time.monotonic() - started, str(exc))
        try:
            run = self._run(slot.app.device_id, task.text)
        except requests.RequestException as exc:  # the server did not answer: this task's outcome is unknown
            run = {"id": "", "status": "unreachable", "message": f"server did not answer: {exc}", "steps": []}
        verdict = judge(task.judge, JudgeContext(slot.page, slot.app))
        try:
            slot.page.blank()   # until the device's next task: the next set-up loads its own page
        except Exception as exc:  # the next set-up loads a page anyway; this one only saves the machine time
            log.debug("could not empty %s's page after task %s: %s", slot.app.device_id, task.id, exc)
        plan = (run.get("plan") or {}).get("plan") or []
        return TaskResult(
            task.id, task.app, task.split.value, task.text, task.expect.value, str(run.get("status")),
            len(run.get("steps") or []), verdict.ok, verdict.details, round(time.monotonic() - started, 3),
            str(run.get("message") or ""), str(run.get("planner") or ""),
            tuple(f"{s.get('command')}({', '.join(f'{k}={v!r}' for k, v in (s.get('params') or {}).items())})"
                  for s in plan),
            str(run.get("id") or ""))

    # -- many tasks ---------------------------------------------------------------------
    def run_tasks(self, tasks: list[Task], on_result: Callable[[TaskResult], None] | None = None) -> list[TaskResult]:
        """Run *tasks*: each app's instances take its tasks in parallel; results come back in corpus order."""
        queues: dict[str, queue.Queue[tuple[int, Task]]] = {name: queue.Queue() for name in self.slots}
        for i, task in enumerate(tasks):
            if task.app not in queues:
                raise InfraError(f"task {task.id}: app {task.app!r} was not started")
            queues[task.app].put((i, task))
        results: dict[int, TaskResult] = {}
        lock = threading.Lock()
        turns = threading.BoundedSemaphore(self.parallel)
        errors: list[BaseException] = []

        def work(slot: Slot, q: queue.Queue[tuple[int, Task]]) -> None:
            while True:
                try:
                    i, task = q.get_nowait()
                except queue.Empty:
                    return
                try:
                    with turns:
                        result = self.run_task(slot, task)
                except BaseException as exc:  # keep the other workers going; report at the end
                    log.exception("task %s broke the harness", task.id)
                    errors.append(exc)
                    return
                with lock:
                    results[i] = result
                    if on_result:
                        on_result(result)

        threads = [threading.Thread(target=work, args=(slot, queues[name]), name=f"eval-{slot.app.device_id}")
                   for name, slots in self.slots.items() for slot in slots]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise InfraError(f"the evaluation harness broke on {len(errors)} task(s): {errors[0]}") from errors[0]
        return [results[i] for i in sorted(results)]
