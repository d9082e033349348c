"""Runs: the queue per device, planning through AI Central, dispatch to hosts, and the record of steps.

Lifecycle: ``queued → planning → (planned | infeasible | running) → (passed | failed | error)``.
A device runs one run at a time; later runs for it wait in its queue.
"""
from __future__ import annotations

import datetime as dt
import logging
import threading
import uuid
from collections import deque
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import select

from server.ai_central import AICentral
from server.db import Database, DeviceRow, RunRow, StepRow, utcnow
from server.lab import Lab
from server.reports import write_run_report
from server.storage import FileStore, StorageError
from shared.errors import DevicePilotError, HostUnavailable, RequestError
from shared.models import Plan, PlannerName, RunStatus, StepResult
from shared.plan import validate_plan
from shared.protocol import ServerEvent

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]


def _iso(t: dt.datetime | None) -> str | None:
    return t.isoformat() + "Z" if t else None


class RunService:
    def __init__(self, db: Database, lab: Lab, ai: AICentral, files: FileStore, emit: Emit,
                 spawn: Callable[..., Any], max_task_chars: int = 2000) -> None:
        self.db = db
        self.lab = lab
        self.ai = ai
        self.files = files
        self.emit = emit
        self.spawn = spawn
        self.max_task_chars = max_task_chars
        self._lock = threading.Lock()
        self._queues: dict[str, deque[str]] = {}
        self._active: dict[str, str] = {}   # device_id -> run_id
        self._done = threading.Condition()
        self.hooks_finished: list[Callable[[str], None]] = []

    # -- creating ------------------------------------------------------------------------
    def create(self, device_id: Any, task: Any, mode: Any = "run", plan: Any = None) -> dict[str, Any]:
        if not isinstance(device_id, str) or not device_id:
            raise RequestError("'device' is required: the id of a device (see GET /api/devices)")
        if not isinstance(task, str) or not task.strip():
            raise RequestError("'task' is required: a plain-language test task")
        if len(task) > self.max_task_chars:
            raise RequestError(f"'task' is {len(task)} characters; the limit is {self.max_task_chars}")
        if mode not in ("plan", "run"):
            raise RequestError("'mode' must be 'plan' or 'run'")
        if plan is not None and not isinstance(plan, dict):
            raise RequestError("'plan' must be an object {analysis, feasible, plan: [...]}")
        self.lab.device(device_id)  # unknown device -> RequestError
        run_id = uuid.uuid4().hex[:12]
        with self.db.session() as s:
            s.add(RunRow(id=run_id, device_id=device_id, task=task.strip(), mode=mode,
                         status=RunStatus.QUEUED.value, plan={"user_plan": plan} if plan else {}))
        log.info("run %s queued on %s: %r", run_id, device_id, task[:200])
        with self._lock:
            self._queues.setdefault(device_id, deque()).append(run_id)
        self._kick(device_id)
        return self.get(run_id)

    def _kick(self, device_id: str) -> None:
        with self._lock:
            if device_id in self._active or not self._queues.get(device_id):
                return
            run_id = self._queues[device_id].popleft()
            self._active[device_id] = run_id
        self.lab.set_busy(device_id, True)
        self.spawn(self._process, run_id)

    def _release(self, device_id: str, run_id: str) -> None:
        with self._lock:
            if self._active.get(device_id) == run_id:
                del self._active[device_id]
        self.lab.set_busy(device_id, False)
        self._kick(device_id)

    # -- planning and dispatch ---------------------------------------------------------
    def _process(self, run_id: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device_id, task, mode, stored = run.device_id, run.task, run.mode, run.plan or {}
        try:
            self._update(run_id, status=RunStatus.PLANNING)
            context = self.ai.context(device_id)
            user_plan = stored.get("user_plan")
            if user_plan:
                raw = Plan.from_dict(user_plan)
                raw.planner = PlannerName.USER.value
                plan, usage, plan_ms = validate_plan(raw, context), {}, 0.0
            else:
                outcome = self.ai.plan(task, context)
                plan, usage, plan_ms = outcome.plan, outcome.usage, outcome.duration_ms
            self._update(run_id, plan=plan.to_dict(), planner=plan.planner, usage=usage,
                         start_node=context.current_node or "",
                         event=f"planned by {plan.planner} in {plan_ms:.1f} ms")
            if not plan.feasible:
                self._finish(run_id, RunStatus.INFEASIBLE, plan.analysis or "the device cannot do this task")
                return
            if mode == "plan":
                self._finish(run_id, RunStatus.PLANNED, f"{len(plan.steps)} step(s) planned")
                return
            self._update(run_id, status=RunStatus.RUNNING, started=True)
            reply = self.lab.call(device_id, ServerEvent.RUN_PLAN,
                                  {"run_id": run_id, "device_id": device_id, "plan": plan.to_dict()})
            if not reply or not reply.get("accepted"):
                raise HostUnavailable(f"host refused the run: {reply.get('error') if reply else 'no reply'}")
        except RequestError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc))
        except DevicePilotError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc))
        except Exception as exc:  # never leave a run hanging in "planning"
            log.exception("run %s: unexpected error", run_id)
            self._finish(run_id, RunStatus.ERROR, f"server error: {type(exc).__name__}: {exc}")

    # -- host events -------------------------------------------------------------------
    def on_step(self, host_id: str | None, data: dict[str, Any]) -> None:
        run_id = str(data.get("run_id"))
        result = StepResult.from_wire(data["step"])
        shot_path = ""
        message = result.message
        if result.screenshot:
            try:
                shot_path = str(self.files.save_screenshot(run_id, result.step, result.screenshot))
            except StorageError as exc:
                log.error("run %s step %d: %s", run_id, result.step, exc)
                message += f" (screenshot not saved: {exc.strerror})"
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                log.warning("step for unknown run %s from host %s ignored", run_id, host_id)
                return
            row = StepRow(run_id=run_id, step=result.step, command=result.command, params=result.params,
                          controller_type=result.controller_type, status=result.status.value, message=message,
                          description=result.description, duration_ms=result.duration_ms,
                          screenshot=shot_path, current_node=result.current_node or "")
            s.add(row)
            s.flush()
            step = self._step_dict(row)
        if result.current_node:
            self.lab.current_node[self._device_of(run_id)] = result.current_node
        self.emit("step", {"run_id": run_id, "step": step})

    def on_finished(self, host_id: str | None, data: dict[str, Any]) -> None:
        run_id = str(data.get("run_id"))
        try:
            status = RunStatus(data.get("status"))
        except ValueError:
            status = RunStatus.ERROR
        device_id = self._device_of(run_id)
        if device_id:
            self.lab.current_node[device_id] = data.get("current_node")
        self._finish(run_id, status, str(data.get("message", "")))

    def on_host_lost(self, host_id: str) -> None:
        """A host disconnected: its runs end ``error``; their devices are released."""
        with self.db.session() as s:
            devices = [d for d in s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id))]
        for device_id in devices:
            with self._lock:
                run_id = self._active.get(device_id)
            if run_id:
                self._finish(run_id, RunStatus.ERROR, f"host {host_id!r} disconnected mid-run")

    # -- state ------------------------------------------------------------------------
    def _device_of(self, run_id: str) -> str:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            return run.device_id if run else ""

    def _update(self, run_id: str, *, status: RunStatus | None = None, plan: dict | None = None,
                planner: str | None = None, usage: dict | None = None, start_node: str | None = None,
                event: str | None = None, started: bool = False) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if status is not None:
                run.status = status.value
            if plan is not None:
                run.plan = plan
            if planner is not None:
                run.planner = planner
            if usage is not None:
                run.usage = usage
            if start_node is not None:
                run.start_node = start_node
            if event:
                run.events = [*(run.events or []), {"at": _iso(utcnow()), "message": event}]
            if started:
                run.started_at = utcnow()
        self.emit("run_update", self.get(run_id, with_steps=False))

    def _finish(self, run_id: str, status: RunStatus, message: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or RunStatus(run.status).finished:
                return
            run.status, run.message, run.finished_at = status.value, message[:4000], utcnow()
            device_id = run.device_id
        log.info("run %s %s: %s", run_id, status.value, message)
        try:
            write_run_report(self.get(run_id), self.files)
        except (OSError, StorageError) as exc:
            log.error("run %s: report not written: %s", run_id, exc)
        self._release(device_id, run_id)
        for hook in self.hooks_finished:
            try:
                hook(run_id)
            except Exception:  # a hook must not break the run's end
                log.exception("run-finished hook failed for %s", run_id)
        self.emit("run_update", self.get(run_id, with_steps=False))
        with self._done:
            self._done.notify_all()

    def wait(self, run_id: str, timeout: float) -> dict[str, Any]:
        """Block until the run has finished or *timeout* passed; return the run."""
        deadline = dt.datetime.now().timestamp() + timeout
        with self._done:
            while True:
                run = self.get(run_id, with_steps=False)
                remaining = deadline - dt.datetime.now().timestamp()
                if RunStatus(run["status"]).finished or remaining <= 0:
                    return self.get(run_id)
                self._done.wait(min(remaining, 1.0))

    def cancel(self, run_id: str) -> dict[str, Any]:
        run = self.get(run_id, with_steps=False)
        status = RunStatus(run["status"])
        if status.finished:
            return run
        with self._lock:
            queue = self._queues.get(run["device_id"], deque())
            queued = run_id in queue
            if queued:
                queue.remove(run_id)
        if queued:
            self._finish_unqueued(run_id)
        else:
            try:
                self.lab.call(run["device_id"], ServerEvent.CANCEL_RUN, {"run_id": run_id}, timeout=5)
            except DevicePilotError as exc:
                self._finish(run_id, RunStatus.ERROR, f"cancelled; host unreachable: {exc}")
        return self.get(run_id, with_steps=False)

    def _finish_unqueued(self, run_id: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            run.status, run.message, run.finished_at = RunStatus.ERROR.value, "cancelled before it started", utcnow()
        self.emit("run_update", self.get(run_id, with_steps=False))

    # -- reading ----------------------------------------------------------------------
    def _step_dict(self, row: StepRow) -> dict[str, Any]:
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

    def _run_dict(self, run: RunRow, with_steps: bool) -> dict[str, Any]:
        plan = {k: v for k, v in (run.plan or {}).items() if k != "user_plan"}
        d = {"id": run.id, "device_id": run.device_id, "task": run.task, "mode": run.mode,
             "status": run.status, "planner": run.planner or None, "plan": plan or None,
             "message": run.message, "usage": run.usage or {}, "events": run.events or [],
             "start_node": run.start_node or None,
             "created_at": _iso(run.created_at), "started_at": _iso(run.started_at),
             "finished_at": _iso(run.finished_at),
             "report": str(self.files.reports / f"{run.id}.html") if RunStatus(run.status).finished else None,
             "links": {"html": f"/api/runs/{run.id}/report.html", "json": f"/api/runs/{run.id}/report.json",
                       "junit": f"/api/runs/{run.id}/report.xml"}}
        if with_steps:
            d["steps"] = [self._step_dict(st) for st in run.steps]
        return d

    def get(self, run_id: str, with_steps: bool = True) -> dict[str, Any]:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                raise RequestError(f"no run {run_id!r}")
            return self._run_dict(run, with_steps)

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
            return [self._run_dict(r, with_steps=False) for r in rows]
