"""Runs as the API, the dashboard and reports read them: a run with its plan and steps, and run history."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import select

from server.db import Database, RunRow, StepRow
from server.run_model import Run, RunRecord
from server.storage import FileStore
from shared.errors import NotFound


def iso(t: dt.datetime | None) -> str | None:
    return t.isoformat() + "Z" if t else None


class RunRecords:
    def __init__(self, db: Database, files: FileStore) -> None:
        self.db = db
        self.files = files

    def step_dict(self, row: StepRow) -> dict[str, Any]:
        rel = ""
        if row.screenshot:
            try:
                rel = str(Path(row.screenshot).relative_to(self.files.root))
            except ValueError:
                rel = ""
        return {"step": row.step, "command": row.command, "params": row.params,
                "controller_type": row.controller_type, "status": row.status,
                "success": row.status == "passed", "message": row.message, "description": row.description,
                "duration_ms": row.duration_ms, "screenshot": row.screenshot or None,
                "screenshot_url": f"/api/files/{rel}" if rel else None,
                "current_node": row.current_node or None}

    def run_dict(self, run: RunRow, with_steps: bool) -> dict[str, Any]:
        """The run as the API shows it: the JSON edge of :class:`server.run_model.Run`."""
        view = Run.from_row(run)
        plan = view.plan.to_json()
        d = {"id": run.id, "device_id": run.device_id, "task": run.task, "mode": view.mode.value,
             "status": view.status.value, "planner": view.planner.value if view.planner else None,
             "plan": plan or None,
             "message": run.message, "usage": run.usage or {}, "events": run.events or [],
             "start_node": run.start_node or None,
             "next_commands": [c.to_json() for c in view.record.next_commands],
             "created_at": iso(run.created_at), "started_at": iso(run.started_at),
             "finished_at": iso(run.finished_at),
             "report": str(self.files.reports / f"{run.id}.html") if view.status.finished else None,
             "links": {"html": f"/api/runs/{run.id}/report.html", "json": f"/api/runs/{run.id}/report.json",
                       "junit": f"/api/runs/{run.id}/report.xml"}}
        if with_steps:
            d["steps"] = [self.step_dict(st) for st in run.steps]
        return d

    def planning_context(self, run_id: str) -> dict[str, Any]:
        """The device model, userinterface and context fingerprint the run was planned against."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                raise NotFound(f"no run {run_id!r}")
            context = RunRecord.of_row(run).context
            return context.to_json() if context is not None else {}

    def get(self, run_id: str, with_steps: bool = True) -> dict[str, Any]:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                raise NotFound(f"no run {run_id!r}")
            return self.run_dict(run, with_steps)

    def list(self, *, device: str | None = None, status: str | None = None, planner: str | None = None,
             since: dt.datetime | None = None, until: dt.datetime | None = None,
             limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        q = select(RunRow).order_by(RunRow.created_at.desc())
        if device:
            q = q.where(RunRow.device_id == device)
        if status:
            q = q.where(RunRow.status == status)
        if planner:
            q = q.where(RunRow.planner == planner)
        if since:
            q = q.where(RunRow.created_at >= since)
        if until:
            q = q.where(RunRow.created_at <= until)
        with self.db.session() as s:
            rows = s.scalars(q.limit(max(1, min(limit, 500))).offset(max(0, offset))).all()
            return [self.run_dict(r, with_steps=False) for r in rows]
