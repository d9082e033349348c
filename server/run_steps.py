"""Step recording: what hosts report about the runs they execute, accepted only from the right host."""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from server.db import DeviceRow, RunRow, StepRow
from server.run_queue import Reservation
from server.storage import StorageError, is_run_id
from shared.errors import RequestError
from shared.models import RunStatus, StepResult
from shared.protocol import DashboardEvent


from shared.messages import Ack, RunFinished, StepReport

log = logging.getLogger(__name__)

STEP_ARRIVAL_S = 10.0   # how long the end of a run waits for the step records its host says it sent


@dataclass(frozen=True)
class Acceptance:
    """What :meth:`StepIngest._accepts` decided about a host's report on a run."""

    run_id: str | None            # the run reported on, when the report is accepted
    device_id: str = ""           # its device
    abort: bool = False           # refused, and the host should abort the run (the server ended it)


class StepIngest:
    """Part of :class:`server.runs.RunService`: step results (acknowledged once, stored once) and run ends."""

    # -- host events -------------------------------------------------------------------
    def _accepts(self, s: Session, host_id: str | None, data: Any, event: str) -> Acceptance:
        """Whether *host_id* may report on that run now (read in the caller's transaction *s*);
        when not, whether to tell the host to abort it.

        A host reports only on the run the server dispatched to it, while that run is running on
        one of its devices: a forged, late or misdirected event is refused and nothing is stored.
        A late event for a run the server ended on that host's device means the host is still
        executing it (it hung, or lost the link): it is told to abort.
        """
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id):
            log.warning("%s from host %s refused: %r is not a run id", event, host_id, str(run_id)[:40])
            return Acceptance(None)
        run = s.get(RunRow, run_id)
        device = s.get(DeviceRow, run.device_id) if run is not None else None
        status, owner = (run.status, device.host_id if device else None) if run is not None else (None, None)
        hold = self.queue.holder(run.device_id, s) if run is not None else None
        held = hold is not None and hold.run_id == run_id
        if run is None or host_id is None or owner != host_id or status != RunStatus.RUNNING.value or not held \
                or hold.state is not Reservation.RESERVED:
            why = ("unknown run" if run is None else "unregistered connection" if host_id is None
                   else f"the run belongs to host {owner!r}" if owner != host_id else f"the run is {status}")
            log.warning("%s for run %s from host %s refused: %s", event, run_id, host_id, why)
            return Acceptance(None, abort=bool(run is not None and owner == host_id and host_id is not None and held))
        return Acceptance(run_id, run.device_id)

    def on_step(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Store one step result; the reply acknowledges it (``ok``), or tells the host to ``abort`` the run.

        The check that the host may report, the check that the step is new and the step's record share
        one transaction; a step with a screenshot is recorded in a second one, after the picture is
        written with no transaction open (a slow disk holds no database connection).
        """
        with self.db.session() as s:
            accepted = self._accepts(s, host_id, data, "step_result")
            run_id = accepted.run_id
            if run_id is None:
                return Ack(False, accepted.abort).to_wire()
            try:
                result = StepReport.from_wire(data).step
            except ValueError as exc:
                log.warning("step_result for run %s from host %s refused: malformed step (%s)", run_id, host_id, exc)
                return Ack(False).to_wire()
            if s.scalars(select(StepRow.id).where(StepRow.run_id == run_id, StepRow.step == result.step)).first():
                return Ack(True).to_wire()   # sent again after a reconnect: acknowledged once, stored once
            step = None if result.screenshot else self._record_step(s, run_id, result, result.message, "")
        if step is None:
            shot_path, message = self._save_screenshot(host_id, run_id, result)
            with self.db.session() as s:
                step = self._record_step(s, run_id, result, message, shot_path)
        device_id = accepted.device_id
        with self._stored:
            self._steps_here[run_id] = self._steps_here.get(run_id, 0) + 1
            self._stored.notify_all()
        # None: an action ran and the host did not locate its screen yet (it does at the next need)
        self.lab.current_node[device_id] = result.current_node
        self.emit(DashboardEvent.STEP, {"run_id": run_id, "step": step})
        return Ack(True).to_wire()

    def _save_screenshot(self, host_id: str | None, run_id: str, result: StepResult) -> tuple[str, str]:
        """Write the step's screenshot: (its path, or "" when it was not saved; the step's message, saying why)."""
        message = result.message
        try:
            return str(self.files.save_screenshot(run_id, result.step, result.screenshot)), message
        except StorageError as exc:
            log.error("run %s step %d: %s", run_id, result.step, exc)
            message += f" (screenshot not saved: {exc.strerror})"
        except RequestError as exc:
            log.warning("run %s: screenshot of step %r from host %s refused: %s", run_id, result.step,
                        host_id, exc)
        return "", message

    def _record_step(self, s: Session, run_id: str, result: StepResult, message: str,
                     shot_path: str) -> dict[str, Any]:
        """Add the step's record in transaction *s*; the step as the API shows it."""
        row = StepRow(run_id=run_id, step=result.step, command=result.command, params=result.params,
                      controller_type=result.controller_type, status=result.status.value, message=message,
                      description=result.description, duration_ms=result.duration_ms,
                      screenshot=shot_path, current_node=result.current_node or "")
        s.add(row)
        s.flush()
        return self.records.step_dict(row)

    def on_finished(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        with self.db.session() as s:
            accepted = self._accepts(s, host_id, data, "run_finished")
        run_id, device_id = accepted.run_id, accepted.device_id
        if run_id is None:
            self._abort_confirmed(host_id, data)
            return Ack(False).to_wire()
        try:
            end = RunFinished.from_wire(data)
        except ValueError as exc:
            log.warning("run_finished for run %s from host %s refused: %s", run_id, host_id, exc)
            return Ack(False).to_wire()
        if device_id:
            self.lab.current_node[device_id] = end.current_node
        with self._lock:
            self._host_idle.add(run_id)
        self.spawn(self._conclude, run_id, end.status, end.message, end.steps_sent)
        return Ack(True).to_wire()

    def _abort_confirmed(self, host_id: str | None, data: Any) -> None:
        """The end of a run the server had already ended: its host stopped, so its device is free."""
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id) or host_id is None:
            return
        device_id = self._device_of(run_id)
        hold = self.queue.holder(device_id) if device_id else None
        if hold is not None and hold.run_id == run_id and hold.state is Reservation.ABORTING \
                and self._host_of(device_id) == host_id:
            log.info("run %s: host %s confirmed the abort; %s is free", run_id, host_id, device_id)
            self._release(device_id, run_id)


    def _stored_steps(self, run_id: str) -> int:
        with self.db.session() as s:
            return s.scalar(select(func.count(StepRow.id)).where(StepRow.run_id == run_id)) or 0

    def _await_steps(self, run_id: str, steps_sent: int | None) -> None:
        """Wait until the step records the host says it sent are stored (woken by each stored step).

        Step results and the end of a run are separate events, which may be handled out of
        order; a run must not end — nor be re-planned, reported or cached — without its steps.
        """
        if not steps_sent:
            return
        deadline = dt.datetime.now().timestamp() + STEP_ARRIVAL_S
        with self._stored:
            # the steps this process stored are enough; else count them all (another server may store some)
            while self._steps_here.get(run_id, 0) < steps_sent and (stored := self._stored_steps(run_id)) < steps_sent:
                left = deadline - dt.datetime.now().timestamp()
                if left <= 0:
                    log.warning("run %s: the host sent %d step(s), %d arrived; ending it with those", run_id,
                                steps_sent, stored)
                    return
                self._stored.wait(min(left, 1.0))
