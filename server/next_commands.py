"""Commands scheduled for a device's next run: reboot, clear app data, collect logs, go home, any declared command.

A user (``POST /api/devices/<id>/next-commands``) or a run (its ``next_run`` option:
scheduled when it ends) schedules them. Each is validated against the device's
declared commands when scheduled (when the device's commands are known) and again
when it runs: one the device no longer declares is ``skipped`` with a warning and
never sent to the host. They run at the start of the device's next run, in order,
each with its own timeout and retries (errors only), before the run's plan; their
results are attached to that run. Done ones stay in the table for audit.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

from sqlalchemy import JSON, DateTime, Integer, String, Text, select
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, Database, utcnow
from shared.errors import DevicePilotError, RequestError
from shared.models import PlanningContext, PlanStep
from shared.plan import validate_step
from shared.policy import MAX_RETRIES, MAX_STEP_TIMEOUT_S
from shared.protocol import ServerEvent

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
MAX_PENDING = 50          # per device
REFRESH_CONTEXT = "refresh_context"   # handled by the server: forget the cached context of the device


class NextStatus(str, Enum):
    PENDING = "pending"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"     # not a command the device declares (any more): never sent


class NextCommandRow(Base):
    __tablename__ = "next_commands"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    device_id: Mapped[str] = mapped_column(String(64), index=True)
    command: Mapped[str] = mapped_column(String(100))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default=NextStatus.PENDING.value, index=True)
    retries: Mapped[int] = mapped_column(Integer, default=0)
    max_retries: Mapped[int] = mapped_column(Integer, default=0)
    timeout_s: Mapped[float] = mapped_column(default=DEFAULT_TIMEOUT_S)
    source: Mapped[str] = mapped_column(String(120), default="")     # "user:alice", "run:<id>"
    message: Mapped[str] = mapped_column(Text, default="")
    run_id: Mapped[str] = mapped_column(String(32), default="")     # the run it ran at the start of
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


@dataclass(frozen=True)
class NextCommand:
    id: int
    device_id: str
    command: str
    params: dict[str, Any]
    status: NextStatus
    retries: int
    max_retries: int
    timeout_s: float
    source: str
    message: str
    run_id: str
    created_at: dt.datetime
    finished_at: dt.datetime | None

    @classmethod
    def of(cls, row: NextCommandRow) -> "NextCommand":
        return cls(row.id, row.device_id, row.command, dict(row.params or {}), NextStatus(row.status), row.retries,
                   row.max_retries, row.timeout_s, row.source, row.message, row.run_id, row.created_at,
                   row.finished_at)

    def to_dict(self) -> dict[str, Any]:
        iso = lambda t: t.isoformat() + "Z" if t else None   # noqa: E731
        return {"id": self.id, "device_id": self.device_id, "command": self.command, "params": self.params,
                "status": self.status.value, "retries": self.retries, "max_retries": self.max_retries,
                "timeout_s": self.timeout_s, "source": self.source, "message": self.message,
                "run_id": self.run_id or None, "created_at": iso(self.created_at), "finished_at": iso(self.finished_at)}


def parse_request(data: Any, where: str = "next-run command") -> tuple[str, dict[str, Any], int, float]:
    """``{command, params?, max_retries?, timeout?}`` → its parts; a bad value is a 400 naming it."""
    if not isinstance(data, dict):
        raise RequestError(f"a {where} is an object {{command, params, max_retries, timeout}}")
    command, params = data.get("command"), data.get("params") or {}
    if not isinstance(command, str) or not command.strip():
        raise RequestError(f"{where}: 'command' is required: one of the device's commands, or {REFRESH_CONTEXT}")
    if not isinstance(params, dict):
        raise RequestError(f"{where}: 'params' must be an object")
    retries, timeout = data.get("max_retries", 0), data.get("timeout", DEFAULT_TIMEOUT_S)
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
        raise RequestError(f"{where}: 'max_retries' must be a whole number from 0 to {MAX_RETRIES}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_STEP_TIMEOUT_S:
        raise RequestError(f"{where}: 'timeout' must be seconds, more than 0 and at most {MAX_STEP_TIMEOUT_S:g}")
    return command.strip(), dict(params), retries, float(timeout)


class NextCommands:
    """The store, the two validations, and the running at the start of a run."""

    def __init__(self, db: Database, context_of: Callable[[str], PlanningContext],
                 call: Callable[..., Any], forget_context: Callable[[str], None]) -> None:
        self.db = db
        self.context_of = context_of          # AI Central's (cached) context of a device
        self.call = call                      # Lab.call: a request to the device's host
        self.forget_context = forget_context

    # -- scheduling ------------------------------------------------------------------
    def schedule(self, device_id: str, data: Any, source: str) -> NextCommand:
        command, params, retries, timeout = parse_request(data)
        if command != REFRESH_CONTEXT:
            try:
                context = self.context_of(device_id)
            except DevicePilotError as exc:   # host offline: checked when it runs
                log.warning("next-run command %s for %s scheduled unchecked (%s); it is checked when it runs",
                            command, device_id, exc)
            else:
                step, notes = validate_step(PlanStep(1, command, params), context)
                if step is None:
                    raise RequestError(f"{device_id} cannot run {command!r}: {'; '.join(notes)}")
                command, params = step.command, step.params
        with self.db.session() as s:
            pending = s.scalars(select(NextCommandRow.id).where(
                NextCommandRow.device_id == device_id, NextCommandRow.status == NextStatus.PENDING.value)).all()
            if len(pending) >= MAX_PENDING:
                raise RequestError(f"{device_id} already has {MAX_PENDING} commands waiting for its next run")
            row = NextCommandRow(device_id=device_id, command=command, params=params, max_retries=retries,
                                 timeout_s=timeout, source=source[:120])
            s.add(row)
            s.flush()
            log.info("next-run command %d for %s: %s %s (%s)", row.id, device_id, command, params, source)
            return NextCommand.of(row)

    def cancel(self, device_id: str, command_id: int) -> NextCommand:
        with self.db.session() as s:
            row = s.get(NextCommandRow, command_id)
            if row is None or row.device_id != device_id:
                from shared.errors import NotFound

                raise NotFound(f"no next-run command {command_id} for device {device_id!r}")
            if row.status == NextStatus.PENDING.value:
                row.status, row.message, row.finished_at = NextStatus.SKIPPED.value, "cancelled by a user", utcnow()
            return NextCommand.of(row)

    def listing(self, device_id: str, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        with self.db.session() as s:
            pending = s.scalars(select(NextCommandRow).where(
                NextCommandRow.device_id == device_id, NextCommandRow.status == NextStatus.PENDING.value)
                .order_by(NextCommandRow.id)).all()
            done = s.scalars(select(NextCommandRow).where(
                NextCommandRow.device_id == device_id, NextCommandRow.status != NextStatus.PENDING.value)
                .order_by(NextCommandRow.id.desc()).limit(max(1, min(limit, 1000)))).all()
            return {"pending": [NextCommand.of(r).to_dict() for r in pending],
                    "archived": [NextCommand.of(r).to_dict() for r in done]}

    # -- running ---------------------------------------------------------------------
    def run_due(self, device_id: str, run_id: str) -> list[dict[str, Any]]:
        """Run the device's pending commands, in order, at the start of *run_id*; return their results."""
        with self.db.session() as s:
            due = [NextCommand.of(r) for r in s.scalars(select(NextCommandRow).where(
                NextCommandRow.device_id == device_id, NextCommandRow.status == NextStatus.PENDING.value)
                .order_by(NextCommandRow.id))]
        results = [self._run_one(item, run_id) for item in due]
        return [r.to_dict() for r in results]

    def _run_one(self, item: NextCommand, run_id: str) -> NextCommand:
        if item.command == REFRESH_CONTEXT:
            self.forget_context(item.device_id)
            return self._done(item, run_id, NextStatus.COMPLETED, "the device's context will be asked again", 0)
        try:
            context = self.context_of(item.device_id)
        except DevicePilotError as exc:
            return self._done(item, run_id, NextStatus.FAILED, f"the device's commands are unknown: {exc}", 0)
        step, notes = validate_step(PlanStep(1, item.command, item.params), context)
        if step is None:
            log.warning("next-run command %d (%s) skipped: %s", item.id, item.command, "; ".join(notes))
            return self._done(item, run_id, NextStatus.SKIPPED, "skipped, never sent: " + "; ".join(notes), 0)
        attempt = 0
        while True:
            try:
                reply = self.call(item.device_id, ServerEvent.EXECUTE,
                                  {"device_id": item.device_id, "command": step.command, "params": step.params},
                                  timeout=item.timeout_s) or {}
            except DevicePilotError as exc:
                reply = {"status": "error", "message": str(exc)}
            status = reply.get("status") or ("error" if reply.get("error") else "passed")
            message = str(reply.get("message") or reply.get("error") or "")
            if status != "error" or attempt >= item.max_retries:
                break
            attempt += 1
            log.warning("next-run command %d (%s): error, retry %d of %d: %s", item.id, item.command, attempt,
                        item.max_retries, message)
        final = NextStatus.COMPLETED if status == "passed" else NextStatus.FAILED
        return self._done(item, run_id, final, message, attempt)

    def _done(self, item: NextCommand, run_id: str, status: NextStatus, message: str, retries: int) -> NextCommand:
        with self.db.session() as s:
            row = s.get(NextCommandRow, item.id)
            row.status, row.message, row.run_id = status.value, message[:2000], run_id
            row.retries, row.finished_at = retries, utcnow()
            return NextCommand.of(row)
