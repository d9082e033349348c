"""SQLite's writers queue in the process (server/sqlite_writers.py), not in SQLite's sleeping busy handler."""
from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from server.db import Database
from server.sqlite_writers import queued_writer_factory


def _connect(path: Path, factory: type[sqlite3.Connection], busy_s: float = 5) -> sqlite3.Connection:
    conn = sqlite3.connect(path, factory=factory, check_same_thread=False, timeout=busy_s)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def _writing_and_waiting(tmp_path: Path, timeout_s: float) -> tuple[sqlite3.Connection, sqlite3.Connection]:
    """Two connections of one writer lock on a table t: the first has written 1 and holds the lock."""
    factory = queued_writer_factory(timeout_s=timeout_s)
    a, b = _connect(tmp_path / "db", factory), _connect(tmp_path / "db", factory)
    a.execute("CREATE TABLE t (v INTEGER)")
    a.commit()
    a.execute("INSERT INTO t VALUES (1)")
    return a, b


def test_a_writer_waits_for_the_one_before_it_and_starts_the_moment_it_commits(tmp_path: Path) -> None:
    factory = queued_writer_factory(timeout_s=5)
    # the second has no busy timeout of SQLite's: had it reached SQLite while the first wrote, it would fail at
    # once ("database is locked"); it can only succeed by waiting in the process's queue
    first, second = _connect(tmp_path / "db", factory), _connect(tmp_path / "db", factory, busy_s=0)
    first.execute("CREATE TABLE t (v INTEGER)")
    first.commit()
    first.execute("INSERT INTO t VALUES (1)")          # first holds the writer lock until it commits
    started = threading.Event()
    wrote: list[float] = []   # when it wrote

    def write() -> None:
        started.set()
        second.execute("INSERT INTO t VALUES (2)")
        wrote.append(time.monotonic())
        second.commit()

    worker = threading.Thread(target=write)
    worker.start()
    started.wait()
    time.sleep(0.2)
    assert not wrote, "the second writer went ahead while the first held the lock"
    first.commit()
    worker.join(5)
    assert wrote, "the second writer never wrote"
    assert sorted(v for (v,) in first.execute("SELECT v FROM t")) == [1, 2]


def test_reads_take_no_lock_and_a_rollback_or_close_gives_it_back(tmp_path: Path) -> None:
    a, b = _writing_and_waiting(tmp_path, timeout_s=0.5)
    assert b.execute("SELECT count(*) FROM t").fetchone() == (0,)   # a reader beside the writer (WAL)
    a.rollback()
    b.execute("INSERT INTO t VALUES (2)")                            # the rollback gave the lock back
    b.close()
    a.execute("INSERT INTO t VALUES (3)")                            # and so did the close
    a.commit()
    assert [v for (v,) in a.execute("SELECT v FROM t")] == [3]


def test_a_writer_that_waits_too_long_gets_sqlites_own_error(tmp_path: Path) -> None:
    a, b = _writing_and_waiting(tmp_path, timeout_s=0.2)
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        b.execute("INSERT INTO t VALUES (2)")
    a.commit()
    b.execute("INSERT INTO t VALUES (2)")
    b.commit()


def test_many_threads_writing_through_the_database_lose_nothing(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'dp.db'}")
    with db.session() as s:
        s.execute(text("CREATE TABLE counter (n INTEGER)"))
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i in range(40):
                with db.session() as s:
                    s.execute(text("INSERT INTO counter VALUES (:n)"), {"n": k * 100 + i})
                    s.execute(text("SELECT count(*) FROM counter")).scalar()
        except BaseException as exc:   # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    with db.session() as s:
        assert s.execute(text("SELECT count(*) FROM counter")).scalar() == 320
    db.engine.dispose()
