"""The plan cache: plans of passed runs, replayed for the same task with zero LLM calls.

An entry is keyed by the normalized task, the device model, the user
interface, the fingerprint of the device's context
(:meth:`~shared.models.PlanningContext.fingerprint`) and the start node. A
plan whose first step is a ``goto`` runs from anywhere and is stored under the
start node ``*``; a lookup tries the device's node first, then ``*``.

A pinned entry is never replaced (not even by self-healing), never evicted
and survives a clear unless asked; an unpinned one is replaced when a later
run of the same task passes with another plan, dropped when the device's
context changes (another fingerprint for the same task), and evicted least
recently used beyond ``max_entries``.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from server.db import Database, PlanCacheRow, utcnow
from shared.errors import NotFound
from shared.models import Plan, PlannerName, PlanningContext
from shared.plan import GOTO

log = logging.getLogger(__name__)

ANY_NODE = "*"
_REPLAY_PREFIX = re.compile(r"^Replay of cached plan \d+ \([^)]*\)\.\s*")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "`": "'"})


def normalize_task(task: str) -> str:
    """The task as the cache compares it: case, spacing, quotes and final punctuation folded."""
    text = unicodedata.normalize("NFKC", task).translate(_QUOTES).lower()
    text = re.sub(r"\s+", " ", text).strip()
    return text.rstrip(" .!?;,")


def start_key(plan: Plan, start_node: str | None) -> str:
    """``*`` for a plan that begins by navigating (it runs from anywhere), else the start node."""
    if plan.steps and plan.steps[0].command == GOTO:
        return ANY_NODE
    return start_node or ""


def cache_key(task_norm: str, device_model: str, userinterface: str, fingerprint: str, start: str) -> str:
    payload = json.dumps([task_norm, device_model, userinterface, fingerprint, start])
    return hashlib.sha256(payload.encode()).hexdigest()


def _iso(t: dt.datetime | None) -> str | None:
    return t.isoformat() + "Z" if t else None


@dataclass(frozen=True)
class CacheEntry:
    id: int
    task: str
    device_model: str
    userinterface: str
    fingerprint: str
    start_node: str
    plan: dict[str, Any]
    pinned: bool
    hits: int
    heals: int
    source_run: str
    created_at: dt.datetime
    last_used_at: dt.datetime | None

    @classmethod
    def from_row(cls, row: Any) -> "CacheEntry":
        """From an ORM row or a Core result row (same column names)."""
        return cls(row.id, row.task, row.device_model, row.userinterface, row.fingerprint, row.start_node,
                   dict(row.plan or {}), bool(row.pinned), row.hits, row.heals, row.source_run, row.created_at,
                   row.last_used_at)

    def replay_plan(self) -> Plan:
        """The stored plan, as the cache planner hands it to AI Central."""
        plan = Plan.from_dict(self.plan)
        plan.analysis = (f"Replay of cached plan {self.id} (first planned for run {self.source_run or '?'}; "
                         f"used {self.hits} time(s)). " + plan.analysis).strip()
        plan.notes = []
        plan.feasible = bool(plan.steps)
        plan.planner = PlannerName.CACHE.value
        return plan

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "task": self.task, "device_model": self.device_model,
                "userinterface": self.userinterface, "fingerprint": self.fingerprint,
                "start_node": self.start_node, "plan": self.plan, "pinned": self.pinned, "hits": self.hits,
                "heals": self.heals, "source_run": self.source_run or None,
                "created_at": _iso(self.created_at), "last_used_at": _iso(self.last_used_at)}


class PlanCache:
    """The cache store over the ``plan_cache`` table."""

    def __init__(self, db: Database, max_entries: int = 5000) -> None:
        self.db = db
        self.max_entries = max(1, max_entries)

    # -- planning ----------------------------------------------------------------------
    def lookup(self, task: str, ctx: PlanningContext, start_node: str | None) -> CacheEntry | None:
        """The entry for *task* on this context from *start_node* (or from anywhere); counts a hit."""
        norm, fingerprint = normalize_task(task), ctx.fingerprint()
        keys = [cache_key(norm, ctx.device_model, ctx.userinterface, fingerprint, start)
                for start in dict.fromkeys([start_node or "", ANY_NODE])]
        table = PlanCacheRow.__table__
        # Core statements, not the ORM: a lookup is on every run's path (a miss is one indexed SELECT)
        with self.db.engine.begin() as conn:
            rows = {r.key: r for r in conn.execute(select(table).where(table.c.key.in_(keys)))}
            row = next((rows[k] for k in keys if k in rows), None)
            if row is None:
                return None
            now = utcnow()
            conn.execute(update(table).where(table.c.id == row.id).values(hits=table.c.hits + 1, last_used_at=now))
        entry = replace(CacheEntry.from_row(row), hits=row.hits + 1, last_used_at=now)
        log.info("plan cache hit %d for %r (start %s)", entry.id, task[:80], entry.start_node or "unknown")
        return entry

    def store(self, task: str, device_model: str, userinterface: str, fingerprint: str, start_node: str | None,
              plan: Plan, *, source_run: str = "", source_planner: str = "", healed: bool = False) -> CacheEntry | None:
        """Keep *plan* (which passed) for *task*; returns the entry, or None when there is nothing to keep."""
        if not plan.steps:
            return None
        norm = normalize_task(task)
        start = start_key(plan, start_node)
        key = cache_key(norm, device_model, userinterface, fingerprint, start)
        analysis = _REPLAY_PREFIX.sub("", plan.analysis or "")
        stored = {"analysis": analysis, "feasible": True, "plan": [st.to_dict() for st in plan.steps]}
        for _ in range(2):  # a concurrent insert of the same key turns into an update
            try:
                entry = self._upsert(key, task, norm, device_model, userinterface, fingerprint, start, stored,
                                     source_run, source_planner, healed)
                break
            except IntegrityError:
                continue
        else:
            return None
        self._prune(norm, device_model, userinterface, fingerprint, start)
        return entry

    def _upsert(self, key: str, task: str, norm: str, model: str, ui: str, fingerprint: str, start: str,
                stored: dict[str, Any], source_run: str, source_planner: str, healed: bool) -> CacheEntry:
        with self.db.session() as s:
            row = s.scalar(select(PlanCacheRow).where(PlanCacheRow.key == key))
            if row is None:
                row = PlanCacheRow(key=key, task=task, task_norm=norm, device_model=model, userinterface=ui,
                                   fingerprint=fingerprint, start_node=start, plan=stored,
                                   source_planner=source_planner, source_run=source_run, hits=0, heals=0,
                                   pinned=False, created_at=utcnow(), updated_at=utcnow())
                s.add(row)
                s.flush()
                log.info("plan cache: stored plan %d for %r (start %s)", row.id, task[:80], start or "unknown")
            elif row.pinned:
                log.info("plan cache: plan %d is pinned; run %s's plan not stored", row.id, source_run)
            elif (row.plan or {}).get("plan") != stored["plan"]:
                stored["analysis"] = (row.plan or {}).get("analysis") or stored["analysis"]
                row.plan, row.source_run, row.updated_at = stored, source_run, utcnow()
                row.source_planner = source_planner or row.source_planner
                row.heals += int(healed)
                log.info("plan cache: plan %d replaced by run %s's plan%s", row.id, source_run,
                         " (self-healed)" if healed else "")
            return CacheEntry.from_row(row)

    def _prune(self, norm: str, model: str, ui: str, fingerprint: str, start: str) -> None:
        with self.db.session() as s:
            stale = s.execute(delete(PlanCacheRow).where(
                PlanCacheRow.task_norm == norm, PlanCacheRow.device_model == model,
                PlanCacheRow.userinterface == ui, PlanCacheRow.start_node == start,
                PlanCacheRow.fingerprint != fingerprint, PlanCacheRow.pinned.is_(False)))
            if stale.rowcount:
                log.info("plan cache: dropped %d plan(s) made for an older context", stale.rowcount)
            count = s.scalar(select(func.count()).select_from(PlanCacheRow)) or 0
            if count > self.max_entries:
                oldest = s.scalars(select(PlanCacheRow.id).where(PlanCacheRow.pinned.is_(False))
                                   .order_by(func.coalesce(PlanCacheRow.last_used_at, PlanCacheRow.created_at))
                                   .limit(count - self.max_entries)).all()
                s.execute(delete(PlanCacheRow).where(PlanCacheRow.id.in_(oldest)))
                log.info("plan cache: evicted %d least recently used plan(s)", len(oldest))

    # -- management --------------------------------------------------------------------
    def list(self, *, device_model: str | None = None, userinterface: str | None = None,
             task: str | None = None, limit: int = 100, offset: int = 0) -> list[CacheEntry]:
        q = select(PlanCacheRow).order_by(PlanCacheRow.id)
        if device_model:
            q = q.where(PlanCacheRow.device_model == device_model)
        if userinterface:
            q = q.where(PlanCacheRow.userinterface == userinterface)
        if task:
            q = q.where(PlanCacheRow.task_norm.contains(normalize_task(task)))
        with self.db.session() as s:
            rows = s.scalars(q.limit(max(1, min(limit, 1000))).offset(max(0, offset))).all()
            return [CacheEntry.from_row(r) for r in rows]

    def get(self, entry_id: int) -> CacheEntry:
        with self.db.session() as s:
            row = s.get(PlanCacheRow, entry_id)
            if row is None:
                raise NotFound(f"no cached plan {entry_id}")
            return CacheEntry.from_row(row)

    def pin(self, entry_id: int, pinned: bool) -> CacheEntry:
        with self.db.session() as s:
            row = s.get(PlanCacheRow, entry_id)
            if row is None:
                raise NotFound(f"no cached plan {entry_id}")
            row.pinned = bool(pinned)
            entry = CacheEntry.from_row(row)
        log.info("plan cache: plan %d %s", entry_id, "pinned" if pinned else "unpinned")
        return entry

    def delete(self, entry_id: int) -> None:
        with self.db.session() as s:
            row = s.get(PlanCacheRow, entry_id)
            if row is None:
                raise NotFound(f"no cached plan {entry_id}")
            s.delete(row)
        log.info("plan cache: plan %d invalidated", entry_id)

    def clear(self, *, include_pinned: bool = False, device_model: str | None = None,
              userinterface: str | None = None) -> int:
        """Drop cached plans (unpinned ones unless *include_pinned*); return how many."""
        q = delete(PlanCacheRow)
        if not include_pinned:
            q = q.where(or_(PlanCacheRow.pinned.is_(False), PlanCacheRow.pinned.is_(None)))
        if device_model:
            q = q.where(PlanCacheRow.device_model == device_model)
        if userinterface:
            q = q.where(PlanCacheRow.userinterface == userinterface)
        with self.db.session() as s:
            n = s.execute(q).rowcount or 0
        log.info("plan cache: cleared %d plan(s)", n)
        return n
