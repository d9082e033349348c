"""Reservation leases and reconciliation: the runs of hosts that vanish, hang or outlive a server restart."""
from __future__ import annotations

import logging
import threading
import os
from typing import Any

from sqlalchemy import select

from server.db import DeviceRow, RunRow, utcnow
from server.run_model import RecordError, RunRecord
from server.run_queue import Reservation
from shared.errors import DevicePilotError
from shared.models import RunStatus
from shared.protocol import ServerEvent


from shared.messages import CancelRun, RunReport

log = logging.getLogger(__name__)


def _run_timeout(row: RunRow) -> float | None:
    """The run's ``run_timeout`` option (None for a record the server cannot read: the monitor goes on)."""
    try:
        return RunRecord.of_row(row).options.run_timeout
    except RecordError as exc:
        log.error("%s", exc)
        return None


def _env_seconds(name: str, default: float) -> float:
    try:
        return max(0.2, float(os.environ.get(name, "") or default))
    except ValueError:
        return default


LEASE_S = _env_seconds("DEVICEPILOT_LEASE_S", 30.0)
"""A reservation's lease: renewed by each heartbeat of the device's host (every 10 s by default)."""
RECONCILE_GRACE_S = _env_seconds("DEVICEPILOT_RECONCILE_GRACE_S", 45.0)
"""After a server restart, how long a run left running waits for its host to report it."""

ABORT_WAIT_S = _env_seconds("DEVICEPILOT_ABORT_WAIT_S", 120.0)
"""How long an online host may take to confirm the abort of a run the server ended, before its device is freed."""


class RunLeases:
    """Part of :class:`server.runs.RunService`: start-up reconciliation, the lease monitor, host (re)registration."""

    # -- lifecycle of the service: reconciliation and the lease monitor -----------------
    def start(self, tick_s: float | None = None) -> None:
        """Reconcile what the previous server process left, then watch leases (call once, when serving)."""
        self._reconcile()
        tick = tick_s if tick_s is not None else min(1.0, LEASE_S / 4)
        threading.Thread(target=self._monitor, args=(tick,), name="run-leases", daemon=True).start()

    def stop(self) -> None:
        self._monitor_stop.set()

    def _reconcile(self) -> None:
        """Runs left ``planning`` go back to the queue; runs left ``running`` wait for their host to report them."""
        with self.db.session() as s:
            rows = s.scalars(select(RunRow).where(RunRow.status.in_(
                (RunStatus.QUEUED.value, RunStatus.PLANNING.value, RunStatus.RUNNING.value)))).all()
            runs = [(r.id, r.device_id, RunStatus(r.status)) for r in rows]
        queued = {run_id for run_id, _ in self.queue.entries()}
        for run_id, device_id, status in runs:
            if run_id not in queued:   # a database from before the queue table
                self.queue.enqueue(run_id, device_id)
            if status is RunStatus.PLANNING:
                self.queue.requeue(run_id)
                self._update(run_id, status=RunStatus.QUEUED,
                             event="the server restarted while planning; the run waits to be planned again")
            elif status is RunStatus.RUNNING:
                with self._lock:
                    self._recovering.add(run_id)
                self.queue.renew([device_id], RECONCILE_GRACE_S)
        open_ids = {r[0] for r in runs}
        for run_id, device_id in self.queue.entries():
            if run_id not in open_ids and self.queue.state_of(run_id) is not Reservation.ABORTING:
                self.queue.release(run_id)   # ended, but the previous process died before freeing the device
        if runs:
            log.info("reconciling %d unfinished run(s) left by the previous server process", len(runs))

    def _monitor(self, tick: float) -> None:
        while not self._monitor_stop.wait(tick):
            try:
                self._check_leases()
            except Exception:  # the monitor must outlive a database hiccup
                log.exception("lease check failed")

    def _check_leases(self) -> None:
        for run_id, device_id in self.queue.expired():
            with self._lock:
                recovering = run_id in self._recovering
            if recovering:
                message = (f"server restarted; host did not report the run within {RECONCILE_GRACE_S:.0f} s")
            else:
                host = self._host_of(device_id)
                message = f"host lost: no heartbeat from host {host!r} for {LEASE_S:.0f} s"
            self._finish(run_id, RunStatus.ERROR, message)
        self._check_run_timeouts()
        for run_id, device_id in self.queue.entries(Reservation.ABORTING):
            hold = self.queue.holder(device_id)
            if hold and hold.run_id == run_id and self.lab.is_online(device_id) \
                    and (utcnow() - hold.since).total_seconds() > ABORT_WAIT_S:
                log.warning("run %s: host never confirmed the abort within %.0f s; freeing %s", run_id,
                            ABORT_WAIT_S, device_id)
                self._release(device_id, run_id)
        for device_id in {d for _, d in self.queue.entries(Reservation.QUEUED)}:
            self._kick(device_id)   # runs queued on another server, or whose host came back

    def _check_run_timeouts(self) -> None:
        """A run past its ``run_timeout`` ends ``error``; its host is told to abort."""
        now = utcnow()
        with self.db.session() as s:
            rows = s.scalars(select(RunRow).where(RunRow.status == RunStatus.RUNNING.value)).all()
            late = [(r.id, limit) for r in rows
                    if (limit := _run_timeout(r)) and r.started_at and (now - r.started_at).total_seconds() > limit]
        for run_id, limit in late:
            self._finish(run_id, RunStatus.ERROR, f"run timed out: it ran longer than its run_timeout of {limit:g} s")

    def _host_of(self, device_id: str) -> str:
        with self.db.session() as s:
            dev = s.get(DeviceRow, device_id)
            return dev.host_id if dev else "?"

    def on_heartbeat(self, host_id: str) -> None:
        """The host is alive: its devices' reservations keep their leases."""
        with self.db.session() as s:
            devices = list(s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id)))
        self.queue.renew(devices)

    def on_host_registered(self, host_id: str, reported: Any) -> None:
        """A host (re)connected and said which runs it is executing: reconcile, then start queued runs.

        A run the server still runs and the host reports goes on. A run the host no longer has ends
        ``error``. A run the server ended that the host still executes is aborted, and its device
        waits for the host to confirm.
        """
        running: set[str] = set()
        for item in reported if isinstance(reported, list) else []:
            try:
                running.add(RunReport.from_wire(item).run_id)
            except ValueError as exc:
                log.warning("host %s reported a malformed run: %s", host_id, exc)
        with self.db.session() as s:
            devices = list(s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id)))
        for device_id in devices:
            hold = self.queue.holder(device_id)
            if hold is None:
                continue
            status = RunStatus(self.get(hold.run_id, with_steps=False)["status"])
            if hold.state is Reservation.ABORTING:
                if hold.run_id in running:
                    self._tell_abort(device_id, hold.run_id)
                else:
                    self._release(device_id, hold.run_id)
            elif status is RunStatus.RUNNING and hold.run_id in running:
                with self._lock:
                    self._recovering.discard(hold.run_id)
                self.queue.renew([device_id])
                log.info("run %s: host %s reported it after reconnecting; it goes on", hold.run_id, host_id)
            elif status is RunStatus.RUNNING and hold.run_id not in self._host_idle:
                with self._lock:
                    recovering = hold.run_id in self._recovering
                self._finish(hold.run_id, RunStatus.ERROR,
                             "server restarted; host did not report the run" if recovering
                             else f"host {host_id!r} reconnected without the run", host_done=True)
        for device_id in devices:
            if self.queue.holder(device_id) is not None:
                self.lab.set_busy(device_id, True)
            self._kick(device_id)

    def _tell_abort(self, device_id: str, run_id: str) -> None:
        try:
            self.lab.call(device_id, ServerEvent.CANCEL_RUN, CancelRun(run_id, abort=True).to_wire(), timeout=5)
        except DevicePilotError as exc:
            log.info("run %s: abort not delivered yet (%s); the host is told when it reports again", run_id, exc)


    def on_host_lost(self, host_id: str) -> None:
        """A host disconnected: its runs end ``error``; their devices wait for the host to confirm the abort."""
        with self.db.session() as s:
            devices = [d for d in s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id))]
        for device_id in devices:
            hold = self.queue.holder(device_id)
            if hold is None or hold.state is not Reservation.RESERVED:
                continue
            status = RunStatus(self.get(hold.run_id, with_steps=False)["status"])
            if status is RunStatus.RUNNING:
                self._finish(hold.run_id, RunStatus.ERROR, f"host {host_id!r} disconnected mid-run")
