"""The audit log: who did what, on which device, when, with which plan source and token usage.

Append-only: :class:`AuditLog` can only add and read; the ORM refuses to
update or delete an entry, and on SQLite triggers refuse it too, so neither
the API nor a bug can rewrite history. Entries are written

- after every request that changes something (POST, PUT, DELETE), whatever
  its outcome, with the caller, the endpoint, the status and the device or run;
- when a run ends, with its planner (the plan source) and its token usage.

Admins read it with ``GET /api/audit?user=&device=&action=&run=&limit=&offset=``.
"""
from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask_login import current_user
from werkzeug.exceptions import HTTPException
from sqlalchemy import JSON, DateTime, Integer, String, event, select, text
from sqlalchemy.orm import Mapped, Session, mapped_column

from server.db import Base, Database, RunRow, utcnow

log = logging.getLogger(__name__)

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
audit_api = Blueprint("audit", __name__)


class AuditRow(Base):
    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
    user: Mapped[str] = mapped_column(String(64), default="", index=True)
    action: Mapped[str] = mapped_column(String(80), index=True)
    method: Mapped[str] = mapped_column(String(8), default="")
    path: Mapped[str] = mapped_column(String(300), default="")
    status: Mapped[int] = mapped_column(Integer, default=0)
    device: Mapped[str] = mapped_column(String(64), default="", index=True)
    run: Mapped[str] = mapped_column(String(32), default="", index=True)
    address: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


APPEND_ONLY_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
)


class AppendOnly(Exception):
    pass


class AuditLog:
    def __init__(self, db: Database, sessions: Any) -> None:
        self.db = db
        if db.engine.url.get_backend_name() == "sqlite":
            with db.engine.begin() as conn:
                for statement in APPEND_ONLY_TRIGGERS:
                    conn.execute(text(statement))

        @event.listens_for(sessions, "before_flush")
        def _append_only(session: Session, *_: Any) -> None:
            for obj in (*session.dirty, *session.deleted):
                if isinstance(obj, AuditRow):
                    raise AppendOnly("the audit log is append-only")

    def append(self, action: str, *, user: str = "", method: str = "", path: str = "", status: int = 0,
               device: str = "", run: str = "", address: str = "", **detail: Any) -> None:
        try:
            with self.db.session() as s:
                s.add(AuditRow(user=user[:64], action=action[:80], method=method, path=path[:300], status=status,
                               device=str(device or "")[:64], run=str(run or "")[:32], address=address[:64],
                               detail=detail))
        except Exception:  # the audit must never break the action it records
            log.exception("audit entry %s not written", action)

    def query(self, *, user: str | None = None, device: str | None = None, action: str | None = None,
              run: str | None = None, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        q = select(AuditRow).order_by(AuditRow.id.desc())
        for column, value in ((AuditRow.user, user), (AuditRow.device, device), (AuditRow.action, action),
                              (AuditRow.run, run)):
            if value:
                q = q.where(column == value)
        with self.db.session() as s:
            rows = s.scalars(q.limit(max(1, min(limit, 1000))).offset(max(0, offset))).all()
            return [{"id": r.id, "at": r.at.isoformat() + "Z", "user": r.user, "action": r.action,
                     "method": r.method, "path": r.path, "status": r.status, "device": r.device or None,
                     "run": r.run or None, "address": r.address, "detail": r.detail or {}} for r in rows]

    def llm_tokens_today(self, user: str) -> int:
        """LLM tokens spent today (UTC) by the runs *user* started."""
        midnight = utcnow().replace(hour=0, minute=0, second=0, microsecond=0)
        with self.db.session() as s:
            run_ids = set(s.scalars(select(AuditRow.run).where(
                AuditRow.user == user, AuditRow.at >= midnight, AuditRow.run != "",
                AuditRow.action.in_(("api.create_run", "api_plans.run_testcase")))))
            if not run_ids:
                return 0
            usages = s.scalars(select(RunRow.usage).where(RunRow.id.in_(run_ids))).all()
        return sum(int((u or {}).get("total_tokens") or 0) for u in usages)

    # -- sources -------------------------------------------------------------------------------
    def record_request(self, response: Response) -> Response:
        """After-request hook: one entry for each request that changes something."""
        if request.method not in UNSAFE or request.endpoint is None:
            return response
        args = request.view_args or {}
        try:
            data = request.get_json(silent=True) if request.is_json else None
        except HTTPException:   # a body too large to read: the request was refused (413) before anything happened
            data = None
        device = args.get("device_id") or (data.get("device") if isinstance(data, dict) else "") or ""
        run = args.get("run_id") or ""
        if not run and request.endpoint in ("api.create_run", "api_plans.run_testcase") and response.is_json:
            answer = response.get_json(silent=True)
            run = answer.get("id", "") if isinstance(answer, dict) else ""
        user = current_user.name if getattr(current_user, "is_authenticated", False) else ""
        if not user and request.endpoint != "auth.login":
            return response   # refused before anything happened (401); the server log has it
        if not user and isinstance(data, dict):
            user = str(data.get("name") or "(token)")
        detail: dict[str, Any] = {}
        if request.endpoint == "api.device_execute" and isinstance(data, dict):
            detail["command"] = str(data.get("command", ""))[:100]
        if request.endpoint == "api.create_run" and isinstance(data, dict):
            detail["task"] = str(data.get("task", ""))[:300]
            detail["given_plan"] = data.get("plan") is not None
        self.append(request.endpoint, user=user, method=request.method, path=request.full_path.rstrip("?")[:300],
                    status=response.status_code, device=str(device)[:64] if isinstance(device, str) else "",
                    run=str(run), address=request.remote_addr or "", **detail)
        return response

    def record_run_end(self, run: dict[str, Any]) -> None:
        """One entry for a run that ended (*run* as the API shows it): its outcome, plan source and token usage."""
        self.append("run.finished", device=run["device_id"], run=run["id"], status=0, outcome=run["status"],
                    planner=run["planner"] or "", usage=dict(run["usage"] or {}))


def init_audit(app: Flask, srv: Any) -> AuditLog:
    audit = AuditLog(srv.db, srv.db._sessions)  # noqa: SLF001 (the sessions of this database only)
    app.after_request(audit.record_request)
    srv.runs.hooks_finished.append(audit.record_run_end)
    app.register_blueprint(audit_api)
    return audit


@audit_api.get("/api/audit")
def list_audit() -> Any:
    from server.api import int_arg

    args = request.args
    limit, offset = int_arg("limit", 100, 1, 1000), int_arg("offset", 0)
    audit: AuditLog = current_app.extensions["devicepilot"].extras["audit"]
    return jsonify(audit.query(user=args.get("user"), device=args.get("device"), action=args.get("action"),
                               run=args.get("run"), limit=limit, offset=offset))
