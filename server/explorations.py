"""Explorations started from the dashboard: the explorer of ``devicepilot explore``, run by the server.

``POST /api/devices/<id>/explorations`` starts one in a background thread; it
drives the device through the lab (observe, execute, screenshot, as the REST
routes do) and keeps its progress. ``GET /api/explorations/<id>`` answers the
progress and, once done, the draft for the review view (the same file
``devicepilot explore`` writes beside its draft). One exploration at a time
per device; a device running a run is refused. The exploration holds the
device (``RunService.hold``): a run submitted meanwhile is queued and starts
when the exploration ends, so no run's steps interleave with the explorer's.
"""
from __future__ import annotations

import logging
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from explore import draft
from explore.explorer import Explorer, Limits, Progress
from shared.commands import CommandSpec
from shared.errors import DeviceBusy, DevicePilotError, HostUnavailable, NotFound, RequestError
from server.lab import DeviceState
from shared.models import PlanStep
from shared.protocol import ServerEvent
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)

MAX_SCREENS, MAX_DEPTH, MAX_BUDGET_S = 60, 8, 900.0
PROGRESS_KEPT = 200
KEPT_JOBS = 20


class ExplorationStatus(str, Enum):
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"


@dataclass
class LabLink:
    """A device as the explorer sees it, through the server's lab (the in-process twin of ``ApiLink``)."""

    srv: Any
    device_id: str

    def commands(self) -> dict[str, CommandSpec]:
        return dict(self.srv.ai.context(self.device_id).commands)

    def observe(self) -> ScreenObservation:
        reply = self.srv.lab.call(self.device_id, ServerEvent.OBSERVE, {"device_id": self.device_id}, timeout=20)
        if not isinstance(reply, dict):
            raise RequestError(f"the host of device {self.device_id!r} sent no screen observation")
        return ScreenObservation.from_dict(reply)

    def execute(self, command: str, params: dict[str, Any]) -> dict[str, Any]:
        from shared.plan import validate_step

        step, notes = validate_step(PlanStep(1, command, dict(params)), self.srv.ai.context(self.device_id))
        if step is None:
            raise RequestError("; ".join(notes))
        reply = self.srv.lab.call(self.device_id, ServerEvent.EXECUTE,
                                  {"device_id": self.device_id, "command": step.command, "params": step.params})
        reply.pop("screenshot", None)
        self.srv.lab.current_node[self.device_id] = reply.get("current_node")
        return reply

    def screenshot(self) -> bytes | None:
        reply = self.srv.lab.call(self.device_id, ServerEvent.SCREENSHOT, {"device_id": self.device_id}, timeout=15)
        return reply.get("png") if isinstance(reply, dict) else None


@dataclass
class ExplorationJob:
    id: str
    device_id: str
    limits: Limits
    status: ExplorationStatus = ExplorationStatus.RUNNING
    started: float = field(default_factory=time.time)
    progress: list[dict[str, Any]] = field(default_factory=list)
    review: dict[str, Any] | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "device_id": self.device_id, "status": self.status.value,
                             "started": self.started, "message": self.message,
                             "limits": {"max_screens": self.limits.max_screens, "max_depth": self.limits.max_depth,
                                        "budget_s": self.limits.budget_s,
                                        "allow_destructive": self.limits.allow_destructive},
                             "progress": self.progress[-PROGRESS_KEPT:]}
        if self.review is not None:
            d["review"] = self.review
        return d


def limits_from(data: dict[str, Any]) -> Limits:
    """The request's limits, bounded; a wrong type or value is a :class:`RequestError` saying which."""
    def number(key: str, default: float, low: float, high: float, integer: bool) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and int(value) != value):
            raise RequestError(f"{key!r} must be {'a whole number' if integer else 'a number'}, got {value!r}")
        if not low <= value <= high:
            raise RequestError(f"{key!r} must be between {low:g} and {high:g}, got {value!r}")
        return value

    allow = data.get("allow_destructive", False)
    if not isinstance(allow, bool):
        raise RequestError(f"'allow_destructive' must be true or false, got {allow!r}")
    return Limits(int(number("max_screens", 30, 1, MAX_SCREENS, True)), int(number("max_depth", 4, 1, MAX_DEPTH, True)),
                  float(number("budget_s", 240.0, 1, MAX_BUDGET_S, False)), allow)


class Explorations:
    """The server's explorations: started in threads, kept in memory (the draft is the product)."""

    def __init__(self, srv: Any) -> None:
        self.srv = srv
        self._jobs: dict[str, ExplorationJob] = {}
        self._lock = threading.Lock()

    def start(self, device_id: str, limits: Limits) -> ExplorationJob:
        ref = self.srv.lab.device(device_id)          # NotFound for an unknown device
        if self.srv.lab.state(device_id, ref.host_id) == DeviceState.OFFLINE:
            raise HostUnavailable(f"device {device_id!r} is offline: its host is not connected")
        with self._lock:
            if any(j.device_id == device_id and j.status is ExplorationStatus.RUNNING for j in self._jobs.values()):
                raise DeviceBusy(f"device {device_id!r} is already being explored")
            job = ExplorationJob(uuid.uuid4().hex[:12], device_id, limits)
            # the device is held for the exploration: a run submitted meanwhile waits in the queue
            self.srv.runs.hold(device_id, f"exploration {job.id}")   # DeviceBusy while a run has it
            self._jobs[job.id] = job
            for old in sorted(self._jobs.values(), key=lambda j: j.started)[:-KEPT_JOBS]:
                if old.status is not ExplorationStatus.RUNNING:
                    del self._jobs[old.id]
        threading.Thread(target=self._run, args=(job, ref.userinterface), name=f"explore-{job.id}",
                         daemon=True).start()
        return job

    def get(self, job_id: str) -> ExplorationJob:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise NotFound(f"no exploration {job_id!r} (explorations are kept until the server restarts)")
        return job

    def _run(self, job: ExplorationJob, userinterface: str) -> None:
        def progress(p: Progress) -> None:
            job.progress.append({"screens": p.screens, "actions": p.actions, "time_left_s": round(p.time_left_s, 1),
                                 "note": p.note})
            del job.progress[:-PROGRESS_KEPT]

        link = LabLink(self.srv, job.device_id)
        try:
            with tempfile.TemporaryDirectory(prefix="devicepilot-explore-") as tmp:
                out = Path(tmp) / f"{job.device_id}.yaml"
                ex = Explorer(link, job.limits, on_progress=progress,
                              shots_dir=out.parent / f"{out.stem}.screens").explore()
                tree = draft.build(ex, link.commands(), userinterface or job.device_id)
                draft.write(tree, out)
                job.review = draft.review_file(tree, out.parent)
            job.message = f"{ex.stopped_because}: {len(ex.screens)} screens, {ex.actions_tried} actions"
            job.status = ExplorationStatus.DONE
        except DevicePilotError as exc:
            job.message, job.status = f"exploration stopped: {exc}", ExplorationStatus.ERROR
        except Exception as exc:     # a bug must still end the job with a message, not leave it "running"
            log.exception("exploration %s failed", job.id)
            job.message, job.status = f"exploration failed: {exc}", ExplorationStatus.ERROR
        finally:
            self.srv.runs.unhold(job.device_id)   # the runs queued meanwhile start now
        log.info("exploration %s of %s: %s", job.id, job.device_id, job.message)
