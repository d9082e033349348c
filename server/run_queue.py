"""The run queue and device reservations, kept in the database.

Each run waiting for or holding a device has one :class:`QueueRow`. The queue is
FIFO per device (``seq`` is the submission order) with priorities; a device is
reserved by at most one run at a time. A reservation carries a lease that the
device's host renews with its heartbeat; a lease that runs out means the host
is lost. A run that ended while its host may still be executing it keeps the
device ``aborting`` until the host confirms, so the next run never shares the
device with a run the server has given up on.

The database is the source of truth, so two server processes sharing
PostgreSQL take work correctly: a reservation locks the device's row
(``SELECT … FOR UPDATE``) and picks the next queued run with ``SKIP LOCKED``.
SQLite ignores both clauses; there a process-wide lock serializes reservations,
and SQLite itself serializes writers.
"""
from __future__ import annotations

import datetime as dt
import logging
import threading
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import DateTime, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from server.db import Base, Database, DeviceRow, utcnow

log = logging.getLogger(__name__)


class Reservation(str, Enum):
    QUEUED = "queued"        # waiting for its device
    RESERVED = "reserved"    # holds its device: being planned or run
    ABORTING = "aborting"    # ended by the server; the device waits for its host to confirm the abort


class QueueRow(Base):
    __tablename__ = "run_queue"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    device_id: Mapped[str] = mapped_column(String(64), index=True)
    priority: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[str] = mapped_column(String(16), default=Reservation.QUEUED.value, index=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    since: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


@dataclass(frozen=True)
class Hold:
    """Who holds a device: the run and how."""

    run_id: str
    state: Reservation
    since: dt.datetime


class RunQueue:
    def __init__(self, db: Database, lease_s: float) -> None:
        self.db = db
        self.lease_s = lease_s
        self._lock = threading.Lock()   # SQLite has no row locks; one process serializes here

    def _lease(self, seconds: float | None = None) -> dt.datetime:
        return utcnow() + dt.timedelta(seconds=self.lease_s if seconds is None else seconds)

    def enqueue(self, run_id: str, device_id: str, priority: int = 0, s: Session | None = None) -> None:
        """Queue *run_id*; in the caller's transaction *s* when given (the one that stores the run)."""
        if s is not None:
            s.add(QueueRow(run_id=run_id, device_id=device_id, priority=priority))
            return
        with self.db.session() as own:
            own.add(QueueRow(run_id=run_id, device_id=device_id, priority=priority))

    def reserve_next(self, device_id: str) -> str | None:
        """Reserve *device_id* for its next queued run (highest priority, then oldest); None when held or empty."""
        with self._lock, self.db.session() as s:
            s.execute(select(DeviceRow.id).where(DeviceRow.id == device_id).with_for_update())
            held = s.scalars(select(QueueRow.run_id).where(
                QueueRow.device_id == device_id,
                QueueRow.state.in_((Reservation.RESERVED.value, Reservation.ABORTING.value))).limit(1)).first()
            if held is not None:
                return None
            row = s.scalars(select(QueueRow).where(QueueRow.device_id == device_id,
                                                   QueueRow.state == Reservation.QUEUED.value)
                            .order_by(QueueRow.priority.desc(), QueueRow.seq)
                            .limit(1).with_for_update(skip_locked=True)).first()
            if row is None:
                return None
            row.state, row.lease_until, row.since = Reservation.RESERVED.value, self._lease(), utcnow()
            return row.run_id

    def holder(self, device_id: str, s: Session | None = None) -> Hold | None:
        """The run holding *device_id*, if any; read in the caller's transaction *s* when given."""
        if s is None:
            with self.db.session() as own:
                return self.holder(device_id, own)
        row = s.scalars(select(QueueRow).where(
            QueueRow.device_id == device_id,
            QueueRow.state.in_((Reservation.RESERVED.value, Reservation.ABORTING.value)))).first()
        return Hold(row.run_id, Reservation(row.state), row.since) if row else None

    def state_of(self, run_id: str) -> Reservation | None:
        with self.db.session() as s:
            row = s.scalars(select(QueueRow).where(QueueRow.run_id == run_id)).first()
            return Reservation(row.state) if row else None

    def renew(self, device_ids: list[str], seconds: float | None = None) -> None:
        """The devices' host is alive: extend the leases of the runs that hold them."""
        if not device_ids:
            return
        with self.db.session() as s:   # one statement: a row released meanwhile is simply not there
            s.execute(update(QueueRow).where(QueueRow.device_id.in_(device_ids),
                                             QueueRow.state == Reservation.RESERVED.value)
                      .values(lease_until=self._lease(seconds)))

    def expired(self) -> list[tuple[str, str]]:
        """(run id, device id) of reservations whose lease ran out."""
        with self.db.session() as s:
            return [(r.run_id, r.device_id) for r in s.scalars(select(QueueRow).where(
                QueueRow.state == Reservation.RESERVED.value, QueueRow.lease_until < utcnow()))]

    def end(self, s: Any, run_id: str, host_done: bool) -> None:
        """In the caller's transaction (the one that ends the run): free the device, or hold it ``aborting``."""
        if host_done:
            s.execute(delete(QueueRow).where(QueueRow.run_id == run_id))
        else:
            s.execute(update(QueueRow).where(QueueRow.run_id == run_id, QueueRow.state != Reservation.QUEUED.value)
                      .values(state=Reservation.ABORTING.value, since=utcnow()))

    def release(self, run_id: str) -> str | None:
        """Forget *run_id*'s entry; the device it held (if any) is free. Returns that device."""
        with self.db.session() as s:
            device_id = s.scalars(select(QueueRow.device_id).where(QueueRow.run_id == run_id)).first()
            s.execute(delete(QueueRow).where(QueueRow.run_id == run_id))
            return device_id

    def release_and_hold(self, run_id: str, device_id: str) -> Hold | None:
        """Forget *run_id*'s entry, and say who holds *device_id* after that (None: it is free): one transaction."""
        with self.db.session() as s:
            s.execute(delete(QueueRow).where(QueueRow.run_id == run_id))
            return self.holder(device_id, s)

    def unqueue(self, run_id: str) -> bool:
        """Remove a run still waiting in the queue; False when it already holds its device."""
        with self._lock, self.db.session() as s:
            return bool(s.execute(delete(QueueRow).where(QueueRow.run_id == run_id,
                                                         QueueRow.state == Reservation.QUEUED.value)).rowcount)

    def requeue(self, run_id: str) -> None:
        """A reserved run goes back to the head of its device's queue (its ``seq`` is kept)."""
        with self.db.session() as s:
            s.execute(update(QueueRow).where(QueueRow.run_id == run_id)
                      .values(state=Reservation.QUEUED.value, lease_until=None))

    def entries(self, *states: Reservation) -> list[tuple[str, str]]:
        """(run id, device id) in submission order, of the given states (all when none given)."""
        with self.db.session() as s:
            q = select(QueueRow).order_by(QueueRow.seq)
            if states:
                q = q.where(QueueRow.state.in_([st.value for st in states]))
            return [(r.run_id, r.device_id) for r in s.scalars(q)]
