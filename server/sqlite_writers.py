"""SQLite's writers, queued in the process instead of in SQLite's busy handler.

SQLite lets one transaction write at a time. A writer that finds the lock taken waits in
SQLite's busy handler, which sleeps in growing steps (1, 2, 5 … 100 ms) and looks again: it
may wake long after the lock came free. With many runs at once, those sleeps were most of a
run's time from submit to end (a write took 30 ms of waiting for about 1 ms of work).

Here the writers of this process queue on a lock of their own: a connection takes it before its
transaction's first write and gives it back once the transaction has committed or rolled back,
and the next writer wakes the moment it is free. Reads take no lock (WAL lets them run beside
the writer). SQLite's busy timeout still guards against writers in other processes.
"""
from __future__ import annotations

import sqlite3
import threading
from typing import Any

_WRITES = ("insert", "update", "delete", "replace")


def _writes(sql: str) -> bool:
    return sql.lstrip()[:7].lower().startswith(_WRITES)


def queued_writer_factory(timeout_s: float) -> type[sqlite3.Connection]:
    """A ``sqlite3.Connection`` class (for ``sqlite3.connect(factory=…)``) whose connections share one writer lock.
    A writer that cannot have the lock in *timeout_s* gets SQLite's own error: ``database is locked``."""
    lock = threading.Lock()

    class QueuedCursor(sqlite3.Cursor):
        def execute(self, sql: str, parameters: Any = (), /) -> "QueuedCursor":
            self.connection.before_statement(sql)   # type: ignore[attr-defined]
            return super().execute(sql, parameters)

        def executemany(self, sql: str, seq_of_parameters: Any, /) -> "QueuedCursor":
            self.connection.before_statement(sql)   # type: ignore[attr-defined]
            return super().executemany(sql, seq_of_parameters)

    class QueuedWriterConnection(sqlite3.Connection):
        holding = False

        def before_statement(self, sql: str) -> None:
            if self.holding or not _writes(sql):
                return
            if not lock.acquire(timeout=timeout_s):
                raise sqlite3.OperationalError("database is locked")
            self.holding = True

        def release(self) -> None:
            if self.holding:
                self.holding = False
                lock.release()

        def cursor(self, factory: Any = None) -> sqlite3.Cursor:   # type: ignore[override]
            return super().cursor(factory or QueuedCursor)

        def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
            return self.cursor().execute(sql, parameters)

        def commit(self) -> None:
            try:
                super().commit()
            finally:
                if not self.in_transaction:   # a commit that failed leaves the transaction, and the lock, held
                    self.release()

        def rollback(self) -> None:
            try:
                super().rollback()
            finally:
                if not self.in_transaction:
                    self.release()

        def close(self) -> None:
            try:
                super().close()
            finally:
                self.release()

    return QueuedWriterConnection
