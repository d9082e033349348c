"""Suites the server runs on a schedule (cron), kept with APScheduler's SQLAlchemy job store.

A schedule names a suite (the same YAML as ``devicepilot suite``), a device or model, and a
cron expression ("0 2 * * *": every night at 02:00, server time). When it fires, the server
queues the suite's setup, tasks and teardown as runs on the device, in order; the runs are
ordinary runs (history, reports, audit). The job store is the server's database, so schedules
survive restarts. With several servers sharing a database, run the scheduler on one of them
(``DEVICEPILOT_SCHEDULER=off`` on the others).
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

import yaml
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from devicepilot.suite import Kind, SuiteError, parse_suite
from server.db import Base
from shared.errors import DevicePilotError, NotFound, RequestError

log = logging.getLogger(__name__)

_SERVICES: dict[str, "Schedules"] = {}   # the job function finds its service by the job store's url


@dataclass(frozen=True)
class Schedule:
    name: str
    cron: str
    suite: dict[str, Any]
    device: str
    next_run: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "cron": self.cron, "device": self.device, "suite": self.suite,
                "next_run": self.next_run}


def fire(store_url: str, name: str) -> None:
    """The job: queue the scheduled suite's runs (a module-level function, so the job store can keep it)."""
    service = _SERVICES.get(store_url)
    if service is None:
        log.error("schedule %s fired with no server to run it", name)
        return
    service.queue_suite(name)


class Schedules:
    def __init__(self, runs: Any, lab: Any, database_url: str) -> None:
        self.runs, self.lab, self.url = runs, lab, database_url
        self.scheduler = BackgroundScheduler(jobstores={"default": SQLAlchemyJobStore(url=database_url,
                                                                                      tablename="suite_schedules")},
                                             job_defaults={"coalesce": True, "misfire_grace_time": 300},
                                             timezone="UTC")
        _SERVICES[database_url] = self

    @property
    def enabled(self) -> bool:
        return os.environ.get("DEVICEPILOT_SCHEDULER", "on").strip().lower() not in ("off", "0", "false")

    def start(self) -> None:
        """Fire schedules from now on (unless ``DEVICEPILOT_SCHEDULER=off``)."""
        if not self.enabled:
            return
        if not self.scheduler.running:
            self.scheduler.start()
        else:
            self.scheduler.resume()
        log.info("suite scheduler started (%d schedule(s))", len(self.scheduler.get_jobs()))

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def _job_store_ready(self) -> None:
        if not self.scheduler.running:   # jobs can be added before start; they are kept pending until then
            self.scheduler.start(paused=True)

    def add(self, data: Any) -> Schedule:
        if not isinstance(data, dict):
            raise RequestError("a schedule is {name, cron, suite, device?}")
        name, cron = data.get("name"), data.get("cron")
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise RequestError("'name' is required (1-100 characters)")
        if not isinstance(cron, str):
            raise RequestError("'cron' is required: five fields, e.g. \"0 2 * * *\" for 02:00 every day (UTC)")
        try:
            trigger = CronTrigger.from_crontab(cron, timezone="UTC")
        except ValueError as exc:
            raise RequestError(f"'cron' {cron!r} is not a crontab expression: {exc}") from None
        raw = data.get("suite")
        if isinstance(raw, str):
            try:
                raw = yaml.safe_load(raw)
            except yaml.YAMLError as exc:
                raise RequestError(f"'suite' is not valid YAML: {exc}") from None
        suite = parse_suite(raw, f"schedule {name!r}")
        device = data.get("device") or suite.device
        if not device and suite.model:
            device = next((d["id"] for d in self.lab.snapshot()["devices"] if d["model"] == suite.model), "")
        if not isinstance(device, str) or not device:
            raise RequestError("say which device: 'device' here or in the suite (or a 'model' the lab has)")
        self.lab.device(device)   # unknown: 404
        self._job_store_ready()
        if self.scheduler.get_job(name.strip()):
            raise RequestError(f"a schedule named {name!r} exists; delete it first")
        self.scheduler.add_job(fire, trigger, args=[self.url, name.strip()], id=name.strip(), name=name.strip())
        self._meta_store(name.strip(), {"cron": cron, "device": device, "suite": raw})
        return self.get(name.strip())

    def _meta_store(self, name: str, meta: dict[str, Any]) -> None:
        """The suite, device and cron text, readable (the job store keeps the job pickled)."""
        with self.runs.db.session() as s:
            row = s.get(ScheduleMeta, name) or ScheduleMeta(name=name)
            row.meta = meta
            s.add(row)

    def _meta(self, name: str) -> dict[str, Any]:
        with self.runs.db.session() as s:
            row = s.get(ScheduleMeta, name)
            return dict(row.meta) if row else {}

    def get(self, name: str) -> Schedule:
        self._job_store_ready()
        job = self.scheduler.get_job(name)
        if job is None:
            raise NotFound(f"no schedule named {name!r}")
        meta = self._meta(name)
        nxt = getattr(job, "next_run_time", None)
        return Schedule(name, meta.get("cron", ""), meta.get("suite") or {}, meta.get("device", ""),
                        nxt.isoformat() if nxt else None)

    def list(self) -> list[dict[str, Any]]:
        self._job_store_ready()
        return [self.get(job.id).to_dict() for job in self.scheduler.get_jobs()]

    def delete(self, name: str) -> None:
        self._job_store_ready()
        if self.scheduler.get_job(name) is None:
            raise NotFound(f"no schedule named {name!r}")
        self.scheduler.remove_job(name)
        with self.runs.db.session() as s:
            row = s.get(ScheduleMeta, name)
            if row:
                s.delete(row)

    def queue_suite(self, name: str) -> list[str]:
        """Queue the suite's setup, tasks and teardown as runs on its device, in that order."""
        meta = self._meta(name)
        try:
            suite = parse_suite(meta.get("suite"), f"schedule {name!r}")
        except SuiteError as exc:
            log.error("schedule %s: %s", name, exc)
            return []
        queued = []
        for entry in (*suite.setup, *suite.tasks, *suite.teardown):
            try:
                if entry.kind is Kind.TASK:
                    run = self.runs.create(meta["device"], entry.text, "run")
                else:
                    log.warning("schedule %s: test case %s skipped (schedules queue tasks)", name, entry.text)
                    continue
                queued.append(run["id"])
            except DevicePilotError as exc:
                log.error("schedule %s: %r not queued: %s", name, entry.text, exc)
        log.info("schedule %s fired: %d run(s) queued on %s", name, len(queued), meta.get("device"))
        return queued


class ScheduleMeta(Base):
    __tablename__ = "suite_schedule_meta"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
