"""Persistence: SQLAlchemy over SQLite by default, any SQLAlchemy URL (PostgreSQL) otherwise."""
from __future__ import annotations

import datetime as dt
import logging
from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker

from server.sqlite_writers import queued_writer_factory

log = logging.getLogger(__name__)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class HostRow(Base):
    __tablename__ = "hosts"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default="offline")
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class DeviceRow(Base):
    __tablename__ = "devices"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("hosts.id"))
    name: Mapped[str] = mapped_column(String(200))
    model: Mapped[str] = mapped_column(String(100))
    userinterface: Mapped[str] = mapped_column(String(100))
    controllers: Mapped[list[Any]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(16), default="offline")
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class TreeRow(Base):
    """One version of a user interface's navigation tree."""

    __tablename__ = "navigation_trees"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    userinterface: Mapped[str] = mapped_column(String(100), index=True)
    version: Mapped[int] = mapped_column(Integer)
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(32), default="host")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class RunRow(Base):
    __tablename__ = "runs"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    device_id: Mapped[str] = mapped_column(String(64), index=True)
    task: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(8), default="run")
    status: Mapped[str] = mapped_column(String(16), index=True)
    planner: Mapped[str] = mapped_column(String(16), default="")
    plan: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    message: Mapped[str] = mapped_column(Text, default="")
    usage: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    events: Mapped[list[Any]] = mapped_column(JSON, default=list)
    start_node: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    steps: Mapped[list["StepRow"]] = relationship(back_populates="run", order_by="(StepRow.step, StepRow.id)",
                                                  cascade="all, delete-orphan")


class StepRow(Base):
    __tablename__ = "run_steps"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"), index=True)
    step: Mapped[int] = mapped_column(Integer)
    command: Mapped[str] = mapped_column(String(100))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    controller_type: Mapped[str] = mapped_column(String(32), default="")
    status: Mapped[str] = mapped_column(String(16))
    message: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str] = mapped_column(Text, default="")
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    screenshot: Mapped[str] = mapped_column(Text, default="")
    current_node: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    run: Mapped[RunRow] = relationship(back_populates="steps")


class PlanCacheRow(Base):
    """A plan that passed, replayable without any LLM for the same task on the same kind of device.

    ``key`` hashes (normalized task, device model, userinterface, context
    fingerprint, start node); ``start_node`` is ``*`` for a plan that starts
    with a ``goto`` and so runs from anywhere.
    """

    __tablename__ = "plan_cache"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    task: Mapped[str] = mapped_column(Text)
    task_norm: Mapped[str] = mapped_column(Text)
    device_model: Mapped[str] = mapped_column(String(100), index=True)
    userinterface: Mapped[str] = mapped_column(String(100), index=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    start_node: Mapped[str] = mapped_column(String(100), default="")
    plan: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    source_planner: Mapped[str] = mapped_column(String(16), default="")
    source_run: Mapped[str] = mapped_column(String(32), default="")
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    hits: Mapped[int] = mapped_column(Integer, default=0)
    heals: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    last_used_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class RuleRow(Base):
    """One version of a rule (a named phrase tasks may use); a deleted rule gets a tombstone version."""

    __tablename__ = "rules"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    rule_id: Mapped[str] = mapped_column(String(200), index=True)     # slug of the name
    scope: Mapped[str] = mapped_column(String(100), default="", index=True)
    version: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    body: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class PlanningRow(Base):
    """How a run was planned: planners tried, prompts and raw answers (scrubbed), validation, time."""

    __tablename__ = "run_planning"
    run_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class Database:
    def __init__(self, url: str) -> None:
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30,
                                      "factory": queued_writer_factory(timeout_s=30)}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        log.info("database ready at %s", self.engine.url.render_as_string(hide_password=True))

    @contextmanager
    def session(self) -> Iterator[Session]:
        s = self._sessions()
        try:
            yield s
            s.commit()
        except Exception:
            s.rollback()
            raise
        finally:
            s.close()
