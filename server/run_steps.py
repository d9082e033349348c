"""Step recording: what hosts report about the runs they execute, accepted only from the right host."""
from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from sqlalchemy import select

from server.db import DeviceRow, RunRow, StepRow
from server.run_queue import Reservation
from server.storage import StorageError, is_run_id
from shared.errors import RequestError
from shared.models import RunStatus
from shared.protocol import DashboardEvent


from shared.messages import Ack, RunFinished, StepReport

log = logging.getLogger(__name__)

STEP_ARRIVAL_S = 10.0   # how long the end of a run waits for the step records its host says it sent


class StepIngest:
    """Part of :class:`server.runs.RunService`: step results (acknowledged once, stored once) and run ends."""

    # -- host events -------------------------------------------------------------------
    def _accepts(self, host_id: str | None, data: Any, event: str) -> tuple[str | None, bool]:
        """(run id, False) when *host_id* may report on that run now; else (None, whether to abort it).

        A host reports only on the run the server dispatched to it, while that run is running on
        one of its devices: a forged, late or misdirected event is refused and nothing is stored.
        A late event for a run the server ended on that host's device means the host is still
        executing it (it hung, or lost the link): it is told to abort.
        """
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id):
            log.warning("%s from host %s refused: %r is not a run id", event, host_id, str(run_id)[:40])
            return None, False
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device = s.get(DeviceRow, run.device_id) if run is not None else None
            status, owner = (run.status, device.host_id if device else None) if run is not None else (None, None)
        hold = self.queue.holder(run.device_id) if run is not None else None
        held = hold is not None and hold.run_id == run_id
        if run is None or host_id is None or owner != host_id or status != RunStatus.RUNNING.value or not held \
                or hold.state is not Reservation.RESERVED:
            why = ("unknown run" if run is None else "unregistered connection" if host_id is None
                   else f"the run belongs to host {owner!r}" if owner != host_id else f"the run is {status}")
            log.warning("%s for run %s from host %s refused: %s", event, run_id, host_id, why)
            return None, bool(run is not None and owner == host_id and host_id is not None and held)
        return run_id, False

    def on_step(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Store one step result; the reply acknowledges it (``ok``), or tells the host to ``abort`` the run."""
        run_id, abort = self._accepts(host_id, data, "step_result")
        if run_id is None:
            return Ack(False, abort).to_wire()
        try:
            result = StepReport.from_wire(data).step
        except ValueError as exc:
            log.warning("step_result for run %s from host %s refused: malformed step (%s)", run_id, host_id, exc)
            return Ack(False).to_wire()
        with self.db.session() as s:
            if s.scalars(select(StepRow.id).where(StepRow.run_id == run_id, StepRow.step == result.step)).first():
                return Ack(True).to_wire()   # sent again after a reconnect: acknowledged once, stored once
        shot_path = ""
        message = result.message
        if result.screenshot:
            try:
                shot_path = str(self.files.save_screenshot(run_id, result.step, result.screenshot))
            except StorageError as exc:
                log.error("run %s step %d: %s", run_id, result.step, exc)
                message += f" (screenshot not saved: {exc.strerror})"
            except RequestError as exc:
                log.warning("run %s: screenshot of step %r from host %s refused: %s", run_id, result.step,
                            host_id, exc)
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            row = StepRow(run_id=run_id, step=result.step, command=result.command, params=result.params,
                          controller_type=result.controller_type, status=result.status.value, message=message,
                          description=result.description, duration_ms=result.duration_ms,
                          screenshot=shot_path, current_node=result.current_node or "")
            s.add(row)
            s.flush()
            step = self.records.step_dict(row)
            device_id = run.device_id
        with self._stored:
            self._stored.notify_all()
        # None: an action ran and the host did not locate its screen yet (it does at the next need)
        self.lab.current_node[device_id] = result.current_node
        self.emit(DashboardEvent.STEP, {"run_id": run_id, "step": step})
        return Ack(True).to_wire()

    def on_finished(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        run_id, _ = self._accepts(host_id, data, "run_finished")
        if run_id is None:
            self._abort_confirmed(host_id, data)
            return Ack(False).to_wire()
        try:
            end = RunFinished.from_wire(data)
        except ValueError as exc:
            log.warning("run_finished for run %s from host %s refused: %s", run_id, host_id, exc)
            return Ack(False).to_wire()
        device_id = self._device_of(run_id)
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
            return len(s.scalars(select(StepRow.id).where(StepRow.run_id == run_id)).all())

    def _await_steps(self, run_id: str, steps_sent: int | None) -> None:
        """Wait until the step records the host says it sent are stored (woken by each stored step).

        Step results and the end of a run are separate events, which may be handled out of
        order; a run must not end — nor be re-planned, reported or cached — without its steps.
        """
        if not steps_sent:
            return
        deadline = dt.datetime.now().timestamp() + STEP_ARRIVAL_S
        with self._stored:
            while (stored := self._stored_steps(run_id)) < steps_sent:
                left = deadline - dt.datetime.now().timestamp()
                if left <= 0:
                    log.warning("run %s: the host sent %d step(s), %d arrived; ending it with those", run_id,
                                steps_sent, stored)
                    return
                self._stored.wait(min(left, 1.0))
